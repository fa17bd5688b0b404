"""Schema migrations of the workbench store, run at start-up (Alembic, its scripts in this package).

Several workbench processes may start at once against one store. The whole upgrade runs in one
transaction that first takes a lock: ``pg_advisory_xact_lock`` on PostgreSQL, the write lock of
``BEGIN IMMEDIATE`` on SQLite. The second process waits, then finds the schema at its head and
does nothing. Both databases have transactional DDL, so a failed migration leaves no half schema.
"""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

from gateway.store.engine import WRITE

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# Any constant 64-bit key, the same in every workbench process: "wbstore1" as bytes.
_PG_LOCK_KEY = int.from_bytes(b"wbstore1", "big") & 0x7FFF_FFFF_FFFF_FFFF


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine):
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the store's schema to ``revision`` (by default the newest), holding the migration lock."""
    config = alembic_config()
    with engine.connect() as connection:
        connection = connection.execution_options(**{WRITE: True})
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
