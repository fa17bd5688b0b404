"""Who is calling: the principal a front end authenticated, and the gateway seen as that user.

A front end authenticates a caller (REST: a bearer token or a trusted proxy header; the UI: a login)
and then calls the gateway through ``gateway.as_user(principal)``: every call made through that view
runs with the principal set (a context variable of the calling thread), and the gateway's sessions
check it. A session belongs to the user who opened it; another user's handle answers
``SessionNotFoundError`` (HTTP 404), as if it did not exist. Calls made on the gateway itself, with
no principal set (in-process code, tests, the gateway's own workers), are not checked.
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import datetime as dt
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from gateway.config import AUTH_MODES  # noqa: F401 - re-exported


@dataclass(frozen=True)
class Principal:
    """An authenticated user: the name their sessions, workspace and history are filed under."""

    name: str
    admin: bool = False


@dataclass(frozen=True)
class UserInfo:
    """A user the store knows (``list_users``)."""

    name: str
    admin: bool
    has_password: bool
    created_at: dt.datetime


@dataclass(frozen=True)
class ApiToken:
    """A REST API token of a user; the token itself is shown once, when it is made."""

    token_id: str
    user: str
    label: str
    created_at: dt.datetime
    last_used_at: Optional[dt.datetime]
    revoked_at: Optional[dt.datetime]


@dataclass(frozen=True)
class AdminOperation:
    """An operation that has not ended, as the admin page shows it."""

    operation_handle: str
    status: str
    statement: str
    age_s: float
    progress: Optional[float]  # fraction of the Spark tasks done, None before any job
    progress_summary: str


@dataclass(frozen=True)
class AdminSession:
    """A session of any user, as the admin page shows it."""

    session_handle: str
    name: str
    user: str
    age_s: float
    idle_s: float
    operations: list[AdminOperation]


_current: contextvars.ContextVar[Optional[Principal]] = contextvars.ContextVar("workbench_principal", default=None)


def current_principal() -> Optional[Principal]:
    """The principal of the call in progress, or None for an unchecked in-process call."""
    return _current.get()


@contextlib.contextmanager
def acting_as(principal: Optional[Principal]) -> Iterator[None]:
    token = _current.set(principal)
    try:
        yield
    finally:
        _current.reset(token)


class UserGateway:
    """The gateway as one user sees it: the same calls, each run with ``principal`` set."""

    def __init__(self, gateway: Any, principal: Principal) -> None:
        self._gateway = gateway
        self.principal = principal

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._gateway, name)
        if not callable(target):
            return target
        principal = self.principal

        @functools.wraps(target)
        def call(*args, **kwargs):
            with acting_as(principal):
                result = target(*args, **kwargs)
            if inspect.isgenerator(result):
                return _generator_as(result, principal)
            return result

        return call

    def as_user(self, principal: Principal) -> "UserGateway":
        return self._gateway.as_user(principal)

    def __repr__(self) -> str:
        return f"UserGateway({self.principal.name!r}{', admin' if self.principal.admin else ''})"


def _generator_as(generator, principal: Principal):
    """A generator whose every step runs as ``principal`` (iter_results pages lazily)."""
    while True:
        with acting_as(principal):
            try:
                item = next(generator)
            except StopIteration:
                return
        yield item
