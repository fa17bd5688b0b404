"""What a statement would make the driver do, read from Spark's own plans (issue 27, items 1 and 2).

Words cannot tell ``reflect`` in a lambda, a CTE, a SQL function's body or a view from a column
named reflect; Spark's analyzer can. ``plan_capabilities`` parses a statement with the session's
parser, refuses what analysis itself would run (``EXECUTE IMMEDIATE`` runs a command's text while
it is analysed; a ``BEGIN … END`` script is analysed one statement at a time, while it runs), then
analyses it without running any command (``CommandExecutionMode.SKIP``) and reads the class of
every node and expression of both plans from their JSON trees: subqueries, CTEs, lambda
functions, views and SQL functions (expanded by the analyzer) are all in them.

Needs ``Capability.PLAN_INTERNALS``; without it nothing can be checked (``PlanNotCheckable``).
"""
from __future__ import annotations

import enum
import json
import logging
from dataclasses import dataclass
from typing import Iterator, Optional

from gateway.spark.backend import Capability, jsession, jvm, supports
from gateway.spark.errors import ENGINE_ERRORS

log = logging.getLogger(__name__)

_WHAT = "checking what a statement would run, with Spark's analyzer"


class EngineAccess(str, enum.Enum):
    """Ways a statement reaches the server's programs, files or JVM (the names of auth.non_admin_allow)."""

    SCRIPT_TRANSFORM = "script_transform"    # SELECT TRANSFORM … USING 'program': a process on the server
    REFLECTION = "reflection"                # reflect / java_method / try_reflect: any static JVM method
    DIRECTORY_WRITES = "directory_writes"    # INSERT OVERWRITE [LOCAL] DIRECTORY: files anywhere
    LOCAL_FILES = "local_files"              # LOAD DATA [LOCAL] INPATH, tables at a LOCATION or path
    CODE = "code"                            # ADD JAR/FILE/ARCHIVE, CREATE FUNCTION … AS 'class'
    UNCHECKED = "unchecked_execution"        # EXECUTE IMMEDIATE, BEGIN … END: text analysed only as it runs


# Catalyst classes (simple names: a package move between Spark versions must not open a hole).
_CLASSES: dict[str, EngineAccess] = {
    "ScriptTransformation": EngineAccess.SCRIPT_TRANSFORM,
    "HiveScriptTransformationExec": EngineAccess.SCRIPT_TRANSFORM,
    "SparkScriptTransformationExec": EngineAccess.SCRIPT_TRANSFORM,
    "CallMethodViaReflection": EngineAccess.REFLECTION,
    "TryReflect": EngineAccess.REFLECTION,
    "InsertIntoDir": EngineAccess.DIRECTORY_WRITES,
    "InsertIntoDataSourceDirCommand": EngineAccess.DIRECTORY_WRITES,
    "InsertIntoHiveDirCommand": EngineAccess.DIRECTORY_WRITES,
    "LoadData": EngineAccess.LOCAL_FILES,
    "LoadDataCommand": EngineAccess.LOCAL_FILES,
    "SetTableLocation": EngineAccess.LOCAL_FILES,
    "SetNamespaceLocation": EngineAccess.LOCAL_FILES,          # ALTER DATABASE … SET LOCATION
    "AlterDatabaseSetLocationCommand": EngineAccess.LOCAL_FILES,
    "AlterTableSetLocationCommand": EngineAccess.LOCAL_FILES,
    "AddJarsCommand": EngineAccess.CODE,
    "AddFilesCommand": EngineAccess.CODE,
    "AddArchivesCommand": EngineAccess.CODE,
    "CreateFunction": EngineAccess.CODE,
    "CreateFunctionCommand": EngineAccess.CODE,
    "UnresolvedExecuteImmediate": EngineAccess.UNCHECKED,
    "ExecuteImmediateQuery": EngineAccess.UNCHECKED,
    "ExecuteImmediateCommands": EngineAccess.UNCHECKED,
    "CompoundBody": EngineAccess.UNCHECKED,
    # Something ran while the plan was analysed: it must never get that far (fail closed).
    "CommandResult": EngineAccess.UNCHECKED,
}
# Table specs and options that put a table's files at a path of the user's choice.
_TABLE_SPECS = frozenset({"UnresolvedTableSpec", "TableSpec"})


@dataclass(frozen=True)
class Finding:
    access: EngineAccess
    node: str  # Spark's class, simple name, for the message


class PlanNotCheckable(Exception):
    """The backend offers no Catalyst plans (Spark Connect): what the statement runs is unknown."""


def plan_capabilities(spark, text: str, allowed: frozenset = frozenset()) -> list[Finding]:
    """What ``text`` would reach on the server, outside ``allowed``; [] when nothing.

    Raises Spark's ParseException/AnalysisException as pyspark raises them: a statement Spark
    cannot parse or analyse would not run either. Raises ``PlanNotCheckable`` without Catalyst.
    """
    if not supports(spark, Capability.PLAN_INTERNALS):
        raise PlanNotCheckable(_WHAT)
    state = jsession(spark, Capability.PLAN_INTERNALS, _WHAT).sessionState()
    parsed = state.sqlParser().parsePlan(text)
    parsed_nodes = _plan_nodes(parsed)
    findings = _findings(parsed_nodes, allowed) + _namespace_location(parsed, allowed)
    if findings or any(_CLASSES.get(name) is EngineAccess.UNCHECKED for name, _ in parsed_nodes):
        return findings  # never analyse what analysis would run (allowed: the admin said so)
    skip = jvm(spark, Capability.PLAN_INTERNALS, _WHAT).org.apache.spark.sql.execution.CommandExecutionMode.SKIP()
    analyzed = state.executePlan(parsed, skip).analyzed()
    return _findings(_plan_nodes(analyzed), allowed)


def _namespace_location(plan, allowed: frozenset) -> list[Finding]:
    """``CREATE DATABASE … LOCATION '/any/dir'``: the location rides in the command's properties, a
    map Catalyst's JSON writes as null, so it is read from the JVM node itself."""
    if EngineAccess.LOCAL_FILES in allowed or str(plan.getClass().getSimpleName()) != "CreateNamespace":
        return []
    if plan.properties().contains("location"):
        return [Finding(EngineAccess.LOCAL_FILES, "CreateNamespace")]
    return []


def _plan_nodes(plan) -> list[tuple[str, dict]]:
    """Every node and expression of a JVM plan: from its JSON tree (one call), or, where a node refuses
    to be written as JSON, by walking the tree node by node through Py4J (slower, same classes)."""
    try:
        return list(_nodes(json.loads(plan.toJSON())))
    except ENGINE_ERRORS:
        log.debug("a plan node cannot be written as JSON; walking the plan instead", exc_info=True)
    found: list[tuple[str, dict]] = []
    stack = [plan]
    while stack:
        node = stack.pop()
        found.append((str(node.getClass().getSimpleName()).rstrip("$"), {}))
        members = [node.children(), node.innerChildren()]  # a plan's inner children are its subqueries
        try:
            members.append(node.expressions())  # a plan's expressions (an expression has none)
        except ENGINE_ERRORS:
            pass
        for seq in members:
            stack.extend(seq.apply(i) for i in range(seq.length()))
    return found


def _findings(nodes: list[tuple[str, dict]], allowed: frozenset) -> list[Finding]:
    found: dict[EngineAccess, Finding] = {}
    for name, node in nodes:
        access = _CLASSES.get(name)
        if access is None and name in _TABLE_SPECS and node.get("location"):
            access = EngineAccess.LOCAL_FILES
        if access is None and name == "OptionList" and _has_path_option(node):
            access = EngineAccess.LOCAL_FILES
        if access is not None and access not in allowed and access not in found:
            found[access] = Finding(access, name)
    return list(found.values())


def _has_path_option(node: dict) -> bool:
    options = node.get("options") or []
    text = json.dumps(options).lower()
    return '"path"' in text or "'path'" in text


def _nodes(value) -> Iterator[tuple[str, dict]]:
    """(simple class name, node) of every JSON object with a ``class`` in a Catalyst JSON tree,
    however deep (expressions, subquery plans, table specs)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            cls = item.get("class")
            if isinstance(cls, str):
                yield cls.rsplit(".", 1)[-1].rstrip("$"), item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def describe(findings: list[Finding]) -> str:
    return ", ".join(f"{finding.access.value} ({finding.node})" for finding in findings)


def first_line(text: Optional[str]) -> str:
    return (text or "").strip().split("\n", 1)[0][:120]
