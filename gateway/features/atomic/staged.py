"""Staged writes into the session catalog (Hive metastore or in-memory): FLIP-305's
TwoPhaseCatalogTable for tables Spark itself cannot write atomically.

The query result goes into a staging table ``__wb_staging_<txid>`` of the target's database
(a managed table, so its directory lies next to the target's). Publishing is a rename:
- CREATE: rename staging -> target (the metastore moves the directory with it).
- REPLACE: rename target -> backup, staging -> target, then drop the backup.
- INSERT OVERWRITE: the target keeps its metastore entry (properties, owner, external
  location); its directory is swapped: target dir -> hidden backup dir, staging dir -> target
  dir, then the metastore's partitions are synced to the directories.
Every step is journaled first, and ``abort`` looks at what exists, so it can undo a publish
that stopped anywhere before the commit point (the same code repairs a killed process).
"""
from __future__ import annotations

import logging
import uuid
from typing import Optional

from gateway.features.atomic import write_journal as phases
from gateway.features.atomic.crash import crash_point
from gateway.features.atomic.files import TableFiles
from gateway.features.atomic.write_journal import Journal
from gateway.features.atomic.metastore import SessionCatalog
from gateway.features.atomic.parse import WriteRequest
from gateway.features.atomic.protocol import TwoPhaseCatalogTable, WriteStep

log = logging.getLogger(__name__)

STAGING_PREFIX = "__wb_staging_"
BACKUP_PREFIX = "__wb_backup_"


def is_staging_name(name: str) -> bool:
    """True for the workbench's own staging and backup tables (hide them in catalog lists)."""
    return name.lower().startswith((STAGING_PREFIX, BACKUP_PREFIX))


class StagedWrite(TwoPhaseCatalogTable):
    """Shared state and steps; all of it lives in ``entry`` so recovery can rebuild the object."""

    action = ""

    def __init__(self, spark, journal: Journal, entry: dict, request: Optional[WriteRequest] = None) -> None:
        self.spark = spark
        self.journal = journal
        self.entry = entry
        self.request = request
        self.catalog = SessionCatalog(spark)
        self.files = TableFiles(spark)
        self.statements: list[WriteStep] = []

    @classmethod
    def new(cls, spark, journal: Journal, request: WriteRequest, db: str, table: str) -> "StagedWrite":
        txid = uuid.uuid4().hex[:16]
        entry = {"txid": txid, "action": cls.action, "db": db, "table": table,
                 "staging": STAGING_PREFIX + txid, "phase": phases.WRITING}
        return cls(spark, journal, entry, request)

    # -- shared steps ---------------------------------------------------------------------------

    @property
    def db(self) -> str:
        return self.entry["db"]

    @property
    def table(self) -> str:
        return self.entry["table"]

    @property
    def staging(self) -> str:
        return self.entry["staging"]

    def _record(self, phase: str) -> None:
        self.entry["phase"] = phase
        self.journal.record(self.entry)

    def _drop_staging(self) -> None:
        self.catalog.drop(self.db, self.staging)
        if self.entry.get("staging_path"):
            self.files.delete(self.entry["staging_path"])

    def _committed(self, rows: Optional[int]) -> dict:
        try:
            location = self.catalog.location(self.db, self.table)
        except Exception:  # the table is committed; its location is only for the report
            log.debug("the committed table's location could not be read", exc_info=True)
            location = None
        return {"table": f"spark_catalog.{self.db}.{self.table}", "action": self.action, "rows": rows,
                "location": location, "atomic": True}

    def staged_rows(self) -> Optional[int]:
        """Rows in the staging table: what a create publishes (Spark's CTAS reports no row metric)."""
        return self.spark.sql(f"SELECT count(*) FROM {self.catalog.ident(self.db, self.staging)}").first()[0]

    def finish(self) -> None:
        """The clean-up after the commit point; kept in the journal until it has succeeded."""
        self.journal.remove(self.entry["txid"])


class StagedCreate(StagedWrite):
    """CREATE TABLE … AS SELECT (and CREATE OR REPLACE of a table that does not exist yet)."""

    action = "CREATE"

    def begin_transaction(self) -> None:
        self.entry["staging_path"] = self.catalog.database_location(self.db) + "/" + self.staging.lower()
        self._record(phases.WRITING)
        self.statements = [WriteStep(self.request.against(self.catalog.ident(self.db, self.staging)))]

    def commit(self, written_rows: Optional[int]) -> dict:
        self._record(phases.PUBLISHING)
        crash_point("create:before_publish", self.table)
        self.catalog.rename(self.db, self.staging, self.table)  # the commit point
        crash_point("create:after_publish", self.table)
        self._record(phases.COMMITTED)
        self.finish()
        return self._committed(written_rows)

    def abort(self) -> None:
        published = (self.entry["phase"] == phases.PUBLISHING and not self.catalog.exists(self.db, self.staging)
                     and self.catalog.exists(self.db, self.table))
        if published:  # the rename went through before the failure: that is the commit
            self.finish()
            return
        self._drop_staging()
        self.journal.remove(self.entry["txid"])


class StagedReplace(StagedWrite):
    """CREATE OR REPLACE TABLE / REPLACE TABLE … AS SELECT of an existing table."""

    action = "REPLACE"

    def begin_transaction(self) -> None:
        self.entry["backup"] = BACKUP_PREFIX + self.entry["txid"]
        self.entry["staging_path"] = self.catalog.database_location(self.db) + "/" + self.staging.lower()
        self._record(phases.WRITING)
        self.statements = [WriteStep(self.request.against(self.catalog.ident(self.db, self.staging)))]

    def commit(self, written_rows: Optional[int]) -> dict:
        self._record(phases.PUBLISHING)
        self.catalog.rename(self.db, self.table, self.entry["backup"])
        crash_point("replace:after_backup", self.table)
        self.catalog.rename(self.db, self.staging, self.table)
        crash_point("replace:after_swap", self.table)
        self._record(phases.COMMITTED)  # the commit point
        crash_point("replace:committed", self.table)
        self.finish()
        return self._committed(written_rows)

    def finish(self) -> None:
        try:
            self.catalog.drop(self.db, self.entry["backup"])
        except Exception:
            log.exception("dropping the replaced table %s.%s failed; the next start retries",
                          self.db, self.entry["backup"])
            return
        super().finish()

    def abort(self) -> None:
        backup = self.entry.get("backup")
        if backup and self.catalog.exists(self.db, backup):
            if self.catalog.exists(self.db, self.table) and not self.catalog.exists(self.db, self.staging):
                self.catalog.rename(self.db, self.table, self.staging)  # the new table goes back to staging
            self.catalog.rename(self.db, backup, self.table)
        self._drop_staging()
        self.journal.remove(self.entry["txid"])


class StagedOverwrite(StagedWrite):
    """INSERT OVERWRITE [TABLE] t [PARTITION …] SELECT …: the table's directory is swapped."""

    action = "INSERT_OVERWRITE"

    def begin_transaction(self) -> None:
        target_path = self.catalog.location(self.db, self.table).rstrip("/")
        partitions = self.catalog.partition_columns(self.db, self.table)
        self.entry.update(
            target_path=target_path, partitioned=bool(partitions),
            staging_path=self.catalog.database_location(self.db) + "/" + self.staging.lower(),
            backup_path=self.files.sibling(target_path, f".wb-backup-{self.entry['txid']}"))
        self._record(phases.WRITING)
        if not self.files.exists(target_path):
            self.files.mkdirs(target_path)  # an empty table may have no directory yet
        self.catalog.create_like(self.db, self.staging, self.table)
        staging = self.catalog.ident(self.db, self.staging)
        self.statements = []
        if partitions:
            # A partitioned overwrite may keep other partitions: start from a copy of the table
            # (all partitions dynamic, which Hive-format tables allow only in nonstrict mode).
            self.statements.append(WriteStep(
                f"INSERT INTO {staging} SELECT * FROM {self.catalog.ident(self.db, self.table)}",
                {"hive.exec.dynamic.partition": "true", "hive.exec.dynamic.partition.mode": "nonstrict"}))
        self.statements.append(WriteStep(self.request.against(staging)))

    def staged_rows(self) -> Optional[int]:
        return None  # the staging table also holds the copied rows; only Spark's metrics know the written ones

    def commit(self, written_rows: Optional[int]) -> dict:
        entry = self.entry
        self._record(phases.PUBLISHING)
        self.files.rename(entry["target_path"], entry["backup_path"])
        crash_point("overwrite:after_backup", self.table)
        self.files.rename(entry["staging_path"], entry["target_path"])
        crash_point("overwrite:after_swap", self.table)
        self._sync()
        self._record(phases.COMMITTED)  # the commit point
        crash_point("overwrite:committed", self.table)
        self.finish()
        return self._committed(written_rows)

    def _sync(self) -> None:
        if self.entry["partitioned"]:
            self.catalog.sync_partitions(self.db, self.table)
        self.catalog.refresh(self.db, self.table)

    def finish(self) -> None:
        try:
            self.files.mkdirs(self.entry["staging_path"])  # its data moved away; an empty directory drops quietly
            self.catalog.drop(self.db, self.staging)
            self.files.delete(self.entry["staging_path"])
            self.files.delete(self.entry["backup_path"])
        except Exception:
            log.exception("clean-up after INSERT OVERWRITE of %s.%s failed; the next start retries",
                          self.db, self.table)
            return
        super().finish()

    def abort(self) -> None:
        entry = self.entry
        if entry.get("backup_path") and self.files.exists(entry["backup_path"]):
            if self.files.exists(entry["target_path"]):  # the new data had been moved in: take it out
                if self.files.exists(entry["staging_path"]):
                    self.files.delete(entry["target_path"])
                else:
                    self.files.rename(entry["target_path"], entry["staging_path"])
            self.files.rename(entry["backup_path"], entry["target_path"])
            self._sync()
        self._drop_staging()
        self.journal.remove(entry["txid"])


BY_ACTION = {cls.action: cls for cls in (StagedCreate, StagedReplace, StagedOverwrite)}
