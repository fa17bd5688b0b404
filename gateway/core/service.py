"""GatewayService: a thin facade. Find the session, delegate; the boundary wraps every call.

Core implements the sections of ``gateway.api`` (sessions, operations, catalog, workspace, identity,
engine info); the features found through entry points (``gateway.api.plugins``) implement their own
protocols, and plug their statement handlers, guards and session hooks into the core. Every call of
every protocol passes one boundary (``gateway/core/boundary.py``), applied by the class decorator below:
principal, engine health, errors mapped once. The service is also each feature's host (``FeatureHost``).
"""
from __future__ import annotations

import contextlib
import logging
import platform
import threading
import time
from typing import Any, Callable, Iterator, Optional

from gateway.version import __version__
from gateway.core.editor_calls import EditorCalls
from gateway.config import WorkbenchConfig, engine_kind, load_config
from gateway.api import CORE_SECTIONS, protocol_calls
from gateway.api.plugins import Feature, PageSpec, feature_classes
from gateway.contract import FEATURE_SECTIONS
from gateway.core.boundary import boundary, mapped, plugin_gateway_class
from gateway.core import data_lock
from gateway.core.admin_calls import AdminCalls
from gateway.core.catalog import CatalogBrowser
from gateway.core.executor import StatementRunner
from gateway.core.stream_budget import StreamBudget
from gateway.core.freshness import WRITES
from gateway.core.health import ENGINE, HealthWatchdog
from gateway.core.history import StatementHistory
from gateway.core.session_journal import SessionJournal
from gateway.core.identity_calls import IdentityCalls
from gateway.core.operations import Operation, OperationManager
from gateway.core.parameters import check_parameters, marker_names, missing_message
from gateway.core.progress import operation_progress
from gateway.core.profiles import QueryProfiles
from gateway.core.engine_guard import EngineGuard
from gateway.core.restrictions import Restrictions
from gateway.core.results import ResultFetcher
from gateway.core.result_spool import ResultSpoolCalls
from gateway.core.sample_data import SAMPLE_DATABASE, create_sample_database
from gateway.core.sessions import Session, SessionManager
from gateway.core.statements import changes_schema, configure_kinds
from gateway.core.workspace_calls import WorkspaceCalls
from gateway.api.plugins import FeatureNotInstalledError
from gateway.errors import (BusyError, ConfigurationError, GatewayError, InvalidRequestError, InvalidStatementError,
                            InvalidTokenError, OperationStateError, SqlExecutionError)
from gateway.handles import OperationHandle, SessionHandle
from gateway.models import (MAX_TIMEOUT_MS, Column, FunctionDetail, FunctionInfo, FunctionKind, OperationInfo, OperationProgress,
                            OperationStatus, OperationType, ResultSet, ResultType, TableDetail, TableInfo, TableKind)
from gateway.spark.jobs import engine_fact, engine_master, ui_url
from gateway.spark import sql_metrics
from gateway.spark.backend import NotAvailableOnBackend, is_connect
from gateway.spark.connect import session_defaults
from gateway.spark.liveness import driver_heap_max
from gateway.spark.root import get_or_create_root, write_class_archive_at_stop
from gateway.engines import EngineManager
from gateway.store import WorkbenchStore, default_url

log = logging.getLogger(__name__)


# Every call of the protocols passes the boundary: the core's sections and the built-in features'.
@boundary(core=CORE_SECTIONS, features=FEATURE_SECTIONS)
class GatewayService(IdentityCalls, AdminCalls, EditorCalls, WorkspaceCalls, ResultSpoolCalls):
    """The embedded SQL gateway: sessions over one root SparkSession, operations on a pool, features."""

    def __init__(self, config: Optional[WorkbenchConfig] = None) -> None:
        self.config = config if config is not None else load_config()
        self.auth_mode  # noqa: B018 - a bad auth.mode stops the start here, before Spark
        engine_kind(self.config)  # a bad engine.kind or engine.url too
        data_lock.acquire(self.config.data_dir)  # one process per data directory, before the store and Spark
        # The store first: it needs no Spark, and its calls answer while Spark starts.
        self.store = WorkbenchStore(self.config["store.url"] or default_url(self.config.data_dir),
                                    self.config["store.max_text_chars"])
        # engine.kind = managed: each session's engine is a Spark Connect server the workbench starts (gateway/engines/)
        self.engines = EngineManager(self.config, self.store) if engine_kind(self.config) == "managed" else None
        self.root = get_or_create_root(self.config)
        self.runner = StatementRunner(self.config["statement.max_chars"], self.config["statement.max_nesting"])
        heap = driver_heap_max(self.root) or 0
        self.runner.streams = StreamBudget(self.config["result.max_streams"], self.config["operation.wait_timeout_s"],
                                           int(self.config["result.stream_memory_fraction"] * heap))
        self.restrictions = Restrictions(self.config)  # what non-admins may not do (auth on)
        self.runner.guards.append(self.restrictions.check_statement)
        # What a statement may do to the shared driver: before any feature's guard gives it to Spark's parser.
        self.runner.guards.append(EngineGuard(self.config, self.restrictions, self.runner.handlers).check_statement)
        self.journal = SessionJournal(self)  # sessions that survive a restart
        self.profiles = QueryProfiles(self.config["operation.profiles_per_session"])
        self.operations = OperationManager(self.config["operation.pool_size"],
                                           observers=[StatementHistory(self.store.recorder), self.journal,
                                                      self.profiles],
                                           per_session=self.config["operation.max_running_per_session"],
                                           max_queued_per_session=self.config["operation.max_queued_per_session"])
        self._waiting_calls = threading.BoundedSemaphore(max(1, self.config["operation.max_waiting_calls"]))
        self.health = HealthWatchdog(self.root, self.operations, self.config["health.check_interval_s"],
                                     self.config["health.memory_guard_fraction"], self.config["health.exit_after_s"],
                                     probe_timeout_s=self.config["health.probe_timeout_s"])
        self.sessions = SessionManager(
            self.root, self.config["session.max_sessions"], self.config["session.idle_timeout_s"],
            self.config["session.check_interval_s"], self._on_session_closed, engines=self.engines)
        self.features: dict[str, Feature] = {}
        self._feature_calls: dict[str, Callable] = {}  # a feature's protocol calls, by name
        self._plugin_gateways: dict[type, Any] = {}  # an outside feature's protocol: what answers it
        self._stopped = False
        for cls in feature_classes():
            feature = cls()
            if feature.enabled(self.config):
                self._plug(feature)
        self.journal.restore()  # the sessions open when the workbench stopped, with their state

    def _plug(self, feature: Feature) -> None:
        """Check its calls against its protocol, start it, and wire in what it declares: handlers, guard, calls."""
        calls = dict(feature.calls())
        declared = protocol_calls(feature.api) if feature.api is not None else {}  # with their marks
        if calls or feature.api is not None:
            if set(calls) != set(declared):
                raise ConfigurationError(
                    f"feature {feature.name!r} must implement exactly the calls of its protocol "
                    f"({getattr(feature.api, '__name__', 'no api declared')}): missing "
                    f"{sorted(set(declared) - set(calls))}, not declared {sorted(set(calls) - set(declared))}; "
                    f"set the class attribute `api` to its protocol")
        feature.start(self)
        self.features[feature.name] = feature
        for kind, handler in feature.handlers().items():
            self.runner.register(kind, handler)
        self.runner.preparers.update(feature.preparers())
        if type(feature).check_statement is not Feature.check_statement:
            self.runner.guards.append(feature.check_statement)
        for name, call in calls.items():
            if name in self._feature_calls or (name in self.boundary_calls and feature.api not in FEATURE_SECTIONS):
                raise GatewayError(f"feature {feature.name!r} provides the call {name!r}, which another part "
                                   f"of the gateway already provides")
            self._feature_calls[name] = self.restrictions.gate(name, self.journal.after(name, call, declared.get(name)), declared.get(name))
        if feature.api is not None and feature.api not in FEATURE_SECTIONS:
            self._plugin_gateways[feature.api] = plugin_gateway_class(feature.api)(self)

    def api(self, protocol: type) -> Any:
        if protocol in CORE_SECTIONS or protocol in FEATURE_SECTIONS:
            return self
        answering = self._plugin_gateways.get(protocol)
        if answering is None:
            raise FeatureNotInstalledError(
                f"no installed feature answers {getattr(protocol, '__name__', protocol)!r} (installed features: "
                f"{', '.join(self.features) or 'none'}); install or enable it")
        return answering

    # ------------------------------------------------------------------------------------------
    # Host of the features (FeatureHost)
    # ------------------------------------------------------------------------------------------

    def session(self, handle) -> Session:
        return self.sessions.get(handle)

    def feature(self, name: str) -> Optional[Feature]:
        return self.features.get(name)

    def split(self, text: str) -> list:
        return self.runner.split(text)

    def dataframe(self, session: Session, statement):
        return self.runner.dataframe(session, statement)

    def configure(self, handle, statement: str) -> None:
        self.configure_session(handle, statement)

    def schema_changed(self, session: Session) -> None:
        """Tell every feature the session's catalog may have changed (completion reloads)."""
        for feature in self.features.values():
            try:
                feature.schema_changed(session)
            except Exception:  # noqa: BLE001 - one feature's cache must not fail the statement
                log.exception("feature %s: schema_changed failed for session %s", feature.name, session.handle)

    @classmethod
    def from_config(cls, path) -> "GatewayService":
        return cls(load_config(path))

    def shutdown(self, stop_spark: bool = True) -> None:
        """Close every session, stop the pool and the features and (by default) the root SparkSession."""
        if self._stopped:
            return
        self._stopped = True
        self.health.stop()
        self.sessions.shutdown()
        self.operations.shutdown()
        self.profiles.shutdown()
        for feature in reversed(list(self.features.values())):
            try:
                feature.stop()
            except Exception:  # noqa: BLE001 - stop the others all the same
                log.exception("feature %s did not stop cleanly", feature.name)
        if self.engines is not None:  # its engines keep running for the next process (or the reaper) to take
            self.engines.shutdown()
        self.store.close()  # after the sessions: their statements' last history events are written
        if stop_spark and self.engines is None:
            write_class_archive_at_stop(self.root)  # spark.class_archive: the first stop without one writes it
            self.root.stop()
        elif self.engines is not None:  # the managed root names no server: nothing to release there
            self.root.client.close()

    # ------------------------------------------------------------------------------------------
    # Sessions
    # ------------------------------------------------------------------------------------------

    def open_session(self, config: Optional[dict] = None, name: Optional[str] = None) -> SessionHandle:
        return self._open_session(config, name)

    def _open_session(self, config: Optional[dict], name: Optional[str], handle=None) -> SessionHandle:
        """``handle``: reopen a journaled session under its old handle (gateway/core/session_journal.py)."""
        if config is not None and not isinstance(config, dict):
            raise InvalidRequestError("session config must be a mapping of setting name to value")
        self._check_session_limit()  # per user (auth on)
        session = self.sessions.open(name, handle)
        try:
            self.restrictions.open_session(session)
            defaults = session_defaults(int(self.config["result.buffer_max_rows"])) if is_connect(session.spark) else {}
            for key, value in {**defaults, **(config or {})}.items():
                session.spark.conf.set(str(key), str(value))
            for feature in self.features.values():
                feature.open_session(session)
        except Exception as exc:
            self.sessions.close(session.handle)
            if isinstance(exc, GatewayError):
                raise
            raise mapped(exc, "the session setting could not be applied") from None
        return session.handle

    def close_session(self, session: SessionHandle) -> None:
        self.sessions.close(session)

    def heartbeat(self, session: SessionHandle) -> None:
        self.sessions.get(session)

    def get_session_config(self, session: SessionHandle) -> dict[str, str]:
        spark = self.sessions.get(session).spark
        return dict(sorted(spark.conf.getAll.items()))

    def session_name(self, session: SessionHandle) -> str:
        return self.sessions.get(session).name

    @contextlib.contextmanager
    def between_statements(self, session: SessionHandle, busy_wait_s: float = 60.0) -> Iterator[Session]:
        """The session with its statement lock held: a module or jar change never lands mid-statement."""
        owner = self.sessions.get(session)
        if not owner.run_lock.acquire(timeout=busy_wait_s):
            raise OperationStateError(f"session {owner.handle} is still running a statement after "
                                      f"{busy_wait_s:g} s; try again when it is done, or cancel it")
        try:
            yield owner
        finally:
            owner.run_lock.release()

    def configure_session(self, session: SessionHandle, statement: str, timeout_ms: Optional[int] = None) -> None:
        statements = self.runner.split(statement)
        if len(statements) != 1:
            raise InvalidStatementError(
                f"configure_session takes exactly one statement, got {len(statements)}; "
                f"send them one at a time or use execute_statement for a script")
        kind = statements[0].kind
        allowed_kinds = configure_kinds()
        if kind not in allowed_kinds:
            allowed = ", ".join(k.replace("_", " ") for k in allowed_kinds)
            raise InvalidStatementError(
                f"configure_session does not accept {kind.replace('_', ' ')} statements; "
                f"it accepts only {allowed}. Use execute_statement to run other statements.")
        if not self._waiting_calls.acquire(blocking=False):
            raise BusyError(f"{self.config['operation.max_waiting_calls']} calls are already waiting for statements "
                            f"to end (setting operation.max_waiting_calls); try again in a few seconds")
        try:
            self._configure(session, statement, timeout_ms)
        finally:
            self._waiting_calls.release()

    def _configure(self, session: SessionHandle, statement: str, timeout_ms: Optional[int]) -> None:
        handle = self._submit(session, statement, OperationType.CONFIGURE_SESSION, timeout_ms, None)
        operation = self.operations.get(self.sessions.get(session).handle, handle)
        wait_s = float(self.config["operation.wait_timeout_s"])
        try:
            if not operation.done.wait(wait_s if wait_s > 0 else None):
                before = operation.status
                running, waiting = self.operations.running_and_waiting(operation.session.handle)
                try:
                    self.operations.stop(operation, OperationStatus.CANCELED, "configure_session waited too long")
                except GatewayError:
                    pass  # it ended just now: answer as below all the same
                if operation.status == OperationStatus.CANCELED:
                    raise BusyError(
                        f"the configure statement was {before.value} for {wait_s:g} s (setting operation.wait_timeout_s)"
                        f" and was canceled: the session has {running} statements running and {waiting} waiting. "
                        f"Fetch or close the results of its earlier statements, or cancel them, then try again")
            if operation.status == OperationStatus.ERROR:
                raise SqlExecutionError(operation.exception["root_cause"], operation.exception)
            if operation.status == OperationStatus.TIMEOUT:
                raise OperationStateError(f"the statement timed out after {operation.timeout_ms} ms")
        finally:
            self.operations.stop(operation, OperationStatus.CLOSED, "the configure operation is done")

    # ------------------------------------------------------------------------------------------
    # Operations
    # ------------------------------------------------------------------------------------------

    def _operation(self, session: SessionHandle, operation: OperationHandle) -> Operation:
        owner = self.sessions.get(session)
        return self.operations.get(owner.handle, operation)

    def get_operation_info(self, session: SessionHandle, operation: OperationHandle) -> OperationInfo:
        return self._operation(session, operation).info()

    def get_operation_result_schema(self, session: SessionHandle, operation: OperationHandle,
                                    timeout_s: float = 30.0, statement: Optional[int] = None) -> list[Column]:
        op = self._operation(session, operation)
        deadline = time.monotonic() + timeout_s
        index = None if statement is None else self._statement_index(op, statement)
        if index is not None:  # a statement before the last: its kept result, once it has run
            while index not in op.statement_results and not op.done.is_set() and time.monotonic() < deadline:
                if any(s.index == index and s.status != "RUNNING" for s in list(op.summaries)):
                    break
                op.done.wait(0.02)
            kept = op.statement_results.get(index)
            if kept is not None:
                return list(kept.columns or [])
            page = self._statement_page(op, index, 0)
            if page.result_type is ResultType.ERROR:
                raise SqlExecutionError(page.exception["root_cause"], page.exception)
            if page.result_type is ResultType.NOT_READY:
                raise OperationStateError(f"statement {index + 1} of operation {op.handle} has not run yet; ask again")
            return []
        while op.fetcher.columns is None and not op.done.is_set() and time.monotonic() < deadline:
            op.done.wait(0.02)
        if op.status == OperationStatus.ERROR:
            raise SqlExecutionError(op.exception["root_cause"], op.exception)
        if op.fetcher.columns is None:
            raise OperationStateError(
                f"the result schema of operation {op.handle} is not known yet ({op.status.value}); ask again")
        return list(op.fetcher.columns)

    def cancel_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        op = self._operation(session, operation)
        self.operations.stop(op, OperationStatus.CANCELED, f"operation {op.handle} was canceled")

    def close_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        op = self._operation(session, operation)
        self.operations.stop(op, OperationStatus.CLOSED, f"operation {op.handle} is closed")
        self._discard_spool(op.handle)  # its whole-result spool goes with it

    def get_operation_progress(self, session: SessionHandle, operation: OperationHandle) -> OperationProgress:
        """Spark job and stage progress of a running operation (from the status tracker)."""
        return operation_progress(self._operation(session, operation))

    def get_operation_profile(self, session: SessionHandle, operation: OperationHandle,
                              timeout_s: float = 10.0) -> dict:
        """The query profile of an ended operation (kept after it is closed); see gateway/core/profiles.py."""
        owner = self.sessions.get(session)
        refusal = sql_metrics.refusal(owner.spark)
        if refusal is not None:
            raise NotAvailableOnBackend(refusal)
        handle = OperationHandle.from_string(operation)
        return self.profiles.get(owner.handle, handle, min(max(0.0, float(timeout_s)), 60.0))

    def list_operations(self, session: SessionHandle) -> list[tuple[OperationHandle, OperationInfo]]:
        owner = self.sessions.get(session)
        return [(op.handle, op.info()) for op in self.operations.of_session(owner.handle)]

    def operation_fetcher(self, session: SessionHandle, operation: OperationHandle) -> ResultFetcher:
        """The operation's result buffer, for accounting (tests, UI progress)."""
        return self._operation(session, operation).fetcher

    # ------------------------------------------------------------------------------------------
    # Statements
    # ------------------------------------------------------------------------------------------

    def execute_statement(self, session: SessionHandle, statement: str, timeout_ms: Optional[int] = None,
                          config: Optional[dict] = None, parameters: Optional[dict] = None) -> OperationHandle:
        return self._submit(session, statement, OperationType.EXECUTE_STATEMENT, timeout_ms, config, parameters)

    def _submit(self, session: SessionHandle, statement: str, op_type: OperationType,
                timeout_ms: Optional[int], config: Optional[dict],
                parameters: Optional[dict] = None) -> OperationHandle:
        owner = self.sessions.get(session)
        self._check_running_limit(owner)  # per user (auth on)
        if not isinstance(statement, str):
            raise InvalidStatementError(f"the statement must be text, got {type(statement).__name__}")
        statements = self.runner.split(statement)  # bad text fails here, before anything is queued
        values = self._check_markers(statements, parameters)  # a missing value fails before anything runs
        if timeout_ms is None:
            timeout_ms = self.config["operation.timeout_ms"]
        if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, (int, float)) \
                or not 0 <= timeout_ms <= MAX_TIMEOUT_MS:
            raise InvalidRequestError(f"timeout_ms must be a number of milliseconds from 0 (no limit) to "
                                      f"{MAX_TIMEOUT_MS:,} (30 days), got {str(timeout_ms)[:40]}")
        if config is not None and not isinstance(config, dict):
            raise InvalidRequestError("the operation config must be a mapping of setting name to value")
        fetcher = ResultFetcher(self.config["result.buffer_max_rows"], self.config["result.buffer_max_bytes"],
                                self.config["result.page_rows"], self.config["result.fetch_wait_ms"] / 1000.0)
        operation = Operation(owner, statement, op_type, fetcher, int(timeout_ms), config)
        operation.parameters = values
        if not changes_schema(s.kind for s in statements):
            return self.operations.submit(operation, lambda op: self.runner.run(op, self._on_timeout))
        self.schema_changed(owner)

        def run_then_refresh(op: Operation) -> None:
            try:
                self.runner.run(op, self._on_timeout)
            finally:
                self.schema_changed(owner)  # DDL, USE, modules, jars: caches of the catalog reload

        return self.operations.submit(operation, run_then_refresh)

    def _on_timeout(self, operation: Operation) -> None:
        try:
            self.operations.stop(operation, OperationStatus.TIMEOUT,
                                 f"operation {operation.handle} timed out after {operation.timeout_ms} ms")
        except GatewayError:
            pass  # it finished in the meantime

    def _check_markers(self, statements: list, parameters: Optional[dict]) -> dict:
        """The checked parameter values; every ``:name`` marker of every statement must have one, and
        markers only in statements Spark runs (the gateway's own statements take no ``args``)."""
        values = check_parameters(parameters)
        for statement in statements:
            names = marker_names(statement.text)
            if not names:
                continue
            absent = [name for name in names if name not in values]
            if absent:
                raise InvalidRequestError(missing_message(absent, statement.index, len(statements), statement.line),
                                          error_class="UNBOUND_SQL_PARAMETER", parameters=absent)
            if not self.runner.takes_parameters(statement):
                raise InvalidRequestError(
                    f"statement {statement.index + 1} ({statement.kind.value}, line {statement.line}) is run by the "
                    f"workbench itself, which binds no parameter markers: write the value in the statement, or "
                    f"run the query that uses :{names[0]} on its own", error_class="UNSUPPORTED_PARAMETER")
        return values

    def fetch_results(self, session: SessionHandle, operation: OperationHandle, token: int,
                      max_rows: Optional[int] = None, statement: Optional[int] = None) -> ResultSet:
        op = self._operation(session, operation)
        if statement is None:
            return op.fetcher.fetch(token, max_rows)
        index = self._statement_index(op, statement)
        if index is None:  # the last statement: the operation's own (streamed) result, if it ran
            summaries = list(op.summaries)
            if not any(s.status == "ERROR" for s in summaries[:-1]) and not (
                    summaries and summaries[-1].status == "ERROR" and summaries[-1].index < statement):
                return op.fetcher.fetch(token, max_rows)
            return self._statement_page(op, statement, token)
        kept = op.statement_results.get(index)
        if kept is not None:
            return kept.fetch(token, max_rows)
        return self._statement_page(op, index, token)

    def _statement_index(self, op: Operation, statement) -> Optional[int]:
        """``statement`` checked against the script; None for its last statement (the operation's result)."""
        total = len(self.runner.split(op.statement))
        if isinstance(statement, bool) or not isinstance(statement, int) or not 0 <= statement < total:
            raise InvalidRequestError(f"statement must be the index of one of the script's {total} statement"
                                      f"{'s' if total > 1 else ''} (0 to {total - 1}), got {str(statement)[:40]}",
                                      error_class="NO_SUCH_STATEMENT")
        return None if statement == total - 1 else statement

    @staticmethod
    def _statement_page(op: Operation, index: int, token: int) -> ResultSet:
        """The answer for a statement before the last that kept no rows: not run yet (NOT_READY), no
        result (an empty end), its own error, or not run because an earlier one failed (an error)."""
        summary = next((s for s in list(op.summaries) if s.index == index), None)
        if summary is None:
            if not op.done.is_set() and not op.status.is_terminal:
                op.done.wait(0.05)  # a client that asks again at once does not spin
                return ResultSet(ResultType.NOT_READY, token, [], [])
            failed = next((s for s in op.summaries if s.status == "ERROR"), None)
            why = (f"statement {failed.index + 1} (line {failed.line}) failed" if failed is not None
                   else f"the operation ended {op.status.value}")
            return ResultSet(ResultType.ERROR, None, [], [], {
                "root_cause": f"statement {index + 1} did not run: {why}", "error_class": "STATEMENT_NOT_RUN"})
        if summary.error is not None:
            return ResultSet(ResultType.ERROR, None, [], [], summary.error)
        if summary.status == "RUNNING":
            return ResultSet(ResultType.NOT_READY, token, [], [])
        if token != 0:
            raise InvalidTokenError(f"token {token} is not valid: statement {index + 1} has no rows; its result "
                                    f"ended at token 0")
        return ResultSet(ResultType.EOS, None, [], [])

    def iter_results(self, session: SessionHandle, operation: OperationHandle, max_rows: Optional[int] = None,
                     timeout_s: float = 600.0, statement: Optional[int] = None) -> Iterator[ResultSet]:
        """Every page with rows or an end, in token order; NOT_READY answers are retried.

        Ends after an EOS or ERROR page; raises OperationStateError if no end comes in ``timeout_s``.
        """
        token, deadline = 0, time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            page = self.fetch_results(session, operation, token, max_rows, statement)
            if page.result_type is ResultType.NOT_READY:
                continue
            yield page
            if page.next_token is None:
                return
            token = page.next_token
        raise OperationStateError(f"operation {operation} reached no end of result within {timeout_s:g} s")

    # ------------------------------------------------------------------------------------------
    # Catalog
    # ------------------------------------------------------------------------------------------

    def _catalog(self, session: SessionHandle) -> CatalogBrowser:
        owner = self.sessions.get(session)
        WRITES.catch_up(owner)  # another session's write: its tables are looked up afresh
        return CatalogBrowser(owner.spark)

    def get_current_catalog(self, session: SessionHandle) -> str:
        return self._catalog(session).current_catalog()

    def get_current_database(self, session: SessionHandle) -> str:
        return self._catalog(session).current_database()

    def list_catalogs(self, session: SessionHandle) -> list[str]:
        return self._catalog(session).list_catalogs()

    def list_databases(self, session: SessionHandle, catalog: Optional[str] = None) -> list[str]:
        return self._catalog(session).list_databases(catalog)

    def list_tables(self, session: SessionHandle, catalog: Optional[str] = None, database: Optional[str] = None,
                    kind: TableKind = TableKind.ALL) -> list[TableInfo]:
        try:
            kind = TableKind(kind.value if isinstance(kind, TableKind) else str(kind).upper())
        except ValueError:
            raise InvalidRequestError(f"table kind {kind!r} is not one of ALL, TABLE, VIEW") from None
        return self._catalog(session).list_tables(catalog, database, kind)

    def list_functions(self, session: SessionHandle, catalog: Optional[str] = None,
                       database: Optional[str] = None, kind=None) -> list[FunctionInfo]:
        if kind is not None:
            try:
                kind = FunctionKind(kind.value if isinstance(kind, FunctionKind) else str(kind).upper())
            except ValueError:
                raise InvalidRequestError(f"function kind {kind!r} is not one of BUILTIN, USER") from None
        owner = self.sessions.get(session)
        infos = self._catalog(session).list_functions(catalog, database, kind)
        for feature in self.features.values():
            infos = feature.describe_functions(owner, infos)
        return infos

    def get_table(self, session: SessionHandle, name: str) -> TableDetail:
        return self._catalog(session).get_table(name)

    def get_table_ddl(self, session: SessionHandle, name: str) -> str:
        """SHOW CREATE TABLE for the table or view ``name``."""
        return self._catalog(session).show_create_table(name)

    def get_function(self, session: SessionHandle, name: str) -> FunctionDetail:
        owner = self.sessions.get(session)
        detail = self._catalog(session).get_function(name)
        for feature in self.features.values():
            detail = feature.describe_function(owner, detail, name)
        return detail

    # ------------------------------------------------------------------------------------------
    # Utilities
    # ------------------------------------------------------------------------------------------

    def create_sample_database(self, session: SessionHandle, database: str = SAMPLE_DATABASE) -> list[str]:
        """A small database of related tables to try the workbench on; the session then USEs it."""
        return create_sample_database(self, session, database)

    def get_gateway_info(self) -> dict[str, str]:
        ENGINE.check()  # a dead driver is never answered as if healthy
        uri = self.config["metastore.uri"]
        hive = self.config["metastore.hive_support"]
        store = self.store.status()
        return {
            "product": "Spark SQL Workbench",
            "version": __version__,
            **(self.engines.gateway_info() if self.engines is not None else {
                "spark_version": engine_fact(self.root, "version"), "master": engine_master(self.root, self.config),
                "warehouse": engine_fact(self.root, "spark.sql.warehouse.dir"),
                "spark_ui": ui_url(self.root) or "off (spark.ui.enabled = false)"}),
            "metastore": "the Spark Connect server's" if self.config["engine.kind"] in ("connect", "managed") else uri if uri else (("database " + self.config["metastore.jdbc_url"].split("?")[0]
                                           if self.config["metastore.jdbc_url"] else "embedded Derby")
                                          if hive else "in-memory"),
            "data_dir": str(self.config.data_dir),
            "python_version": platform.python_version(),
            "features": ", ".join(self.features),
            "store": store["url"],
            "store_status": store["state"],
            "history_not_recorded": str(store["history_lost"]),
        }

    def get_health(self) -> dict[str, Any]:
        return self.health.status()

    def list_feature_pages(self) -> list[PageSpec]:
        return sorted((page for feature in self.features.values() for page in feature.pages),
                      key=lambda page: (page.order, page.title))

    def get_setting(self, key: str) -> Any:
        try:
            return self.config[key]
        except KeyError:
            raise InvalidRequestError(f"{key!r} is not a workbench setting; known settings: "
                                      f"{', '.join(self.config.values)}") from None

    # ------------------------------------------------------------------------------------------

    def _on_session_closed(self, session: Session) -> None:
        self.profiles.forget_session(session.handle)
        if not self._stopped:  # closed by a user or expired: gone for good; a stopping process keeps it
            self.journal.forget(session)
        for feature in self.features.values():
            try:
                feature.close_session(session)
            except Exception:  # one feature's cleanup must not keep the session's operations alive
                log.exception("closing session %s: feature %s failed to clean up", session.handle, feature.name)
        for operation in self.operations.of_session(session.handle):
            self._discard_spool(operation.handle)
            try:
                self.operations.stop(operation, OperationStatus.CLOSED, "its session was closed")
            except GatewayError:
                pass

