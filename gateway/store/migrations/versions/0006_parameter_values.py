"""Browser logins that survive a reload, and parameter values kept with a tab and a history entry.

- ``browser_logins``: one row per logged-in browser (auth.mode builtin). Only the SHA-256 of the cookie's
  random token is kept, with the user and an expiry; logging out deletes the row.
- ``editor_tabs.parameter_values`` and ``query_history.parameter_values``: the ``:name`` values as JSON text
  (a tab's last ones; what a run bound).

Revision ID: 0006_parameter_values
Revises: 0005_engines
Create Date: 2026-11-26
"""
from alembic import op
import sqlalchemy as sa

from gateway.store.schema import UtcDateTime

revision = "0006_parameter_values"
down_revision = "0005_engines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "browser_logins",
        sa.Column("login_hash", sa.String(64), primary_key=True),
        sa.Column("user_name", sa.String(200), sa.ForeignKey("users.name"), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("expires_at", UtcDateTime(), nullable=False),
    )
    op.create_index("ix_browser_logins_user", "browser_logins", ["user_name"])
    op.add_column("editor_tabs", sa.Column("parameter_values", sa.Text(), nullable=True))
    op.add_column("query_history", sa.Column("parameter_values", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("query_history") as batch:
        batch.drop_column("parameter_values")
    with op.batch_alter_table("editor_tabs") as batch:
        batch.drop_column("parameter_values")
    op.drop_index("ix_browser_logins_user", table_name="browser_logins")
    op.drop_table("browser_logins")
