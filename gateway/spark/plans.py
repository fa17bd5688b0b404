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


def optimized_plan(df, what: str):
    """The JVM's optimized plan of ``df``, asked once per DataFrame: Spark computes it once anyway
    (``QueryExecution`` keeps it), and each ask is two Py4J round trips that a statement's several
    plan checks (row bound, input size, constants) would repeat."""
    plan = vars(df).get("_workbench_optimized_plan")  # not getattr: a DataFrame looks a missing name up as a column
    if plan is None:
        plan = jdataframe(df, Capability.PLAN_INTERNALS, what).queryExecution().optimizedPlan()
        df._workbench_optimized_plan = plan
    return plan


def optimize_now(df) -> None:
    """Optimize a DataFrame's plan now (Spark caches it), so settings in force now shape it."""
    optimized_plan(df, "optimizing a plan before it runs")


def proven_max_rows(df) -> Optional[int]:
    """The most rows Spark can prove the result has (the optimized plan's ``maxRows``), or None.

    A global LIMIT n proves n, an aggregate without GROUP BY 1, ``range(10)`` 10, a join of
    bounded sides their product; a table scan proves nothing.
    """
    plan = optimized_plan(df, "the row bound Spark proves for a plan")
    # Scala's Option as text ("Some(10)" or "None"): one Py4J round trip fewer than asking it.
    match = _SOME.fullmatch(str(plan.maxRows().toString()))
    return int(match.group(1)) if match else None


# Inputs this small make a statement run in the scheduler's small lane (gateway/spark/scheduler.py).
SMALL_INPUT_BYTES = 1 << 20
_MAX_LEAVES = 16
_MULTIPLYING = re.compile(r"^[\s+:\-]*(Generate|Join) ", re.MULTILINE)


def _big_int(value) -> int:
    """A Scala ``BigInt`` (``sizeInBytes``) as an int: Py4J hands a small one over as int already."""
    return value if isinstance(value, int) else int(value.toString())


def proven_small_input(df, max_bytes: int = SMALL_INPUT_BYTES) -> bool:
    """True when Spark proves every input of the statement tiny: it reads at most ``max_bytes``.

    Catalyst's statistics of each leaf of the optimized plan: a file table's size on disk,
    ``range(n)`` 8n bytes, a VALUES list or ``SELECT 1`` its rows; a table without statistics
    (Hive without ANALYZE) counts as Spark's default, which is huge. A generator (``explode``) makes
    no claim; a join only when the product of its inputs' sizes is within ``max_bytes`` too
    (a cross join of two 1,000-row ranges multiplies). More than 16 inputs are not looked at.
    """
    plan = optimized_plan(df, "the size Spark proves for a plan's inputs")
    leaves = plan.collectLeaves()
    count = leaves.size()
    if count == 0 or count > _MAX_LEAVES:
        return False
    sizes = []
    for i in range(count):
        sizes.append(_big_int(leaves.apply(i).stats().sizeInBytes()))
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
        return _big_int(optimized_plan(df, "the size Spark estimates for a result").stats().sizeInBytes())
    except ENGINE_ERRORS as exc:
        log.debug("no size estimate for a result: %s", exc)
        return None


# Per driver JVM (its Py4J view): the Scala pieces of a one-row relation and the classes that
# build the plan, looked up once (each package or member lookup through Py4J is a round trip).
_ONE_ROW: list = [None, None]


def in_driver(df):
    """``df`` rewritten so that Spark computes it in the driver, without a job, or None.

    Catalyst plans a projection of constants (``SELECT 1``, ``SELECT current_date()``) as
    ``Project`` over ``OneRowRelation``, and runs it as a one-task job: 10-100 ms here, most of
    a ``SELECT 1`` (validation queries of connection pools and BI tools). The same projection over
    a one-row ``LocalRelation`` is evaluated by the optimizer (``ConvertToLocalRelation``, as for
    a VALUES list) and collected without a job; what the driver cannot evaluate (a scalar
    subquery) still runs as a job, as before. Any other plan, or a Spark that refuses the rewrite,
    gives None: the caller runs ``df`` as it is. Errors of the expressions themselves surface when
    the returned DataFrame is collected, with Spark's error class.
    """
    from pyspark.sql import DataFrame

    what = "evaluating a projection of constants in the driver"
    try:
        # The analyzed plan first: Spark built it with the DataFrame, and ``SELECT 1`` is already a Project over
        # OneRowRelation there, so its optimizer never runs for a plan that is not executed. Other shapes that
        # the optimizer turns into one (``SELECT * FROM (SELECT 1)``) are checked on the optimized plan.
        plan = jdataframe(df, Capability.PLAN_INTERNALS, what).queryExecution().analyzed()
        if not _one_row_projection(plan):
            plan = optimized_plan(df, what)
            if not _one_row_projection(plan):
                return None
        spark = df.sparkSession
        view = jvm(spark, Capability.PLAN_INTERNALS, what)
        if _ONE_ROW[0] is not view:
            _ONE_ROW[:] = [view, _one_row_pieces(view)]
        no_columns, rows, no_stream, local_relation, project, of_rows = _ONE_ROW[1]
        local = of_rows(jsession(spark, Capability.PLAN_INTERNALS, what),
                        project(plan.projectList(), local_relation(no_columns, rows, False, no_stream)))
    except ENGINE_ERRORS:  # another Spark version's classes: the job it is
        log.debug("a projection of constants could not be moved into the driver", exc_info=True)
        return None
    return DataFrame(local, spark)


def _one_row_projection(plan) -> bool:
    return plan.nodeName() == "Project" and plan.child().nodeName() == "OneRowRelation"


def _one_row_pieces(view) -> tuple:
    to_scala = view.scala.jdk.javaapi.CollectionConverters
    one_row = view.java.util.ArrayList()
    one_row.add(view.org.apache.spark.sql.catalyst.InternalRow.empty())
    logical = view.org.apache.spark.sql.catalyst.plans.logical
    return (to_scala.asScala(view.java.util.ArrayList()).toSeq(), to_scala.asScala(one_row).toSeq(),
            view.scala.Option.empty(), logical.LocalRelation, logical.Project,
            view.org.apache.spark.sql.classic.Dataset.ofRows)
