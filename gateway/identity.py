"""Who is calling: the principal of the call in progress (a context variable of the calling thread).

A front end authenticates a caller (REST: a bearer token or a trusted proxy header; the UI: a login)
and then calls the gateway through ``gateway.as_user(principal)``; the boundary
(``gateway/core/boundary.py``) runs every call with its principal set, and the gateway's sessions
check it. A session belongs to the user who opened it; another user's handle answers
``SessionNotFoundError`` (HTTP 404), as if it did not exist. A check that finds no principal refuses
(fail closed); the gateway's own work on every user's sessions (admin calls, the journal, shutdown)
runs as ``EVERY_USER``, by name.
"""
from __future__ import annotations

import contextlib
import contextvars
import hashlib
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

from gateway.api.identity import (LOCAL_PRINCIPAL, AdminOperation, AdminSession, ApiToken,  # noqa: F401
                                  Principal, UserInfo)
from gateway.config import AUTH_MODES  # noqa: F401 - re-exported
from gateway.errors import AuthenticationError

# The gateway itself acting on any user's session (admin calls, the journal, shutdown): seen by identity,
# never by name, so that no user can be it.
EVERY_USER = Principal("(every user: the gateway itself)", admin=True)

_current: contextvars.ContextVar[Optional[Principal]] = contextvars.ContextVar("workbench_principal", default=None)


def current_principal() -> Optional[Principal]:
    """The principal of the call in progress, or None outside any call."""
    return _current.get()


def required_principal(doing: str) -> Principal:
    """The principal of the call in progress; none is refused (fail closed)."""
    principal = _current.get()
    if principal is None:
        raise AuthenticationError(f"{doing} needs a user, and this call has none: call the gateway through "
                                  f"gateway.as_user(principal) (auth.mode none: its single user, LOCAL_PRINCIPAL)")
    return principal


def sees_every_user(principal: Optional[Principal]) -> bool:
    return principal is EVERY_USER


@contextlib.contextmanager
def acting_as(principal: Optional[Principal]) -> Iterator[None]:
    token = _current.set(principal)
    try:
        yield
    finally:
        _current.reset(token)


# --- session-scoped credentials -------------------------------------------------------------------------
SESSION_CREDENTIAL_PREFIX = "wbs_"
COMPLETION_SCOPE = "complete-statement"  # the SQL editor's credential: REST complete-statement of its session


@dataclass(frozen=True)
class SessionCredential:
    """What a session-scoped credential allows: its user, one session, the calls named by ``scope``,
    until ``expires_at`` (monotonic seconds), from a browser page of ``origin`` (CORS)."""

    principal: Principal
    session: str
    scope: str
    origin: Optional[str]
    expires_at: float


class SessionCredentials:
    """Short-lived bearer credentials that grant one call family (``scope``) on one session of one user:
    the SQL editor's direct path to completion (REST ``complete-statement``) without a page rerun. Never
    more than the session's own user may do, and less: no statements, no other session. Kept in memory
    (a restart voids them; the editor then gets a new one with its next render)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._live: dict[str, SessionCredential] = {}

    def mint(self, principal: Principal, session: str, scope: str, ttl_s: float,
             origin: Optional[str] = None) -> tuple[str, SessionCredential]:
        if principal is None:
            raise AuthenticationError("a session credential needs a user, and this call has none")
        token = SESSION_CREDENTIAL_PREFIX + secrets.token_urlsafe(32)
        credential = SessionCredential(principal, str(session), scope, origin, self._clock() + float(ttl_s))
        with self._lock:
            now = self._clock()
            for key in [k for k, c in self._live.items() if c.expires_at <= now]:
                del self._live[key]  # expired ones go as new ones come: the map stays small
            self._live[hashlib.sha256(token.encode()).hexdigest()] = credential
        return token, credential

    def check(self, token: str, session: str, scope: str) -> Principal:
        """The credential's user, if it is live and grants ``scope`` on ``session``; else AuthenticationError."""
        with self._lock:
            credential = self._live.get(hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest())
        if credential is None:
            raise AuthenticationError("this session credential is unknown (wrong, or from before a restart of the "
                                      "workbench): reload the page for a new one")
        if credential.expires_at <= self._clock():
            raise AuthenticationError("this session credential expired: reload the page (the editor gets a new "
                                      "one with each render)")
        if credential.scope != scope or credential.session != str(session):
            raise AuthenticationError(f"this session credential allows only {credential.scope} on its own session; "
                                      f"use an API token for anything else")
        return credential.principal

    def revoke_session(self, session: str) -> None:
        with self._lock:
            for key in [k for k, c in self._live.items() if c.session == str(session)]:
                del self._live[key]

    def origins(self) -> set[str]:
        """The browser origins of live credentials (the pages allowed to call their scope across origins)."""
        now = self._clock()
        with self._lock:
            return {c.origin for c in self._live.values() if c.origin and c.expires_at > now}


# The process's one registry: the UI mints into it, the REST API (same process) checks against it.
SESSION_CREDENTIALS = SessionCredentials()
