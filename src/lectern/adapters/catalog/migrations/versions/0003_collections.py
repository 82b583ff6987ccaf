"""Collections: their documents and passages.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the collections, documents and passages tables."""
    op.create_table(
        "collections",
        sa.Column("name", sa.String(63), primary_key=True),
        sa.Column("filters_json", sa.Text, nullable=False),
        sa.Column("generation", sa.Integer, nullable=False),
        sa.Column("mapping_text", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "documents",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "collection",
            sa.String(63),
            sa.ForeignKey("collections.name", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("uri", sa.String(1000), nullable=False),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("cite_as", sa.String(1000), nullable=False),
        sa.Column("metadata_json", sa.Text, nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("pages_json", sa.Text, nullable=False),
        sa.Column("sections_json", sa.Text, nullable=False),
        sa.Column("notes_json", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("collection", "uri", name="uq_documents_collection_uri"),
    )
    op.create_index("ix_documents_collection", "documents", ["collection"])
    op.create_index("ix_documents_cite_as", "documents", ["cite_as"])
    op.create_table(
        "passages",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "document_id",
            sa.String(32),
            sa.ForeignKey("documents.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("collection", sa.String(63), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("page", sa.Integer),
        sa.Column("section", sa.Text),
        sa.Column("anchor", sa.String(300)),
        sa.Column("start_offset", sa.Integer, nullable=False),
        sa.Column("end_offset", sa.Integer, nullable=False),
    )
    op.create_index("ix_passages_document_id", "passages", ["document_id"])
    op.create_index("ix_passages_collection", "passages", ["collection"])


def downgrade() -> None:
    """Drop the collection tables."""
    op.drop_table("passages")
    op.drop_table("documents")
    op.drop_table("collections")
