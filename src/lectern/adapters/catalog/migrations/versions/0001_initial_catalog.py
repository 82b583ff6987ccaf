"""Initial catalog: books, authors, categories, identifiers, provenance, sources.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _book_fk() -> sa.Column[str]:
    return sa.Column("book_id", sa.String(36), sa.ForeignKey("books.id"), primary_key=True)


def upgrade() -> None:
    """Create the catalog tables."""
    op.create_table(
        "books",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("subtitle", sa.Text),
        sa.Column("description", sa.Text),
        sa.Column("language", sa.String(8)),
        sa.Column("published_year", sa.Integer),
        sa.Column("isbn10", sa.String(10)),
        sa.Column("isbn13", sa.String(13)),
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("source_id", sa.String(128), nullable=False),
        sa.Column("metadata_json", sa.Text, nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_books_language", "books", ["language"])
    op.create_index("ix_books_published_year", "books", ["published_year"])
    op.create_table(
        "book_authors",
        _book_fk(),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
    )
    op.create_index("ix_book_authors_name", "book_authors", ["name"])
    op.create_table(
        "book_categories",
        _book_fk(),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
    )
    op.create_index("ix_book_categories_name", "book_categories", ["name"])
    op.create_table(
        "book_identifiers",
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("book_id", sa.String(36), sa.ForeignKey("books.id"), nullable=False),
    )
    op.create_index("ix_book_identifiers_book_id", "book_identifiers", ["book_id"])
    op.create_table(
        "book_provenance",
        _book_fk(),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("field", sa.String(32), nullable=False),
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("source_id", sa.String(128), nullable=False),
    )
    op.create_table(
        "book_sources",
        _book_fk(),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("source_id", sa.String(128), nullable=False),
        sa.Column("file", sa.Text, nullable=False),
        sa.Column("line", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    """Drop the catalog tables."""
    for table in (
        "book_sources",
        "book_provenance",
        "book_identifiers",
        "book_categories",
        "book_authors",
        "books",
    ):
        op.drop_table(table)
