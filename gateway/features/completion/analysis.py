"""Where the cursor is in a statement, and which names are in scope there.

The statement under the cursor (a script may hold several) is parsed with sqlglot's Spark dialect
with a placeholder identifier at the cursor, so that unfinished text still parses: ``SELECT o.|``
becomes ``SELECT o.__wb_cursor__``. When that fails, the text after the cursor is dropped and open
parentheses are closed; when that fails too, the sources come from the tokens (FROM/JOIN lists).
The parse gives the scope of the cursor (CTEs, subqueries, joins, the select list); the tokens
before the cursor give the kind of name expected there (a table, a database, a column, …).

Example:
    >>> site = analyze("WITH c AS (SELECT id FROM t) SELECT c. FROM c", 38)
    >>> site.qualifier, [s.alias for s in site.sources]
    (['c'], ['c'])
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Optional

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError, TokenError
from sqlglot.optimizer.scope import Scope, traverse_scope
from sqlglot.tokens import Token, TokenType

log = logging.getLogger(__name__)

PLACEHOLDER = "__wb_cursor__"
_SPARK = Dialect.get_or_raise("spark")
_PREFIX = re.compile(r"[A-Za-z0-9_]*$")
_IDENT = r"(?:`[^`]*`|[A-Za-z_][A-Za-z0-9_]*)"
_QUALIFIER = re.compile(rf"((?:{_IDENT}\s*\.\s*)+)$")


@dataclass
class Source:
    """A relation the cursor's scope can read: a table (``table``), a table function (``function``,
    the SQL of its call) or a derived relation (CTE, subquery) with its ``columns`` known here."""

    alias: str
    table: Optional[str] = None
    function: Optional[str] = None
    columns: Optional[list[tuple[str, str]]] = None   # (name, type or "") of a derived relation
    column_names: Optional[list[str]] = None          # an alias's column list: ``AS e(v)``
    cte: bool = False


@dataclass
class Site:
    """What completion needs to know about the cursor's place."""

    statement: str
    cursor: int
    prefix: str
    qualifier: list[str] = field(default_factory=list)
    expect: str = "expression"        # expression, relation, database, catalog, function, column_of, keyword
    keywords: list[str] = field(default_factory=list)   # the keywords that may come next, when known
    table: Optional[str] = None       # expect == column_of: the table whose columns
    exclude: set = field(default_factory=set)            # names already given (an INSERT column list)
    tvf: bool = False                 # table functions are allowed here (after FROM / JOIN)
    clause: str = ""                  # SELECT, WHERE, ON, GROUP BY, ORDER BY, HAVING, …
    sources: list[Source] = field(default_factory=list)
    outer_sources: list[Source] = field(default_factory=list)
    ctes: list[str] = field(default_factory=list)
    select_aliases: list[str] = field(default_factory=list)
    group_candidates: list[str] = field(default_factory=list)
    join_new: Optional[Source] = None  # ON of a JOIN: the source just joined
    parsed: bool = False


# ---------------------------------------------------------------------------------------------
# The statement under the cursor
# ---------------------------------------------------------------------------------------------

def statement_at(script: str, position: int) -> tuple[str, int]:
    """The statement of ``script`` that holds ``position``, and the cursor's offset in it.

    Semicolons inside strings and comments do not split (sqlglot's tokens decide); an unfinished
    string or comment falls back to plain semicolons."""
    try:
        ends = [t.start for t in _SPARK.tokenize(script) if t.token_type == TokenType.SEMICOLON]
    except TokenError:
        ends = [i for i, ch in enumerate(script) if ch == ";"]
    start, end = 0, len(script)
    for at in ends:
        if at < position:
            start = at + 1
        else:
            end = at
            break
    return script[start:end], position - start


def _tokens(text: str) -> Optional[list]:
    """sqlglot's tokens of ``text``, one word per token: ``GROUP BY`` becomes two tokens, and the rest
    of a statement sqlglot keeps as one command string (``SHOW TABLES IN x``) is tokenized too."""
    try:
        raw = _SPARK.tokenize(text)
    except TokenError:
        return None
    out = []
    for index, token in enumerate(raw):
        command_rest = token.token_type == TokenType.STRING and index == 1 and \
            raw[0].token_type in (TokenType.SHOW, TokenType.COMMAND) and text.lstrip()[:1] not in ("'", '"')
        if command_rest:
            rest = _tokens(token.text)
            if rest is None:
                return None
            out += rest
        elif " " in token.text.strip() and token.token_type not in (TokenType.STRING, TokenType.IDENTIFIER):
            out += [Token(TokenType.VAR, word, start=token.start, end=token.end) for word in token.text.split()]
        else:
            out.append(token)
    return out


# ---------------------------------------------------------------------------------------------
# The kind of name expected, from the words before the cursor
# ---------------------------------------------------------------------------------------------

SHOW_WORDS = ["TABLES", "VIEWS", "DATABASES", "SCHEMAS", "NAMESPACES", "CATALOGS", "FUNCTIONS", "USER FUNCTIONS",
              "COLUMNS IN", "CREATE TABLE", "TBLPROPERTIES", "PARTITIONS", "TABLE EXTENDED", "CURRENT NAMESPACE",
              "MODULES", "FULL MODULES", "JARS"]
ALTER_TABLE_WORDS = ["ADD COLUMNS", "DROP COLUMN", "DROP COLUMNS", "RENAME TO", "RENAME COLUMN", "ALTER COLUMN",
                     "CHANGE COLUMN", "REPLACE COLUMNS", "SET TBLPROPERTIES", "UNSET TBLPROPERTIES",
                     "ADD PARTITION", "DROP PARTITION", "SET LOCATION", "RECOVER PARTITIONS", "SET SERDEPROPERTIES"]
ANALYZE_WORDS = ["COMPUTE STATISTICS"]
STATISTICS_WORDS = ["NOSCAN", "FOR COLUMNS", "FOR ALL COLUMNS"]
DESCRIBE_WORDS = ["TABLE", "EXTENDED", "FORMATTED", "DATABASE", "SCHEMA", "FUNCTION", "QUERY", "CATALOG"]
AFTER_RELATION_WORDS = ["WHERE", "JOIN", "LEFT JOIN", "INNER JOIN", "RIGHT JOIN", "FULL OUTER JOIN", "CROSS JOIN",
                        "GROUP BY", "ORDER BY", "LIMIT", "AS", "ON", "USING", "UNION", "HAVING", "WINDOW"]
_RELATION_AFTER = {"FROM", "JOIN", "INTO", "UPDATE"}
_CLAUSES = {"SELECT": "SELECT", "WHERE": "WHERE", "ON": "ON", "HAVING": "HAVING", "QUALIFY": "QUALIFY",
            "USING": "USING", "SET": "SET", "FROM": "FROM", "JOIN": "FROM", "LIMIT": "LIMIT", "VALUES": "VALUES"}
_SKIP = {"IF", "EXISTS", "NOT"}
# Statements sqlglot parses into a tree with scopes (others it keeps as commands).
_WRAPPER = re.compile(r"\s*(?:EXPLAIN(?:\s+(?:EXTENDED|CODEGEN|COST|FORMATTED))?|DESC(?:RIBE)?\s+QUERY"
                      r"|CACHE\s+(?:LAZY\s+)?TABLE\s+[\w.`]+\s+AS)\s+", re.I)
_PARSED = {"SELECT", "WITH", "INSERT", "FROM", "(", "UPDATE", "DELETE", "MERGE", "CREATE", "EXPLAIN", "CACHE",
           "VALUES", "REPLACE", "TABLE"}


def _expectation(site: Site, words: list[str], tokens: list) -> None:
    """Fill ``site.expect`` (and keywords, table) from the upper-case words before the cursor."""
    w = words
    last = w[-1] if w else ""
    # DDL and utility statements: decided by their first words.
    head = w[:3]
    core = [x for x in w if x not in _SKIP]  # IF [NOT] EXISTS does not change what comes next

    def tail(*seq: str) -> bool:
        return len(core) >= len(seq) and core[-len(seq):] == list(seq)

    if head[:1] == ["SHOW"]:
        if len(w) == 1:
            site.expect, site.keywords = "keyword", SHOW_WORDS
        elif last in ("IN", "FROM") and len(w) >= 2:
            what = w[1] if w[1] not in ("USER", "SYSTEM", "ALL", "TABLE") else (w[2] if len(w) > 2 else "")
            if w[1] == "TABLE":  # SHOW TABLE EXTENDED IN db
                site.expect = "database"
            elif what in ("DATABASES", "SCHEMAS", "NAMESPACES"):
                site.expect = "catalog"
            elif what == "COLUMNS" and w.count("IN") + w.count("FROM") >= 2:
                site.expect = "database"
            elif what == "COLUMNS":
                site.expect = "relation"
            else:
                site.expect = "database"
        elif tail("CREATE", "TABLE") or last in ("TBLPROPERTIES", "PARTITIONS"):
            site.expect = "relation"
        else:
            site.expect = "none"
        return
    if head[:1] == ["USE"]:
        if len(w) == 1:
            site.expect = "database_or_catalog"
        elif len(w) == 2 and w[1] in ("DATABASE", "SCHEMA", "NAMESPACE"):
            site.expect = "database"
        elif len(w) == 2 and w[1] == "CATALOG":
            site.expect = "catalog"
        else:
            site.expect = "none"  # USE db x, USE MODULES a, b
        return
    if head[:1] in (["DESCRIBE"], ["DESC"]):
        rest = [x for x in w[1:] if x not in ("EXTENDED", "FORMATTED")]
        if not rest:
            site.expect, site.keywords = "relation", DESCRIBE_WORDS
        elif rest == ["TABLE"]:
            site.expect = "relation"
        elif rest[0] in ("DATABASE", "SCHEMA", "NAMESPACE") and len(rest) == 1:
            site.expect = "database"
        elif rest[0] == "FUNCTION" and len(rest) == 1:
            site.expect = "function"
        elif rest[0] == "CATALOG" and len(rest) == 1:
            site.expect = "catalog"
        else:
            names = rest[1:] if rest[0] == "TABLE" else rest
            table = _name_from(tokens, names)
            if table and len(names) == 1:
                site.expect, site.table = "column_of", table
            else:
                site.expect = "none"
        return
    if head[:2] in (["ALTER", "TABLE"], ["ALTER", "VIEW"]):
        if len(core) == 2:
            site.expect = "relation"
        else:
            table = _name_after(tokens, 2)
            if len(core) == 3:
                site.expect, site.keywords = "keyword", ALTER_TABLE_WORDS
            elif last in ("COLUMN", "COLUMNS", "(", ",") and any(x in core for x in ("DROP", "RENAME", "ALTER",
                                                                                   "CHANGE")):
                site.expect, site.table = "column_of", table
            else:
                site.expect = "none"
        return
    if head[:2] in (["ALTER", "DATABASE"], ["ALTER", "SCHEMA"], ["DROP", "DATABASE"], ["DROP", "SCHEMA"],
                    ["CREATE", "DATABASE"]):
        site.expect = "database" if len(core) == 2 and head[0] != "CREATE" else "none"
        return
    if head[:1] == ["ANALYZE"]:
        if len(w) >= 2 and w[1] == "TABLES":
            site.expect = "database" if last in ("IN", "FROM") else "none"
        elif len(w) == 2 and w[1] == "TABLE":
            site.expect = "relation"
        elif len(w) == 1:
            site.expect, site.keywords = "keyword", ["TABLE", "TABLES"]
        else:
            table = _name_after(tokens, 2)
            if len(w) == 3:
                site.expect, site.keywords = "keyword", ANALYZE_WORDS
            elif tail("STATISTICS", "FOR"):
                site.expect, site.keywords = "keyword", ["COLUMNS", "ALL COLUMNS"]
            elif tail("COMPUTE", "STATISTICS"):
                site.expect, site.keywords = "keyword", STATISTICS_WORDS
            elif "COLUMNS" in w and "ALL" not in w and (last == "COLUMNS" or last == ","):
                site.expect, site.table = "column_of", table
                site.exclude = _names_after(tokens, "COLUMNS")
            else:
                site.expect = "none"
        return
    if head[:2] in (["DROP", "TABLE"], ["DROP", "VIEW"]) or head[:3] == ["DROP", "TEMPORARY", "VIEW"]:
        site.expect = "relation" if last in ("TABLE", "VIEW", "EXISTS") else "none"
        return
    if head[:2] == ["DROP", "FUNCTION"] or head[:3] == ["DROP", "TEMPORARY", "FUNCTION"]:
        site.expect = "user_function" if last in ("FUNCTION", "EXISTS") else "none"
        return
    if last == "TABLE" and (head[:1] in (["TRUNCATE"], ["REFRESH"], ["CACHE"], ["UNCACHE"], ["MSCK"], ["INSERT"])):
        site.expect = "relation"
        return
    if last == "EXISTS" and head[:1] == ["UNCACHE"]:
        site.expect = "relation"
        return
    if head[:1] == ["REFRESH"] and len(w) == 1:
        site.expect = "relation"
        return
    # INSERT INTO t (a, |: the table's columns not listed yet.
    insert = _insert_columns(tokens)
    if insert is not None:
        site.expect, site.table, site.exclude = "column_of", insert[0], insert[1]
        return
    # Queries: FROM/JOIN/INTO/UPDATE and a comma of a FROM list want a relation.
    if last in _RELATION_AFTER or (last == "," and _clause(tokens) == "FROM"):
        site.expect = "relation"
        site.tvf = last in ("FROM", "JOIN", ",")
        return
    if last == "TABLE" and len(w) >= 2 and w[-2] in ("OVERWRITE", "INTO"):
        site.expect = "relation"
        return
    # Right after a relation in FROM (``FROM orders |``): what may follow it.
    if _clause(tokens) == "FROM" and tokens and tokens[-1].token_type in (TokenType.VAR, TokenType.IDENTIFIER) \
            and last not in ("AS",) and not site.qualifier:
        prev = tokens[-2].text.upper() if len(tokens) >= 2 else ""
        if prev in ("FROM", "JOIN", ",", "AS") or tokens[-2].token_type in (TokenType.VAR, TokenType.IDENTIFIER,
                                                                            TokenType.R_PAREN, TokenType.DOT):
            site.expect, site.keywords = "keyword", AFTER_RELATION_WORDS
            return
    site.expect = "expression"
    site.clause = _clause(tokens)


def _clause(tokens: list) -> str:
    """The clause the cursor is in, at its own parenthesis level."""
    depth = 0
    for i in range(len(tokens) - 1, -1, -1):
        t = tokens[i]
        if t.token_type == TokenType.R_PAREN:
            depth += 1
        elif t.token_type == TokenType.L_PAREN:
            if depth == 0:
                prev = tokens[i - 1].text.upper() if i else ""
                if prev in ("OVER",):
                    return "WINDOW"
                if i and tokens[i - 1].token_type in (TokenType.VAR,) or prev in ("IN",):
                    return "ARGS"
                return "PAREN"
            depth -= 1
        elif depth == 0:
            upper = t.text.upper()
            if upper == "BY" and i:
                before = tokens[i - 1].text.upper()
                if before in ("GROUP", "ORDER", "SORT", "CLUSTER", "DISTRIBUTE"):
                    return f"{before} BY"
                if before == "PARTITION":
                    return "PARTITION BY"
            if upper in _CLAUSES:
                return _CLAUSES[upper]
    return ""


def _name_from(tokens: list, words: list[str]) -> Optional[str]:
    """The dotted name that is the last words (``DESCRIBE db.t |``)."""
    if not tokens:
        return None
    parts, i = [], len(tokens) - 1
    while i >= 0 and tokens[i].token_type != TokenType.DOT:
        parts.insert(0, tokens[i].text)
        i -= 1
        if i >= 0 and tokens[i].token_type == TokenType.DOT:
            i -= 1
            continue
        break
    return ".".join(parts) if parts else None


def _name_after(tokens: list, index: int) -> Optional[str]:
    """The dotted name starting at token ``index`` (``ALTER TABLE db.t``)."""
    parts, i = [], index
    while i < len(tokens):
        parts.append(tokens[i].text)
        if i + 1 < len(tokens) and tokens[i + 1].token_type == TokenType.DOT:
            i += 2
            continue
        break
    return ".".join(parts) if parts else None


def _names_after(tokens: list, word: str) -> set:
    found, seen = set(), False
    for t in tokens:
        if seen and t.token_type in (TokenType.VAR, TokenType.IDENTIFIER):
            found.add(t.text.lower())
        if t.text.upper() == word:
            seen = True
    return found


def _insert_columns(tokens: list) -> Optional[tuple[str, set]]:
    """``INSERT INTO [TABLE] t (a, b, |``: the table and the columns given so far."""
    depth, i = 0, len(tokens) - 1
    while i >= 0:
        t = tokens[i]
        if t.token_type == TokenType.R_PAREN:
            depth += 1
        elif t.token_type == TokenType.L_PAREN:
            if depth == 0:
                break
            depth -= 1
        i -= 1
    if i <= 0:
        return None
    inside = tokens[i + 1:]
    if any(x.token_type not in (TokenType.VAR, TokenType.IDENTIFIER, TokenType.COMMA) and not x.text.isidentifier()
           for x in inside):
        return None
    j = i - 1
    parts = []
    while j >= 0:
        parts.insert(0, tokens[j].text)
        if j >= 1 and tokens[j - 1].token_type == TokenType.DOT:
            j -= 2
            continue
        break
    words = [t.text.upper() for t in tokens[max(0, j - 2):j]]
    if "INTO" not in words and "TABLE" not in words:
        return None
    if not any(t.text.upper() == "INSERT" for t in tokens[:j]):
        return None
    return ".".join(parts), {x.text.lower() for x in inside if x.token_type != TokenType.COMMA}


# ---------------------------------------------------------------------------------------------
# The scope at the cursor, from a parse with a placeholder
# ---------------------------------------------------------------------------------------------

def _parse(statement: str, at: int, end: int) -> Optional[exp.Expression]:
    """Parse with the placeholder for ``statement[at:end]`` (the word being typed); repair unfinished
    text by cutting what follows and closing parentheses."""
    marked = statement[:at] + PLACEHOLDER
    rest = statement[end:]
    # A word glued to the cursor (``t.|FROM x``) starts after it: keep it out of the placeholder.
    attempts = [marked + (" " if rest[:1].isalnum() or rest[:1] == "_" else "") + rest]
    tokens = _tokens(marked)
    if tokens is None:
        return None
    depth = sum(1 if t.token_type == TokenType.L_PAREN else -1 if t.token_type == TokenType.R_PAREN else 0
                for t in tokens)
    closing = ")" * max(depth, 0)
    attempts += [marked + closing, marked + " = 1" + closing, marked + " FROM __wb_none__" + closing]
    for text in attempts:
        try:
            tree = sqlglot.parse_one(text, read="spark")
        except (ParseError, TokenError, ValueError, RecursionError):
            continue
        if tree is not None and _placeholder_in(tree) is not None:
            return tree
    return None


def _placeholder_in(tree: exp.Expression) -> Optional[exp.Expression]:
    for node in tree.find_all(exp.Identifier):
        if node.this == PLACEHOLDER:
            return node
    return None


def _scope_of(tree: exp.Expression, node: exp.Expression) -> Optional[Scope]:
    """The innermost scope whose expression holds ``node``."""
    try:
        scopes = traverse_scope(tree)
    except Exception:  # sqlglot's scope builder on odd trees (DDL, commands)
        log.debug("no scopes for this statement's tree", exc_info=True)
        return None
    ancestors = set()
    parent = node
    while parent is not None:
        ancestors.add(id(parent))
        parent = parent.parent
    best = None
    for scope in scopes:
        if id(scope.expression) in ancestors:
            if best is None or _depth(scope.expression) > _depth(best.expression):
                best = scope
    return best


def _depth(node: exp.Expression) -> int:
    d = 0
    while node.parent is not None:
        node, d = node.parent, d + 1
    return d


def _table_name(table: exp.Table) -> str:
    return ".".join(p.name for p in table.parts)


def _sources_of(scope: Scope) -> list[Source]:
    found = []
    for alias, source in scope.sources.items():
        if alias == PLACEHOLDER:
            continue
        found.append(_source(alias, source))
    # Tables sqlglot leaves out of ``sources`` (LATERAL VIEW and the like) are not offered.
    return found


def _source(alias: str, source) -> Source:
    if isinstance(source, Scope):
        parent = source.expression.parent
        alias_node = parent.args.get("alias") if parent is not None else None
        names = [c.name for c in alias_node.columns] if isinstance(alias_node, exp.TableAlias) and \
            alias_node.columns else None
        return Source(alias, columns=_derived_columns(source), column_names=names,
                      cte=isinstance(parent, exp.CTE))
    table: exp.Table = source
    alias_node = table.args.get("alias")
    names = [c.name for c in alias_node.columns] if isinstance(alias_node, exp.TableAlias) and alias_node.columns \
        else None
    if isinstance(table.this, (exp.Func, exp.Anonymous)):
        return Source(alias, function=table.this.sql("spark"), column_names=names)
    return Source(alias, table=_table_name(table), column_names=names)


def _derived_columns(scope: Scope) -> list[tuple[str, str]]:
    """Output columns of a CTE or subquery (names; types where a plain column carries them later)."""
    expression = scope.expression
    while isinstance(expression, exp.SetOperation):
        expression = expression.left
    if not isinstance(expression, exp.Select):
        return []
    out: list[tuple[str, str]] = []
    for projection in expression.expressions:
        if isinstance(projection, exp.Star) or (isinstance(projection, exp.Column)
                                                and isinstance(projection.this, exp.Star)):
            qualifier = projection.table if isinstance(projection, exp.Column) else ""
            for alias, inner in scope.sources.items():
                if qualifier and alias.lower() != qualifier.lower():
                    continue
                src = _source(alias, inner)
                if src.columns is not None:
                    out.extend(src.columns)
                else:
                    out.append(("*" + alias, src.table or src.function or ""))  # expanded by the caller
            continue
        name = projection.alias_or_name
        if name and name != PLACEHOLDER:
            ref = projection.unalias() if isinstance(projection, exp.Alias) else projection
            origin = ""
            if isinstance(ref, exp.Column):
                origin = f"={ref.table}.{ref.name}" if ref.table else f"={ref.name}"
            out.append((name, origin))
    return out


def analyze(script: str, position: int) -> Site:
    """The cursor's site in ``script`` at ``position`` (0-based)."""
    statement, cursor = statement_at(script, position)
    before = statement[:cursor]
    prefix = _PREFIX.search(before).group(0)
    head = before[: len(before) - len(prefix)]
    site = Site(statement, cursor, prefix)
    qualified = _QUALIFIER.search(head)
    if qualified:
        parts = [p.strip() for p in re.findall(_IDENT + r"(?=\s*\.)", qualified.group(1))]
        site.qualifier = [p[1:-1] if p.startswith("`") else p for p in parts]
        head = head[: qualified.start()]
    wrapper = _WRAPPER.match(statement)  # EXPLAIN …, DESCRIBE QUERY …, CACHE TABLE t AS …: the query inside
    skip = wrapper.end() if wrapper and wrapper.end() <= len(head) else 0
    tokens = _tokens(head[skip:])
    if tokens is None:
        site.expect = "none"  # inside a string or comment
        return site
    if _inside_comment_or_string(statement, cursor):
        site.expect = "none"
        return site
    words = [t.text.upper() for t in tokens]
    _expectation(site, words, tokens)
    if site.expect in ("none", "keyword", "database", "catalog", "database_or_catalog", "function",
                       "user_function"):
        return site
    first = words[0] if words else ""
    tree = _parse(statement[skip:], cursor - len(prefix) - skip, cursor - skip) if first in _PARSED else None
    if tree is None:
        site.sources = _token_sources(statement)
        return site
    site.parsed = True
    for cte in tree.find_all(exp.CTE):
        if cte.alias and cte.alias != PLACEHOLDER:
            site.ctes.append(cte.alias)
    node = _placeholder_in(tree)
    scope = _scope_of(tree, node)
    if scope is None:  # UPDATE, DELETE, MERGE: no scope, but their tables are in the tree
        site.sources = [_source(t.alias_or_name, t) for t in tree.find_all(exp.Table)
                        if t.name != PLACEHOLDER] or _token_sources(statement)
        return site
    site.sources = _sources_of(scope)
    parent = scope.parent
    while parent is not None:
        site.outer_sources += _sources_of(parent)
        parent = parent.parent
    select = scope.expression if isinstance(scope.expression, exp.Select) else None
    if select is not None:
        for projection in select.expressions:
            if isinstance(projection, exp.Alias) and projection.alias != PLACEHOLDER:
                site.select_aliases.append(projection.alias)
        if site.clause == "GROUP BY":
            grouped = {g.sql("spark").lower() for g in (select.args.get("group") or exp.Group()).expressions}
            for projection in select.expressions:
                ref = projection.unalias()
                if PLACEHOLDER in ref.sql() or isinstance(ref, exp.Star) or ref.find(exp.AggFunc) is not None \
                        or isinstance(ref, exp.Literal) or ref.find(exp.Window):
                    continue
                text = ref.sql("spark")
                if text.lower() not in grouped:
                    site.group_candidates.append(text)
        if site.clause == "ON":
            join = node.find_ancestor(exp.Join)
            if join is not None and join.this is not None:
                new_alias = join.this.alias_or_name
                site.join_new = next((s for s in site.sources if s.alias == new_alias), None)
    return site


def _inside_comment_or_string(statement: str, cursor: int) -> bool:
    """True inside a string or a comment (sqlglot's tokens skip comments: look at the gap after them)."""
    tokens = _tokens(statement[:cursor])
    if tokens is None:
        return True
    gap = statement[tokens[-1].end + 1 if tokens else 0:cursor]
    if "--" in gap and "\n" not in gap[gap.index("--"):]:
        return True
    return "/*" in gap and "*/" not in gap[gap.rindex("/*"):]


def _token_sources(statement: str) -> list[Source]:
    """Sources from the words after FROM and JOIN when the statement does not parse."""
    tokens = _tokens(statement) or []
    found: list[Source] = []
    names = (TokenType.VAR, TokenType.IDENTIFIER)
    i, in_from = 0, False
    while i < len(tokens):
        upper = tokens[i].text.upper()
        starts = upper in ("FROM", "JOIN", "INTO", "UPDATE", "USING") or (
            in_from and tokens[i].token_type == TokenType.COMMA)
        if upper in ("WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "ON", "UNION", "SELECT", "SET"):
            in_from = False
        if starts and i + 1 < len(tokens) and (tokens[i + 1].token_type in names or tokens[i + 1].text.isidentifier()):
            in_from = True
            j = i + 1
            name = tokens[j].text
            while j + 2 < len(tokens) and tokens[j + 1].token_type == TokenType.DOT:
                j += 2
                name += "." + tokens[j].text
            alias = name.split(".")[-1]
            k = j + 1
            if k < len(tokens) and tokens[k].token_type == TokenType.ALIAS:
                k += 1
            if k < len(tokens) and tokens[k].token_type in names and tokens[k].text != PLACEHOLDER:
                alias = tokens[k].text
            if name != PLACEHOLDER:
                found.append(Source(alias, table=name))
            i = j
        i += 1
    return found
