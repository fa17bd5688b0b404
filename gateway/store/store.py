"""WorkbenchStore: the workbench's own database (drafts, saved queries, history), apart from Spark.

It needs no Spark: the workspace calls answer while Spark is still starting. It checks what
callers send (names, lengths, ids) and turns a database that cannot be reached into a
``StoreUnavailableError`` (HTTP 503) that names the store and the reason. A store that is down
at start-up does not stop the workbench: the log says so, ``status()`` (in ``get_gateway_info``)
says so, and the next call tries again.
"""
from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Iterator, Optional

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from gateway.errors import InvalidRequestError, StoreUnavailableError
from gateway.models import EditorTab, HistoryEntry, SavedQuery
from gateway.store import history, workspace
from gateway.store.accounts import AccountCalls
from gateway.store.journal import JournalCalls
from gateway.store.engines import EngineCalls
from gateway.store.engine import WRITE, make_engine, shown_url
from gateway.store.history import HistoryRecorder
from gateway.store.migrate import current_revision, upgrade
from gateway.store.workspace import (DESCRIPTION_CHARS, checked_id, checked_name, checked_text, checked_user)

log = logging.getLogger(__name__)

DEFAULT_MAX_TEXT_CHARS = 1_000_000
MAX_HISTORY_PAGE = 1000
SEARCH_CHARS = 1000
MAX_ENTRY_ID = 2 ** 63 - 1  # BIGINT
RETRY_START_S = 5.0  # a store that was down is tried again at most this often


class WorkbenchStore(AccountCalls, JournalCalls, EngineCalls):
    def __init__(self, url: str, max_text_chars: int = DEFAULT_MAX_TEXT_CHARS) -> None:
        self.engine = make_engine(url)  # a bad URL is a ConfigurationError: the start stops there
        self.shown_url = shown_url(self.engine)
        self.max_text_chars = max_text_chars
        self._lock = threading.Lock()
        self._migrated = False
        self._error: Optional[str] = None
        self._last_attempt = 0.0
        self._try_start()
        self.recorder = HistoryRecorder(self)

    # -- availability -------------------------------------------------------------------------------

    def _try_start(self) -> None:
        """Migrate the schema to its head (the lock makes several processes take turns)."""
        self._last_attempt = time.monotonic()
        try:
            upgrade(self.engine)
        except SQLAlchemyError as exc:
            self.mark_unavailable(exc)
            log.error("the workbench store at %s is unavailable: %s. Drafts, saved queries and the history "
                      "answer an error until it is back (tried again on use)", self.shown_url, self._error)
            return
        self._migrated = True
        self.mark_available()
        log.info("workbench store at %s, schema %s", self.shown_url, current_revision(self.engine))

    def _ready(self) -> None:
        if self._migrated:
            return
        with self._lock:
            if not self._migrated and time.monotonic() - self._last_attempt >= RETRY_START_S:
                self._try_start()
        if not self._migrated:
            raise self._unavailable()

    def _unavailable(self) -> StoreUnavailableError:
        return StoreUnavailableError(f"the workbench store at {self.shown_url} is unavailable: {self._error}. "
                                     f"Drafts, saved queries and history wait for it; check that the database "
                                     f"is running and store.url is right (docs/store.md)")

    @staticmethod
    def describe(exc: BaseException) -> str:
        original = getattr(exc, "orig", None) or exc
        return f"{type(original).__name__}: {str(original).strip().splitlines()[0] if str(original).strip() else ''}"

    def mark_unavailable(self, exc: BaseException) -> None:
        self._error = self.describe(exc)

    def mark_available(self) -> None:
        self._error = None

    def status(self) -> dict:
        """Where the store is and whether it answers; how much history is queued or was lost."""
        return {"url": self.shown_url, "dialect": self.engine.dialect.name,
                "state": "available" if self._migrated and self._error is None else f"unavailable: {self._error}",
                "history_pending": self.recorder.pending, "history_lost": self.recorder.lost}

    @staticmethod
    def writable(connection: Connection) -> Connection:
        return connection.execution_options(**{WRITE: True})

    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[Connection]:
        self._ready()
        try:
            with self.engine.connect() as connection:
                if write:
                    connection = self.writable(connection)
                with connection.begin():
                    yield connection
        except DBAPIError as exc:
            if not _is_outage(exc):
                raise  # a constraint or SQL error is a bug of ours: InternalError upstream
            self.mark_unavailable(exc)
            raise self._unavailable() from exc
        else:
            if self._error is not None:
                self.mark_available()

    def close(self, timeout_s: float = 10.0) -> None:
        self.recorder.stop(timeout_s)
        self.engine.dispose()

    # -- tabs ---------------------------------------------------------------------------------------

    def _text(self, text, what: str) -> str:
        return checked_text(text, what, self.max_text_chars)

    def list_tabs(self, user: str) -> list[EditorTab]:
        user = checked_user(user)
        with self._transaction(write=False) as connection:
            return workspace.list_tabs(connection, user)

    def open_tab(self, user: str, title: Optional[str] = None, text: str = "") -> EditorTab:
        user = checked_user(user)
        title = None if title is None else checked_name(title, "tab title")
        text = self._text(text, "tab text")
        with self._transaction(write=True) as connection:
            return workspace.open_tab(connection, user, title, text)

    def save_tab_text(self, user: str, tab_id: str, text: str) -> EditorTab:
        user, tab_id = checked_user(user), checked_id(tab_id, "tab id")
        text = self._text(text, "tab text")
        with self._transaction(write=True) as connection:
            return workspace.update_tab(connection, user, tab_id, text=text)

    def save_tab_parameters(self, user: str, tab_id: str, values: Optional[dict]) -> EditorTab:
        user, tab_id = checked_user(user), checked_id(tab_id, "tab id")
        text = workspace.parameter_json(values)
        with self._transaction(write=True) as connection:
            return workspace.update_tab(connection, user, tab_id, parameter_values=text)

    def rename_tab(self, user: str, tab_id: str, title: str) -> EditorTab:
        user, tab_id = checked_user(user), checked_id(tab_id, "tab id")
        title = checked_name(title, "tab title")
        with self._transaction(write=True) as connection:
            return workspace.update_tab(connection, user, tab_id, title=title)

    def move_tab(self, user: str, tab_id: str, position: int) -> list[EditorTab]:
        user, tab_id = checked_user(user), checked_id(tab_id, "tab id")
        if isinstance(position, bool) or not isinstance(position, int):
            raise InvalidRequestError(f"the tab position must be a whole number (0 is the first tab), "
                                      f"got {position!r}")
        with self._transaction(write=True) as connection:
            return workspace.move_tab(connection, user, tab_id, position)

    def close_tab(self, user: str, tab_id: str) -> None:
        user, tab_id = checked_user(user), checked_id(tab_id, "tab id")
        with self._transaction(write=True) as connection:
            workspace.close_tab(connection, user, tab_id)

    # -- saved queries --------------------------------------------------------------------------------

    def save_query(self, user: str, name: str, text: str, description: str = "",
                   query_id: Optional[str] = None) -> SavedQuery:
        user = checked_user(user)
        name = checked_name(name, "query name")
        text = self._text(text, "query text")
        description = checked_text(description, "query description", DESCRIPTION_CHARS)
        query_id = None if query_id is None else checked_id(query_id, "query id")
        with self._transaction(write=True) as connection:
            return workspace.save_query(connection, user, name, text, description, query_id)

    def list_saved_queries(self, user: str, search: str = "") -> list[SavedQuery]:
        user = checked_user(user)
        search = checked_text(search, "search text", SEARCH_CHARS)
        with self._transaction(write=False) as connection:
            return workspace.list_saved_queries(connection, user, search)

    def get_saved_query(self, user: str, query_id: str) -> SavedQuery:
        user, query_id = checked_user(user), checked_id(query_id, "query id")
        with self._transaction(write=False) as connection:
            return workspace.get_saved_query(connection, user, query_id)

    def delete_saved_query(self, user: str, query_id: str) -> None:
        user, query_id = checked_user(user), checked_id(query_id, "query id")
        with self._transaction(write=True) as connection:
            workspace.delete_saved_query(connection, user, query_id)

    # -- history ---------------------------------------------------------------------------------------

    def list_history(self, user: str, search: str = "", limit: int = 100,
                     before_id: Optional[int] = None) -> list[HistoryEntry]:
        user = checked_user(user)
        search = checked_text(search, "search text", SEARCH_CHARS)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_HISTORY_PAGE:
            raise InvalidRequestError(f"limit must be a whole number from 1 to {MAX_HISTORY_PAGE}, got {limit!r}")
        if before_id is not None and (isinstance(before_id, bool) or not isinstance(before_id, int)
                                      or not 1 <= before_id <= MAX_ENTRY_ID):
            raise InvalidRequestError(f"before_id must be an entry id (a whole number from 1) or absent, "
                                      f"got {before_id!r}")
        with self._transaction(write=False) as connection:
            return history.list_history(connection, user, search, limit, before_id)


def _is_outage(exc: DBAPIError) -> bool:
    """The database cannot be reached or is busy beyond the timeout (not a wrong statement of ours)."""
    from sqlalchemy.exc import InterfaceError, OperationalError
    return exc.connection_invalidated or isinstance(exc, (OperationalError, InterfaceError))
