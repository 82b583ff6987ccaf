"""Automatic reviews: a pending action's review, and uploads' reviews.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add pending_actions.review and create upload_reviews."""
    with op.batch_alter_table("pending_actions") as batch:
        batch.add_column(sa.Column("review", sa.Text, nullable=True))
    op.create_table(
        "upload_reviews",
        sa.Column("collection", sa.String(63), primary_key=True),
        sa.Column("document_id", sa.String(80), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("review", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop both."""
    op.drop_table("upload_reviews")
    with op.batch_alter_table("pending_actions") as batch:
        batch.drop_column("review")
