"""The statement history: read by ``list_history``, written by a recorder off the statements' path.

A statement must never wait for, nor fail because of, the store. The gateway hands the recorder
small events (a statement started; it ended; its worker is through, with the row count) that
only go into a bounded queue; one writer thread turns them into rows, several events per
transaction. When the store cannot be written the events are dropped and counted, the log says
so (once per outage) and ``get_gateway_info`` shows the count: nothing is hidden.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from gateway.errors import GatewayError
from gateway.models import HistoryEntry
from gateway.store.schema import query_history
from gateway.store.workspace import contains, ensure_user, parameter_json, parameters_of

if TYPE_CHECKING:
    from gateway.store.store import WorkbenchStore

log = logging.getLogger(__name__)

MAX_PENDING_EVENTS = 10_000
EVENTS_PER_TRANSACTION = 500
WRITE_ATTEMPTS = 3
RETRY_PAUSE_S = 0.5


def _entry(row) -> HistoryEntry:
    return HistoryEntry(entry_id=int(row.entry_id), user=row.user_name, session_handle=row.session_handle,
                        operation_handle=row.operation_handle, statement=row.statement, status=row.status,
                        started_at=row.started_at,
                        duration_ms=None if row.duration_ms is None else int(row.duration_ms),
                        rows=None if row.rows is None else int(row.rows), error_class=row.error_class,
                        kinds=tuple(row.statement_kinds.split(",")) if row.statement_kinds else (),
                        parameters=parameters_of(row.parameter_values))


def list_history(connection: Connection, user: str, search: str, limit: int,
                 before_id: Optional[int]) -> list[HistoryEntry]:
    query = select(query_history).where(query_history.c.user_name == user)
    if before_id is not None:
        query = query.where(query_history.c.entry_id < before_id)
    if search.strip():
        query = query.where(contains(query_history.c.statement, search.strip()))
    query = query.order_by(query_history.c.entry_id.desc()).limit(limit)
    return [_entry(row) for row in connection.execute(query)]


@dataclass
class _Pending:
    """What one transaction writes for one statement: its new row and/or the changes to it."""

    start: Optional[dict] = None
    changes: dict = field(default_factory=dict)
    forget: bool = False


class HistoryRecorder:
    """Queue of history events and the one thread that writes them (see the module's docstring)."""

    def __init__(self, store: "WorkbenchStore", max_pending: int = MAX_PENDING_EVENTS) -> None:
        self._store = store
        self._queue: queue.Queue = queue.Queue(maxsize=max_pending)
        self._entry_ids: dict[Any, int] = {}  # statement key -> its row, until its worker is through
        self._known_users: set[str] = set()
        self.lost = 0  # events dropped: queue full or store unavailable
        self._outage_logged = False
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="workbench-history-writer", daemon=True)
        self._thread.start()

    # -- the statements' side: cheap, never raises ------------------------------------------------

    def started(self, key: Any, user: str, session_handle: str, operation_handle: Optional[str],
                statement: str, started_at, kinds: tuple[str, ...] = (), parameters: Optional[dict] = None) -> None:
        try:
            values = parameter_json(parameters)
        except GatewayError:
            values = None   # the statement's run is not refused for its history
        self._put(("start", key, dict(user_name=user, session_handle=session_handle,
                                      operation_handle=operation_handle, statement=statement, status="RUNNING",
                                      started_at=started_at, statement_kinds=",".join(kinds) or None,
                                      parameter_values=values)))

    def ended(self, key: Any, status: str, duration_ms: Optional[int], error_class: Optional[str]) -> None:
        self._put(("change", key, dict(status=status, duration_ms=duration_ms, error_class=error_class)))

    def through(self, key: Any, changes: dict) -> None:
        """The statement's worker returned: last changes (rows, a late error); the key is then forgotten."""
        self._put(("through", key, changes))

    def _put(self, event: tuple) -> None:
        if self._stopped:
            return
        try:
            self._queue.put_nowait(event)
        except queue.Full:
            self.lost += 1
            if self.lost == 1 or self.lost % 1000 == 0:
                log.warning("statement history: %d events not recorded, the writer is %d events behind "
                            "(is the store at %s slow?)", self.lost, self._queue.qsize(), self._store.shown_url)

    # -- the writer -------------------------------------------------------------------------------

    @property
    def pending(self) -> int:
        return self._queue.unfinished_tasks

    def flush(self, timeout_s: float = 10.0) -> bool:
        """Wait until every queued event is written (or dropped); False if that took longer than ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        with self._queue.all_tasks_done:
            while self._queue.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._queue.all_tasks_done.wait(left)
        return True

    def stop(self, timeout_s: float = 10.0) -> None:
        """Write what is queued (for at most ``timeout_s``), then end the writer thread."""
        if self._stopped:
            return
        flushed = self.flush(timeout_s)
        self._stopped = True
        self._queue.put(None)
        self._thread.join(timeout_s)
        if not flushed:
            log.warning("statement history: stopped with %d events not yet written", self._queue.qsize())

    def _run(self) -> None:
        while True:
            events = [self._queue.get()]
            if events[0] is None:
                self._queue.task_done()
                return
            while len(events) < EVENTS_PER_TRANSACTION:
                try:
                    event = self._queue.get_nowait()
                except queue.Empty:
                    break
                if event is None:
                    self._queue.put(None)  # stop after this batch
                    self._queue.task_done()
                    break
                events.append(event)
            try:
                self._write_with_retries(events)
            finally:
                for _ in events:
                    self._queue.task_done()

    def _write_with_retries(self, events: list[tuple]) -> None:
        for attempt in range(1, WRITE_ATTEMPTS + 1):
            try:
                self._write(events)
                if self._outage_logged:
                    log.warning("statement history: the store at %s is writable again", self._store.shown_url)
                self._outage_logged = False
                self._store.mark_available()
                return
            except SQLAlchemyError as exc:
                if attempt < WRITE_ATTEMPTS:
                    time.sleep(RETRY_PAUSE_S * attempt)
                    continue
                self.lost += len(events)
                self._store.mark_unavailable(exc)
                if not self._outage_logged:
                    log.error("statement history: the store at %s cannot be written (%s); %d events not "
                              "recorded, and more will be lost until it is back", self._store.shown_url,
                              self._store.describe(exc), len(events))
                    self._outage_logged = True
            except Exception:  # noqa: BLE001 - a bug here must not stop the writer thread
                self.lost += len(events)
                log.exception("statement history: %d events not recorded (a bug in the recorder)", len(events))
                return

    def _write(self, events: list[tuple]) -> None:
        pending: dict[Any, _Pending] = {}
        for kind, key, values in events:
            item = pending.setdefault(key, _Pending())
            if kind == "start":
                item.start = values
            else:
                item.changes.update(values)
                item.forget = item.forget or kind == "through"
        written: dict[Any, int] = {}
        new_users: set[str] = set()
        with self._store.engine.connect() as connection:
            connection = self._store.writable(connection)
            with connection.begin():
                for key, item in pending.items():
                    if item.start is not None:
                        user = item.start["user_name"]
                        if user not in self._known_users and user not in new_users:
                            ensure_user(connection, user)
                            new_users.add(user)
                        result = connection.execute(insert(query_history).values(**{**item.start, **item.changes}))
                        written[key] = int(result.inserted_primary_key[0])
                    elif item.changes and key in self._entry_ids:
                        connection.execute(update(query_history).where(
                            query_history.c.entry_id == self._entry_ids[key]).values(**item.changes))
        self._known_users |= new_users
        self._entry_ids.update(written)
        for key, item in pending.items():
            if item.forget:
                self._entry_ids.pop(key, None)
