"""GatewayService: a thin facade. Find the session, delegate, wrap unexpected errors."""
from __future__ import annotations

import contextlib
import functools
import logging
import platform
import time
from typing import Callable, Iterator, Optional

from gateway import __version__
from gateway.contract import GatewayServiceContract
from gateway.features.atomic import install_atomic_writes
from gateway.core.catalog import CatalogBrowser
from gateway.core.editor_calls import EditorCalls
from gateway.core.interim_feature_calls import InterimFeatureCalls
from gateway.features.completion.completer import Candidate, changes_schema, install_completion
from gateway.config import WorkbenchConfig, load_config
from gateway.errors import (GatewayError, InvalidRequestError, InvalidStatementError, OperationStateError,
                     SqlExecutionError)
from gateway.core.executor import StatementRunner
from gateway.handles import OperationHandle, SessionHandle
from gateway.features.modules import FunctionOrigin, ModuleInfo, ModuleTypeInfo, install_modules
from gateway.features.modules.annotate import annotate_function, annotate_functions
from gateway.features.jars.store import UdfClass
from gateway.models import (Column, FunctionDetail, FunctionInfo, FunctionKind, JarInfo, OperationInfo,
                     OperationStatus, OperationType, ResultSet, ResultType, TableDetail, TableInfo, TableKind)
from gateway.core.operations import Operation, OperationManager
from gateway.features.jars.feature import ResourceManager, install_resources
from gateway.features.plans import install_plans
from gateway.core.progress import OperationProgress, operation_progress
from gateway.core.results import ResultFetcher
from gateway.core.sample_data import SAMPLE_DATABASE, create_sample_database
from gateway.core.serialization import error_json
from gateway.core.sessions import Session, SessionManager
from gateway.spark.root import get_or_create_root
from gateway.core.statements import CONFIGURE_KINDS

log = logging.getLogger(__name__)


def _wrapped(method):
    """Let GatewayErrors through; turn anything else into one with Spark's error details."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except GatewayError:
            raise
        except Exception as exc:
            error = error_json(exc)
            raise SqlExecutionError(f"{method.__name__} failed: {error['root_cause']}", error) from exc

    return call


class GatewayService(EditorCalls, InterimFeatureCalls, GatewayServiceContract):
    """The embedded SQL gateway: sessions over one root SparkSession, operations on a pool."""

    def __init__(self, config: Optional[WorkbenchConfig] = None) -> None:
        self.config = config if config is not None else load_config()
        self.root = get_or_create_root(self.config)
        self.runner = StatementRunner(self.config["statement.max_chars"])
        self.operations = OperationManager(self.config["operation.pool_size"])
        self.sessions = SessionManager(
            self.root, self.config["session.max_sessions"], self.config["session.idle_timeout_s"],
            self.config["session.check_interval_s"], self._on_session_closed)
        # Features (modules, resources, atomic writes, plans) hang per-session state on each new
        # Session here and register the statements they handle with ``self.runner.register``.
        self.session_openers: list[Callable[[Session], None]] = []
        self.session_closers: list[Callable[[Session], None]] = []
        install_modules(self)
        self.resource_feature = install_resources(self)
        install_plans(self)
        install_atomic_writes(self)
        install_completion(self)
        self._stopped = False

    @classmethod
    def from_config(cls, path) -> "GatewayService":
        return cls(load_config(path))

    def shutdown(self, stop_spark: bool = True) -> None:
        """Close every session, stop the pool and (by default) the root SparkSession."""
        if self._stopped:
            return
        self._stopped = True
        self.sessions.shutdown()
        self.operations.shutdown()
        if stop_spark:
            self.root.stop()

    # ------------------------------------------------------------------------------------------
    # Sessions
    # ------------------------------------------------------------------------------------------

    @_wrapped
    def open_session(self, config: Optional[dict] = None, name: Optional[str] = None) -> SessionHandle:
        if config is not None and not isinstance(config, dict):
            raise InvalidRequestError("session config must be a mapping of setting name to value")
        session = self.sessions.open(name)
        try:
            for key, value in (config or {}).items():
                session.spark.conf.set(str(key), str(value))
            for opener in self.session_openers:
                opener(session)
        except Exception as exc:
            self.sessions.close(session.handle)
            error = error_json(exc)
            raise SqlExecutionError(f"the session setting could not be applied: {error['root_cause']}",
                                    error) from None
        return session.handle

    @_wrapped
    def close_session(self, session: SessionHandle) -> None:
        self.sessions.close(session)

    @_wrapped
    def heartbeat(self, session: SessionHandle) -> None:
        self.sessions.get(session)

    @_wrapped
    def get_session_config(self, session: SessionHandle) -> dict[str, str]:
        spark = self.sessions.get(session).spark
        return dict(sorted(spark.conf.getAll.items()))

    def session_name(self, session: SessionHandle) -> str:
        return self.sessions.get(session).name

    @contextlib.contextmanager
    def _between_statements(self, session: SessionHandle, busy_wait_s: float = 60.0) -> Iterator[Session]:
        """The session with its statement lock held: a module or jar change never lands mid-statement."""
        owner = self.sessions.get(session)
        if not owner.run_lock.acquire(timeout=busy_wait_s):
            raise OperationStateError(f"session {owner.handle} is still running a statement after "
                                      f"{busy_wait_s:g} s; try again when it is done, or cancel it")
        try:
            yield owner
        finally:
            owner.run_lock.release()

    @_wrapped
    def configure_session(self, session: SessionHandle, statement: str, timeout_ms: Optional[int] = None) -> None:
        statements = self.runner.split(statement)
        if len(statements) != 1:
            raise InvalidStatementError(
                f"configure_session takes exactly one statement, got {len(statements)}; "
                f"send them one at a time or use execute_statement for a script")
        kind = statements[0].kind
        if kind not in CONFIGURE_KINDS:
            allowed = ", ".join(sorted(k.value.replace("_", " ") for k in CONFIGURE_KINDS))
            raise InvalidStatementError(
                f"configure_session does not accept {kind.value.replace('_', ' ')} statements; "
                f"it accepts only {allowed}. Use execute_statement to run other statements.")
        handle = self._submit(session, statement, OperationType.CONFIGURE_SESSION, timeout_ms, None)
        operation = self.operations.get(self.sessions.get(session).handle, handle)
        try:
            operation.done.wait()
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

    @_wrapped
    def get_operation_info(self, session: SessionHandle, operation: OperationHandle) -> OperationInfo:
        return self._operation(session, operation).info()

    @_wrapped
    def get_operation_result_schema(self, session: SessionHandle, operation: OperationHandle,
                                    timeout_s: float = 30.0) -> list[Column]:
        op = self._operation(session, operation)
        deadline = time.monotonic() + timeout_s
        while op.fetcher.columns is None and not op.done.is_set() and time.monotonic() < deadline:
            op.done.wait(0.02)
        if op.status == OperationStatus.ERROR:
            raise SqlExecutionError(op.exception["root_cause"], op.exception)
        if op.fetcher.columns is None:
            raise OperationStateError(
                f"the result schema of operation {op.handle} is not known yet ({op.status.value}); ask again")
        return list(op.fetcher.columns)

    @_wrapped
    def cancel_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        op = self._operation(session, operation)
        self.operations.stop(op, OperationStatus.CANCELED, f"operation {op.handle} was canceled")

    @_wrapped
    def close_operation(self, session: SessionHandle, operation: OperationHandle) -> None:
        op = self._operation(session, operation)
        self.operations.stop(op, OperationStatus.CLOSED, f"operation {op.handle} is closed")

    @_wrapped
    def get_operation_progress(self, session: SessionHandle, operation: OperationHandle) -> OperationProgress:
        """Spark job and stage progress of a running operation (from the status tracker)."""
        return operation_progress(self._operation(session, operation))

    def list_operations(self, session: SessionHandle) -> list[tuple[OperationHandle, OperationInfo]]:
        owner = self.sessions.get(session)
        return [(op.handle, op.info()) for op in self.operations.of_session(owner.handle)]

    def operation_fetcher(self, session: SessionHandle, operation: OperationHandle) -> ResultFetcher:
        """The operation's result buffer, for accounting (tests, UI progress)."""
        return self._operation(session, operation).fetcher

    # ------------------------------------------------------------------------------------------
    # Statements
    # ------------------------------------------------------------------------------------------

    @_wrapped
    def execute_statement(self, session: SessionHandle, statement: str, timeout_ms: Optional[int] = None,
                          config: Optional[dict] = None) -> OperationHandle:
        return self._submit(session, statement, OperationType.EXECUTE_STATEMENT, timeout_ms, config)

    def _submit(self, session: SessionHandle, statement: str, op_type: OperationType,
                timeout_ms: Optional[int], config: Optional[dict]) -> OperationHandle:
        owner = self.sessions.get(session)
        if not isinstance(statement, str):
            raise InvalidStatementError(f"the statement must be text, got {type(statement).__name__}")
        statements = self.runner.split(statement)  # bad text fails here, before anything is queued
        if timeout_ms is None:
            timeout_ms = self.config["operation.timeout_ms"]
        if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, (int, float)) or timeout_ms < 0:
            raise InvalidRequestError(f"timeout_ms must be a number of milliseconds >= 0, got {timeout_ms!r}")
        if config is not None and not isinstance(config, dict):
            raise InvalidRequestError("the operation config must be a mapping of setting name to value")
        fetcher = ResultFetcher(self.config["result.buffer_max_rows"], self.config["result.buffer_max_bytes"],
                                self.config["result.page_rows"], self.config["result.fetch_wait_ms"] / 1000.0)
        operation = Operation(owner, statement, op_type, fetcher, int(timeout_ms), config)
        if not changes_schema(s.kind for s in statements):
            return self.operations.submit(operation, lambda op: self.runner.run(op, self._on_timeout))
        self.completer.invalidate(owner)

        def run_then_refresh(op: Operation) -> None:
            try:
                self.runner.run(op, self._on_timeout)
            finally:
                self.completer.invalidate(owner)  # DDL, USE, modules, jars: completion reloads

        return self.operations.submit(operation, run_then_refresh)

    def _on_timeout(self, operation: Operation) -> None:
        try:
            self.operations.stop(operation, OperationStatus.TIMEOUT,
                                 f"operation {operation.handle} timed out after {operation.timeout_ms} ms")
        except GatewayError:
            pass  # it finished in the meantime

    @_wrapped
    def fetch_results(self, session: SessionHandle, operation: OperationHandle, token: int,
                      max_rows: Optional[int] = None) -> ResultSet:
        return self._operation(session, operation).fetcher.fetch(token, max_rows)

    def iter_results(self, session: SessionHandle, operation: OperationHandle, max_rows: Optional[int] = None,
                     timeout_s: float = 600.0) -> Iterator[ResultSet]:
        """Every page with rows or an end, in token order; NOT_READY answers are retried.

        Ends after an EOS or ERROR page; raises OperationStateError if no end comes in ``timeout_s``.
        """
        token, deadline = 0, time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            page = self.fetch_results(session, operation, token, max_rows)
            if page.result_type is ResultType.NOT_READY:
                continue
            yield page
            if page.next_token is None:
                return
            token = page.next_token
        raise OperationStateError(f"operation {operation} reached no end of result within {timeout_s:g} s")

    @_wrapped
    def complete_statement(self, session: SessionHandle, statement: str, position: int) -> list[str]:
        return [c.value for c in self.completer.complete(self.sessions.get(session), statement, position)]

    @_wrapped
    def complete_candidates(self, session: SessionHandle, statement: str, position: int) -> list[Candidate]:
        """Like complete_statement, with each candidate's kind and detail (column type, signature)."""
        return self.completer.complete(self.sessions.get(session), statement, position)

    def warm_completion(self, session: SessionHandle) -> None:
        """Start loading the session's completion cache in the background (the UI does on first render)."""
        self.completer.warm(self.sessions.get(session))

    def refresh_completion(self, session: SessionHandle) -> None:
        """Drop the session's completion cache (the catalog changed behind the gateway's back)."""
        self.completer.invalidate(self.sessions.get(session))

    # ------------------------------------------------------------------------------------------
    # Catalog
    # ------------------------------------------------------------------------------------------

    def _catalog(self, session: SessionHandle) -> CatalogBrowser:
        return CatalogBrowser(self.sessions.get(session).spark)

    @_wrapped
    def get_current_catalog(self, session: SessionHandle) -> str:
        return self._catalog(session).current_catalog()

    @_wrapped
    def get_current_database(self, session: SessionHandle) -> str:
        return self._catalog(session).current_database()

    @_wrapped
    def list_catalogs(self, session: SessionHandle) -> list[str]:
        return self._catalog(session).list_catalogs()

    @_wrapped
    def list_databases(self, session: SessionHandle, catalog: Optional[str] = None) -> list[str]:
        return self._catalog(session).list_databases(catalog)

    @_wrapped
    def list_tables(self, session: SessionHandle, catalog: Optional[str] = None, database: Optional[str] = None,
                    kind: TableKind = TableKind.ALL) -> list[TableInfo]:
        try:
            kind = TableKind(kind.value if isinstance(kind, TableKind) else str(kind).upper())
        except ValueError:
            raise InvalidRequestError(f"table kind {kind!r} is not one of ALL, TABLE, VIEW") from None
        return self._catalog(session).list_tables(catalog, database, kind)

    @_wrapped
    def list_functions(self, session: SessionHandle, catalog: Optional[str] = None,
                       database: Optional[str] = None, kind=None) -> list[FunctionInfo]:
        if kind is not None:
            try:
                kind = FunctionKind(kind.value if isinstance(kind, FunctionKind) else str(kind).upper())
            except ValueError:
                raise InvalidRequestError(f"function kind {kind!r} is not one of BUILTIN, USER") from None
        infos = self._catalog(session).list_functions(catalog, database, kind)
        return annotate_functions(self.sessions.get(session).modules, infos)

    @_wrapped
    def get_table(self, session: SessionHandle, name: str) -> TableDetail:
        return self._catalog(session).get_table(name)

    @_wrapped
    def get_table_ddl(self, session: SessionHandle, name: str) -> str:
        """SHOW CREATE TABLE for the table or view ``name``."""
        return self._catalog(session).show_create_table(name)

    @_wrapped
    def get_function(self, session: SessionHandle, name: str) -> FunctionDetail:
        owner = self.sessions.get(session)
        detail = annotate_function(owner.modules, self._catalog(session).get_function(name), name)
        if owner.resources is not None:
            detail.resources, detail.language = owner.resources.function_resources(detail)
        return detail

    # ------------------------------------------------------------------------------------------
    # Modules (FLIP-68)
    # ------------------------------------------------------------------------------------------

    @_wrapped
    def list_modules(self, session: SessionHandle, full: bool = False) -> list[ModuleInfo]:
        return self.sessions.get(session).modules.list_modules(full)

    @_wrapped
    def load_module(self, session: SessionHandle, name: str, properties: Optional[dict] = None) -> ModuleInfo:
        with self._between_statements(session) as owner:
            module = owner.modules.load(name, properties)
            return next(i for i in owner.modules.list_modules(True) if i.name == module.name)

    @_wrapped
    def unload_module(self, session: SessionHandle, name: str) -> None:
        with self._between_statements(session) as owner:
            owner.modules.unload(name)

    @_wrapped
    def use_modules(self, session: SessionHandle, names: list[str]) -> None:
        with self._between_statements(session) as owner:
            owner.modules.use(names)

    def list_module_types(self) -> list[ModuleTypeInfo]:
        """Module types LOAD MODULE knows (shipped and from entry points), with their properties."""
        return self.module_registry.infos()

    @_wrapped
    def function_origin(self, session: SessionHandle, name: str) -> Optional[FunctionOrigin]:
        return self.sessions.get(session).modules.function_origin(name)

    # ------------------------------------------------------------------------------------------
    # Jars and function resources (FLIP-214)
    # ------------------------------------------------------------------------------------------

    def _resources(self, session: SessionHandle) -> ResourceManager:
        owner = self.sessions.get(session)
        if owner.resources is None:
            raise InvalidRequestError(f"session {owner.handle} has no resource manager")
        return owner.resources

    def _locked(self, session: SessionHandle, call):
        """Run a jar call between the session's statements, never in the middle of one."""
        with self._between_statements(session):
            return call(self._resources(session))

    @_wrapped
    def list_jars(self, session: SessionHandle) -> list[JarInfo]:
        return self._resources(session).list_jars()

    @_wrapped
    def add_jar(self, session: SessionHandle, uri: str) -> JarInfo:
        return self._locked(session, lambda r: r.add_jar(uri))

    @_wrapped
    def remove_jar(self, session: SessionHandle, uri: str) -> list[str]:
        return self._locked(session, lambda r: r.remove_jar(uri))

    @_wrapped
    def upload_jar(self, session: SessionHandle, filename: str, data: bytes) -> JarInfo:
        return self._locked(session, lambda r: r.upload_jar(filename, data))

    @_wrapped
    def list_udf_classes(self, session: SessionHandle, jar: str) -> list[UdfClass]:
        return self._resources(session).udf_classes(jar)

    # ------------------------------------------------------------------------------------------
    # Compiled plans (FLIP-190)
    # ------------------------------------------------------------------------------------------

    @_wrapped
    def compile_plan(self, session: SessionHandle, statement: str, path: Optional[str] = None,
                     overwrite: bool = False) -> dict:
        with self._between_statements(session, busy_wait_s=30.0) as owner:
            if path is None:
                return self.plans.compile(owner, statement)
            return self.plans.compile_to(owner, statement, path, overwrite=overwrite)[1]

    @_wrapped
    def explain_plan(self, session: SessionHandle, plan) -> dict:
        with self._between_statements(session, busy_wait_s=30.0) as owner:
            return self.plans.explain(owner, plan)

    @_wrapped
    def load_plan(self, path: str) -> dict:
        return self.plans.load(path)

    @_wrapped
    def list_plans(self) -> list[str]:
        return self.plans.list_plans()

    @_wrapped
    def diff_plans(self, left, right) -> dict:
        return self.plans.diff(left, right)

    # ------------------------------------------------------------------------------------------
    # Utilities
    # ------------------------------------------------------------------------------------------

    @_wrapped
    def create_sample_database(self, session: SessionHandle, database: str = SAMPLE_DATABASE) -> list[str]:
        """A small database of related tables to try the workbench on; the session then USEs it."""
        return create_sample_database(self, session, database)

    def get_gateway_info(self) -> dict[str, str]:
        sc = self.root.sparkContext
        uri = self.config["metastore.uri"]
        hive = self.config["metastore.hive_support"]
        return {
            "product": "Spark SQL Workbench",
            "version": __version__,
            "spark_version": self.root.version,
            "master": sc.master,
            "metastore": uri if uri else ("embedded Derby" if hive else "in-memory"),
            "warehouse": self.root.conf.get("spark.sql.warehouse.dir"),
            "data_dir": str(self.config.data_dir),
            "python_version": platform.python_version(),
        }

    # ------------------------------------------------------------------------------------------

    def _on_session_closed(self, session: Session) -> None:
        for closer in self.session_closers:
            try:
                closer(session)
            except Exception:  # one feature's cleanup must not keep the session's operations alive
                log.exception("closing session %s: cleanup failed", session.handle)
        for operation in self.operations.of_session(session.handle):
            try:
                self.operations.stop(operation, OperationStatus.CLOSED, "its session was closed")
            except GatewayError:
                pass
