"""The store's calls for users and API tokens (a mixin of ``WorkbenchStore``): arguments checked,
each call one transaction. See ``gateway/store/users.py`` for how passwords and tokens are kept."""
from __future__ import annotations

import datetime as dt
import threading
from typing import Optional

from gateway.errors import AuthenticationError
from gateway.store import users as accounts
from gateway.store.users import TokenRecord, UserRecord
from gateway.store.workspace import checked_id, checked_name, checked_user, now

MAX_TOKEN_CHARS = 200


class AccountCalls:
    def _account_state(self) -> dict:
        state = self.__dict__.get("_token_uses")
        if state is None:
            state = self.__dict__.setdefault("_token_uses", {"lock": threading.Lock(), "written": {}})
        return state

    def add_user(self, name: str, password: Optional[str], admin: Optional[bool] = None) -> UserRecord:
        name = checked_user(name)
        password = None if password is None else accounts.checked_password(password)
        with self._transaction(write=True) as connection:
            return accounts.add_user(connection, name, password, admin)

    def remove_user(self, name: str) -> None:
        name = checked_user(name)
        with self._transaction(write=True) as connection:
            accounts.remove_user(connection, name)

    def list_users(self) -> list[UserRecord]:
        with self._transaction(write=False) as connection:
            return accounts.list_users(connection)

    def get_user(self, name: str) -> Optional[UserRecord]:
        name = checked_user(name)
        with self._transaction(write=False) as connection:
            return accounts.get_user(connection, name)

    def set_admin(self, name: str, admin: bool = True) -> UserRecord:
        name = checked_user(name)
        with self._transaction(write=True) as connection:
            return accounts.set_admin(connection, name, bool(admin))

    def check_password(self, name: str, password: str) -> UserRecord:
        if not isinstance(name, str) or not isinstance(password, str) or not name.strip() or \
                len(password) > accounts.MAX_PASSWORD_CHARS:
            raise AuthenticationError("the user name or the password is wrong")
        with self._transaction(write=False) as connection:
            return accounts.check_password(connection, name.strip(), password)

    def login_user(self, name: str) -> UserRecord:
        """A user vouched for by a proxy or an OIDC provider: its row is made on first sight."""
        name = checked_user(name)
        with self._transaction(write=False) as connection:
            found = accounts.get_user(connection, name)
        if found is not None:
            return found
        with self._transaction(write=True) as connection:
            return accounts.add_user(connection, name, None, None)

    def create_token(self, user: str, label: str = "") -> tuple[str, TokenRecord]:
        user = checked_user(user)
        label = checked_name(label, "token label") if label and label.strip() else f"token of {user}"
        with self._transaction(write=True) as connection:
            return accounts.create_token(connection, user, label)

    def list_tokens(self, user: Optional[str] = None) -> list[TokenRecord]:
        user = None if user is None else checked_user(user)
        with self._transaction(write=False) as connection:
            return accounts.list_tokens(connection, user)

    def revoke_token(self, token_id: str, user: Optional[str] = None) -> TokenRecord:
        token_id = checked_id(token_id, "token id")
        user = None if user is None else checked_user(user)
        with self._transaction(write=True) as connection:
            return accounts.revoke_token(connection, token_id, user)

    def authenticate_token(self, token: str) -> UserRecord:
        """The user of a live token; its last use is written at most once a minute."""
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
            raise AuthenticationError("the bearer token is wrong, revoked, or its user was removed")
        with self._transaction(write=False) as connection:
            user, record = accounts.user_of_token(connection, token)
        state, moment = self._account_state(), now()
        with state["lock"]:
            last = state["written"].get(record.token_id) or record.last_used_at
            due = last is None or moment - last >= accounts.LAST_USE_RESOLUTION
            if due:
                state["written"][record.token_id] = moment
        if due:
            with self._transaction(write=True) as connection:
                accounts.touch_token(connection, record.token_id, moment)
        return user

    def create_login(self, user: str, max_age_s: float) -> str:
        """A browser login of ``user`` for ``max_age_s`` seconds: the token its cookie carries."""
        user = checked_user(user)
        with self._transaction(write=True) as connection:
            return accounts.create_login(connection, user, dt.timedelta(seconds=float(max_age_s)))

    def authenticate_login(self, token: str) -> UserRecord:
        """The user of a live browser login; anything else (malformed, unknown, expired, ended) is refused."""
        if not isinstance(token, str) or not token.startswith(accounts.LOGIN_PREFIX) or len(token) > MAX_TOKEN_CHARS:
            raise AuthenticationError("this browser's login is unknown, ended or expired; log in again")
        with self._transaction(write=False) as connection:
            return accounts.user_of_login(connection, token)

    def end_login(self, token: str, user: str) -> None:
        user = checked_user(user)
        if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
            return
        with self._transaction(write=True) as connection:
            accounts.end_login(connection, token, user)
