"""The assistant: reading lists, ratings, catalog corrections and pending actions.

Revision ID: 0004
Revises: 0002 (re-chained to 0003 when the collections migration lands)
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the assistant's tables."""
    op.create_table(
        "reading_lists",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("user", sa.String(200), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("user", "name_key", name="uq_reading_lists_user_name"),
    )
    op.create_index("ix_reading_lists_user", "reading_lists", ["user"])
    op.create_table(
        "list_entries",
        sa.Column(
            "list_id",
            sa.String(36),
            sa.ForeignKey("reading_lists.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("book_id", sa.String(36), primary_key=True),
        sa.Column("note", sa.Text),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("user", sa.String(200), primary_key=True),
        sa.Column("book_id", sa.String(36), primary_key=True),
        sa.Column("stars", sa.Integer, nullable=False),
        sa.Column("review", sa.Text),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("stars BETWEEN 1 AND 5", name="ck_ratings_stars"),
    )
    op.create_table(
        "corrections",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("user", sa.String(200), nullable=False, index=True),
        sa.Column("book_id", sa.String(36), nullable=False, index=True),
        sa.Column("changes_json", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "pending_actions",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("user", sa.String(200), nullable=False),
        sa.Column("conversation", sa.String(64), nullable=False),
        sa.Column("tool_name", sa.String(64), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("tool_input", sa.Text, nullable=False),
        sa.Column("args_digest", sa.String(64), nullable=False),
        sa.Column("entity_type", sa.String(32), nullable=False),
        sa.Column("entity_id", sa.String(80), nullable=False),
        sa.Column("old_state", sa.Text, nullable=False),
        sa.Column("new_state", sa.Text, nullable=False),
        sa.Column("diff", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True)),
        sa.Column("result", sa.Text),
    )
    op.create_index("ix_pending_actions_user_status", "pending_actions", ["user", "status"])
    op.create_index("ix_pending_actions_conversation", "pending_actions", ["conversation"])


def downgrade() -> None:
    """Drop the assistant's tables."""
    op.drop_index("ix_pending_actions_conversation", table_name="pending_actions")
    op.drop_index("ix_pending_actions_user_status", table_name="pending_actions")
    op.drop_table("pending_actions")
    op.drop_table("corrections")
    op.drop_table("ratings")
    op.drop_table("list_entries")
    op.drop_index("ix_reading_lists_user", table_name="reading_lists")
    op.drop_table("reading_lists")
