"""A user's editor tabs (their drafts) and saved queries, kept in the store.

Every change of a user's tabs first locks that user's row (``SELECT … FOR UPDATE`` on
PostgreSQL; on SQLite the write transaction's ``BEGIN IMMEDIATE`` already serialises writers), so
two workbench processes that open or move tabs at once still leave positions 0, 1, 2, … .
"""
from __future__ import annotations

import datetime as dt
import decimal
import json
import re
import uuid
from typing import Optional

from sqlalchemy import Connection, and_, delete, func, insert, select, update

from gateway.errors import InvalidRequestError, ObjectNotFoundError
from gateway.models import EditorTab, SavedQuery
from gateway.store.schema import NAME_CHARS, editor_tabs, saved_queries, users

DESCRIPTION_CHARS = 10_000
_DEFAULT_TITLE = re.compile(r"^Query (\d{1,9})$")


def now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def new_id() -> str:
    return uuid.uuid4().hex


# -- checks of what callers send -----------------------------------------------------------------

def checked_text(value, what: str, max_chars: int, allow_empty: bool = True) -> str:
    """``value`` if it is text within ``max_chars`` (and not blank unless allowed); else InvalidRequestError."""
    if not isinstance(value, str):
        raise InvalidRequestError(f"the {what} must be text, got {type(value).__name__}")
    if "\x00" in value:
        raise InvalidRequestError(f"the {what} contains a NUL character (\\x00), which the store cannot keep; "
                                  f"remove it")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidRequestError(f"the {what} is not valid Unicode (a lone surrogate at character {exc.start}); "
                                  f"send UTF-8 text") from None
    if len(value) > max_chars:
        raise InvalidRequestError(f"the {what} has {len(value):,} characters, more than the {max_chars:,} allowed; "
                                  f"shorten it (the limits: docs/store.md)")
    if not allow_empty and not value.strip():
        raise InvalidRequestError(f"the {what} is empty; give one")
    return value


def checked_name(value, what: str) -> str:
    """A name or title: text, not blank, at most NAME_CHARS characters; returned stripped."""
    return checked_text(value, what, NAME_CHARS, allow_empty=False).strip()


def checked_user(user) -> str:
    return checked_name(user, "user name")


def checked_id(value, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequestError(f"the {what} must be a non-empty text id, got {value!r}")
    return checked_text(value, what, NAME_CHARS).strip()


# -- users ----------------------------------------------------------------------------------------

def ensure_user(connection: Connection, user: str, lock: bool = False) -> None:
    """Create the user's row if it is new; with ``lock``, hold it until the transaction ends."""
    find = select(users.c.name).where(users.c.name == user)
    if connection.execute(find.with_for_update() if lock else find).first() is not None:
        return
    insert_user = _insert_ignoring_duplicates(connection)
    connection.execute(insert_user.values(name=user, created_at=now()))
    if lock:  # another process may have created it meanwhile: take its lock now
        connection.execute(find.with_for_update())


def _insert_ignoring_duplicates(connection: Connection):
    """INSERT … ON CONFLICT DO NOTHING: two processes may meet a new user at the same moment."""
    if connection.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert
        return pg_insert(users).on_conflict_do_nothing(index_elements=["name"])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert
    return sqlite_insert(users).on_conflict_do_nothing(index_elements=["name"])


# -- tabs -----------------------------------------------------------------------------------------

MAX_PARAMETER_JSON_CHARS = 64_000


def _json_value(value):
    """Dates, times and decimals as ISO/plain text: JSON keeps what a widget can read back."""
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    raise TypeError(f"a parameter value of type {type(value).__name__} cannot be kept; use text, a number, "
                    f"a date, or a list of those")


def parameter_json(values) -> Optional[str]:
    """``values`` (marker name -> value) as the JSON text the store keeps; None for none."""
    if values is None or values == {}:
        return None
    if not isinstance(values, dict) or not all(isinstance(k, str) and k for k in values):
        raise InvalidRequestError("parameter values must be a mapping of marker names (text) to values")
    try:
        text = json.dumps(values, default=_json_value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidRequestError(str(exc)) from None
    if len(text) > MAX_PARAMETER_JSON_CHARS:
        raise InvalidRequestError(f"the parameter values take {len(text):,} characters as JSON, more than "
                                  f"{MAX_PARAMETER_JSON_CHARS:,}; keep fewer or shorter values")
    return text


def parameters_of(text: Optional[str]) -> Optional[dict]:
    if not text:
        return None
    try:
        values = json.loads(text)
    except ValueError:
        return None
    return values if isinstance(values, dict) else None


def _tab(row) -> EditorTab:
    return EditorTab(tab_id=row.tab_id, title=row.title, text=row.text, position=row.position,
                     updated_at=row.updated_at, parameter_values=parameters_of(row.parameter_values))


def list_tabs(connection: Connection, user: str) -> list[EditorTab]:
    rows = connection.execute(select(editor_tabs).where(editor_tabs.c.user_name == user)
                              .order_by(editor_tabs.c.position, editor_tabs.c.created_at))
    return [_tab(row) for row in rows]


def _tab_row(connection: Connection, user: str, tab_id: str):
    row = connection.execute(select(editor_tabs).where(
        and_(editor_tabs.c.user_name == user, editor_tabs.c.tab_id == tab_id))).first()
    if row is None:
        raise ObjectNotFoundError(f"tab {tab_id!r} does not exist for user {user!r}: it was closed or never "
                                  f"opened; list_tabs shows the open ones")
    return row


def default_title(titles: list[str]) -> str:
    """"Query N": one more than the highest N among the titles of that form."""
    numbers = [int(m.group(1)) for m in map(_DEFAULT_TITLE.match, titles) if m]
    return f"Query {max(numbers, default=0) + 1}"


def open_tab(connection: Connection, user: str, title: Optional[str], text: str) -> EditorTab:
    ensure_user(connection, user, lock=True)
    tabs = list_tabs(connection, user)
    title = default_title([t.title for t in tabs]) if title is None else title
    moment = now()
    values = dict(tab_id=new_id(), user_name=user, title=title, text=text, position=len(tabs),
                  created_at=moment, updated_at=moment)
    connection.execute(insert(editor_tabs).values(**values))
    return EditorTab(values["tab_id"], title, text, values["position"], moment)


def update_tab(connection: Connection, user: str, tab_id: str, **changes) -> EditorTab:
    """One round trip (UPDATE … RETURNING): the draft is saved as often as the user pauses typing."""
    row = connection.execute(update(editor_tabs).where(
        and_(editor_tabs.c.user_name == user, editor_tabs.c.tab_id == tab_id))
        .values(updated_at=now(), **changes).returning(*editor_tabs.c)).first()
    if row is None:
        _tab_row(connection, user, tab_id)  # raises the not-found error
    return _tab(row)


def move_tab(connection: Connection, user: str, tab_id: str, position: int) -> list[EditorTab]:
    ensure_user(connection, user, lock=True)
    tabs = list_tabs(connection, user)
    moving = next((t for t in tabs if t.tab_id == tab_id), None)
    if moving is None:
        _tab_row(connection, user, tab_id)  # raises the not-found error
    if not 0 <= position < len(tabs):
        raise InvalidRequestError(f"position {position} is outside the tabs of user {user!r}: "
                                  f"give 0 to {len(tabs) - 1} (0 is the first tab)")
    order = [t for t in tabs if t.tab_id != tab_id]
    order.insert(position, moving)
    _renumber(connection, order)
    return list_tabs(connection, user)


def close_tab(connection: Connection, user: str, tab_id: str) -> None:
    ensure_user(connection, user, lock=True)
    deleted = connection.execute(delete(editor_tabs).where(
        and_(editor_tabs.c.user_name == user, editor_tabs.c.tab_id == tab_id)))
    if deleted.rowcount == 0:
        _tab_row(connection, user, tab_id)  # raises the not-found error
    _renumber(connection, list_tabs(connection, user))


def _renumber(connection: Connection, order: list[EditorTab]) -> None:
    """Positions 0..n-1 in ``order``; only the tabs whose position changes are written."""
    for position, tab in enumerate(order):
        if tab.position != position:
            connection.execute(update(editor_tabs).where(editor_tabs.c.tab_id == tab.tab_id)
                               .values(position=position))


# -- saved queries --------------------------------------------------------------------------------

def _query(row) -> SavedQuery:
    return SavedQuery(query_id=row.query_id, name=row.name, description=row.description, text=row.text,
                      created_at=row.created_at, updated_at=row.updated_at)


def get_saved_query(connection: Connection, user: str, query_id: str) -> SavedQuery:
    row = connection.execute(select(saved_queries).where(
        and_(saved_queries.c.user_name == user, saved_queries.c.query_id == query_id))).first()
    if row is None:
        raise ObjectNotFoundError(f"saved query {query_id!r} does not exist for user {user!r}: it was deleted "
                                  f"or never saved; list_saved_queries shows the saved ones")
    return _query(row)


def save_query(connection: Connection, user: str, name: str, text: str, description: str,
               query_id: Optional[str]) -> SavedQuery:
    """Insert a new query, or update the user's query ``query_id`` in one round trip (UPDATE … RETURNING)."""
    moment = now()
    if query_id is None:
        ensure_user(connection, user)
        saved = SavedQuery(new_id(), name, description, text, moment, moment)
        connection.execute(insert(saved_queries).values(
            query_id=saved.query_id, user_name=user, name=name, description=description, text=text,
            created_at=moment, updated_at=moment))
        return saved
    row = connection.execute(update(saved_queries).where(
        and_(saved_queries.c.user_name == user, saved_queries.c.query_id == query_id))
        .values(name=name, description=description, text=text, updated_at=moment)
        .returning(*saved_queries.c)).first()
    if row is None:
        get_saved_query(connection, user, query_id)  # raises the not-found error
    return _query(row)


def like_pattern(search: str) -> str:
    """``%search%`` for a case-insensitive LIKE, with the user's own % and _ matched literally."""
    escaped = search.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def contains(column, search: str):
    return func.lower(column).like(like_pattern(search), escape="\\")


def list_saved_queries(connection: Connection, user: str, search: str) -> list[SavedQuery]:
    query = select(saved_queries).where(saved_queries.c.user_name == user)
    if search.strip():
        term = search.strip()
        query = query.where(contains(saved_queries.c.name, term) | contains(saved_queries.c.description, term)
                            | contains(saved_queries.c.text, term))
    query = query.order_by(func.lower(saved_queries.c.name), saved_queries.c.created_at)
    return [_query(row) for row in connection.execute(query)]


def delete_saved_query(connection: Connection, user: str, query_id: str) -> None:
    get_saved_query(connection, user, query_id)
    connection.execute(delete(saved_queries).where(saved_queries.c.query_id == query_id))
