"""The one place the plan feature reaches into the JVM, each call with a public fallback.

``planned(spark, text)`` analyzes and optimizes a statement without running it: through the
JVM it asks Spark's ``sessionState.executePlan(parsePlan(text), SKIP)`` (commands such as INSERT
are analyzed, not executed) and gets both plans as JSON trees (``TreeNode.toJSON``) and text;
without the JVM (Spark Connect, a cluster client) it parses ``EXPLAIN EXTENDED`` text.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Optional

_SECTION = re.compile(r"^== (Parsed|Analyzed|Optimized|Physical) (Logical )?Plan ==$", re.M)
_SCHEMA_LINE = re.compile(r"^(`[^`]*`|[^\s:\[(]+): \S")


@dataclass
class PlannedStatement:
    analyzed_text: str
    optimized_text: str
    analyzed_json: Optional[list] = None     # Spark's flat pre-order node list, or None
    optimized_json: Optional[list] = None
    output_schema: Optional[dict] = None     # StructType JSON of the statement's output
    source: str = "jvm"                      # "jvm" (JSON trees) or "explain" (text only)


def planned(spark, text: str) -> PlannedStatement:
    """Analyzed and optimized plans of ``text``; nothing is executed."""
    try:
        jss = spark._jsparkSession
        jvm = spark.sparkContext._jvm
    except AttributeError:
        return _from_explain(spark, text)
    state = jss.sessionState()
    skip = jvm.org.apache.spark.sql.execution.CommandExecutionMode.SKIP()
    qe = state.executePlan(state.sqlParser().parsePlan(text), skip)
    analyzed = qe.analyzed()
    optimized = qe.optimizedPlan()
    result = PlannedStatement(analyzed.treeString(), optimized.treeString(), source="jvm")
    result.output_schema = json.loads(analyzed.schema().json())
    result.analyzed_json = _to_json(analyzed)
    result.optimized_json = _to_json(optimized)
    return result


def _to_json(plan) -> Optional[list]:
    """Spark's JSON tree, or None where a node cannot be written as JSON (the text remains)."""
    try:
        return json.loads(plan.toJSON())
    except Exception:  # noqa: BLE001 - some nodes hold values toJSON refuses; text is the fallback
        return None


def _from_explain(spark, text: str) -> PlannedStatement:
    explained = spark.sql("EXPLAIN EXTENDED " + text).collect()[0][0]
    sections = _explain_sections(explained)
    return PlannedStatement(sections.get("Analyzed", ""), sections.get("Optimized", ""), source="explain")


def _explain_sections(explained: str) -> dict[str, str]:
    marks = list(_SECTION.finditer(explained))
    sections = {}
    for mark, following in zip(marks, marks[1:] + [None]):
        body = explained[mark.end():following.start() if following else len(explained)]
        lines = body.strip("\n").splitlines()
        if mark.group(1) == "Analyzed" and len(lines) > 1 and _SCHEMA_LINE.match(lines[0]):
            lines = lines[1:]  # the analyzed section of a query starts with its output schema
        sections[mark.group(1)] = "\n".join(lines).rstrip() + "\n"
    return sections


def force_optimized(df) -> None:
    """Optimize a DataFrame's plan now (Spark caches it), so settings in force now shape it."""
    try:
        df._jdf.queryExecution().optimizedPlan()
    except AttributeError:
        pass  # no JVM: the plan is optimized when it runs
