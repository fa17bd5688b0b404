"""The atomic writes feature (FLIP-305): CTAS, RTAS and INSERT OVERWRITE as staged two-phase
writes, and the repair at start-up of writes a killed process left behind."""
from __future__ import annotations

from gateway.config import Setting
from gateway.core import catalog
from gateway.core.statements import StatementKind
from gateway.features.atomic.write_journal import Journal
from gateway.features.atomic.recovery import recover
from gateway.features.atomic.staged import is_staging_name
from gateway.features.atomic.writer import AtomicWriter
from gateway.api.plugins import Feature

JOURNAL_DIR = "atomic"


class AtomicWritesFeature(Feature):
    name = "atomic"
    description = "Atomic CREATE TABLE AS SELECT, REPLACE TABLE AS SELECT and INSERT OVERWRITE (FLIP-305)."
    settings = (
        Setting("atomic_writes.enabled", True,
                "Run CTAS, REPLACE TABLE AS SELECT and INSERT OVERWRITE as staged two-phase writes (FLIP-305)."),
    )

    def start(self, host) -> None:
        """Repair first, whatever the setting: a journal left by a killed process is always finished."""
        super().start(host)
        if is_staging_name not in catalog.hidden_table_filters:  # a running write's tables are not the user's
            catalog.hidden_table_filters.append(is_staging_name)
        self.journal = Journal(host.config.data_dir / JOURNAL_DIR)
        self.recovered = recover(host.root.newSession(), self.journal)
        self.writer = AtomicWriter(self.journal, host.split) if host.config["atomic_writes.enabled"] else None

    def handlers(self):
        if self.writer is None:
            return {}
        # CREATE and QUERY too: Spark's parser finds the writes their leading words hide (CTAS without
        # AS, WITH … INSERT OVERWRITE), which would otherwise run through Spark unstaged.
        return {StatementKind.CREATE_TABLE_AS: self.writer.handle, StatementKind.INSERT_OVERWRITE: self.writer.handle,
                StatementKind.CREATE: self.writer.handle_if_write, StatementKind.QUERY: self.writer.handle_if_write}
