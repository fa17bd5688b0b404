"""Identity: who is calling, their browser logins and API tokens, the users (admins).

The value types (``Principal``, ``UserInfo``, ``ApiToken``, ``AdminSession``, ``AdminOperation``) live
here; ``gateway.identity`` re-exports them beside the calling context.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Optional, Protocol, runtime_checkable

from gateway.api.calls import without_engine, without_principal
from gateway.api.values import LOCAL_USER


@dataclass(frozen=True)
class Principal:
    """An authenticated user: the name their sessions, workspace and history are filed under."""

    name: str
    admin: bool = False


# auth.mode none: the single local user, an explicit principal (an admin: it is the whole workbench).
LOCAL_PRINCIPAL = Principal(LOCAL_USER, admin=True)


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


@runtime_checkable
class IdentityApi(Protocol):
    """Authenticate a caller, then call through ``as_user(principal)`` (docs/users.md).

    With a principal, another user's session or workspace does not exist (404); admin calls need an
    admin (PermissionDeniedError, 403). A call without a principal is refused (AuthenticationError,
    401) unless auth.mode is none, whose single user is ``LOCAL_PRINCIPAL``.
    """

    @without_principal
    @without_engine  # the user-scoped gateway of every REST request, /v1/health's too: a dead driver must not hide it
    def as_user(self, principal: Optional[Principal]) -> Any:
        """The gateway as ``principal`` sees it: only the protocols' calls, each run as that user. ``None``: a
        caller nobody authenticated (REST's open paths): only calls that need no user answer, and with
        auth.mode none the single local user (``LOCAL_PRINCIPAL``) is the caller."""

    def whoami(self) -> Principal:
        """The caller: the principal of ``as_user`` (``LOCAL_PRINCIPAL`` with auth.mode none)."""

    @without_principal
    @without_engine  # the store answers who a caller is, with or without Spark
    def authenticate_password(self, name: str, password: str, client: Optional[str] = None) -> Principal:
        """auth.mode builtin: the user whose password this is (AuthenticationError, 401, otherwise).
        ``client``: the caller's address; wrong ones in a row lock the name and the address a while
        (TooManyLoginsError, 429; settings auth.login_*)."""

    @without_principal
    @without_engine  # the store answers who a caller is, with or without Spark
    def authenticate_token(self, token: str) -> Principal:
        """The user of a live API token (AuthenticationError for a wrong or revoked one)."""

    @without_principal
    @without_engine  # the store answers who a caller is, with or without Spark
    def authenticate_trusted(self, name: str) -> Principal:
        """auth.mode proxy or oidc: the user a trusted proxy or provider named (made on first sight)."""

    @without_principal
    @without_engine  # the store answers who a caller is, with or without Spark
    def authenticate_browser_login(self, token: str) -> Principal:
        """auth.mode builtin: the user of a browser's login cookie (``start_browser_login``); an unknown, ended
        or expired one, or one whose user was removed, is refused (AuthenticationError, 401)."""

    def start_browser_login(self) -> str:
        """auth.mode builtin: a login of the caller for its browser's cookie, valid auth.login_max_age_s (the
        token, shown this once; the store keeps its hash)."""

    def end_browser_login(self, token: str) -> None:
        """Log out the browser whose cookie holds ``token`` (the caller's own logins only)."""

    def create_api_token(self, label: str = "") -> tuple[str, ApiToken]:
        """A new REST token for the caller: the token itself (shown once) and its record."""

    def list_api_tokens(self) -> list[ApiToken]:
        """The caller's tokens, revoked ones too, with their last use."""

    def revoke_api_token(self, token_id: str) -> ApiToken:
        """Revoke one of the caller's tokens (an admin: anyone's)."""

    def list_users(self) -> list[UserInfo]:
        """Admins: every user."""

    def add_user(self, name: str, password: Optional[str] = None, admin: bool = False) -> UserInfo:
        """Admins: add a user, or give one a new password."""

    def remove_user(self, name: str) -> None:
        """Admins: the user can no longer log in; its tokens, tabs and saved queries go, its history stays."""

    def set_user_admin(self, name: str, admin: bool = True) -> UserInfo:
        """Admins: make a user an admin, or no longer one."""
