"""Sessions: each one is ``root.newSession()`` with its own SQL conf, temporary views and
functions, and current catalog and database. The manager owns the handle map, the session
cap and the idle sweeper.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Optional

from gateway.core.freshness import WRITES
from gateway.errors import SessionLimitError, SessionNotFoundError
from gateway.handles import SessionHandle
from gateway.identity import EVERY_USER, acting_as, required_principal, sees_every_user
from gateway.models import LOCAL_USER
from gateway.spark.root import new_session

log = logging.getLogger(__name__)


class Session:
    def __init__(self, spark, name: Optional[str], user: str = LOCAL_USER) -> None:
        self.handle = SessionHandle()
        self.spark = spark
        self.name = name or f"session-{str(self.handle)[:8]}"
        self.user = user  # its owner: the statement history files its statements under this user
        self.created_at = time.time()
        self.last_access = time.monotonic()
        # One statement of a session runs at a time (Flink's first rule): a USE or SET
        # always sees the statements before it.
        self.run_lock = threading.Lock()
        # Per-session state of each feature, by feature name (set by Feature.open_session).
        self.extensions: dict[str, object] = {}
        # The process's write epoch this session's table cache reflects (gateway/core/freshness.py).
        self.seen_epoch = WRITES.value
        # Its FAIR scheduler pool: a small number reused after the session closes, so that the
        # pools Spark keeps stay as few as the sessions open at once.
        self.pool_slot = 0
        # Why its engine session is gone (Spark Connect's server died or restarted), None while it lives:
        # the next call gets a fresh server-side session (SessionManager.get).
        self.engine_lost: Optional[str] = None
        # Its managed engine's id (engine.kind = managed, gateway/engines/), None on the other engines.
        self.engine_id: Optional[str] = None

    def touch(self) -> None:
        self.last_access = time.monotonic()

    def idle_seconds(self) -> float:
        return time.monotonic() - self.last_access

    @property
    def scheduler_pool(self) -> str:
        return f"workbench-session-{self.pool_slot}"

    @property
    def timezone(self) -> str:
        return self.spark.conf.get("spark.sql.session.timeZone")


def _visible(session: Session) -> bool:
    """A caller sees only its own sessions (gateway/identity.py); a call without a principal sees none."""
    principal = required_principal("finding a session")
    return sees_every_user(principal) or principal.name == session.user


class SessionManager:
    def __init__(self, root_spark, max_sessions: int, idle_timeout_s: float, check_interval_s: float,
                 on_close: Callable[[Session], None], engines=None) -> None:
        self._root = root_spark
        self._engines = engines  # engine.kind = managed: each session's engine by its share-level key
        self.max_sessions = max_sessions
        self.idle_timeout_s = idle_timeout_s
        self.check_interval_s = check_interval_s
        self._on_close = on_close
        self._sessions: dict[SessionHandle, Session] = {}
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._sweeper: Optional[threading.Thread] = None
        if idle_timeout_s > 0 and check_interval_s > 0:
            self._sweeper = threading.Thread(target=self._sweep_loop, name="gateway-session-sweeper",
                                             daemon=True)
            self._sweeper.start()

    def _check_limit(self) -> None:
        if len(self._sessions) >= self.max_sessions:
            raise SessionLimitError(
                f"{len(self._sessions)} sessions are open, the most allowed (setting "
                f"session.max_sessions); close an unused session or raise the limit")

    def open(self, name: Optional[str], handle=None) -> Session:
        principal = required_principal("opening a session")  # the session belongs to whoever opens it
        handle = SessionHandle.from_string(handle) if handle is not None else SessionHandle()
        engine_id = None
        if self._engines is not None:  # outside the lock: only this key's sessions wait for its engine to start
            with self._lock:
                self._check_limit()
            spark, engine_id = self._engines.attach(principal.name, handle)
        else:
            spark = None
        try:
            with self._lock:
                self._check_limit()
                session = Session(spark if spark is not None else new_session(self._root), name, principal.name)
                session.engine_id = engine_id
                session.admin = principal.admin  # what its statements may do (restrictions)
                session.handle = handle
                if session.handle in self._sessions:  # a journaled session, reopened after a restart
                    raise SessionLimitError(f"session {handle} is open already")
                taken = {s.pool_slot for s in self._sessions.values()}
                session.pool_slot = next(n for n in range(len(taken) + 1) if n not in taken)
                self._sessions[session.handle] = session
        except Exception:
            if engine_id is not None:
                self._engines.detach(engine_id, handle)
            raise
        return session

    def get(self, handle) -> Session:
        handle = SessionHandle.from_string(handle)
        with self._lock:
            session = self._sessions.get(handle)
        if session is None or not _visible(session):  # another user's session does not exist for the caller
            raise SessionNotFoundError(
                f"session {handle} does not exist: it was closed or expired after "
                f"{self.idle_timeout_s:g} s without use; open a new session")
        if session.engine_lost is None and self._engines is not None and session.engine_id is not None \
                and self._engines.is_gone(session.engine_id):  # its managed engine died under another session
            session.engine_lost = "its managed engine stopped"
        if session.engine_lost is not None:  # its Spark Connect server died: a fresh server-side session
            if session.run_lock.acquire(blocking=False):  # never wait here for a statement of the session
                try:
                    if session.engine_lost is not None:
                        log.info("session %s: a new Spark Connect session after the engine was lost (%s)",
                                 session.handle, session.engine_lost)
                        session.spark = self._fresh_spark(session)
                        session.engine_lost = None
                finally:
                    session.run_lock.release()
        session.touch()
        return session

    def _fresh_spark(self, session: Session):
        """A new engine session for ``session`` after its engine was lost; on managed engines the key's engine is
        found again, or started anew when it died."""
        if self._engines is None:
            return new_session(self._root)
        if session.engine_id is not None:
            self._engines.lost(session.engine_id, session.engine_lost or "")
            self._engines.detach(session.engine_id, session.handle, session.spark)
            session.engine_id = None
        spark, session.engine_id = self._engines.attach(session.user, session.handle)
        return spark

    def close(self, handle) -> None:
        handle = SessionHandle.from_string(handle)
        with self._lock:
            session = self._sessions.get(handle)
            if session is not None and _visible(session):
                self._sessions.pop(handle)
            else:
                session = None
        if session is None:
            raise SessionNotFoundError(f"session {handle} does not exist or is already closed")
        try:
            self._on_close(session)
        finally:
            self._leave_engine(session)

    def _leave_engine(self, session: Session) -> None:
        if self._engines is not None and session.engine_id is not None:
            self._engines.detach(session.engine_id, session.handle, session.spark)

    def list(self) -> list[Session]:
        with self._lock:
            return list(self._sessions.values())

    def expire_idle(self) -> list[SessionHandle]:
        """Close sessions idle longer than the timeout; returns their handles."""
        if self.idle_timeout_s <= 0:
            return []
        with self._lock:
            idle = [s for s in self._sessions.values() if s.idle_seconds() > self.idle_timeout_s]
            for session in idle:
                self._sessions.pop(session.handle, None)
        for session in idle:
            log.info("closing idle session %s (%s)", session.handle, session.name)
            try:
                self._on_close(session)
            except Exception:  # one bad session must not stop the sweeper
                log.exception("closing idle session %s failed", session.handle)
            finally:
                self._leave_engine(session)
        return [s.handle for s in idle]

    def _sweep_loop(self) -> None:
        while not self._stopped.wait(self.check_interval_s):
            self.expire_idle()

    def shutdown(self) -> None:
        self._stopped.set()
        for session in self.list():
            try:
                with acting_as(EVERY_USER):
                    self.close(session.handle)
            except Exception:  # noqa: BLE001 - close the others all the same
                log.exception("closing session %s at shutdown failed", session.handle)
