"""Understand a CTAS, RTAS or INSERT OVERWRITE statement well enough to stage it.

sqlglot (dialect spark) parses the statement to learn what it is and which table it names;
the original text is kept and only the target name is spliced out (found with sqlglot's
tokenizer), so Spark still sees the user's own clauses (USING, STORED AS, PARTITIONED BY,
OPTIONS, TBLPROPERTIES, PARTITION specs) exactly as written.

``parse_write`` returns None for statements it does not understand; the caller then runs
them through Spark unchanged (not atomic), and says so in the operation info.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import TokenType

_SPARK = Dialect.get_or_raise("spark")
_NAME_TOKENS = {TokenType.VAR, TokenType.IDENTIFIER}


class WriteAction(enum.Enum):
    CREATE = "CREATE"                    # CREATE TABLE [IF NOT EXISTS] t AS SELECT
    CREATE_OR_REPLACE = "CREATE_OR_REPLACE"
    REPLACE = "REPLACE"                  # REPLACE TABLE t AS SELECT (t must exist)
    INSERT_OVERWRITE = "INSERT_OVERWRITE"


@dataclass(frozen=True)
class WriteRequest:
    """A parsed write: what it does, the target's name parts as written, where the name sits."""

    action: WriteAction
    text: str
    name_parts: tuple[str, ...]   # 1 to 3 parts, unquoted: (table) (db, table) (catalog, db, table)
    name_start: int               # offsets of the target name in ``text`` (end exclusive)
    name_end: int
    if_not_exists: bool = False
    has_location: bool = False

    def against(self, staging_identifier: str) -> str:
        """The same statement aimed at the staging table: CTAS for creates, the insert for overwrites."""
        if self.action is WriteAction.INSERT_OVERWRITE:
            return self.text[:self.name_start] + staging_identifier + self.text[self.name_end:]
        return "CREATE TABLE " + staging_identifier + self.text[self.name_end:]


def quote(*parts: str) -> str:
    """A backtick-quoted multipart identifier."""
    return ".".join("`" + part.replace("`", "``") + "`" for part in parts)


def parse_write(text: str) -> Optional[WriteRequest]:
    """Parse one CTAS/RTAS/INSERT OVERWRITE; None when it is something else or sqlglot cannot parse it."""
    stripped = text.strip()
    upper = stripped.upper()
    # sqlglot does not parse a bare REPLACE TABLE; it parses the same statement with CREATE OR in front.
    analysed = "CREATE OR " + stripped if upper.startswith("REPLACE") else stripped
    try:
        tree = sqlglot.parse_one(analysed, read="spark")
        tokens = _SPARK.tokenize(stripped)
    except (ParseError, TokenError, ValueError):
        return None
    offset = len(text) - len(text.lstrip())
    if isinstance(tree, exp.Create) and str(tree.args.get("kind", "")).upper() == "TABLE":
        if not isinstance(tree.expression, exp.Query):
            return None
        table = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        if upper.startswith("REPLACE"):
            action = WriteAction.REPLACE
        elif tree.args.get("replace"):
            action = WriteAction.CREATE_OR_REPLACE
        else:
            action = WriteAction.CREATE
        properties = tree.args.get("properties")
        has_location = bool(properties and properties.find(exp.LocationProperty))
        if properties and properties.find(exp.TemporaryProperty):
            return None
        span = _name_span(tokens, after={TokenType.TABLE}, skip_if_not_exists=True)
        if_not_exists = bool(tree.args.get("exists"))
    elif isinstance(tree, exp.Insert) and tree.args.get("overwrite") and isinstance(tree.expression, exp.Query):
        table = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        action, has_location, if_not_exists = WriteAction.INSERT_OVERWRITE, False, False
        span = _name_span(tokens, after={TokenType.OVERWRITE, TokenType.TABLE}, skip_if_not_exists=False)
    else:
        return None
    if not isinstance(table, exp.Table) or span is None:
        return None
    parts = tuple(p.name for p in table.parts)
    if not parts or not 1 <= len(parts) <= 3:
        return None
    return WriteRequest(action, text, parts, span[0] + offset, span[1] + offset, if_not_exists, has_location)


def _name_span(tokens, after: set, skip_if_not_exists: bool) -> Optional[tuple[int, int]]:
    """Start and end offsets of the first dotted name that follows the keywords in ``after``."""
    index = 0
    while index < len(tokens) and tokens[index].token_type not in after:
        index += 1
    while index < len(tokens) and tokens[index].token_type in after:
        index += 1
    if skip_if_not_exists and [t.text.upper() for t in tokens[index:index + 3]] == ["IF", "NOT", "EXISTS"]:
        index += 3
    if index >= len(tokens) or tokens[index].token_type not in _NAME_TOKENS:
        return None
    start = tokens[index].start
    end = tokens[index].end
    while (index + 2 < len(tokens) and tokens[index + 1].token_type == TokenType.DOT
           and tokens[index + 2].token_type in _NAME_TOKENS):
        index += 2
        end = tokens[index].end
    return start, end + 1
