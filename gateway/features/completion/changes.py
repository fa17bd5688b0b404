"""What a DDL statement changes in completion's caches, known from its text before any catalog call.

The gateway tells completion every statement before it runs (the ``check_statement`` hook), so a
table, view, column or database that a statement creates, alters or drops is offered (or no longer
offered) at the next request of every session at once; the background refresh that follows the
statement then replaces these guesses with what the catalog says (also when the statement failed).

Example:
    >>> change_of("ALTER TABLE db.t ADD COLUMNS (c INT)").added_columns
    [('c', 'INT')]
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError


@dataclass
class Change:
    relation: Optional[list[str]] = None       # name parts of the table or view concerned
    created: bool = False
    dropped: bool = False
    replaced: bool = False
    temporary: bool = False
    view: bool = False
    columns: Optional[list[tuple[str, str]]] = None         # a created table's columns, when given
    added_columns: list[tuple[str, str]] = field(default_factory=list)
    dropped_columns: list[str] = field(default_factory=list)
    renamed_columns: list[tuple[str, str]] = field(default_factory=list)
    renamed_to: Optional[list[str]] = None
    database: Optional[str] = None             # a database created or dropped
    database_created: bool = False
    function: Optional[str] = None             # a function created or dropped


def _parts(table: exp.Table) -> list[str]:
    return [p.name for p in table.parts]


_FUNCTION = re.compile(r"\s*(CREATE|DROP)\s+(?:OR\s+REPLACE\s+)?(TEMPORARY\s+)?FUNCTION\s+"
                       r"(?:IF\s+(?:NOT\s+)?EXISTS\s+)?((?:`[^`]+`|[\w]+)(?:\.(?:`[^`]+`|[\w]+))*)", re.I)


def change_of(text: str) -> Optional[Change]:
    """The change ``text`` makes, or None for statements that change no name completion offers."""
    words = text.split(None, 1)
    if not words or words[0].upper() not in ("CREATE", "DROP", "ALTER"):
        return None
    function = _FUNCTION.match(text)
    if function:
        name = function.group(3).split(".")[-1].strip("`")
        return Change(function=name, created=function.group(1).upper() == "CREATE",
                      dropped=function.group(1).upper() == "DROP", temporary=bool(function.group(2)))
    try:
        tree = sqlglot.parse_one(text, read="spark")
    except (ParseError, TokenError, ValueError):
        return None
    kind = (tree.args.get("kind") or "").upper()
    table = tree.find(exp.Table)
    if kind in ("DATABASE", "SCHEMA", "NAMESPACE") and table is not None and isinstance(tree, (exp.Create, exp.Drop)):
        return Change(database=table.name, database_created=isinstance(tree, exp.Create))
    if kind not in ("TABLE", "VIEW") or table is None:
        return None
    change = Change(relation=_parts(table), view=kind == "VIEW",
                    temporary=bool(tree.args.get("temporary")) or tree.find(exp.TemporaryProperty) is not None)
    if isinstance(tree, exp.Create):
        change.created, change.replaced = True, bool(tree.args.get("replace"))
        schema = tree.this if isinstance(tree.this, exp.Schema) else None
        if schema is not None and schema.expressions and all(isinstance(c, exp.ColumnDef)
                                                             for c in schema.expressions):
            change.columns = [(c.name, c.args["kind"].sql("spark").upper() if c.args.get("kind") else "")
                              for c in schema.expressions]
    elif isinstance(tree, exp.Drop):
        change.dropped = True
    elif isinstance(tree, exp.Alter):
        for action in tree.args.get("actions") or []:
            if isinstance(action, exp.Schema):
                change.added_columns += [(c.name, c.args["kind"].sql("spark").upper() if c.args.get("kind") else "")
                                         for c in action.expressions if isinstance(c, exp.ColumnDef)]
            elif isinstance(action, exp.ColumnDef):
                change.added_columns.append((action.name, action.args["kind"].sql("spark").upper()
                                             if action.args.get("kind") else ""))
            elif isinstance(action, exp.Drop):
                names = [c.name for c in action.find_all(exp.Column, exp.Identifier)]
                change.dropped_columns += [n for n in dict.fromkeys(names) if n]
            elif isinstance(action, exp.RenameColumn):
                change.renamed_columns.append((action.this.name, action.args["to"].name))
            elif isinstance(action, exp.AlterRename):
                target = action.this
                change.renamed_to = _parts(target) if isinstance(target, exp.Table) else [target.name]
    return change
