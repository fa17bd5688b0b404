"""The session journal: each open session's configuring statements, replayed after a restart.

Revision ID: 0003_session_journal
Revises: 0002_users_auth
Create Date: 2026-11-23
"""
from alembic import op
import sqlalchemy as sa

from gateway.store.schema import UtcDateTime

revision = "0003_session_journal"
down_revision = "0002_users_auth"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "journal_sessions",
        sa.Column("session_handle", sa.String(36), primary_key=True),
        sa.Column("owner", sa.Text(), nullable=False),
        sa.Column("user_name", sa.String(200), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("opened_at", UtcDateTime(), nullable=False),
    )
    op.create_table(
        "journal_entries",
        sa.Column("entry_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True,
                  autoincrement=True),
        sa.Column("session_handle", sa.String(36), sa.ForeignKey("journal_sessions.session_handle"),
                  nullable=False),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("recorded_at", UtcDateTime(), nullable=False),
    )
    op.create_index("ix_journal_entries_session", "journal_entries", ["session_handle", "entry_id"])


def downgrade() -> None:
    op.drop_table("journal_entries")
    op.drop_table("journal_sessions")
