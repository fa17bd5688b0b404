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
from typing import Iterator, Optional

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
