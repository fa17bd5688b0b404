"""The store's SQLAlchemy engine: an SQLite file under the data directory by default, or any URL
(``postgresql+psycopg://…`` for several workbench processes sharing one store).

SQLite is set up for several threads and processes on one machine: WAL (readers never wait for
the writer), a busy timeout (a writer waits for another instead of failing at once), foreign keys
on, and transactions that say what they are: a write starts with ``BEGIN IMMEDIATE``, so two
writers queue up at their start instead of one failing half-way ("database is locked").
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

from gateway.errors import ConfigurationError

SQLITE_BUSY_TIMEOUT_MS = 10_000
CONNECT_TIMEOUT_S = 5
WRITE = "workbench_write"  # execution option: this connection's next transaction writes


def default_url(data_dir: Path) -> str:
    return f"sqlite:///{Path(data_dir) / 'workbench.db'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a bad URL or a missing driver is a ConfigurationError that says which."""
    try:
        parsed = make_url(url)
    except Exception as exc:  # noqa: BLE001 - SQLAlchemy's ArgumentError and ValueError alike
        raise ConfigurationError(f"store.url {url!r} is not a database URL ({exc}); use e.g. "
                                 f"sqlite:////path/workbench.db or postgresql+psycopg://user:pw@host/db") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return _sqlite_engine(parsed)
    if backend == "postgresql":
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")  # the driver we ship (psycopg 3)
        try:
            return create_engine(parsed, pool_pre_ping=True, pool_size=5, max_overflow=5,
                                 connect_args={"connect_timeout": CONNECT_TIMEOUT_S})
        except ImportError as exc:
            raise ConfigurationError(f"store.url {_shown(parsed)} needs a driver that is not installed: {exc}. "
                                     f"Use postgresql+psycopg:// (psycopg 3 ships with the workbench)") from None
    raise ConfigurationError(f"store.url {_shown(parsed)}: the workbench store runs on SQLite or PostgreSQL, "
                             f"not {backend}")


def _shown(url) -> str:
    return url.render_as_string(hide_password=True)


def _sqlite_engine(url) -> Engine:
    database: Optional[str] = url.database
    if not database or database == ":memory:":
        raise ConfigurationError("store.url: an in-memory SQLite store would lose every draft at exit; "
                                 "give a file (sqlite:////path/workbench.db) or leave store.url empty")
    Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False,
                                              "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # we say BEGIN ourselves (below), not the sqlite3 module
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        mode = "IMMEDIATE" if connection.get_execution_options().get(WRITE) else "DEFERRED"
        connection.exec_driver_sql(f"BEGIN {mode}")

    return engine


def shown_url(engine: Engine) -> str:
    """The engine's URL without its password, for logs and get_gateway_info."""
    return _shown(engine.url)
