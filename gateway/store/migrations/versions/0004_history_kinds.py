"""The statement history records each statement's kind, as the gateway's analysis read it.

Revision ID: 0004_history_kinds
Revises: 0003_session_journal
Create Date: 2026-11-26
"""
from alembic import op
import sqlalchemy as sa

revision = "0004_history_kinds"
down_revision = "0003_session_journal"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, nullable: entries recorded before it have no kinds (shown as unknown).
    op.add_column("query_history", sa.Column("statement_kinds", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("query_history") as batch:
        batch.drop_column("statement_kinds")
