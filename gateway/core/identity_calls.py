"""The contract's identity section: authenticate a caller, see the gateway as that user, manage
API tokens and (admins) users. A mixin of ``GatewayService``; the store keeps users and tokens.

The front ends authenticate (REST: ``authenticate_token`` or, behind a trusted proxy,
``authenticate_trusted``; the UI: ``authenticate_password`` or ``authenticate_trusted``) and then
call everything through ``as_user(principal)``. Calls made with a principal are checked: a session
or workspace of another user does not exist for them, and an admin's call needs an admin.
"""
from __future__ import annotations

import functools
from typing import Optional

from gateway.config import auth_mode
from gateway.core.login_throttle import LoginThrottle, login_keys
from gateway.errors import AuthenticationError, InvalidRequestError, ObjectNotFoundError, PermissionDeniedError
from gateway.identity import LOCAL_PRINCIPAL, ApiToken, Principal, UserInfo, required_principal
from gateway.store import WorkbenchStore


class IdentityCalls:
    store: WorkbenchStore

    @property
    def auth_mode(self) -> str:
        return auth_mode(self.config)

    def default_principal(self, doing: str) -> Principal:
        """The caller of a call made without ``as_user``: auth.mode none's single user; otherwise refused."""
        if self.auth_mode == "none":
            return LOCAL_PRINCIPAL
        raise AuthenticationError(f"{doing} needs a user: auth.mode is {self.auth_mode!r} and this call has none; "
                                  f"authenticate the caller and call through gateway.as_user(principal)")

    def _caller(self) -> Principal:
        """Who is calling: the principal the boundary set (never absent inside a call)."""
        return required_principal("this call")

    def _require_admin(self, doing: str) -> Principal:
        caller = self._caller()
        if not caller.admin:
            raise PermissionDeniedError(f"{doing} is for admins, and {caller.name!r} is not one; an admin can make "
                                        f"you one (`python -m gateway users set-admin {caller.name}`)")
        return caller

    def as_user(self, principal: Optional[Principal]):
        if principal is not None and not isinstance(principal, Principal):
            raise InvalidRequestError(f"as_user takes a Principal, got {type(principal).__name__}")
        from gateway.contract import GatewayContract
        from gateway.core.boundary import facade
        return facade(self, principal, (GatewayContract,))

    def whoami(self) -> Principal:
        return self._caller()

    @functools.cached_property
    def login_throttle(self) -> LoginThrottle:
        return LoginThrottle(self.config["auth.login_max_failures"], self.config["auth.login_lockout_s"],
                             self.config["auth.login_max_lockout_s"])

    def authenticate_password(self, name: str, password: str, client: Optional[str] = None) -> Principal:
        if self.auth_mode != "builtin":
            raise AuthenticationError(f"password logins are off: auth.mode is {self.auth_mode!r}, not 'builtin'")
        return self._throttled(login_keys(name, client), lambda: self.store.check_password(name, password))

    def authenticate_token(self, token: str) -> Principal:
        # Not throttled: a token is 256 random bits, nothing to guess; a lock by address would let one
        # script with a revoked token lock out everyone behind the same proxy.
        user = self.store.authenticate_token(token)
        return Principal(user.name, user.admin)

    def _throttled(self, keys: list[str], check) -> Principal:
        """A login through the throttle: refused while locked, counted when wrong, cleared when right."""
        self.login_throttle.check(keys)
        try:
            user = check()
        except AuthenticationError:
            self.login_throttle.failed(keys)
            raise
        self.login_throttle.succeeded(keys)
        return Principal(user.name, user.admin)

    def authenticate_trusted(self, name: str) -> Principal:
        """A user named by a trusted proxy or an OIDC provider (the front end checked where it came from)."""
        if self.auth_mode not in ("proxy", "oidc"):
            raise AuthenticationError(f"a user named by a proxy or an identity provider is not accepted: auth.mode "
                                      f"is {self.auth_mode!r}")
        user = self.store.login_user(name)
        return Principal(user.name, user.admin)

    def authenticate_browser_login(self, token: str) -> Principal:
        if self.auth_mode != "builtin":
            raise AuthenticationError(f"browser logins are off: auth.mode is {self.auth_mode!r}, not 'builtin'")
        user = self.store.authenticate_login(token)
        return Principal(user.name, user.admin)

    def start_browser_login(self) -> str:
        if self.auth_mode != "builtin":
            raise AuthenticationError(f"browser logins are off: auth.mode is {self.auth_mode!r}, not 'builtin'")
        return self.store.create_login(self._caller().name, float(self.config["auth.login_max_age_s"]))

    def end_browser_login(self, token: str) -> None:
        self.store.end_login(token, self._caller().name)

    def create_api_token(self, label: str = "") -> tuple[str, ApiToken]:
        """A new token for the caller: the token (shown this once) and its record."""
        return self.store.create_token(self._caller().name, label)

    def list_api_tokens(self) -> list[ApiToken]:
        return self.store.list_tokens(self._caller().name)

    def revoke_api_token(self, token_id: str) -> ApiToken:
        caller = self._caller()
        return self.store.revoke_token(token_id, None if caller.admin else caller.name)

    def list_users(self) -> list[UserInfo]:
        self._require_admin("listing users")
        return self.store.list_users()

    def add_user(self, name: str, password: Optional[str] = None, admin: bool = False) -> UserInfo:
        self._require_admin("adding a user")
        return self.store.add_user(name, password, admin)

    def remove_user(self, name: str) -> None:
        caller = self._require_admin("removing a user")
        if isinstance(name, str) and name.strip() == caller.name:
            raise InvalidRequestError("you cannot remove yourself; ask another admin")
        self.store.remove_user(name)

    def set_user_admin(self, name: str, admin: bool = True) -> UserInfo:
        self._require_admin("making a user an admin")
        return self.store.set_admin(name, admin)

    def _own_workspace(self, user: str) -> None:
        """A workspace call names its user; with authentication on it must be the caller's own. With
        auth.mode none the one local person owns every workspace: a name is only a namespace of theirs
        (scripts keep their tabs apart by it, as before the local user was made explicit)."""
        caller = self._caller()
        if self.auth_mode == "none":
            return
        if isinstance(user, str) and user.strip() != caller.name:
            raise ObjectNotFoundError(f"user {user!r} has no workspace you can see; yours is {caller.name!r}")
