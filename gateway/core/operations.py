"""Operations: one statement (or script) run asynchronously on a bounded thread pool.

Each operation runs in its own Spark job group, set in the worker thread (PySpark pins
Python threads to JVM threads), so cancel, close and timeout stop its Spark jobs with
``cancelJobGroup`` from any thread.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Callable, Optional, Protocol, Sequence, TypeVar

from gateway.errors import BusyError, OperationNotFoundError, OperationStateError
from gateway.handles import OperationHandle
from gateway.models import OperationInfo, OperationStatus, OperationType, StatementSummary
from gateway.core.results import ResultFetcher
from gateway.spark.jobs import cancel_jobs, job_ids as job_ids_of, job_links

if TYPE_CHECKING:
    from gateway.core.sessions import Session

log = logging.getLogger(__name__)


CANCEL_RETRY_S = 60.0
T = TypeVar("T")
_running = threading.local()


def current_operation() -> Optional["Operation"]:
    """The operation whose statements run on this worker thread (for handlers bound to its lifecycle)."""
    return getattr(_running, "operation", None)


def bind_current(operation: Optional["Operation"]) -> None:
    _running.operation = operation


class OperationObserver(Protocol):
    """Told of each operation's life (the statement history listens). Each call must be cheap and
    is made on the statement's path: from ``submit``, under the operation's lock, in its worker."""

    def operation_submitted(self, operation: "Operation") -> None:
        """Queued (PENDING)."""

    def operation_ended(self, operation: "Operation") -> None:
        """Reached its first terminal status (``operation.outcome``): FINISHED, ERROR, CANCELED, …"""

    def operation_done(self, operation: "Operation") -> None:
        """Its worker returned: no more rows will come (``operation.fetcher.rows_produced`` is final)."""


def _notify(observers: Sequence[OperationObserver], event: str, operation: "Operation") -> None:
    for observer in observers:
        try:
            getattr(observer, event)(operation)
        except Exception:  # noqa: BLE001 - an observer never fails the statement it watches
            log.exception("operation %s: observer %s failed on %s", operation.handle, type(observer).__name__,
                          event)


class Operation:
    def __init__(self, session: "Session", statement: str, op_type: OperationType,
                 fetcher: ResultFetcher, timeout_ms: Optional[int], config: Optional[dict]) -> None:
        self.handle = OperationHandle()
        self.session = session
        self.statement = statement
        self.type = op_type
        self.fetcher = fetcher
        self.timeout_ms = timeout_ms or 0
        self.config = dict(config or {})
        self.job_group = f"workbench-op-{self.handle}"
        self.submitted_at = time.time()
        self.started_at: Optional[float] = None
        self.ended_at: Optional[float] = None
        self.exception: Optional[dict] = None
        self.summaries: list[StatementSummary] = []
        # The kept result of each statement of a script before the last (the last streams into ``fetcher``).
        self.statement_results: dict[int, ResultFetcher] = {}
        self.parameters: dict = {}  # checked values of the :name markers, bound through Spark's args
        self.committed: list[dict] = []  # what atomic writes published (FLIP-305)
        self.stopped_error: Optional[dict] = None  # set when the gateway ended it (memory guard, dead JVM)
        self._status = OperationStatus.INITIALIZED
        self.outcome: Optional[OperationStatus] = None  # the first terminal status: how it really ended
        self.observers: Sequence[OperationObserver] = ()
        self._lock = threading.RLock()
        self._timer: Optional[threading.Timer] = None
        self.done = threading.Event()

    # -- status machine -------------------------------------------------------------------------

    @property
    def status(self) -> OperationStatus:
        return self._status

    def transition(self, target: OperationStatus) -> bool:
        """Move to ``target`` if the machine allows it; False when the move is not valid."""
        with self._lock:
            if not self._status.can_move_to(target):
                return False
            self._status = target
            if target == OperationStatus.RUNNING:
                self.started_at = time.time()
            if target.is_terminal and self.ended_at is None:
                self.ended_at = time.time()
            if target.is_terminal and self._timer is not None:
                self._timer.cancel()
            if target.is_terminal and self.outcome is None:
                self.outcome = target
                _notify(self.observers, "operation_ended", self)
            return True

    def commit_while_running(self, commit: Callable[[], T], finish: bool) -> T:
        """Run ``commit`` holding off cancel, timeout and close; with ``finish``, become FINISHED with it.

        ``commit`` checks that the operation is still RUNNING; a cancel that arrives meanwhile
        waits and then finds the operation FINISHED, so a published write is never reported canceled.
        """
        with self._lock:
            result = commit()
            if finish:
                self.transition(OperationStatus.FINISHED)
            return result

    def start_timer(self, on_timeout: Callable[["Operation"], None]) -> None:
        if self.timeout_ms > 0:
            self._timer = threading.Timer(self.timeout_ms / 1000.0, on_timeout, args=(self,))
            self._timer.daemon = True
            self._timer.start()

    def info(self) -> OperationInfo:
        spark = self.session.spark
        try:
            job_ids = job_ids_of(spark, self.job_group)
        except Exception:
            log.debug("the job ids could not be read", exc_info=True)
            job_ids = []
        return OperationInfo(
            status=self._status, type=self.type,
            has_result=self.type == OperationType.EXECUTE_STATEMENT and self.fetcher.columns is not None
            and len(self.fetcher.columns) > 0,
            statement=self.statement, submitted_at=self.submitted_at, started_at=self.started_at,
            ended_at=self.ended_at, rows_fetched=self.fetcher.rows_fetched, exception=self.exception,
            job_ids=sorted(job_ids), statements=list(self.summaries), committed=list(self.committed),
            job_group=self.job_group, **_ui_links(spark, sorted(job_ids)))


def _ui_links(spark, job_ids: list[int]) -> dict:
    try:
        url, pages = job_links(spark, job_ids)
    except Exception:  # noqa: BLE001 - like the job ids above: a stopped context answers without links
        log.debug("the Spark UI links could not be read", exc_info=True)
        return {}
    return {"spark_ui_url": url, "job_urls": pages}


class OperationManager:
    """Owns every operation of the gateway and the pool that runs them."""

    def __init__(self, pool_size: int, observers: Sequence[OperationObserver] = (),
                 per_session: int = 0, max_queued_per_session: int = 0) -> None:
        self.pool_size = max(1, pool_size)
        self._pool = ThreadPoolExecutor(max_workers=self.pool_size, thread_name_prefix="gateway-op")
        self._operations: dict[OperationHandle, Operation] = {}
        self._lock = threading.Lock()
        self.observers = tuple(observers)
        # Admission (issue 18): a session holds at most ``per_session`` pool threads; its other
        # operations wait in its own queue (PENDING) without taking a thread from other sessions.
        self.per_session = per_session if per_session > 0 else max(1, self.pool_size // 4)
        self.max_queued_per_session = max_queued_per_session
        self._running: dict[object, int] = {}
        self._waiting: dict[object, deque] = {}

    def submit(self, operation: Operation, work: Callable[[Operation], None]) -> OperationHandle:
        owner = operation.session.handle
        with self._lock:
            queued = len(self._waiting.get(owner, ()))
            if self.max_queued_per_session and queued >= self.max_queued_per_session:
                raise BusyError(
                    f"session {owner} already has {self._running.get(owner, 0)} statements running and {queued} "
                    f"waiting (settings operation.max_running_per_session, operation.max_queued_per_session); "
                    f"fetch or close the results of earlier statements, or cancel them, then try again",
                    http_status=429)
            self._operations[operation.handle] = operation
            start = self._running.get(owner, 0) < self.per_session
            if start:
                self._running[owner] = self._running.get(owner, 0) + 1
        operation.observers = self.observers
        operation.transition(OperationStatus.PENDING)
        _notify(self.observers, "operation_submitted", operation)
        if start:
            self._pool.submit(self._work, work, operation)
        else:
            with self._lock:
                self._waiting.setdefault(owner, deque()).append((work, operation))
            self._admit(owner, finished=False)  # a slot may have freed meanwhile
        return operation.handle

    def _admit(self, owner, finished: bool) -> None:
        """Start the session's next waiting operation (or give back its slot when ``finished``)."""
        with self._lock:
            if not finished:
                if self._running.get(owner, 0) >= self.per_session or not self._waiting.get(owner):
                    return
                self._running[owner] = self._running.get(owner, 0) + 1
            waiting = self._waiting.get(owner)
            if not waiting:
                self._waiting.pop(owner, None)
                left = self._running.get(owner, 0) - 1
                if left > 0:
                    self._running[owner] = left
                else:
                    self._running.pop(owner, None)
                return
            work, operation = waiting.popleft()
        self._pool.submit(self._work, work, operation)

    def running_and_waiting(self, owner) -> tuple[int, int]:
        """How many operations of a session hold a pool thread, and how many wait for one."""
        with self._lock:
            return self._running.get(owner, 0), len(self._waiting.get(owner, ()))

    def _work(self, work: Callable[[Operation], None], operation: Operation) -> None:
        try:
            if operation.status.is_terminal:  # canceled or closed while it waited: nothing to run
                operation.done.set()
            else:
                work(operation)
        finally:
            _notify(operation.observers, "operation_done", operation)
            self._admit(operation.session.handle, finished=True)

    def get(self, session_handle, handle) -> Operation:
        handle = OperationHandle.from_string(handle)
        with self._lock:
            operation = self._operations.get(handle)
        # An operation of another session answers exactly like an unknown one.
        if operation is None or operation.session.handle != session_handle:
            raise OperationNotFoundError(
                f"operation {handle} does not exist in session {session_handle}: it was never created, "
                f"or it was closed (closing frees its results)")
        return operation

    def of_session(self, session_handle) -> list[Operation]:
        with self._lock:
            return [op for op in self._operations.values() if op.session.handle == session_handle]

    def stop(self, operation: Operation, target: OperationStatus, reason: str) -> None:
        """Cancel, time out or close: change state, stop Spark jobs, free the buffer."""
        with operation._lock:
            previous = operation.status
            moved = operation.transition(target)
        if not moved and target != OperationStatus.CLOSED:
            raise OperationStateError(
                f"operation {operation.handle} is {previous.value}; it can no longer be "
                f"{'canceled' if target == OperationStatus.CANCELED else target.value.lower()}")
        ended = operation.fetcher.ended  # read before close: then no Spark job can be left to stop
        operation.fetcher.close(reason)
        if target == OperationStatus.CLOSED:
            for kept in operation.statement_results.values():
                kept.close(reason)
        if not operation.done.is_set() and not ended:
            threading.Thread(target=self._cancel_until_done, args=(operation,),
                             name=f"gateway-cancel-{operation.handle}", daemon=True).start()
        if target == OperationStatus.CLOSED:
            with self._lock:
                self._operations.pop(operation.handle, None)

    def fail(self, operation: Operation, error: dict) -> bool:
        """End an operation that is still producing with ``error`` (the memory guard, a dead JVM) and
        stop its Spark jobs; False when it had already ended."""
        with operation._lock:
            if operation.done.is_set() or operation.status in (OperationStatus.CANCELED, OperationStatus.CLOSED,
                                                               OperationStatus.TIMEOUT, OperationStatus.ERROR):
                return False
            operation.stopped_error = error
            operation.exception = error
            operation.transition(OperationStatus.ERROR)  # from FINISHED (streaming) the status stays
        operation.fetcher.fail(error)
        threading.Thread(target=self._cancel_until_done, args=(operation,),
                         name=f"gateway-cancel-{operation.handle}", daemon=True).start()
        return True

    def all(self) -> list[Operation]:
        with self._lock:
            return list(self._operations.values())

    @staticmethod
    def _cancel_until_done(operation: Operation) -> None:
        """Cancel the job group until the worker has stopped.

        A job submitted just after one cancelJobGroup (while the statement was still being
        planned) would otherwise run on; so cancel again every 100 ms, for at most a minute.
        """
        deadline = time.monotonic() + CANCEL_RETRY_S
        while time.monotonic() < deadline:
            try:
                cancel_jobs(operation.session.spark, operation.job_group)
            except Exception:  # Spark may be stopping; the state change still holds
                log.debug("Spark is stopping; the operation's state change holds", exc_info=True)
                return
            if operation.done.wait(0.1):
                return

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
