"""One live managed engine per share-level key: a unique index on the engines' key over the live states (the
pool's engines, keyed '', excepted). A process claims a key by inserting its engine's STARTING row before it
starts the JVM; a second process starting an engine for the same key at once is refused by the index and
waits for the first's engine instead of starting its own.

Revision ID: 0007_engine_key_claims
Revises: 0006_parameter_values
Create Date: 2026-11-26
"""
from alembic import op
import sqlalchemy as sa

revision = "0007_engine_key_claims"
down_revision = "0006_parameter_values"
branch_labels = None
depends_on = None

LIVE = sa.text("state IN ('STARTING', 'POOLED', 'RUNNING') AND engine_key <> ''")


def upgrade() -> None:
    # engines of a key found live twice (started at once before this revision): all but the newest count as failed
    op.execute("UPDATE engines SET state = 'FAILED' WHERE state IN ('STARTING', 'POOLED', 'RUNNING') "
               "AND engine_key <> '' AND EXISTS (SELECT 1 FROM engines AS newer WHERE newer.engine_key = "
               "engines.engine_key AND newer.state IN ('STARTING', 'POOLED', 'RUNNING') "
               "AND newer.started_at > engines.started_at)")
    op.create_index("ux_engines_live_key", "engines", ["engine_key"], unique=True,
                    sqlite_where=LIVE, postgresql_where=LIVE)


def downgrade() -> None:
    op.drop_index("ux_engines_live_key", table_name="engines")
