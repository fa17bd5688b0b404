"""The workbench store: the workbench's own database of drafts (editor tabs), saved queries and the
statement history. SQLAlchemy Core over an SQLite file in the data directory by default, or
PostgreSQL by URL for several workbench processes; Alembic migrations run at start-up.
"""
from gateway.store.engine import default_url
from gateway.store.store import WorkbenchStore

__all__ = ["WorkbenchStore", "default_url"]
