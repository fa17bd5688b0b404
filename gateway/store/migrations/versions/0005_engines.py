"""Managed engines: the Spark Connect servers the workbench started (gateway/engines/), shared by the
workbench processes on one store.

Revision ID: 0005_engines
Revises: 0004_history_kinds
Create Date: 2026-11-26
"""
from alembic import op
import sqlalchemy as sa

from gateway.store.schema import UtcDateTime

revision = "0005_engines"
down_revision = "0004_history_kinds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "engines",
        sa.Column("engine_id", sa.String(36), primary_key=True),
        sa.Column("engine_key", sa.String(200), nullable=False),
        sa.Column("owner", sa.String(200), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("address", sa.String(200), nullable=False),
        sa.Column("host", sa.String(200), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=True),
        sa.Column("ui_url", sa.String(200), nullable=True),
        sa.Column("app_name", sa.String(200), nullable=False),
        sa.Column("started_by", sa.Text(), nullable=False),
        sa.Column("started_at", UtcDateTime(), nullable=False),
        sa.Column("last_used", UtcDateTime(), nullable=False),
        sa.Column("log_path", sa.Text(), nullable=False),
    )
    op.create_index("ix_engines_key_state", "engines", ["engine_key", "state"])


def downgrade() -> None:
    op.drop_index("ix_engines_key_state", table_name="engines")
    op.drop_table("engines")
