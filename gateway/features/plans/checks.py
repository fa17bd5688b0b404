"""EXECUTE PLAN's checks: what changed since the plan was compiled. Any difference stops the run."""
from __future__ import annotations

import logging
import difflib
from dataclasses import asdict, dataclass

from gateway.errors import GatewayError
from gateway.core.serialization import error_json
from gateway.spark.errors import ENGINE_ERRORS
from gateway.features.plans.compiler import plan_text, planning_context
from gateway.features.plans.document import accepts
from gateway.features.plans.functions import function_versions
from gateway.features.plans.spark_planning import planned
from gateway.features.plans.tables import describe_table
from gateway.features.plans.tree import stable_text

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Difference:
    kind: str       # spark_version, table, function, database, plan
    subject: str    # what it is about (a table or function name, "spark")
    message: str    # what changed, readable on its own

    def to_json(self) -> dict:
        return asdict(self)


class PlanMismatchError(GatewayError):
    """The plan no longer matches this session; it lists every difference and nothing ran."""

    http_status = 409

    def __init__(self, where: str, differences: list[Difference]) -> None:
        lines = "\n".join(f"- {d.message}" for d in differences)
        super().__init__(f"the plan {where} was not executed: {len(differences)} difference(s) "
                         f"since it was compiled:\n{lines}\nRestore what changed, or recompile the plan "
                         f"(SET workbench.plan.force_recompile=true, then COMPILE PLAN again).",
                         differences=[d.to_json() for d in differences])
        self.differences = differences


def check_plan(session, plan: dict) -> list[Difference]:
    """Every difference between the plan and the session now (empty: the plan may run)."""
    spark = session.spark
    found: list[Difference] = []
    if not accepts(plan["accepts_spark"], spark.version):
        found.append(Difference("spark_version", "spark",
                                f"Spark {spark.version} is outside what the plan accepts ({plan['accepts_spark']}; "
                                f"compiled on Spark {plan['spark_version']})"))
    found += _table_differences(spark, plan)
    found += _function_differences(session, plan)
    statement = plan["statement"]
    database = statement.get("current_database")
    if database and not spark.catalog.databaseExists(database):
        found.append(Difference("database", database, f"database {database}, current when the plan was "
                                                      f"compiled, no longer exists"))
    if not found:
        found += _plan_drift(spark, plan)
    return found


def _table_differences(spark, plan: dict) -> list[Difference]:
    found = []
    for table in plan["tables"]:
        if "create" in table.get("role", "").split("+"):
            continue  # the statement makes it; CREATE's own rules apply
        name = table["name"]
        now = describe_table(spark, name)
        if now is None:
            found.append(Difference("table", name, f"table {name} ({table['role']}) no longer exists"))
            continue
        if table.get("columns") is None or now["columns"] is None:
            continue
        changes = column_changes(table["columns"], now["columns"])
        if changes:
            found.append(Difference("table", name, f"table {name} changed its schema: {'; '.join(changes)}"))
    return found


def column_changes(before: list[dict], after: list[dict]) -> list[str]:
    old = {c["name"]: c for c in before}
    new = {c["name"]: c for c in after}
    changes = [f"column {n} ({old[n]['type']}) was dropped" for n in old if n not in new]
    changes += [f"column {n} ({new[n]['type']}) was added" for n in new if n not in old]
    for name in (n for n in old if n in new):
        if old[name]["type"] != new[name]["type"]:
            changes.append(f"column {name} changed type from {old[name]['type']} to {new[name]['type']}")
        elif old[name]["nullable"] != new[name]["nullable"]:
            changes.append(f"column {name} became {'nullable' if new[name]['nullable'] else 'NOT NULL'}")
    if not changes and [c["name"] for c in before] != [c["name"] for c in after]:
        changes.append(f"columns were reordered: {', '.join(c['name'] for c in after)}")
    return changes


def _function_differences(session, plan: dict) -> list[Difference]:
    recorded = {f["name"]: f for f in plan["functions"]}
    now = function_versions(session, recorded)
    found = []
    for name, before in recorded.items():
        after = now.get(name)
        pinned = _describe(before)
        if after is None:
            found.append(Difference("function", name, f"function {name} is missing (compiled with {pinned})"))
        elif (after["module"], after["version"], after["implementation"]) != \
                (before["module"], before["version"], before["implementation"]):
            still = _still_offered(session, name, before)
            found.append(Difference("function", name, f"function {name} changed: compiled with {pinned}, "
                                                      f"now {_describe(after)}{still}"))
    return found


def _describe(origin: dict) -> str:
    return f"module {origin['module']} version {origin['version']} ({origin['implementation']})"


def _still_offered(session, name: str, before: dict) -> str:
    modules = session.extensions.get("modules")  # the modules feature's ModuleManager, when installed
    if modules is None or not hasattr(modules, "get_function_definition"):
        return ""
    try:
        definition = modules.get_function_definition(name, version=before["version"])
    except Exception:  # noqa: BLE001 - a module that does not know the version
        log.debug("the module does not know the version", exc_info=True)
        definition = None
    return f"; module {before['module']} still offers version {before['version']}" if definition else ""


def _plan_drift(spark, plan: dict, context_lines: int = 2, limit: int = 30) -> list[Difference]:
    """The statement analyzed now, against the analyzed plan in the file (a view body changed, …)."""
    statement = plan["statement"]
    try:
        with planning_context(spark, statement.get("current_catalog"), statement.get("current_database"),
                              plan["config"]):
            now = stable_text(planned(spark, statement["text"]).analyzed_text).rstrip() + "\n"
    except ENGINE_ERRORS as exc:  # Spark's analysis error is the difference
        return [Difference("plan", "statement", f"the statement no longer analyzes: {error_json(exc)['root_cause']}")]
    before = plan_text(plan, "analyzed")
    if now == before:
        return []
    lines = list(difflib.unified_diff(before.splitlines(), now.splitlines(), "compiled", "now",
                                      n=context_lines, lineterm=""))
    shown = "\n    ".join(lines[:limit]) + ("\n    …" if len(lines) > limit else "")
    return [Difference("plan", "statement", f"the statement now analyzes to a different plan:\n    {shown}")]


