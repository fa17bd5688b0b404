"""Writes Spark runs itself: catalogs with Spark's own staging, and the non-atomic fallback.

A catalog that implements Spark's ``StagingTableCatalog`` (Delta, Iceberg, …) already gets
atomic CTAS/RTAS from Spark (``AtomicCreateTableAsSelectExec`` stages, writes and commits in
one job, and aborts the staged table on failure), so the statement goes to Spark unchanged.
Other writes run here only when the session allowed one non-atomic write on purpose.
"""
from __future__ import annotations

from typing import Optional

from gateway.features.atomic.parse import WriteRequest
from gateway.features.atomic.protocol import TwoPhaseCatalogTable, WriteStep


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
        table = ".".join(self.request.name_parts) if self.request and self.request.name_parts else None
        action = self.request.action.value if self.request and self.request.action else None
        return {"table": table, "action": action, "rows": written_rows, "location": None,
                "atomic": self.atomic, "note": self.reason}

    def abort(self) -> None:
        pass  # Spark's staging catalog aborts its own staged table; the fallback has nothing staged
