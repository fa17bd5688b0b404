"""The contract's admin section: every session and running operation of every user, cancel or
close any, and the per-user limits (sessions, concurrent statements). A mixin of ``GatewayService``.

Admin calls need an admin principal (or none: in process); they act on another user's session by
acting as ``EVERY_USER`` (the gateway itself) for that one call.
"""
from __future__ import annotations

import logging
import time

from gateway.errors import SessionLimitError
from gateway.identity import EVERY_USER, AdminOperation, AdminSession, acting_as, current_principal, sees_every_user
from gateway.models import OperationStatus

log = logging.getLogger(__name__)

_ACTIVE = (OperationStatus.INITIALIZED, OperationStatus.PENDING, OperationStatus.RUNNING)


class AdminCalls:
    def admin_list_sessions(self) -> list[AdminSession]:
        self._require_admin("listing every session")
        from gateway.core.progress import operation_progress
        now = time.time()
        answer = []
        for session in sorted(self.sessions.list(), key=lambda s: s.created_at):
            operations = []
            for op in self.operations.of_session(session.handle):
                if op.status not in _ACTIVE:
                    continue
                try:
                    progress = operation_progress(op)
                    fraction, summary = progress.fraction, progress.summary()
                except Exception:  # noqa: BLE001 - a finished job may vanish meanwhile; the list still answers
                    log.debug("the progress of an operation could not be read", exc_info=True)
                    fraction, summary = None, "progress unknown"
                operations.append(AdminOperation(str(op.handle), op.status.value, op.statement,
                                                 round(now - op.submitted_at, 1), fraction, summary))
            answer.append(AdminSession(str(session.handle), session.name, session.user,
                                       round(now - session.created_at, 1), round(session.idle_seconds(), 1),
                                       operations))
        return answer

    def admin_cancel_operation(self, session, operation) -> None:
        self._require_admin("canceling another user's statement")
        with acting_as(EVERY_USER):
            self.cancel_operation(session, operation)

    def admin_close_session(self, session) -> None:
        self._require_admin("closing another user's session")
        with acting_as(EVERY_USER):
            self.close_session(session)

    # -- managed engines (gateway/engines/) ------------------------------------------------------------

    def admin_list_engines(self) -> list[dict]:
        self._require_admin("listing the managed engines")
        return self.engines.list() if self.engines is not None else []

    def admin_stop_engine(self, engine_id: str) -> None:
        self._require_admin("stopping a managed engine")
        if self.engines is None:
            from gateway.errors import InvalidRequestError

            raise InvalidRequestError(f"engine.kind is {self.config['engine.kind']!r}: there are no managed "
                                      f"engines to stop (docs/engines.md)")
        self.engines.stop(str(engine_id))

    def list_my_engines(self) -> list[dict]:
        if self.engines is None:
            return []
        caller = current_principal()
        mine = {s.engine_id for s in self.sessions.list() if caller is not None and s.user == caller.name}
        return [row for row in self.engines.list() if row["engine_id"] in mine]

    # -- per-user limits (auth on; checked by the service before it opens or submits) ---------------

    def _check_session_limit(self) -> None:
        caller, limit = current_principal(), int(self.config["auth.max_sessions_per_user"])
        if caller is None or sees_every_user(caller) or self.auth_mode == "none" or limit <= 0:
            return
        open_now = sum(1 for s in self.sessions.list() if s.user == caller.name)
        if open_now >= limit:
            raise SessionLimitError(f"{caller.name!r} has {open_now} sessions open, the most one user may have "
                                    f"(auth.max_sessions_per_user = {limit}); close one (a browser tab, or "
                                    f"DELETE /v1/sessions/{{handle}}) and try again")

    def _check_running_limit(self, session) -> None:
        limit = int(self.config["auth.max_running_per_user"])
        caller = current_principal()
        if limit <= 0 or caller is None or sees_every_user(caller) or self.auth_mode == "none":
            return
        running = sum(1 for s in self.sessions.list() if s.user == session.user
                      for op in self.operations.of_session(s.handle) if op.status in _ACTIVE)
        if running >= limit:
            raise SessionLimitError(f"{session.user!r} has {running} statements running or waiting, the most one "
                                    f"user may have (auth.max_running_per_user = {limit}); wait for one to end or "
                                    f"cancel it")
