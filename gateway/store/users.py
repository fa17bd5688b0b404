"""Users who log in and their API tokens, in the workbench store.

Passwords are kept as scrypt hashes (``hashlib.scrypt``, memory-hard: 2**15 x 8 x 128 bytes = 32 MiB
and some 50-100 ms per check), with a random salt each. An API token is 32 random bytes; only its
SHA-256 is kept (a token is random, so a fast hash suffices), and the token is shown once, when made.
"""
from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import secrets
from typing import Optional

from sqlalchemy import Connection, delete, insert, select, update

from gateway.errors import AuthenticationError, InvalidRequestError, ObjectNotFoundError
from gateway.identity import ApiToken as TokenRecord, UserInfo as UserRecord
from gateway.store.schema import api_tokens, browser_logins, editor_tabs, saved_queries, users
from gateway.store.workspace import ensure_user, new_id, now

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 15, 8, 1
SCRYPT_MAXMEM = 64 * 1024 * 1024
MIN_PASSWORD_CHARS = 8
MAX_PASSWORD_CHARS = 1024
TOKEN_PREFIX = "wbt_"
LAST_USE_RESOLUTION = dt.timedelta(minutes=1)  # a token's last use is written at most this often




# -- passwords -----------------------------------------------------------------------------------------

def checked_password(password) -> str:
    if not isinstance(password, str):
        raise InvalidRequestError(f"the password must be text, got {type(password).__name__}")
    if len(password) < MIN_PASSWORD_CHARS:
        raise InvalidRequestError(f"the password has {len(password)} characters; use at least {MIN_PASSWORD_CHARS}")
    if len(password) > MAX_PASSWORD_CHARS:
        raise InvalidRequestError(f"the password has more than {MAX_PASSWORD_CHARS} characters; use a shorter one")
    return password


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                            maxmem=SCRYPT_MAXMEM, dklen=32)
    return "$".join(["scrypt", str(SCRYPT_N), str(SCRYPT_R), str(SCRYPT_P),
                     base64.b64encode(salt).decode(), base64.b64encode(digest).decode()])


def password_matches(password: str, stored: Optional[str]) -> bool:
    """Constant in time whether or not the user has a password (a dummy hash is computed then)."""
    if not stored:
        stored, known = _DUMMY_HASH, False
    else:
        known = True
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest)
        got = hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=base64.b64decode(salt), n=int(n),
                             r=int(r), p=int(p), maxmem=SCRYPT_MAXMEM, dklen=len(expected))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected) and known


_DUMMY_HASH = hash_password("not-a-password-of-anyone")


# -- users -----------------------------------------------------------------------------------------------

def _user_row(connection: Connection, name: str):
    return connection.execute(select(users).where(users.c.name == name)).first()


def add_user(connection: Connection, name: str, password: Optional[str], admin: Optional[bool] = None) -> UserRecord:
    """Create the user, or (re)activate it with a new password; ``admin`` None keeps the flag."""
    ensure_user(connection, name, lock=True)
    values: dict = {"active": True}
    if password is not None:
        values["password_hash"] = hash_password(password)
    if admin is not None:
        values["is_admin"] = admin
    connection.execute(update(users).where(users.c.name == name).values(**values))
    return _record(_user_row(connection, name))


def _record(row) -> UserRecord:
    return UserRecord(row.name, bool(row.is_admin), row.password_hash is not None, row.created_at)


def list_users(connection: Connection) -> list[UserRecord]:
    rows = connection.execute(select(users).where(users.c.active.is_(True)).order_by(users.c.name))
    return [_record(row) for row in rows]


def get_user(connection: Connection, name: str) -> Optional[UserRecord]:
    row = _user_row(connection, name)
    return _record(row) if row is not None and row.active else None


def remove_user(connection: Connection, name: str) -> None:
    """The user can no longer log in: password, admin flag, tokens, tabs and saved queries go; the
    audit log (history) keeps the name."""
    row = _user_row(connection, name)
    if row is None or not row.active:
        raise ObjectNotFoundError(f"user {name!r} does not exist; `python -m gateway users list` shows the users")
    connection.execute(update(api_tokens).where(api_tokens.c.user_name == name, api_tokens.c.revoked_at.is_(None))
                       .values(revoked_at=now()))
    connection.execute(delete(editor_tabs).where(editor_tabs.c.user_name == name))
    connection.execute(delete(browser_logins).where(browser_logins.c.user_name == name))
    connection.execute(delete(saved_queries).where(saved_queries.c.user_name == name))
    connection.execute(update(users).where(users.c.name == name)
                       .values(active=False, password_hash=None, is_admin=False))


def set_admin(connection: Connection, name: str, admin: bool) -> UserRecord:
    result = connection.execute(update(users).where(users.c.name == name, users.c.active.is_(True))
                                .values(is_admin=admin))
    if result.rowcount != 1:
        raise ObjectNotFoundError(f"user {name!r} does not exist; add it first (`python -m gateway users add "
                                  f"{name}`), or, with a proxy or OIDC login, let it log in once")
    return _record(_user_row(connection, name))


def check_password(connection: Connection, name: str, password: str) -> UserRecord:
    row = _user_row(connection, name)
    usable = row is not None and row.active
    if not password_matches(password, row.password_hash if usable else None) or not usable:
        raise AuthenticationError("the user name or the password is wrong")
    return _record(row)


# -- tokens ------------------------------------------------------------------------------------------------

def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def create_token(connection: Connection, user: str, label: str) -> tuple[str, TokenRecord]:
    if get_user(connection, user) is None:
        raise ObjectNotFoundError(f"user {user!r} does not exist; add it first (`python -m gateway users add {user}`)")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    record = TokenRecord(new_id(), user, label, now(), None, None)
    connection.execute(insert(api_tokens).values(token_id=record.token_id, user_name=user,
                                                 token_hash=token_hash(token), label=label,
                                                 created_at=record.created_at))
    return token, record


def _token(row) -> TokenRecord:
    return TokenRecord(row.token_id, row.user_name, row.label, row.created_at, row.last_used_at, row.revoked_at)


def list_tokens(connection: Connection, user: Optional[str]) -> list[TokenRecord]:
    query = select(api_tokens).order_by(api_tokens.c.created_at)
    if user is not None:
        query = query.where(api_tokens.c.user_name == user)
    return [_token(row) for row in connection.execute(query)]


def revoke_token(connection: Connection, token_id: str, user: Optional[str]) -> TokenRecord:
    """Revoke it (``user`` None: whoever owns it, for an admin)."""
    where = [api_tokens.c.token_id == token_id]
    if user is not None:
        where.append(api_tokens.c.user_name == user)
    row = connection.execute(select(api_tokens).where(*where)).first()
    if row is None:
        raise ObjectNotFoundError(f"token {token_id!r} does not exist{'' if user is None else f' for {user!r}'}; "
                                  f"list the tokens to see their ids")
    if row.revoked_at is None:
        connection.execute(update(api_tokens).where(api_tokens.c.token_id == token_id).values(revoked_at=now()))
    return _token(connection.execute(select(api_tokens).where(api_tokens.c.token_id == token_id)).first())


def user_of_token(connection: Connection, token: str) -> tuple[UserRecord, TokenRecord]:
    """The active user a live token belongs to, or AuthenticationError."""
    row = connection.execute(
        select(api_tokens, users.c.is_admin, users.c.active, users.c.password_hash, users.c.created_at
               .label("user_created_at"))
        .join(users, users.c.name == api_tokens.c.user_name)
        .where(api_tokens.c.token_hash == token_hash(token))).first()
    if row is None or row.revoked_at is not None or not row.active:
        raise AuthenticationError("the bearer token is wrong, revoked, or its user was removed; create a new one "
                                  "(`python -m gateway tokens create NAME`)")
    return (UserRecord(row.user_name, bool(row.is_admin), row.password_hash is not None, row.user_created_at),
            _token(row))


def touch_token(connection: Connection, token_id: str, when: dt.datetime) -> None:
    connection.execute(update(api_tokens).where(api_tokens.c.token_id == token_id).values(last_used_at=when))


# -- browser logins ------------------------------------------------------------------------------------

LOGIN_PREFIX = "wbl_"


def create_login(connection: Connection, user: str, max_age: dt.timedelta) -> str:
    """A new browser login of ``user``: the token for its cookie (only the hash is kept). Expired rows of
    the user go at the same time."""
    if get_user(connection, user) is None:
        raise ObjectNotFoundError(f"user {user!r} does not exist; add it first (`python -m gateway users add {user}`)")
    token = LOGIN_PREFIX + secrets.token_urlsafe(32)
    moment = now()
    connection.execute(delete(browser_logins).where(browser_logins.c.user_name == user,
                                                    browser_logins.c.expires_at <= moment))
    connection.execute(insert(browser_logins).values(login_hash=token_hash(token), user_name=user,
                                                     created_at=moment, expires_at=moment + max_age))
    return token


def user_of_login(connection: Connection, token: str) -> UserRecord:
    """The active user of a live (not expired, not ended) browser login, or AuthenticationError."""
    row = connection.execute(
        select(browser_logins.c.expires_at, users)
        .join(users, users.c.name == browser_logins.c.user_name)
        .where(browser_logins.c.login_hash == token_hash(token))).first()
    if row is None or not row.active or row.expires_at <= now():
        raise AuthenticationError("this browser's login is unknown, ended or expired; log in again")
    return _record(row)


def end_login(connection: Connection, token: str, user: str) -> None:
    """Log that browser out: its row goes (only the user's own)."""
    connection.execute(delete(browser_logins).where(browser_logins.c.login_hash == token_hash(token),
                                                    browser_logins.c.user_name == user))
