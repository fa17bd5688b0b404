"""Context-aware completion candidates for a statement at a cursor position.

After FROM/JOIN/INTO/TABLE: tables and views (and databases); after ``x.``: columns of the
table that ``x`` names or aliases, or the tables of database ``x``; elsewhere keywords,
functions, and the columns of the tables the statement references.
"""
from __future__ import annotations

import re

from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from .catalog import CatalogBrowser
from .errors import InvalidRequestError

KEYWORDS = sorted({
    "SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "HAVING", "LIMIT", "OFFSET", "JOIN", "LEFT JOIN",
    "RIGHT JOIN", "FULL OUTER JOIN", "CROSS JOIN", "INNER JOIN", "ON", "USING", "AS", "AND", "OR", "NOT",
    "IN", "IS", "NULL", "LIKE", "RLIKE", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "END", "DISTINCT",
    "UNION", "UNION ALL", "INTERSECT", "EXCEPT", "WITH", "INSERT INTO", "INSERT OVERWRITE", "VALUES",
    "CREATE TABLE", "CREATE OR REPLACE TABLE", "CREATE TEMPORARY VIEW", "CREATE VIEW", "CREATE DATABASE",
    "CREATE FUNCTION", "CREATE TEMPORARY FUNCTION", "DROP TABLE", "DROP VIEW", "DROP DATABASE",
    "DROP FUNCTION", "ALTER TABLE", "USE", "SET", "RESET", "SHOW TABLES", "SHOW DATABASES",
    "SHOW FUNCTIONS", "SHOW CREATE TABLE", "SHOW COLUMNS", "DESCRIBE", "DESCRIBE TABLE",
    "DESCRIBE FUNCTION", "EXPLAIN", "CACHE TABLE", "UNCACHE TABLE", "ANALYZE TABLE", "PARTITIONED BY",
    "USING", "STORED AS", "TBLPROPERTIES", "OVER", "PARTITION BY", "ROWS BETWEEN", "ASC", "DESC",
    "TRUE", "FALSE", "CAST", "INTERVAL", "LATERAL VIEW", "PIVOT", "QUALIFY", "WINDOW",
    "ADD JAR", "REMOVE JAR", "SHOW JARS", "LOAD MODULE", "UNLOAD MODULE", "USE MODULES", "SHOW MODULES",
})
_TABLE_CONTEXT = {"FROM", "JOIN", "INTO", "TABLE", "UPDATE", "DESCRIBE", "DESC", "OVERWRITE"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_DOTTED = re.compile(r"((?:`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)(?:\.(?:`[^`]+`|[A-Za-z_][A-Za-z0-9_]*))*)\.([A-Za-z0-9_]*)$")
_SPARK = Dialect.get_or_raise("spark")


def _referenced_tables(statement: str) -> dict[str, str]:
    """alias or table name -> table name, for tables after FROM/JOIN in the statement."""
    try:
        tokens = _SPARK.tokenize(statement)
    except TokenError:
        return {}
    found: dict[str, str] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.text.upper() in ("FROM", "JOIN") and i + 1 < len(tokens):
            j = i + 1
            name = tokens[j].text
            while j + 2 < len(tokens) and tokens[j + 1].token_type == TokenType.DOT:
                j += 2
                name += "." + tokens[j].text
            if tokens[i + 1].token_type in (TokenType.VAR, TokenType.IDENTIFIER) or tokens[i + 1].text.isidentifier():
                found[name.split(".")[-1].lower()] = name
                k = j + 1
                if k < len(tokens) and tokens[k].token_type == TokenType.ALIAS:
                    k += 1
                if k < len(tokens) and tokens[k].token_type in (TokenType.VAR, TokenType.IDENTIFIER):
                    found[tokens[k].text.lower()] = name
            i = j
        i += 1
    return found


def complete(catalog: CatalogBrowser, statement: str, position: int) -> list[str]:
    if not isinstance(position, int) or position < 0 or position > len(statement):
        raise InvalidRequestError(
            f"position {position!r} is outside the statement (0..{len(statement)}): give the cursor offset")
    before = statement[:position]
    dotted = _DOTTED.search(before)
    if dotted:
        qualifier, prefix = dotted.group(1).replace("`", ""), dotted.group(2)
        tables = _referenced_tables(statement)
        candidates: list[str] = []
        target = tables.get(qualifier.lower(), qualifier if qualifier.lower() in tables.values() else None)
        for name in filter(None, [target, qualifier]):
            try:
                candidates = [c.name for c in catalog.get_table(name).columns]
                break
            except Exception:
                continue
        if not candidates:
            try:
                candidates = [t.name for t in catalog.list_tables(database=qualifier)]
            except Exception:
                candidates = []
        return _filter(candidates, prefix)
    word = _WORD.search(before)
    prefix = word.group(0) if word else ""
    previous = before[: len(before) - len(prefix)].rstrip().split()
    last_word = previous[-1].upper() if previous else ""
    if last_word in _TABLE_CONTEXT:
        names = [t.name for t in catalog.list_tables()] + catalog.list_databases()
        return _filter(names, prefix)
    candidates = list(KEYWORDS) + [f.name for f in catalog.list_functions()]
    for table in set(_referenced_tables(statement).values()):
        try:
            candidates += [c.name for c in catalog.get_table(table).columns]
        except Exception:
            pass
    return _filter(candidates, prefix)


def _filter(candidates: list[str], prefix: str) -> list[str]:
    lowered = prefix.lower()
    seen: dict[str, None] = {}
    for candidate in candidates:
        if candidate.lower().startswith(lowered) and candidate not in seen:
            seen[candidate] = None
    return sorted(seen, key=lambda c: (c.lower() != lowered, len(c), c.lower()))
