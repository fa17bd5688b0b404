"""How the plan feature gets plans from Spark: Catalyst's trees where the backend has them,
``EXPLAIN EXTENDED`` text where it does not.

``planned(spark, text)`` analyzes and optimizes a statement without running it. With
``Capability.PLAN_INTERNALS`` it asks Spark (``gateway.spark.plans.catalyst_plans``) for both
plans as JSON trees and text; otherwise (Spark Connect, a cluster client) it parses
``EXPLAIN EXTENDED`` text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from gateway.spark.backend import Capability, supports
from gateway.spark.plans import catalyst_plans, optimize_now

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
    if not supports(spark, Capability.PLAN_INTERNALS):
        return _from_explain(spark, text)
    plans = catalyst_plans(spark, text)
    return PlannedStatement(plans.analyzed_text, plans.optimized_text, plans.analyzed_json,
                            plans.optimized_json, plans.output_schema, source="jvm")


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
    """Optimize a DataFrame's plan now (Spark caches it), so settings in force now shape it.

    A backend without Catalyst's plan optimizes it when it runs, under the settings then.
    """
    if supports(df.sparkSession, Capability.PLAN_INTERNALS):
        optimize_now(df)
