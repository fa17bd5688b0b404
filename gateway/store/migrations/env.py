"""Alembic's environment for the workbench store: always run by ``gateway.store.migrate.upgrade``,
which hands over a connection already inside a locked transaction (see there)."""
from __future__ import annotations

from alembic import context

from gateway.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("the workbench store migrates at start-up through gateway.store.migrate.upgrade; "
                       "run the workbench (or that function), not the alembic command on its own")

context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
                  transactional_ddl=True)
with context.begin_transaction():
    context.run_migrations()
