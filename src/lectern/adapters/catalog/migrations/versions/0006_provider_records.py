"""Records fetched from external providers (Open Library, Google Books).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the provider_records table."""
    op.create_table(
        "provider_records",
        sa.Column("source", sa.String(64), primary_key=True),
        sa.Column("source_id", sa.String(128), primary_key=True),
        sa.Column("record_json", sa.Text, nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the table."""
    op.drop_table("provider_records")
