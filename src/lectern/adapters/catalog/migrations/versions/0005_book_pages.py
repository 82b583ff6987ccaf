"""Page counts: `books.pages`, filled by the next `lectern ingest`.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24

Every stored book's content hash covers the new field, so the next ingest rewrites each book
once with its page count (the search indexes do not change: pages are not indexed text).
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the nullable column and its index."""
    with op.batch_alter_table("books") as batch:
        batch.add_column(sa.Column("pages", sa.Integer, nullable=True))
    op.create_index("ix_books_pages", "books", ["pages"])


def downgrade() -> None:
    """Drop the index and the column."""
    op.drop_index("ix_books_pages", table_name="books")
    with op.batch_alter_table("books") as batch:
        batch.drop_column("pages")
