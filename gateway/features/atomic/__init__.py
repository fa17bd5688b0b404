"""Atomic CREATE TABLE AS SELECT, REPLACE TABLE AS SELECT and INSERT OVERWRITE (FLIP-305)."""
from __future__ import annotations

from gateway.features.atomic.write_journal import Journal
from gateway.features.atomic.parse import WriteAction, WriteRequest, parse_write
from gateway.features.atomic.protocol import TwoPhaseCatalogTable
from gateway.features.atomic.recovery import recover
from gateway.features.atomic.staged import is_staging_name
from gateway.features.atomic.writer import ALLOW_NON_ATOMIC, AtomicWriter

__all__ = ["ALLOW_NON_ATOMIC", "AtomicWriter", "Journal", "TwoPhaseCatalogTable", "WriteAction", "WriteRequest",
           "is_staging_name", "parse_write", "recover"]
