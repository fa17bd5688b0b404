"""Catalyst's plans of a statement or DataFrame, read in the driver JVM.

The public API has ``EXPLAIN`` text only; these calls give the plans as trees (``TreeNode.toJSON``),
the row bound Spark proves, and a way to optimize a plan before it runs. Each needs
``Capability.PLAN_INTERNALS``; callers with a public path ask ``supports`` first.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Optional

from gateway.spark.backend import Capability, jdataframe, jsession, jvm
from gateway.spark.errors import ENGINE_ERRORS

log = logging.getLogger(__name__)
_SOME = re.compile(r"Some\((\d+)\)")


@dataclass
class CatalystPlans:
    analyzed_text: str
    optimized_text: str
    analyzed_json: Optional[list]   # Spark's flat pre-order node list, or None where toJSON refuses
    optimized_json: Optional[list]
    output_schema: dict             # StructType JSON of the statement's output


def catalyst_plans(spark, text: str) -> CatalystPlans:
    """Analyzed and optimized plans of ``text``; nothing is executed.

    ``sessionState.executePlan(parsePlan(text), SKIP)``: commands such as INSERT are analyzed,
    not run. Spark's analysis error (a missing table …) is raised as pyspark raises it.
    """
    what = "Catalyst's analyzed and optimized plans"
    state = jsession(spark, Capability.PLAN_INTERNALS, what).sessionState()
    skip = jvm(spark, Capability.PLAN_INTERNALS, what).org.apache.spark.sql.execution.CommandExecutionMode.SKIP()
    execution = state.executePlan(state.sqlParser().parsePlan(text), skip)
    analyzed = execution.analyzed()
    optimized = execution.optimizedPlan()
    return CatalystPlans(analyzed.treeString(), optimized.treeString(), _tree_json(analyzed),
                         _tree_json(optimized), json.loads(analyzed.schema().json()))


def _tree_json(plan) -> Optional[list]:
    """Spark's JSON tree, or None where a node cannot be written as JSON (the text remains)."""
    try:
        return json.loads(plan.toJSON())
    except ENGINE_ERRORS:  # some nodes hold values toJSON refuses
        log.debug("a plan node cannot be written as JSON; its text stands", exc_info=True)
        return None


def optimize_now(df) -> None:
    """Optimize a DataFrame's plan now (Spark caches it), so settings in force now shape it."""
    jdataframe(df, Capability.PLAN_INTERNALS, "optimizing a plan before it runs").queryExecution().optimizedPlan()


def proven_max_rows(df) -> Optional[int]:
    """The most rows Spark can prove the result has (the optimized plan's ``maxRows``), or None.

    A global LIMIT n proves n, an aggregate without GROUP BY 1, ``range(10)`` 10, a join of
    bounded sides their product; a table scan proves nothing.
    """
    jdf = jdataframe(df, Capability.PLAN_INTERNALS, "the row bound Spark proves for a plan")
    # Scala's Option as text ("Some(10)" or "None"): one Py4J round trip fewer than asking it.
    match = _SOME.fullmatch(str(jdf.queryExecution().optimizedPlan().maxRows().toString()))
    return int(match.group(1)) if match else None
