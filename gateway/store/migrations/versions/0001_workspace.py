"""The workspace: users, editor tabs (drafts), saved queries and the statement history.

Revision ID: 0001_workspace
Revises:
Create Date: 2026-11-23
"""
from alembic import op
import sqlalchemy as sa

from gateway.store.schema import UtcDateTime

revision = "0001_workspace"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("created_at", UtcDateTime(), nullable=False),
    )
    op.create_table(
        "editor_tabs",
        sa.Column("tab_id", sa.String(36), primary_key=True),
        sa.Column("user_name", sa.String(200), sa.ForeignKey("users.name"), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
    )
    op.create_index("ix_editor_tabs_user_position", "editor_tabs", ["user_name", "position"])
    op.create_table(
        "saved_queries",
        sa.Column("query_id", sa.String(36), primary_key=True),
        sa.Column("user_name", sa.String(200), sa.ForeignKey("users.name"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
    )
    op.create_index("ix_saved_queries_user_name", "saved_queries", ["user_name", "name"])
    op.create_table(
        "query_history",
        sa.Column("entry_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True,
                  autoincrement=True),
        sa.Column("user_name", sa.String(200), sa.ForeignKey("users.name"), nullable=False),
        sa.Column("session_handle", sa.String(36), nullable=False),
        sa.Column("operation_handle", sa.String(36), nullable=True),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("started_at", UtcDateTime(), nullable=False),
        sa.Column("duration_ms", sa.BigInteger(), nullable=True),
        sa.Column("rows", sa.BigInteger(), nullable=True),
        sa.Column("error_class", sa.String(200), nullable=True),
    )
    op.create_index("ix_query_history_user_entry", "query_history", ["user_name", "entry_id"])


def downgrade() -> None:
    op.drop_table("query_history")
    op.drop_table("saved_queries")
    op.drop_table("editor_tabs")
    op.drop_table("users")
