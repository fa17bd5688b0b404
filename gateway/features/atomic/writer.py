"""The statement handler: run a CTAS, RTAS or INSERT OVERWRITE as a two-phase write bound to
its operation. The write job runs in the operation's worker thread (its Spark job group is
set, so cancel and timeout stop it); the commit happens only while the operation is still
RUNNING, with cancel, timeout and close held off until it is done; any failure aborts.
"""
from __future__ import annotations

import logging
from typing import Optional
from urllib.parse import urlparse

from gateway.errors import InvalidStatementError, OperationStateError
from gateway.models import OperationStatus
from gateway.core.operations import current_operation
from gateway.spark.backend import Capability, backend_name, supports
from gateway.spark.conf import restore_conf
from gateway.spark.errors import ENGINE_ERRORS
from gateway.spark.parser import PlannedWrite, parse_write_target
from gateway.spark.writes import catalog_stages_writes, written_rows
from gateway.core.statements import Statement, StatementKind
from gateway.features.atomic.write_journal import Journal
from gateway.features.atomic.metastore import SESSION_CATALOG, SessionCatalog
from gateway.features.atomic.parse import WriteAction, WriteRequest, parse_write, quote
from gateway.features.atomic.protocol import TwoPhaseCatalogTable, WriteStep
from gateway.features.atomic.spark_path import SparkWrite
from gateway.features.atomic.staged import StagedCreate, StagedOverwrite, StagedReplace, StagedWrite

log = logging.getLogger(__name__)

# The explicit switch for one non-atomic write (a session setting; taken by the write it allows).
ALLOW_NON_ATOMIC = "workbench.atomic_writes.allow_non_atomic"

_JOB_PROPERTIES = ("spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel")



def _hidden_table_write(words, kind) -> bool:
    """Without Catalyst to read the target: do the analysed words (comments dropped) show an overwrite or a
    CTAS the leading words hid (``WITH … INSERT OVERWRITE``, ``FROM s INSERT OVERWRITE``, ``CREATE TABLE t
    USING parquet SELECT …``)? Such a write is never run unstaged without saying so."""
    if any(a == "INSERT" and b == "OVERWRITE" for a, b in zip(words, words[1:])):
        return True
    head = words[:6]
    return kind == StatementKind.CREATE and "TABLE" in head and "VIEW" not in head and "SELECT" in words

class AtomicWriter:
    def __init__(self, journal: Journal, split) -> None:
        self.journal = journal
        self._split = split

    def handle(self, session, statement: Statement):
        """StatementRunner handler for CREATE_TABLE_AS and INSERT_OVERWRITE; returns no rows."""
        spark = session.spark
        operation = current_operation()
        table = self.two_phase_table(spark, statement.text)
        if table is None:
            return None  # CREATE TABLE IF NOT EXISTS of a table that exists: nothing to do
        try:
            table.begin_transaction()
            df = None
            for step in table.statements:
                df = _run_step(spark, step)
            rows = table.staged_rows() if isinstance(table, StagedWrite) else None
            if rows is None and df is not None and supports(spark, Capability.PLAN_INTERNALS):
                rows = written_rows(df)
            self._commit(operation, table, rows, self._is_last(operation, statement))
        except BaseException:
            self._abort(spark, table)
            raise
        return None

    def handle_if_write(self, session, statement: Statement):
        """StatementRunner handler for CREATE and QUERY statements: a CTAS/RTAS or INSERT OVERWRITE
        that the leading words did not show (``CREATE TABLE t USING parquet SELECT …`` without AS,
        ``… AS TABLE src``, ``WITH q AS (…) INSERT OVERWRITE t …``, ``FROM s INSERT OVERWRITE t …``)
        is staged like the others; anything else runs as Spark runs it."""
        spark = session.spark
        if statement.kind == StatementKind.QUERY and "OVERWRITE" not in statement.analysis.words:
            return spark.sql(statement.text)  # a plain query: no parse on the hot path
        if not supports(spark, Capability.PLAN_INTERNALS):
            if _hidden_table_write(statement.analysis.words, statement.kind):
                return self.handle(session, statement)  # refused there, unless the session allowed it non-atomic
            return spark.sql(statement.text)
        try:
            planned = parse_write_target(spark, statement.text).plan
        except ENGINE_ERRORS:  # Spark's parse error: Spark reports it, with the position, when it runs
            planned = PlannedWrite.OTHER
        if planned is PlannedWrite.OTHER:
            return spark.sql(statement.text)
        return self.handle(session, statement)

    # -- choosing the transaction ---------------------------------------------------------------

    def two_phase_table(self, spark, text: str) -> Optional[TwoPhaseCatalogTable]:
        """The TwoPhaseCatalogTable for a statement (FLIP-305's Catalog#createTwoPhaseCatalogTable).

        A write that cannot be staged is refused (InvalidStatementError) unless the session
        allowed the next one to run non-atomically (``ALLOW_NON_ATOMIC``); never run silently.
        """
        if not supports(spark, Capability.PLAN_INTERNALS):
            return _not_atomic(spark, None, text, f"{backend_name(spark)} offers no Catalyst parser to read its "
                                                  f"target with, nor staging without the driver JVM")
        request = parse_write(spark, text)
        if request is None:  # Spark reads no table write here (INSERT OVERWRITE DIRECTORY …)
            return SparkWrite(None, text, False, "Spark reads no table write here; Spark ran it unchanged")
        if request.unstageable:
            return _not_atomic(spark, request, text, request.unstageable)
        catalog, db, name = _resolve(spark, request)
        if catalog != SESSION_CATALOG or _session_catalog_replaced(spark):
            if not supports(spark, Capability.SESSION_STATE):
                return _not_atomic(spark, request, text,
                                   f"{backend_name(spark)} cannot tell whether catalog {catalog} stages writes")
            if catalog_stages_writes(spark, catalog):
                return SparkWrite(request, text, True, f"catalog {catalog} stages the write itself")
            return _not_atomic(spark, request, text, f"catalog {catalog} has no staging")
        if request.has_location:
            return SparkWrite(request, text, False, "a LOCATION is given; Spark ran the statement unchanged")
        metastore = SessionCatalog(spark)
        if not spark.catalog.databaseExists(quote(SESSION_CATALOG, db)):
            return SparkWrite(request, text, False, "the database does not exist")  # Spark reports it
        kind = metastore.table_type(db, name)
        if request.action is WriteAction.INSERT_OVERWRITE:
            if len(request.name_parts) == 1 and _is_temp_view(spark, name):
                # Spark writes through a temporary view over files, without staging.
                return _not_atomic(spark, request, text, f"{name} is a temporary view, not a table")
            if kind in (None, "VIEW"):
                return SparkWrite(request, text, False, "not a table of the session catalog")  # Spark refuses it
            if not _same_file_system(metastore.location(db, name), metastore.database_location(db)):
                return _not_atomic(spark, request, text, "the table lies on another file system than its "
                                   "database, so its files cannot be swapped")
            return StagedOverwrite.new(spark, self.journal, request, db, name)
        if kind == "VIEW":
            raise InvalidStatementError(
                f"{db}.{name} is a view, not a table: drop the view first, or choose another table name")
        if request.action is WriteAction.CREATE:
            if kind is None:
                return StagedCreate.new(spark, self.journal, request, db, name)
            if request.if_not_exists:
                return None
            raise InvalidStatementError(
                f"table {db}.{name} already exists: use CREATE OR REPLACE TABLE to replace it, "
                f"CREATE TABLE IF NOT EXISTS to keep it, or another name")
        if kind is None:
            if request.action is WriteAction.REPLACE:
                raise InvalidStatementError(
                    f"table {db}.{name} does not exist, so it cannot be replaced: "
                    f"use CREATE TABLE or CREATE OR REPLACE TABLE")
            return StagedCreate.new(spark, self.journal, request, db, name)
        return StagedReplace.new(spark, self.journal, request, db, name)

    # -- the two phases -------------------------------------------------------------------------

    def _is_last(self, operation, statement: Statement) -> bool:
        return operation is not None and statement.index == len(self._split(operation.statement)) - 1

    @staticmethod
    def _commit(operation, table: TwoPhaseCatalogTable, rows: Optional[int], last: bool) -> dict:
        if operation is None:
            return table.commit(rows)

        def commit() -> dict:
            # A SparkWrite has already been committed by Spark itself; only staged writes can still refuse.
            if operation.status is not OperationStatus.RUNNING and isinstance(table, StagedWrite):
                raise OperationStateError(
                    f"operation {operation.handle} was {operation.status.value.lower()} before its write "
                    f"was committed; nothing was published")
            info = table.commit(rows)
            operation.committed.append(info)
            return info

        return operation.commit_while_running(commit, finish=last)

    @staticmethod
    def _abort(spark, table: TwoPhaseCatalogTable) -> None:
        """Abort outside the job group: a cancel that is still retrying must not stop the clean-up."""
        sc = spark.sparkContext
        saved = {key: sc.getLocalProperty(key) for key in _JOB_PROPERTIES}
        try:
            for key in _JOB_PROPERTIES:
                sc.setLocalProperty(key, None)
            table.abort()
        except Exception:
            log.exception("aborting a staged write failed; the journal keeps it for repair at the next start")
        finally:
            for key, value in saved.items():
                sc.setLocalProperty(key, value)


def _not_atomic(spark, request: Optional[WriteRequest], text: str, why: str) -> SparkWrite:
    """Spark's own (non-atomic) write when the session allowed it for this statement; else refuse.

    The permission is taken: it holds for one write, so a forgotten SET cannot make later
    writes lose data.
    """
    allowed = str(spark.conf.get(ALLOW_NON_ATOMIC, "false")).strip().lower() == "true"
    if allowed:
        spark.conf.unset(ALLOW_NON_ATOMIC)
        return SparkWrite(request, text, False, f"{why}; Spark ran it unchanged (not atomic), "
                          f"as {ALLOW_NON_ATOMIC} allowed")
    raise InvalidStatementError(
        f"this write cannot run atomically: {why}. Nothing was written. To run it through Spark "
        f"without staging (a failure may then lose the table's rows or leave files behind), run "
        f"SET {ALLOW_NON_ATOMIC}=true first; it applies to the next such write only.")


def _run_step(spark, step: WriteStep):
    """Run one statement of the write job with its own settings, then put the session's back."""
    saved = {key: spark.conf.get(key, None) for key in step.conf}
    for key, value in step.conf.items():
        spark.conf.set(key, value)
    try:
        return spark.sql(step.sql)
    finally:
        restore_conf(spark, saved)


def _same_file_system(a: str, b: str) -> bool:
    first, second = urlparse(a), urlparse(b)
    return (first.scheme or "file", first.netloc) == (second.scheme or "file", second.netloc)


def _resolve(spark, request: WriteRequest) -> tuple[str, str, str]:
    """(catalog, database, table) of the target, with the session's current catalog and database."""
    parts = request.name_parts
    if len(parts) == 3:
        return parts[0].lower(), parts[1], parts[2]
    catalog = spark.catalog.currentCatalog().lower()
    if len(parts) == 2:
        return catalog, parts[0], parts[1]
    return catalog, spark.catalog.currentDatabase(), parts[0]


def _session_catalog_replaced(spark) -> bool:
    """A plugin (Delta, Iceberg) took over spark_catalog: let Spark and the plugin handle the write."""
    try:
        return bool(spark.conf.get("spark.sql.catalog.spark_catalog", None))
    except ENGINE_ERRORS:
        return False


def _is_temp_view(spark, name: str) -> bool:
    try:
        return any(t.isTemporary and t.name.lower() == name.lower() for t in spark.catalog.listTables())
    except ENGINE_ERRORS:
        return False
