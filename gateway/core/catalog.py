"""Catalog calls over Spark's catalog API, with light infos for lists and full detail on get_*.

Lists use the cheapest Spark call that answers them (``SHOW SYSTEM/USER FUNCTIONS`` is ~3x
faster than ``catalog.listFunctions``, which also describes every built-in). ``list_relations``
is the one table listing: the catalog API, REST and completion all read tables through it, so
a table a feature hides (``hidden_table_filters``) is hidden from all of them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from pyspark.errors import AnalysisException

from gateway.errors import GatewayError, InvalidRequestError, ObjectNotFoundError, SqlExecutionError
from gateway.models import (Column, FunctionDetail, FunctionInfo, FunctionKind, TableDetail, TableInfo,
                     TableKind)
from gateway.core.functions import builtin_functions
from gateway.core.serialization import error_json, type_json
from gateway.spark.errors import ENGINE_ERRORS

# Tables no listing shows: a feature appends ``name -> True to hide`` (the atomic-write feature
# hides the staging and backup tables of its running writes, which are not the user's).
hidden_table_filters: list[Callable[[str], bool]] = []

_VIEW_TYPES = {"VIEW", "TEMPORARY", "MATERIALIZED_VIEW"}


def quote(identifier: str) -> str:
    """Quote one identifier part for Spark SQL."""
    return "`" + identifier.replace("`", "``") + "`"


def quote_name(name: str) -> str:
    """Quote a dotted name part by part, keeping parts that are already quoted."""
    parts = split_name(name)
    return ".".join(quote(p) for p in parts)


def split_name(name: str) -> list[str]:
    if not name or not name.strip():
        raise InvalidRequestError("the object name is empty: give a name like db.table")
    parts, current, quoted, i = [], "", False, 0
    while i < len(name):
        ch = name[i]
        if ch == "`":
            if quoted and i + 1 < len(name) and name[i + 1] == "`":
                current += "`"
                i += 1
            else:
                quoted = not quoted
        elif ch == "." and not quoted:
            parts.append(current)
            current = ""
        else:
            current += ch
        i += 1
    parts.append(current)
    return [p.strip() if not p.startswith(" ") else p for p in parts]


def _spark_call(what: str, fn, *args):
    try:
        return fn(*args)
    except GatewayError:
        raise
    except ENGINE_ERRORS as exc:  # Spark's own error, with its class and SQLSTATE; a bug of ours propagates
        error = error_json(exc)
        raise SqlExecutionError(f"{what} failed: {error['root_cause']}", error) from None


def is_hidden_table(name: str) -> bool:
    """Does a feature keep this table out of listings?"""
    return any(hidden(name) for hidden in hidden_table_filters)


@dataclass(frozen=True)
class Relation:
    """A table or view as SHOW TABLES names it; a temporary view has no namespace."""

    namespace: Optional[str]
    name: str
    is_view: bool
    is_temporary: bool


def list_relations(spark, namespace: Sequence[str] = ()) -> list[Relation]:
    """Tables and views of ``namespace`` (e.g. ``["spark_catalog", "db"]``; the current database
    when empty) and the session's temporary views, less the tables a feature hides.

    SHOW TABLES and SHOW VIEWS name 500 tables in ~0.2 s; catalog.listTables fetches every
    table's metadata and took ~6 s for them (measured), too slow for completion or a 2,000-table tree.
    """
    target = " IN " + ".".join(quote(part) for part in namespace) if namespace else ""
    tables = _spark_call("list tables", lambda: spark.sql(f"SHOW TABLES{target}").collect())
    try:
        views = {(r[0] or "", r[1]) for r in spark.sql(f"SHOW VIEWS{target}").collect()}
    except AnalysisException:  # a catalog without views (MISSING_CATALOG_ABILITY): its tables are tables
        views = set()
    relations = []
    for space, name, temporary in ((r[0] or "", r[1], bool(r[2])) for r in tables):
        if not is_hidden_table(name):
            relations.append(Relation(space or None, name, temporary or (space, name) in views, temporary))
    return relations


class CatalogBrowser:
    """Catalog API of one session."""

    def __init__(self, spark) -> None:
        self.spark = spark

    def current_catalog(self) -> str:
        return _spark_call("current catalog", self.spark.catalog.currentCatalog)

    def current_database(self) -> str:
        return _spark_call("current database", self.spark.catalog.currentDatabase)

    def list_catalogs(self) -> list[str]:
        return sorted(c.name for c in _spark_call("list catalogs", self.spark.catalog.listCatalogs))

    def list_databases(self, catalog: Optional[str] = None) -> list[str]:
        target = f" IN {quote(catalog)}" if catalog else ""
        rows = _spark_call("list databases", lambda: self.spark.sql(f"SHOW NAMESPACES{target}").collect())
        return sorted(r[0] for r in rows)

    def list_tables(self, catalog: Optional[str] = None, database: Optional[str] = None,
                    kind: TableKind = TableKind.ALL) -> list[TableInfo]:
        kind = TableKind(kind) if not isinstance(kind, TableKind) else kind
        catalog = catalog or self.current_catalog()
        database = database or self.current_database()
        infos = []
        for relation in list_relations(self.spark, [catalog, database]):
            table_kind = TableKind.VIEW if relation.is_view else TableKind.TABLE
            if kind in (TableKind.ALL, table_kind):
                infos.append(TableInfo(None if relation.is_temporary and not relation.namespace else catalog,
                                       relation.namespace, relation.name, table_kind, relation.is_temporary))
        return sorted(infos, key=lambda i: (not i.is_temporary, i.name))

    def list_functions(self, catalog: Optional[str] = None, database: Optional[str] = None,
                       kind: Optional[FunctionKind] = None) -> list[FunctionInfo]:
        infos: list[FunctionInfo] = []
        if kind in (None, FunctionKind.USER):
            target = ""
            if database:
                target = f" IN {quote(catalog)}.{quote(database)}" if catalog else f" IN {quote(database)}"
            rows = _spark_call("list functions",
                               lambda: self.spark.sql(f"SHOW USER FUNCTIONS{target}").collect())
            for (name,) in rows:
                parts = split_name(name)
                if len(parts) == 1:
                    infos.append(FunctionInfo(None, None, parts[0], FunctionKind.USER, True))
                else:
                    cat = parts[0] if len(parts) == 3 else None
                    infos.append(FunctionInfo(cat, parts[-2], parts[-1], FunctionKind.USER, False))
        if kind in (None, FunctionKind.BUILTIN):
            infos.extend(FunctionInfo("system", "builtin", name, FunctionKind.BUILTIN, False)
                         for name in _builtin_names(self.spark))
        return infos

    def get_table(self, name: str) -> TableDetail:
        quoted = quote_name(name)
        table = _spark_call(f"table {name}", self.spark.catalog.getTable, quoted)
        columns_raw = _spark_call(f"columns of {name}", self.spark.catalog.listColumns, quoted)
        rows = _spark_call(f"describe {name}",
                           lambda: self.spark.sql(f"DESCRIBE TABLE EXTENDED {quoted}").collect())
        extended = _detail_section(rows)
        properties = _parse_properties(extended.pop("Table Properties", ""))
        schema = _spark_call(f"schema of {name}", lambda: self.spark.table(quoted).schema)
        comments = {c.name: c.description for c in columns_raw}
        columns = [Column(f.name, type_json(f.dataType, f.nullable), comments.get(f.name)) for f in schema.fields]
        kind = TableKind.VIEW if (table.tableType or "").upper() in _VIEW_TYPES else TableKind.TABLE
        return TableDetail(
            catalog=table.catalog, database=".".join(table.namespace or []) or None, name=table.name,
            kind=kind, is_temporary=bool(table.isTemporary), columns=columns,
            partition_columns=[c.name for c in columns_raw if c.isPartition],
            properties=properties, provider=extended.get("Provider"), location=extended.get("Location"),
            statistics=extended.get("Statistics"), comment=table.description, table_type=table.tableType,
            extended=extended)

    def show_create_table(self, name: str) -> str:
        """The table's DDL from SHOW CREATE TABLE (for a temporary view: its defining query, if known)."""
        quoted = quote_name(name)
        rows = _spark_call(f"SHOW CREATE TABLE {name}",
                           lambda: self.spark.sql(f"SHOW CREATE TABLE {quoted}").collect())
        return "\n".join(r[0] for r in rows)

    def get_function(self, name: str) -> FunctionDetail:
        rows = _spark_call(f"function {name}",
                           lambda: self.spark.sql(f"DESCRIBE FUNCTION EXTENDED {quote_name(name)}").collect())
        text = {}
        for (line,) in rows:
            key, _, value = line.partition(":")
            text[key.strip()] = value.strip()
        if "Function" not in text:
            raise ObjectNotFoundError(f"function {name} was not found: {' '.join(r[0] for r in rows)}")
        qualified = split_name(text["Function"])
        builtin = qualified[-1].lower() in _builtin_names(self.spark) and len(qualified) == 1
        temporary = not builtin and len(qualified) == 1
        return FunctionDetail(
            name=qualified[-1], kind=FunctionKind.BUILTIN if builtin else FunctionKind.USER,
            is_temporary=temporary, class_name=text.get("Class"), usage=text.get("Usage"),
            extended_description=text.get("Extended Usage"),
            catalog="system" if builtin else (qualified[0] if len(qualified) == 3 else None),
            database="builtin" if builtin else (qualified[-2] if len(qualified) > 1 else None))


def _builtin_names(spark) -> frozenset:
    """Built-in function names from the process's one cache (the modules feature imports this)."""
    return _spark_call("list functions", builtin_functions().names, spark)


def _detail_section(rows) -> dict[str, str]:
    """The '# Detailed Table Information' part of DESCRIBE TABLE EXTENDED as a dict."""
    detail, inside = {}, False
    for row in rows:
        name, value = (row[0] or "").strip(), (row[1] or "")
        if name.startswith("# Detailed Table Information") or name.startswith("# Detailed View Information"):
            inside = True
            continue
        if inside and name and not name.startswith("#"):
            detail[name] = value
    return detail


def _parse_properties(text: str) -> dict[str, str]:
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    props = {}
    for part in filter(None, (p.strip() for p in text.split(", "))):
        key, _, value = part.partition("=")
        props[key] = value
    return props
