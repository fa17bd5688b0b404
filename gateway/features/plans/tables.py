"""Which tables a statement reads and writes, with the schema each has now.

Names come from the statement (sqlglot, Spark dialect; CTE names are not tables) and from the
analyzed plan's table identifiers (tables behind views); each is resolved through Spark's
catalog API to its full name, kind and columns.
"""
from __future__ import annotations

import logging
from typing import Optional

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from gateway.core.catalog import quote

log = logging.getLogger(__name__)



def statement_tables(text: str) -> Optional[list[tuple[str, str]]]:
    """``[(name as written, role)]`` with role read, write or create; None if sqlglot cannot parse."""
    try:
        tree = sqlglot.parse_one(text, read="spark")
    except SqlglotError:
        return None
    ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    target = None
    if isinstance(tree, (exp.Insert, exp.Create)):
        target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    found: list[tuple[str, str]] = []
    for table in tree.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier) or not table.name:
            continue  # a table-valued function such as range(10)
        name = ".".join(part.name for part in table.parts)
        if table is target:
            role = "create" if isinstance(tree, exp.Create) else "write"
        elif len(table.parts) == 1 and table.name.lower() in ctes:
            continue
        else:
            role = "read"
        if (name, role) not in found:
            found.append((name, role))
    return found


def plan_table_names(analyzed_json: Optional[list]) -> list[str]:
    """Tables and views named anywhere in Spark's analyzed JSON tree (views' own tables too)."""
    names: list[str] = []
    if not analyzed_json:
        return names
    stack = [analyzed_json]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if str(value.get("product-class", "")).endswith(".TableIdentifier") and value.get("table"):
                parts = [value.get("catalog"), value.get("database"), value["table"]]
                name = ".".join(p for p in parts if p)
                if name not in names:
                    names.append(name)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return names


def describe_table(spark, name: str) -> Optional[dict]:
    """Full name, kind and columns of a table or view now; None if it does not exist."""
    try:
        table = spark.catalog.getTable(name)
    except Exception:  # noqa: BLE001 - not found (or not resolvable) is answered with None
        log.debug("the table was not found or not resolvable", exc_info=True)
        return None
    parts = [*(table.namespace or []), table.name]
    if not table.isTemporary:
        parts.insert(0, table.catalog or "spark_catalog")
    full = ".".join(parts)
    try:
        schema = spark.table(".".join(quote(p) for p in parts)).schema
    except Exception:  # noqa: BLE001 - a broken view: it exists but cannot be read
        log.debug("a broken view: its schema cannot be read", exc_info=True)
        schema = None
    return {"name": full, "kind": table.tableType or "UNKNOWN",
            "columns": columns_of(schema) if schema is not None else None}


def columns_of(schema) -> list[dict]:
    return [{"name": f.name, "type": f.dataType.simpleString(), "nullable": bool(f.nullable)}
            for f in schema.fields]


