"""Durable approvals (an `executing` lease) and the review outbox.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the lease columns of pending_actions and create review_outbox."""
    with op.batch_alter_table("pending_actions") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String(120), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "review_outbox",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("last_error", sa.Text),
    )


def downgrade() -> None:
    """Drop both."""
    op.drop_table("review_outbox")
    with op.batch_alter_table("pending_actions") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("lease_owner")
