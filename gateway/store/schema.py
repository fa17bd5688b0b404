"""The workbench store's tables, as SQLAlchemy Core sees them today.

The database gets them from the migrations (``gateway/store/migrations/versions/``), never from
``metadata.create_all``: a test checks that the migrated schema and these tables agree, so a
change here needs a new migration (see docs/store.md).
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import (BigInteger, Boolean, Column, DateTime, ForeignKey, Index, Integer, MetaData, String, Table,
                        Text, TypeDecorator, false, text, true)

NAME_CHARS = 200  # user names, tab titles, saved query names
ID_CHARS = 36  # tab and query ids (uuid4 hex), session and operation handles (uuid strings)

metadata = MetaData()


class UtcDateTime(TypeDecorator):
    """A moment in UTC: stored as such, and read back timezone-aware from SQLite too (which keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and value.tzinfo is None:
            raise ValueError(f"the store keeps aware datetimes only, got the naive {value!r}")
        return value.astimezone(dt.timezone.utc) if value is not None else None

    def process_result_value(self, value, dialect):
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=dt.timezone.utc)
        return value


# The users the store knows. While there is no authentication the one user is LOCAL_USER; a
# user's row is also the lock that serialises changes to that user's tab order across processes.
# With auth.mode = builtin a user logs in with a password (its scrypt hash here); proxy and oidc
# users get a row, without a password, when they first come. A removed user stays (inactive) so
# that the audit log of its statements keeps its name.
users = Table(
    "users", metadata,
    Column("name", String(NAME_CHARS), primary_key=True),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("password_hash", Text(), nullable=True),
    Column("is_admin", Boolean(), nullable=False, server_default=false()),
    Column("active", Boolean(), nullable=False, server_default=true()),
)

TOKEN_HASH_CHARS = 64  # sha256 hex of the token

# Per-user API tokens for REST: only their hash is kept; revoked ones stay listed until deleted.
api_tokens = Table(
    "api_tokens", metadata,
    Column("token_id", String(ID_CHARS), primary_key=True),
    Column("user_name", String(NAME_CHARS), ForeignKey("users.name"), nullable=False),
    Column("token_hash", String(TOKEN_HASH_CHARS), nullable=False, unique=True),
    Column("label", String(NAME_CHARS), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("last_used_at", UtcDateTime(), nullable=True),
    Column("revoked_at", UtcDateTime(), nullable=True),
    Index("ix_api_tokens_user", "user_name"),
)

# Browsers logged in with a password (auth.mode builtin): the cookie holds a random token, only its
# SHA-256 is kept here, with the user and an expiry. Logging out deletes the row; an expired or unknown
# token logs nobody in.
browser_logins = Table(
    "browser_logins", metadata,
    Column("login_hash", String(TOKEN_HASH_CHARS), primary_key=True),
    Column("user_name", String(NAME_CHARS), ForeignKey("users.name"), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("expires_at", UtcDateTime(), nullable=False),
    Index("ix_browser_logins_user", "user_name"),
)

editor_tabs = Table(
    "editor_tabs", metadata,
    Column("tab_id", String(ID_CHARS), primary_key=True),
    Column("user_name", String(NAME_CHARS), ForeignKey("users.name"), nullable=False),
    Column("title", String(NAME_CHARS), nullable=False),
    Column("text", Text(), nullable=False),
    Column("position", Integer(), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Column("parameter_values", Text(), nullable=True),  # the tab's last :name values, JSON (0006)
    Index("ix_editor_tabs_user_position", "user_name", "position"),
)

saved_queries = Table(
    "saved_queries", metadata,
    Column("query_id", String(ID_CHARS), primary_key=True),
    Column("user_name", String(NAME_CHARS), ForeignKey("users.name"), nullable=False),
    Column("name", String(NAME_CHARS), nullable=False),
    Column("description", Text(), nullable=False),
    Column("text", Text(), nullable=False),
    Column("created_at", UtcDateTime(), nullable=False),
    Column("updated_at", UtcDateTime(), nullable=False),
    Index("ix_saved_queries_user_name", "user_name", "name"),
)

query_history = Table(
    "query_history", metadata,
    Column("entry_id", BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True),
    Column("user_name", String(NAME_CHARS), ForeignKey("users.name"), nullable=False),
    Column("session_handle", String(ID_CHARS), nullable=False),
    Column("operation_handle", String(ID_CHARS), nullable=True),
    Column("statement", Text(), nullable=False),
    Column("status", String(16), nullable=False),
    Column("started_at", UtcDateTime(), nullable=False),
    Column("duration_ms", BigInteger(), nullable=True),
    Column("rows", BigInteger(), nullable=True),
    Column("error_class", String(NAME_CHARS), nullable=True),
    # Each statement's kind from its StatementAnalysis, in order, comma-separated (QUERY, ADD_JAR, …).
    Column("statement_kinds", Text(), nullable=True),
    Column("parameter_values", Text(), nullable=True),  # the :name values the run bound, JSON (0006)
    Index("ix_query_history_user_entry", "user_name", "entry_id"),
)


# The session journal: what each open session has configured (SET, USE, temporary views and
# functions, modules, jars), in order, so that a restarted workbench opens the same sessions (same
# handles, same users) and replays it. A session's rows go when it is closed, not when the
# process stops.
journal_sessions = Table(
    "journal_sessions", metadata,
    Column("session_handle", String(ID_CHARS), primary_key=True),
    Column("owner", Text(), nullable=False),  # the workbench process (host and data directory) that restores it
    Column("user_name", String(NAME_CHARS), nullable=False),
    Column("name", String(NAME_CHARS), nullable=False),
    Column("is_admin", Boolean(), nullable=False),
    Column("opened_at", UtcDateTime(), nullable=False),
)

journal_entries = Table(
    "journal_entries", metadata,
    Column("entry_id", BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True),
    Column("session_handle", String(ID_CHARS), ForeignKey("journal_sessions.session_handle"), nullable=False),
    Column("statement", Text(), nullable=False),
    Column("recorded_at", UtcDateTime(), nullable=False),
    Index("ix_journal_entries_session", "session_handle", "entry_id"),
)


# Managed engines (engine.kind = managed, gateway/engines/): the Spark Connect servers the workbench
# started, so that another workbench process on the same store finds and shares a running engine, and a
# restarted one adopts it. The key (share level and whom: user:alice, group:analysts, server,
# connection:<handle>; empty while the engine waits in the pool) is recorded here: an engine taken from the
# pool keeps the Spark application name it started with.
engines = Table(
    "engines", metadata,
    Column("engine_id", String(ID_CHARS), primary_key=True),
    Column("engine_key", String(NAME_CHARS), nullable=False),
    Column("owner", String(NAME_CHARS), nullable=False),  # the user it runs for ('' pooled, or several users)
    Column("state", String(16), nullable=False),  # STARTING, POOLED, RUNNING, STOPPED, FAILED
    Column("address", String(NAME_CHARS), nullable=False),  # sc://host:port
    Column("host", String(NAME_CHARS), nullable=False),  # the machine whose process it is (its pid's)
    Column("pid", Integer(), nullable=True),
    Column("ui_url", String(NAME_CHARS), nullable=True),
    Column("app_name", String(NAME_CHARS), nullable=False),
    Column("started_by", Text(), nullable=False),  # the workbench process (host and data directory)
    Column("started_at", UtcDateTime(), nullable=False),
    Column("last_used", UtcDateTime(), nullable=False),
    Column("log_path", Text(), nullable=False),
    # engine.deploy_mode = cluster (migration 0008): the standalone master's driver id, the engine's Connect token
    Column("driver_id", String(NAME_CHARS), nullable=True),
    Column("token", Text(), nullable=True),
    Index("ix_engines_key_state", "engine_key", "state"),
    # one live engine per key (migration 0007): a key's STARTING row is the claim of the process starting it
    Index("ux_engines_live_key", "engine_key", unique=True,
          sqlite_where=text("state IN ('STARTING', 'POOLED', 'RUNNING') AND engine_key <> ''"),
          postgresql_where=text("state IN ('STARTING', 'POOLED', 'RUNNING') AND engine_key <> ''")),
)
