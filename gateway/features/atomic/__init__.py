"""Atomic CREATE TABLE AS SELECT, REPLACE TABLE AS SELECT and INSERT OVERWRITE (FLIP-305)."""
from __future__ import annotations

from gateway.core import catalog
from gateway.features.atomic.journal import Journal
from gateway.features.atomic.parse import WriteAction, WriteRequest, parse_write
from gateway.features.atomic.protocol import TwoPhaseCatalogTable
from gateway.features.atomic.recovery import recover
from gateway.features.atomic.staged import is_staging_name
from gateway.features.atomic.writer import AtomicWriter

__all__ = ["AtomicWriter", "Journal", "TwoPhaseCatalogTable", "WriteAction", "WriteRequest",
           "install_atomic_writes", "is_staging_name", "parse_write", "recover"]

JOURNAL_DIR = "atomic"

catalog.hidden_table_filters.append(is_staging_name)  # a running write's tables are not the user's


def install_atomic_writes(service) -> None:
    """Repair writes a killed process left behind, then (unless switched off) handle CTAS,
    RTAS and INSERT OVERWRITE as two-phase writes."""
    from gateway.core.statements import StatementKind

    journal = Journal(service.config.data_dir / JOURNAL_DIR)
    service.atomic_recovered = recover(service.root.newSession(), journal)
    if not service.config["atomic_writes.enabled"]:
        return
    writer = AtomicWriter(journal, service.runner.split)
    service.runner.register(StatementKind.CREATE_TABLE_AS, writer.handle)
    service.runner.register(StatementKind.INSERT_OVERWRITE, writer.handle)
