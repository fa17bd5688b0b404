"""Users that log in (password hash, admin flag, active flag) and their API tokens.

Revision ID: 0002_users_auth
Revises: 0001_workspace
Create Date: 2026-11-23
"""
from alembic import op
import sqlalchemy as sa

from gateway.store.schema import UtcDateTime

revision = "0002_users_auth"
down_revision = "0001_workspace"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite has it for columns with a constant default): no copy of the table.
    op.add_column("users", sa.Column("password_hash", sa.Text(), nullable=True))
    op.add_column("users", sa.Column("is_admin", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("users", sa.Column("active", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.create_table(
        "api_tokens",
        sa.Column("token_id", sa.String(36), primary_key=True),
        sa.Column("user_name", sa.String(200), sa.ForeignKey("users.name"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("last_used_at", UtcDateTime(), nullable=True),
        sa.Column("revoked_at", UtcDateTime(), nullable=True),
    )
    op.create_index("ix_api_tokens_user", "api_tokens", ["user_name"])


def downgrade() -> None:
    op.drop_table("api_tokens")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("active")
        batch.drop_column("is_admin")
        batch.drop_column("password_hash")
