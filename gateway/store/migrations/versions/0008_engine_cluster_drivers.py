"""Managed engines whose driver runs in the cluster (engine.deploy_mode = cluster): each engine's row keeps the
standalone master's driver id (what stops it: the engine is no process of this host) and the engine's Spark
Connect token (what every workbench process on the store sends to reach it; the engine listens beyond loopback).

Revision ID: 0008_engine_cluster_drivers
Revises: 0007_engine_key_claims
Create Date: 2026-11-26
"""
from alembic import op
import sqlalchemy as sa

revision = "0008_engine_cluster_drivers"
down_revision = "0007_engine_key_claims"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("engines", sa.Column("driver_id", sa.String(200), nullable=True))
    op.add_column("engines", sa.Column("token", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("engines") as batch:
        batch.drop_column("token")
        batch.drop_column("driver_id")
