"""COMPILE PLAN: analyze a statement (without running it) and record everything it depends on."""
from __future__ import annotations

import logging
import datetime as _dt
from contextlib import contextmanager
from typing import Iterator, Optional

from gateway.version import __version__
from gateway.errors import InvalidStatementError
from gateway.features.plans.document import FORMAT, FORMAT_VERSION, accepts_range
from gateway.features.plans.functions import function_versions, used_functions
from gateway.features.plans.spark_planning import PlannedStatement, planned
from gateway.features.plans.syntax import PLANNABLE
from gateway.features.plans.tables import columns_of, describe_table, plan_table_names, statement_tables
from gateway.features.plans.tree import nest, stable_text
from gateway.spark.conf import restore_conf
from gateway.spark.parser_cache import SETTINGS as PARSER_CACHE_SETTINGS
from gateway.core.restrictions import RUN_SQL_ON_FILES
from gateway.core.statements import classify

log = logging.getLogger(__name__)

# Settings that change what Spark plans, recorded (effective value) in every plan.
PLANNING_KEYS = (
    "spark.sql.ansi.enabled", "spark.sql.caseSensitive", "spark.sql.session.timeZone",
    "spark.sql.adaptive.enabled", "spark.sql.autoBroadcastJoinThreshold", "spark.sql.shuffle.partitions",
    "spark.sql.optimizer.excludedRules", "spark.sql.cbo.enabled", "spark.sql.join.preferSortMergeJoin",
    "spark.sql.storeAssignmentPolicy", "spark.sql.sources.partitionOverwriteMode",
    "spark.sql.legacy.timeParserPolicy", "spark.sql.path.enabled", "spark.sql.crossJoin.enabled",
)
# Settings that belong to the session or the driver, never to a plan: neither recorded nor applied from a plan
# file, whoever wrote it (reading files through SQL is off for non-admins; Spark's parser caches are shared by
# every session, gateway/spark/parser_cache.py).
_NOT_FROM_PLANS = (RUN_SQL_ON_FILES, *PARSER_CACHE_SETTINGS)
# Session-set settings that never change a plan (left out even when set).
_NOT_PLANNING = ("spark.sql.execution.arrow.", "spark.sql.ui.", "spark.sql.artifact.", "spark.sql.warehouse.",
                 "spark.sql.catalogImplementation", "spark.sql.streaming.") + _NOT_FROM_PLANS


def planning_config(spark) -> dict[str, str]:
    config: dict[str, str] = {}
    for key in PLANNING_KEYS:
        try:
            value = spark.conf.get(key, None)
        except Exception:  # noqa: BLE001 - a key this Spark does not know
            log.debug("a setting this Spark does not know", exc_info=True)
            value = None
        if value is not None:
            config[key] = str(value)
    for key, value in spark.conf.getAll.items():
        if key.startswith("spark.sql.") and not key.startswith(_NOT_PLANNING) and key not in config:
            try:
                modifiable = spark.conf.isModifiable(key)
            except Exception:  # noqa: BLE001
                log.debug("a setting whose modifiability is unknown", exc_info=True)
                modifiable = False
            if modifiable:
                config[key] = str(value)
    return dict(sorted(config.items()))


@contextmanager
def planning_context(spark, catalog: Optional[str], database: Optional[str], config: dict) -> Iterator[None]:
    """Run with a plan's catalog, database and settings; put the session's own back afterwards."""
    previous_catalog, previous_database = spark.catalog.currentCatalog(), spark.catalog.currentDatabase()
    restore: dict[str, Optional[str]] = {}
    current = spark.conf.getAll
    try:
        for key, value in config.items():
            if key.startswith(_NOT_FROM_PLANS):
                log.info("a plan's setting %s is the session's own: not applied", key)
                continue
            try:
                if not spark.conf.isModifiable(key):
                    continue
                restore[key] = current.get(key)
                spark.conf.set(key, value)
            except Exception:  # noqa: BLE001 - a setting this Spark does not have: planning decides
                log.debug("a setting this Spark does not have could not be restored", exc_info=True)
                restore.pop(key, None)
        if catalog and catalog != previous_catalog:
            spark.catalog.setCurrentCatalog(catalog)
        if database and database != spark.catalog.currentDatabase():
            spark.catalog.setCurrentDatabase(database)
        yield
    finally:
        restore_conf(spark, restore)
        if spark.catalog.currentCatalog() != previous_catalog:
            spark.catalog.setCurrentCatalog(previous_catalog)
        if spark.catalog.currentDatabase() != previous_database:
            spark.catalog.setCurrentDatabase(previous_database)


def plan_section(text: str, flat: Optional[list]) -> dict:
    section = {"lines": stable_text(text).rstrip().splitlines(), "format": "json" if flat is not None else "text"}
    section["tree"] = nest(flat) if flat is not None else None
    return section


def plan_text(plan: dict, which: str) -> str:
    """The text of a plan's ``analyzed`` or ``optimized`` section (stored as lines, to diff well)."""
    return "\n".join(plan["plans"][which]["lines"]) + "\n"


def compile_plan(session, text: str, compatibility: str = "same-minor") -> dict:
    """The plan of one SELECT, INSERT or CTAS in this session; nothing runs."""
    kind = classify(text)
    if kind not in PLANNABLE:
        raise InvalidStatementError(
            f"a plan holds a SELECT, an INSERT or a CREATE TABLE … AS SELECT; "
            f"{kind.value.replace('_', ' ')} statements cannot be compiled into a plan")
    spark = session.spark
    result: PlannedStatement = planned(spark, text)
    tables = _tables(spark, text, result)
    functions = used_functions(spark, result.analyzed_json, result.analyzed_text)
    versions = function_versions(session, functions)
    missing = [name for name, found in versions.items() if found is None]
    if missing:
        raise InvalidStatementError(f"no version is known for the function(s) {', '.join(missing)}; "
                                    f"the plan cannot pin them. Load the module that provides them.")
    output = []
    if result.output_schema is not None:
        from pyspark.sql.types import StructType
        output = columns_of(StructType.fromJson(result.output_schema))
    elif PLANNABLE[kind] == "QUERY":
        output = columns_of(spark.sql(text).schema)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "compiled_at": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "workbench_version": __version__,
        "spark_version": spark.version,
        "accepts_spark": accepts_range(spark.version, compatibility),
        "statement": {"kind": PLANNABLE[kind], "text": text.strip(),
                      "current_catalog": spark.catalog.currentCatalog(),
                      "current_database": spark.catalog.currentDatabase()},
        "config": planning_config(spark),
        "tables": tables,
        "functions": [{"name": name, **versions[name]} for name in functions],
        "output": output,
        "plans": {"source": result.source,
                  "analyzed": plan_section(result.analyzed_text, result.analyzed_json),
                  "optimized": plan_section(result.optimized_text, result.optimized_json)},
    }


def _tables(spark, text: str, result: PlannedStatement) -> list[dict]:
    """Tables the statement names (with their roles), then tables behind views (read)."""
    tables: dict[str, dict] = {}
    named = statement_tables(text) or []
    for name, role in named + [(name, "read") for name in plan_table_names(result.analyzed_json)]:
        found = describe_table(spark, name)
        if found is None:
            if role != "create":
                continue  # a name Spark resolved otherwise (e.g. a CTE the parser missed)
            parts = name.split(".")
            if len(parts) < 3:
                parts = ([spark.catalog.currentCatalog()] + ([spark.catalog.currentDatabase()] if len(parts) == 1 else [])
                         + parts)
            found = {"name": ".".join(parts), "kind": "NEW", "columns": None}
        key = found["name"]
        if key in tables:
            if (name, role) in named:
                roles = set(tables[key]["role"].split("+")) | {role}
                tables[key]["role"] = "+".join(sorted(roles))
            continue
        tables[key] = {**found, "role": role}
    return [tables[key] for key in sorted(tables)]
