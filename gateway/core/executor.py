"""Run an operation's statements in order on its session, streaming the last one's rows.

Every statement before the last of a script keeps its own result (its first rows, up to the
result buffer's bounds) in ``operation.statement_results``, fetched by index: its rows are read
once, while it runs, and never run again. ``:name`` markers are bound through Spark's ``args``.

The operation becomes FINISHED as soon as its result is ready to fetch (first batch, or the
end of a result): a client that waits for FINISHED before fetching never deadlocks against
the bounded buffer, and the rest of a large result streams while the client reads. Close
stops that stream and its Spark job. A small result (see ``arrow_stream.is_small``) is
collected at once and handed over complete, so one fetch returns its rows and its end.
"""
from __future__ import annotations

import functools
import logging
import time
from typing import Callable, Iterable, Optional

from gateway.spark.arrow_stream import (ArrowBatchStream, carry_as_strings, constant_projection, is_small,
                                        small_result)
from gateway.errors import GatewayError, InvalidStatementError
from gateway.models import Column, OperationStatus, StatementSummary
from gateway.core.freshness import WRITES, may_write
from gateway.core.health import ENGINE
from gateway.core.parameters import marker_names
from gateway.core.operations import Operation, bind_current
from gateway.core.results import ResultFetcher
from gateway.core.serialization import error_json, type_json
from gateway.spark.backend import Capability, is_connect, supports
from gateway.spark.conf import restore_conf
from gateway.spark.connect import StatementResult, query_dataframe
from gateway.engines.manager import driver_death
from gateway.spark.errors import ENGINE_DOWN, ENGINE_ERRORS, is_engine_failure
from gateway.spark.jobs import begin_jobs, clear_job_group, use_scheduler_pool
from gateway.spark.scheduler import pool_for
from gateway.core.stream_budget import StreamBudget
from gateway.core.statements import MAX_NESTING, Statement, StatementKind, split_script

log = logging.getLogger(__name__)

# A handler runs one statement the gateway handles itself and returns a DataFrame (or None).
StatementHandler = Callable[["object", Statement], Optional[object]]

_ACTIVE = (OperationStatus.PENDING, OperationStatus.RUNNING, OperationStatus.FINISHED)


_CACHED_TEXT_CHARS = 10_000


@functools.lru_cache(maxsize=64)
def _split_cached(text: str, max_chars: int, max_nesting: int) -> tuple[Statement, ...]:
    return tuple(split_script(text, max_chars, max_nesting))


def result_columns(schema) -> list[Column]:
    return [Column(f.name, type_json(f.dataType, f.nullable)) for f in schema.fields]


class StatementRunner:
    def __init__(self, max_chars: int, max_nesting: int = MAX_NESTING) -> None:
        self.max_chars = max_chars
        self.max_nesting = max_nesting
        self.streams = StreamBudget(0, 60.0)  # the service sets the configured bounds
        self.handlers: dict[StatementKind, StatementHandler] = {}
        # Checks run before every statement, in the worker; one may refuse it by raising (jars).
        self.guards: list[Callable[[object, Statement], None]] = []
        # Slow work before the session's lock (a jar's download), by kind (Feature.preparers).
        self.preparers: dict[StatementKind, StatementHandler] = {}

    def register(self, kind: StatementKind, handler: StatementHandler) -> None:
        """Let the gateway handle a kind of statement itself (modules, jars, CTAS, plans)."""
        self.handlers[kind] = handler

    def split(self, text: str) -> list[Statement]:
        # The service splits a text to refuse bad input before queuing it, the worker again to
        # run it: the cache makes the second split free (statements are immutable).
        if not isinstance(text, str) or len(text) > _CACHED_TEXT_CHARS:
            return split_script(text, self.max_chars, self.max_nesting)
        return list(_split_cached(text, self.max_chars, self.max_nesting))

    def takes_parameters(self, statement: Statement) -> bool:
        """Whether Spark runs ``statement`` (so its markers can be bound through ``args``): no handler of
        the gateway's takes it, or it is a plain query (the atomic writer hands those to Spark unchanged)."""
        return statement.kind not in self.handlers or (
            statement.kind == StatementKind.QUERY and "OVERWRITE" not in statement.analysis.words)

    def dataframe(self, session, statement: Statement, parameters: Optional[dict] = None):
        for guard in self.guards:
            guard(session, statement)
        args = statement_args(statement, parameters)
        if is_connect(session.spark) and statement.kind == StatementKind.QUERY and not statement.analysis.writes:
            return query_dataframe(session.spark, statement.text, args)  # sent once, by the fetch of its rows
        if args:  # Spark binds the values (never text substitution); the service checked takes_parameters
            return session.spark.sql(statement.text, args=args)
        handler = self.handlers.get(statement.kind)
        if handler is not None:
            return handler(session, statement)
        return session.spark.sql(statement.text)

    # -- the worker ---------------------------------------------------------------------------

    def run(self, operation: Operation, on_timeout: Callable[[Operation], None]) -> None:
        session = operation.session
        spark = session.spark
        statements = self.split(operation.statement)
        stream: Optional[ArrowBatchStream] = None
        restore: dict = {}
        locked = False
        current: Optional[Statement] = None
        bind_current(operation)  # handlers see their operation (atomic writes commit through it)
        try:
            self._prepare(session, operation, statements)
            # Wait for the session's statement before (one at a time), but not past a cancel.
            while not session.run_lock.acquire(timeout=0.1):
                if operation.status.is_terminal:
                    return
            locked = True
            if not operation.transition(OperationStatus.RUNNING):
                return  # canceled or closed while pending
            operation.start_timer(on_timeout)
            # Spark's UI shows the description: who ran what (the audit log is the store's history).
            begin_jobs(spark, operation.job_group, f"{session.user}: {operation.statement[:200]}")
            restore = _apply_config(spark, operation.config)
            for statement in statements:
                current = statement
                summary = StatementSummary(statement.index, statement.text, statement.kind.value,
                                           "RUNNING", line=statement.line)
                operation.summaries.append(summary)
                began = time.monotonic()
                # FAIR: each session its own pool (a command's jobs already run in spark.sql).
                use_scheduler_pool(spark, session.scheduler_pool)
                WRITES.catch_up(session)  # another session's write since: forget cached tables
                if may_write(statement):
                    try:
                        df = self.dataframe(session, statement, operation.parameters)
                    except BaseException:
                        WRITES.bump()  # failed, it may still have changed files: others refresh (classic)
                        raise
                    WRITES.bump(session, statement.analysis)  # others refresh (Connect: the tables it names)
                else:
                    df = self.dataframe(session, statement, operation.parameters)
                last = statement.index == len(statements) - 1
                connect_result = StatementResult.of(df) if last else None  # Spark Connect: one round trip
                if connect_result is not None:
                    stream = connect_result
                    stream = self._connect_result(operation, session, summary, df, connect_result, restore)
                    restore = {}
                    locked = False
                    summary.rows = self._feed(operation, stream)
                    summary.elapsed_ms = round((time.monotonic() - began) * 1000)
                    summary.status = "FINISHED"
                    continue
                declared = df.schema if df is not None else None  # the types the client is told
                if declared is not None:  # intervals and VARIANT as Spark's strings: Arrow cannot carry them
                    df = carry_as_strings(df, declared)
                # A projection of constants (SELECT 1) is computed in the driver: no job, no pool.
                local = constant_projection(df) if last and df is not None else None
                if local is None:
                    # Inputs Spark proves tiny (SELECT 1, a 10-row table): the scheduler's small lane,
                    # which takes the next free core ahead of every session's long scan.
                    use_scheduler_pool(spark, pool_for(df, session.scheduler_pool))
                if not last:
                    summary.rows = self._keep(operation, summary, df, declared, session.timezone)
                    summary.elapsed_ms = round((time.monotonic() - began) * 1000)
                    summary.status = "FINISHED"
                    continue
                summary.has_result = declared is not None and bool(declared.fields)
                schema = df.schema if df is not None else None
                operation.fetcher.set_columns(result_columns(declared) if declared is not None else [])
                if schema is None or not schema.fields:
                    batches: Iterable = []
                elif local is not None or is_small(df):
                    batches = _marked(small_result(local if local is not None else df, schema))
                else:
                    stream = prepare_stream(df, schema, session.timezone)
                restore_conf(spark, restore)
                restore = {}
                session.run_lock.release()
                locked = False
                if stream is not None:  # wait for driver memory without holding the session
                    stream = self.streams.admit(stream, wanted=lambda: operation.status in _ACTIVE)
                    batches = stream
                summary.rows = self._feed(operation, batches)
                summary.elapsed_ms = round((time.monotonic() - began) * 1000)
                summary.status = "FINISHED"
            if operation.status in _ACTIVE:
                operation.fetcher.finish()
                operation.transition(OperationStatus.FINISHED)
        except RecursionError:  # Python recursion in a parser of ours or a library's
            self._fail(operation, InvalidStatementError(
                "the statement is too deeply nested to read (Python's recursion limit): flatten it with a WITH "
                "clause, a temporary view or several statements", error_class="STATEMENT_TOO_DEEPLY_NESTED"),
                current, len(statements))
        except Exception as exc:  # noqa: BLE001 - every failure becomes the operation's error
            self._fail(operation, exc, current, len(statements))
        finally:
            if stream is not None:
                stream.close()
            if restore:
                restore_conf(spark, restore)
            if locked:
                session.run_lock.release()
            clear_job_group(spark)
            bind_current(None)
            operation.done.set()

    @staticmethod
    def _connect_result(operation: Operation, session, summary: StatementSummary, df, result: StatementResult,
                        restore: dict) -> StatementResult:
        """The last statement's result on Spark Connect, its schema read from the stream's first message (no
        AnalyzePlan, no isLocal, no time zone asked): the columns set, the session's settings put back and its
        lock released, as the general path does before it feeds the buffer. A type Arrow cannot carry makes
        the query run again with those columns as Spark's strings (rare: intervals, VARIANT)."""
        declared = result.declared
        carried = carry_as_strings(df, declared)
        if carried is not df:
            result.close()
            result = StatementResult.run(carried)
        summary.has_result = bool(declared.fields)
        operation.fetcher.set_columns(result_columns(declared))
        restore_conf(session.spark, restore)
        session.run_lock.release()
        return result.combine_within(operation.fetcher.max_rows, operation.fetcher.max_bytes)

    def _prepare(self, session, operation: Operation, statements: list[Statement]) -> None:
        """A slow download must not hold the session's other statements back (issue 27 item 11): the
        preparers run before the lock, each statement checked by the guards first (a refused one does no work)."""
        for statement in statements:
            prepare = self.preparers.get(statement.kind)
            if prepare is None or operation.status.is_terminal:
                continue
            for guard in self.guards:
                guard(session, statement)
            prepare(session, statement)

    @staticmethod
    def _feed(operation: Operation, batches: Iterable) -> int:
        """Put ``(batch, is_last)`` pairs into the buffer until the end or the client is gone."""
        rows = 0
        for batch, last in batches:
            if operation.status not in _ACTIVE or not operation.fetcher.put(batch, last=last):
                break
            rows += batch.num_rows
            operation.transition(OperationStatus.FINISHED)
        return rows

    def _keep(self, operation: Operation, summary: StatementSummary, df, declared, timezone: str) -> int:
        """Run a statement that is not the last of a script and keep its result in its own buffer, up to
        the result buffer's bounds (rows and bytes; ``summary.truncated`` beyond): the script goes on
        without waiting for a client, and the rows past the bound are counted, not kept."""
        if df is None or not df.schema.fields:
            return 0
        schema = df.schema
        kept = ResultFetcher(operation.fetcher.max_rows, operation.fetcher.max_bytes, operation.fetcher.page_rows,
                             operation.fetcher.fetch_wait_s)
        kept.set_columns(result_columns(declared))
        operation.statement_results[summary.index] = kept
        summary.has_result = True
        stream = None
        if is_small(df):
            batches: Iterable = _marked(small_result(df, schema))
        else:
            stream = self.streams.admit(prepare_stream(df, schema, timezone),
                                        wanted=lambda: operation.status in _ACTIVE)
            batches = stream
        rows = 0
        try:
            for batch, _ in batches:
                rows += batch.num_rows
                if summary.truncated:
                    continue
                part = batch.slice(0, max(0, kept.max_rows - kept.rows_produced))
                if part.num_rows and (kept.buffered_rows == 0
                                      or kept.buffered_bytes + part.nbytes <= kept.max_bytes):
                    kept.put(part)  # within the bounds: never waits
                summary.truncated = kept.rows_produced < rows
        finally:
            if stream is not None:
                stream.close()
            kept.finish()
        return rows

    def _fail(self, operation: Operation, exc: Exception, statement: Optional[Statement], total: int) -> None:
        if ENGINE.lost_by(exc) or operation.stopped_error is not None:  # the gateway stopped it, said why
            return
        if operation.status not in (OperationStatus.PENDING, OperationStatus.RUNNING, OperationStatus.FINISHED):
            log.debug("operation %s stopped (%s): %s", operation.handle, operation.status.value, exc)
            return
        if statement is None:
            error = error_json(exc)
        else:
            error = error_json(exc, statement.text, statement.line - 1, statement.index)
            if error.get("line") == statement.line and isinstance(error.get("position"), int):
                error["position"] += statement.column  # Spark counts from the statement's start
            if total > 1:
                error["root_cause"] = (f"statement {statement.index + 1} of {total} (line {statement.line}) "
                                       f"failed: {error['root_cause']}")
            error["statement"] = statement.text
            if operation.summaries:
                operation.summaries[-1].status = "ERROR"
                operation.summaries[-1].error = error
        if getattr(operation.session, "engine_id", None) is not None:  # a managed engine's driver died of it?
            error = driver_death(error) or error
        if error.get("error_class") == ENGINE_DOWN:  # Spark Connect's server is gone: the session's state with it
            operation.session.engine_lost = error["root_cause"]
        operation.exception = error
        operation.fetcher.fail(error)
        if is_engine_failure(exc) or isinstance(exc, GatewayError):
            # The user's SQL (or Spark) failed: a line for the log, no stack; the client has the details.
            log.info("operation %s failed: %s: %s", operation.handle, error.get("error_class"),
                     str(error.get("root_cause")).split("\n", 1)[0][:300])
        else:  # a bug of ours (or of a library we call): the stack belongs in the log
            log.error("operation %s failed with an internal error", operation.handle,
                      exc_info=(type(exc), exc, exc.__traceback__))
        if not operation.transition(OperationStatus.ERROR):
            # Already FINISHED while streaming: the error still reaches the client's next fetch.
            log.debug("operation %s failed while streaming", operation.handle)


def statement_args(statement: Statement, parameters: Optional[dict]) -> dict:
    """The values of the markers ``statement`` uses (the service refused the text if one is missing)."""
    if not parameters:
        return {}
    return {name: parameters[name] for name in marker_names(statement.text) if name in parameters}


def _marked(table) -> Iterable:
    """An in-memory result as one ``(batch, True)`` pair: put in one step, its rows and its end are
    never seen apart (a fetch between two per-partition batches answered PAYLOAD, not EOS)."""
    if table.num_rows == 0:
        return []
    batches = table.combine_chunks().to_batches()  # one chunk per column: one batch
    return [(batch, i == len(batches) - 1) for i, batch in enumerate(batches)]


def prepare_stream(df, schema, timezone: str) -> ArrowBatchStream:
    """Plan the partition stream with adaptive execution off; nothing runs until it is admitted.

    With AQE on, ``toArrowBatchRdd`` runs the shuffle stages eagerly on the calling thread,
    and after ``cancelJobGroup`` that thread waited forever (measured on Spark 4.3.0); with
    AQE off the stages run inside the per-partition jobs, which cancel cleanly.
    """
    if not supports(df.sparkSession, Capability.PARTITION_STREAM):
        return ArrowBatchStream(df, schema, timezone)  # plans nothing here (Spark Connect): two round trips saved
    restore = _apply_config(df.sparkSession, {"spark.sql.adaptive.enabled": "false"})
    try:
        return ArrowBatchStream(df, schema, timezone)
    finally:
        restore_conf(df.sparkSession, restore)


def _apply_config(spark, config: dict) -> dict:
    """Set operation-level config; returns what to put back (None = unset).

    Reads each key on its own: ``conf.getAll`` copies the whole session conf over Py4J
    (~8 ms measured), more than a small statement's own run time allows.
    """
    if not config:
        return {}
    restore: dict = {}
    try:
        for key, value in config.items():
            restore[key] = spark.conf.get(key, None)  # None: not set in this session
            spark.conf.set(key, str(value))
    except ENGINE_ERRORS as exc:  # Spark refused the setting (a static one, a bad value)
        restore_conf(spark, restore)
        raise InvalidStatementError(
            f"the operation setting {key!r} cannot be applied: {error_json(exc)['root_cause']} "
            f"Static Spark settings belong in the workbench configuration under [spark.conf].") from None
    return restore
