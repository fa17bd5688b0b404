"""What Spark knows about a write: whether a catalog stages it, and how many rows it wrote."""
from __future__ import annotations

import logging
from typing import Optional

from gateway.spark.backend import Capability, jdataframe, jsession, jvm
from gateway.spark.errors import ENGINE_ERRORS

log = logging.getLogger(__name__)

_STAGING_CATALOG_CLASS = "org.apache.spark.sql.connector.catalog.StagingTableCatalog"
_COMMAND_RESULT_CLASS = "org.apache.spark.sql.execution.CommandResultExec"


def catalog_stages_writes(spark, catalog: str) -> bool:
    """Does ``catalog`` implement Spark's StagingTableCatalog (atomic CTAS/RTAS by Spark itself)?

    A catalog Spark cannot load answers False: the statement then runs unchanged and Spark
    reports the missing catalog in its own words.
    """
    what = "asking whether a catalog stages its writes"
    manager = jsession(spark, Capability.SESSION_STATE, what).sessionState().catalogManager()
    staging = jvm(spark, Capability.SESSION_STATE, what).java.lang.Class.forName(_STAGING_CATALOG_CLASS)
    try:
        plugin = manager.catalog(catalog)
    except ENGINE_ERRORS:
        log.debug("catalog %s cannot be loaded; Spark reports it when the statement runs", catalog, exc_info=True)
        return False
    return bool(staging.isInstance(plugin))


def written_rows(df) -> Optional[int]:
    """Rows a write command wrote, from its ``numOutputRows`` metric; None when Spark kept none
    (a data source CTAS runs its insert inside the command and reports no metric).

    The write has happened when this is asked, so a plan that cannot be read (another Spark's
    plan classes) gives None with a log line rather than failing the finished write.
    """
    plan = jdataframe(df, Capability.PLAN_INTERNALS, "the rows a write command wrote").queryExecution().executedPlan()
    try:
        if plan.getClass().getName() == _COMMAND_RESULT_CLASS:
            # A command's result wraps its physical plan; the result's own numOutputRows counts the
            # rows the command returned (0), not the rows it wrote.
            plan = plan.commandPhysicalPlan()
        metric = plan.metrics().get("numOutputRows")
        if metric.isDefined():
            return int(metric.get().value())
    except ENGINE_ERRORS:
        log.warning("the rows written are unknown: the write plan cannot be read", exc_info=True)
    return None
