"""Explanation cache: one row per (book, query, prompt version, model).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the explanations table."""
    op.create_table(
        "explanations",
        sa.Column("book_id", sa.String(36), primary_key=True),
        sa.Column("query_key", sa.String(64), primary_key=True),
        sa.Column("prompt_version", sa.String(64), primary_key=True),
        sa.Column("model", sa.String(200), primary_key=True),
        sa.Column("query_text", sa.Text, nullable=False),
        sa.Column("payload_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the explanations table."""
    op.drop_table("explanations")
