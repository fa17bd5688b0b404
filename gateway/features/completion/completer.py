"""Context-aware completion candidates for a statement at a cursor position.

After FROM/JOIN/INTO/TABLE: tables and views (temporary ones too) and databases; after USE:
databases and catalogs; after ``x.``: the columns of the table that ``x`` names or aliases,
else the tables of database ``x``, else the databases of catalog ``x``; elsewhere the columns
of the tables the statement references, functions with their signatures, and keywords.

Each session keeps a ``SchemaCache`` (tables, databases, functions, columns per table), so a
request costs a tokenize and a filter; the service drops the cache after DDL, ``USE`` and
module or jar statements. Tables come from the catalog's one listing (``list_relations``, which
hides the tables features hide); built-in functions and their signatures from the process's
one cache (``gateway.core.functions``), whose signatures load in the background.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Optional

from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from gateway.core.catalog import list_relations, quote, quote_name, split_name
from gateway.core.freshness import WRITES
from gateway.core.functions import builtin_functions
from gateway.errors import InvalidRequestError
from gateway.models import Candidate  # noqa: F401  (value types of the contract)

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
    "STORED AS", "TBLPROPERTIES", "OVER", "PARTITION BY", "ROWS BETWEEN", "ASC", "DESC",
    "TRUE", "FALSE", "CAST", "INTERVAL", "LATERAL VIEW", "PIVOT", "QUALIFY", "WINDOW",
    "ADD JAR", "REMOVE JAR", "SHOW JARS", "LOAD MODULE", "UNLOAD MODULE", "USE MODULES", "SHOW MODULES",
})
# Spark's table-valued functions, offered after FROM (with their signature when it is known).
TABLE_FUNCTIONS = ("range", "explode", "explode_outer", "inline", "inline_outer", "posexplode", "posexplode_outer",
                   "json_tuple", "stack", "sql_keywords", "variant_explode", "variant_explode_outer")
_TABLE_CONTEXT = {"FROM", "JOIN", "INTO", "TABLE", "UPDATE", "DESCRIBE", "DESC", "OVERWRITE"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_IDENT = r"(?:`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)"
_DOTTED = re.compile(rf"({_IDENT}(?:\.{_IDENT})*)\.([A-Za-z0-9_]*)$")
_FUNCTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SPARK = Dialect.get_or_raise("spark")

# Candidate kinds in the order they are offered when several match equally well.
_KIND_ORDER = {"column": 0, "temporary view": 1, "table": 1, "view": 1, "database": 2, "catalog": 3,
               "function": 4, "keyword": 5}


# ---------------------------------------------------------------------------------------------
# One session's catalog snapshot
# ---------------------------------------------------------------------------------------------

class SchemaCache:
    """What one session's completion needs from its catalog, loaded lazily, dropped after DDL."""

    def __init__(self, spark) -> None:
        self.spark = spark
        self._lock = threading.RLock()
        self.generation = 0
        self.invalidate()

    def invalidate(self) -> None:
        with self._lock:
            self.epoch = WRITES.value  # taken before loading: a write during the load drops it again
            self.generation += 1
            self._relations: dict[Optional[str], list[Candidate]] = {}
            self._databases: dict[Optional[str], list[str]] = {}
            self._catalogs: Optional[list[str]] = None
            self._user_functions: Optional[list[Candidate]] = None
            self._columns: dict[str, Optional[list[Candidate]]] = {}

    def relations(self, database: Optional[str] = None) -> list[Candidate]:
        """Tables and views of the current (or given) database, plus temporary views."""
        key = database.lower() if database else None
        with self._lock:
            if key not in self._relations:
                self._relations[key] = self._load_relations(database)
            return self._relations[key]

    def _load_relations(self, database: Optional[str]) -> list[Candidate]:
        found = []
        for relation in list_relations(self.spark, split_name(database) if database else ()):
            if relation.is_temporary:
                kind = "temporary view"
            else:
                kind = "view" if relation.is_view else "table"
            found.append(Candidate(relation.name, kind, relation.namespace or "temporary"))
        return found

    def databases(self, catalog: Optional[str] = None) -> list[str]:
        key = catalog.lower() if catalog else None
        with self._lock:
            if key not in self._databases:
                target = f" IN {quote(catalog)}" if catalog else ""
                self._databases[key] = sorted(r[0] for r in self.spark.sql(f"SHOW NAMESPACES{target}").collect())
            return self._databases[key]

    def catalogs(self) -> list[str]:
        with self._lock:
            if self._catalogs is None:
                self._catalogs = sorted(c.name for c in self.spark.catalog.listCatalogs())
            return self._catalogs

    def functions(self) -> list[Candidate]:
        with self._lock:
            if self._user_functions is None:
                names = [r[0] for r in self.spark.sql("SHOW USER FUNCTIONS").collect()]
                self._user_functions = [Candidate(n.split(".")[-1], "function", "user function") for n in names]
            user = self._user_functions
        functions = builtin_functions()
        names = functions.names(self.spark)
        functions.load_details_in_background(self.spark)  # signatures appear once loaded
        builtins = [Candidate(n, "function", functions.signature(n) or "built-in")
                    for n in sorted(names) if _FUNCTION_NAME.match(n)]
        return user + builtins

    def columns(self, name: str) -> Optional[list[Candidate]]:
        """Columns of a table or view with their types; None when there is no such table."""
        key = name.lower()
        with self._lock:
            if key not in self._columns:
                try:
                    schema = self.spark.table(quote_name(name)).schema
                    self._columns[key] = [Candidate(f.name, "column", f.dataType.simpleString().upper())
                                          for f in schema.fields]
                except Exception:
                    self._columns[key] = None
            return self._columns[key]


# ---------------------------------------------------------------------------------------------
# Context
# ---------------------------------------------------------------------------------------------

def referenced_tables(statement: str) -> dict[str, str]:
    """alias or table name (lower case) -> table name, for the tables after FROM/JOIN (and commas)."""
    try:
        tokens = _SPARK.tokenize(statement)
    except TokenError:
        return {}
    found: dict[str, str] = {}
    i, in_from = 0, False
    names = (TokenType.VAR, TokenType.IDENTIFIER)
    while i < len(tokens):
        token = tokens[i]
        upper = token.text.upper()
        starts = upper in ("FROM", "JOIN") or (in_from and token.token_type == TokenType.COMMA)
        if upper in ("WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "ON", "USING", "UNION", "SELECT"):
            in_from = False
        if starts and i + 1 < len(tokens) and (tokens[i + 1].token_type in names or tokens[i + 1].text.isidentifier()):
            in_from = True
            j = i + 1
            name = tokens[j].text
            while j + 2 < len(tokens) and tokens[j + 1].token_type == TokenType.DOT:
                j += 2
                name += "." + tokens[j].text
            found[name.split(".")[-1].lower()] = name
            k = j + 1
            if k < len(tokens) and tokens[k].token_type == TokenType.ALIAS:
                k += 1
            if k < len(tokens) and tokens[k].token_type in names:
                found[tokens[k].text.lower()] = name
            i = j
        i += 1
    return found


def candidates(cache: SchemaCache, statement: str, position: int) -> list[Candidate]:
    """Candidates at ``position`` (a 0-based offset into ``statement``), best first."""
    if isinstance(position, bool) or not isinstance(position, int) or position < 0 or position > len(statement):
        raise InvalidRequestError(
            f"position {position!r} is outside the statement (0..{len(statement)}): give the cursor offset")
    before = statement[:position]
    dotted = _DOTTED.search(before)
    if dotted:
        return _after_dot(cache, statement, dotted.group(1).replace("`", ""), dotted.group(2))
    word = _WORD.search(before)
    prefix = word.group(0) if word else ""
    previous = before[: len(before) - len(prefix)].rstrip().split()
    last_word = previous[-1].upper() if previous else ""
    if last_word in _TABLE_CONTEXT or (last_word.endswith(",") and _in_from_clause(before)):
        found = list(cache.relations())
        found += [Candidate(d, "database") for d in cache.databases()]
        if last_word in ("FROM", "JOIN") or last_word.endswith(","):
            found += table_functions(cache)
        return _filter(found, prefix)
    if last_word == "USE":
        found = [Candidate(d, "database") for d in cache.databases()]
        found += [Candidate(c, "catalog") for c in cache.catalogs()]
        return _filter(found, prefix)
    found = []
    for table in dict.fromkeys(referenced_tables(statement).values()):
        found += cache.columns(table) or []
    found += cache.functions()
    found += [Candidate(k, "keyword") for k in KEYWORDS]
    return _filter(found, prefix)


def table_functions(cache: SchemaCache) -> list[Candidate]:
    known = {c.value.lower(): c.detail for c in cache.functions()}
    return [Candidate(name, "table function", known[name]) for name in TABLE_FUNCTIONS if name in known]


def dictionary(cache: SchemaCache, columns_of=None) -> dict:
    """Everything an editor needs to complete locally (see GatewayContract.completion_dictionary)."""
    if columns_of is not None and (isinstance(columns_of, str) or not all(isinstance(n, str) for n in columns_of)):
        raise InvalidRequestError("columns_of must be a list of table names")
    listing = lambda found: [c.to_json() for c in found]  # noqa: E731
    columns = {}
    for name in dict.fromkeys(columns_of or ()):
        found = cache.columns(name) if name.strip() else None
        columns[name] = listing(found) if found is not None else None
    return {
        "relations": listing(cache.relations()),
        "databases": listing(Candidate(d, "database") for d in cache.databases()),
        "catalogs": listing(Candidate(c, "catalog") for c in cache.catalogs()),
        "functions": listing(cache.functions()),
        "table_functions": listing(table_functions(cache)),
        "keywords": listing(Candidate(k, "keyword") for k in KEYWORDS),
        "columns": columns,
    }


def keyword_dictionary() -> dict:
    """The dictionary an editor can complete from before any session exists (Spark still starting):
    keywords only, in the shape of ``dictionary``; tables and functions come once Spark is up."""
    return {"relations": [], "databases": [], "catalogs": [], "functions": [], "table_functions": [],
            "keywords": [Candidate(k, "keyword").to_json() for k in KEYWORDS], "columns": {}}


def _in_from_clause(before: str) -> bool:
    words = before.upper().split()
    for word in reversed(words):
        if word in ("FROM", "JOIN"):
            return True
        if word in ("SELECT", "WHERE", "ON", "GROUP", "ORDER", "BY", "HAVING"):
            return False
    return False


def _after_dot(cache: SchemaCache, statement: str, qualifier: str, prefix: str) -> list[Candidate]:
    tables = referenced_tables(statement)
    target = tables.get(qualifier.lower())
    for name in filter(None, [target, qualifier if "." in qualifier or not target else None]):
        columns = cache.columns(name)
        if columns:
            return _filter(columns, prefix)
    try:
        relations = [c for c in cache.relations(qualifier) if c.kind != "temporary view"]
    except Exception:
        relations = []
    if relations:
        return _filter(relations, prefix)
    try:
        return _filter([Candidate(d, "database") for d in cache.databases(qualifier)], prefix)
    except Exception:
        return []


def _filter(found: list[Candidate], prefix: str) -> list[Candidate]:
    lowered = prefix.lower()
    seen: dict[str, Candidate] = {}
    for candidate in found:
        if candidate.value.lower().startswith(lowered) and candidate.value not in seen:
            seen[candidate.value] = candidate
    return sorted(seen.values(), key=lambda c: (c.value.lower() != lowered, _KIND_ORDER.get(c.kind, 9),
                                                c.value.lower()))


# ---------------------------------------------------------------------------------------------
# Per-session caches for the service
# ---------------------------------------------------------------------------------------------

class Completer:
    """Holds one SchemaCache per session; the service drops a session's cache after DDL."""

    def __init__(self) -> None:
        self._caches: dict = {}
        self._lock = threading.Lock()

    def cache(self, session) -> SchemaCache:
        """The session's cache, dropped first when any session has written since it loaded (another
        tab's CREATE TABLE shows in this one's completion without a refresh)."""
        with self._lock:
            cache = self._caches.get(session.handle)
            if cache is None:
                cache = self._caches[session.handle] = SchemaCache(session.spark)
        if cache.epoch != WRITES.value:
            cache.invalidate()
        return cache

    def invalidate(self, session) -> None:
        with self._lock:
            cache = self._caches.get(session.handle)
        if cache is not None:
            cache.invalidate()

    def forget(self, session) -> None:
        with self._lock:
            self._caches.pop(session.handle, None)

    def warm(self, session) -> threading.Thread:
        """Load the session's tables and functions in the background, so the first popup is quick."""
        cache = self.cache(session)

        def load() -> None:
            try:
                cache.relations()
                cache.databases()
                cache.functions()
            except Exception:  # the session may close meanwhile; completion loads on demand then
                pass

        thread = threading.Thread(target=load, name=f"completion-warm-{session.handle}", daemon=True)
        thread.start()
        return thread

    def dictionary(self, session, columns_of=None) -> dict:
        return dictionary(self.cache(session), columns_of)

    def complete(self, session, statement: str, position: int) -> list[Candidate]:
        if not isinstance(statement, str):
            raise InvalidRequestError(f"the statement must be text, got {type(statement).__name__}")
        return candidates(self.cache(session), statement, position)
