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


# Inputs this small make a statement run in the scheduler's small lane (gateway/spark/scheduler.py).
SMALL_INPUT_BYTES = 1 << 20
_MAX_LEAVES = 16
_MULTIPLYING = re.compile(r"^[\s+:\-]*(Generate|Join) ", re.MULTILINE)


def proven_small_input(df, max_bytes: int = SMALL_INPUT_BYTES) -> bool:
    """True when Spark proves every input of the statement tiny: it reads at most ``max_bytes``.

    Catalyst's statistics of each leaf of the optimized plan: a file table's size on disk,
    ``range(n)`` 8n bytes, a VALUES list or ``SELECT 1`` its rows; a table without statistics
    (Hive without ANALYZE) counts as Spark's default, which is huge. A generator (``explode``) makes
    no claim; a join only when the product of its inputs' sizes is within ``max_bytes`` too
    (a cross join of two 1,000-row ranges multiplies). More than 16 inputs are not looked at.
    """
    plan = jdataframe(df, Capability.PLAN_INTERNALS, "the size Spark proves for a plan's inputs") \
        .queryExecution().optimizedPlan()
    leaves = plan.collectLeaves()
    count = leaves.size()
    if count == 0 or count > _MAX_LEAVES:
        return False
    sizes = []
    for i in range(count):
        size = leaves.apply(i).stats().sizeInBytes()  # Scala's BigInt (Py4J hands a small one over as int)
        sizes.append(size if isinstance(size, int) else int(size.toString()))
        if sum(sizes) > max_bytes:
            return False
    multiplying = {match.group(1) for match in _MULTIPLYING.finditer(plan.toString())}
    if "Generate" in multiplying:
        return False
    if "Join" in multiplying:
        product = 1
        for size in sizes:
            product *= max(size, 1)
            if product > max_bytes:
                return False
    return True


def estimated_result_bytes(df) -> Optional[int]:
    """Catalyst's estimate of the result's size in bytes (its optimized plan's ``sizeInBytes``), or None.

    Row counts times Spark's default width of each column type: close for numbers, low for long
    strings (a string counts as 20 bytes), high after a selective filter. An estimate, for budgets.
    """
    try:
        size = jdataframe(df, Capability.PLAN_INTERNALS, "the size Spark estimates for a result") \
            .queryExecution().optimizedPlan().stats().sizeInBytes()
        return size if isinstance(size, int) else int(size.toString())
    except ENGINE_ERRORS as exc:
        log.debug("no size estimate for a result: %s", exc)
        return None


def driver_local(df):
    """The same query as a DataFrame whose rows Spark computes in the driver, without a job, or None.

    For a projection of one row and no table (``SELECT 1``, ``SELECT current_date(), rand()``):
    Catalyst plans ``OneRowRelation`` as a one-task job (~40 ms on 2 cores), while the same
    projection over a one-row ``LocalRelation`` (what ``VALUES`` gives) is evaluated by Spark's own
    optimizer rule ConvertToLocalRelation and collected without a job. Only the leaf changes (one
    empty row either way); a plan of any other shape, or a Spark whose classes differ, gives None
    and runs as it is. Errors of the query itself (``SELECT 1/0``) are left to that run.
    """
    what = "collecting a one-row projection in the driver"
    try:
        plan = jdataframe(df, Capability.PLAN_INTERNALS, what).queryExecution().optimizedPlan()
        if plan.nodeName() != "Project" or plan.child().nodeName() != "OneRowRelation":
            return None
        j = jvm(df.sparkSession, Capability.PLAN_INTERNALS, what)

        def seq(*items):
            listed = j.java.util.ArrayList()
            for item in items:
                listed.add(item)
            return j.scala.jdk.javaapi.CollectionConverters.asScala(listed).toSeq()

        one_row = j.org.apache.spark.sql.catalyst.plans.logical.LocalRelation(
            seq(), seq(j.org.apache.spark.sql.catalyst.InternalRow.empty()), False, j.scala.Option.empty())
        dataset = j.org.apache.spark.sql.classic.Dataset.ofRows(
            jsession(df.sparkSession, Capability.PLAN_INTERNALS, what), plan.withNewChildren(seq(one_row)))
        from pyspark.sql.classic.dataframe import DataFrame

        return DataFrame(dataset, df.sparkSession)
    except (*ENGINE_ERRORS, ImportError, AttributeError, TypeError):  # noqa: B030 - the plain run follows
        log.debug("no driver-side collection for this plan; it runs as a job", exc_info=True)
        return None
