"""Writes Spark runs itself: catalogs with Spark's own staging, and the non-atomic fallback.

A catalog that implements Spark's ``StagingTableCatalog`` (Delta, Iceberg, …) already gets
atomic CTAS/RTAS from Spark (``AtomicCreateTableAsSelectExec`` stages, writes and commits in
one job, and aborts the staged table on failure), so the statement goes to Spark unchanged.
"""
from __future__ import annotations

import logging
from typing import Optional

from gateway.features.atomic.parse import WriteRequest
from gateway.features.atomic.protocol import TwoPhaseCatalogTable, WriteStep

log = logging.getLogger(__name__)

_STAGING_CATALOG_CLASS = "org.apache.spark.sql.connector.catalog.StagingTableCatalog"


def supports_staging(spark, catalog: str) -> bool:
    """Does this catalog implement StagingTableCatalog? (JVM adapter; False when it cannot tell.)"""
    try:
        jvm = spark._jvm
        plugin = spark._jsparkSession.sessionState().catalogManager().catalog(catalog)
        return bool(jvm.java.lang.Class.forName(_STAGING_CATALOG_CLASS).isInstance(plugin))
    except Exception:
        log.debug("cannot tell whether catalog %s supports staging", catalog, exc_info=True)
        return False


def written_rows(df) -> Optional[int]:
    """Rows a write command wrote, from its ``numOutputRows`` metric (JVM adapter; None if unknown)."""
    try:
        plan = df._jdf.queryExecution().executedPlan()
        nodes = [plan]
        try:
            nodes.insert(0, plan.commandPhysicalPlan())
        except Exception:
            pass
        for node in nodes:
            metric = node.metrics().get("numOutputRows")
            if metric.isDefined():
                return int(metric.get().value())
    except Exception:
        log.debug("the write metrics are not reachable", exc_info=True)
    return None


class SparkWrite(TwoPhaseCatalogTable):
    """The statement runs through Spark unchanged; ``atomic`` says whether Spark stages it."""

    def __init__(self, request: Optional[WriteRequest], text: str, atomic: bool, reason: str) -> None:
        self.request = request
        self.statements = [WriteStep(text)]
        self.atomic = atomic
        self.reason = reason

    def begin_transaction(self) -> None:
        pass

    def commit(self, written_rows: Optional[int]) -> dict:
        table = ".".join(self.request.name_parts) if self.request else None
        action = self.request.action.value if self.request else None
        return {"table": table, "action": action, "rows": written_rows, "location": None,
                "atomic": self.atomic, "note": self.reason}

    def abort(self) -> None:
        pass  # Spark's staging catalog aborts its own staged table; the fallback has nothing staged
