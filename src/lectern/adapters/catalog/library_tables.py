"""The assistant's tables (migration 0004), on the catalog's metadata."""

from __future__ import annotations

import sqlalchemy as sa

from lectern.adapters.catalog.tables import metadata

# `name_key` is the list name case-folded with spaces collapsed: one list per name and user.

reading_lists = sa.Table(
    "reading_lists",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("user", sa.String(200), nullable=False, index=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("name_key", sa.String(80), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("user", "name_key", name="uq_reading_lists_user_name"),
)

list_entries = sa.Table(
    "list_entries",
    metadata,
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

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("user", sa.String(200), primary_key=True),
    sa.Column("book_id", sa.String(36), primary_key=True),
    sa.Column("stars", sa.Integer, nullable=False),
    sa.Column("review", sa.Text),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

corrections = sa.Table(
    "corrections",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("user", sa.String(200), nullable=False, index=True),
    sa.Column("book_id", sa.String(36), nullable=False, index=True),
    sa.Column("changes_json", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

pending_actions = sa.Table(
    "pending_actions",
    metadata,
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
