"""Table definitions the catalog queries; the Alembic migrations create the same schema."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

books = sa.Table(
    "books",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("subtitle", sa.Text),
    sa.Column("description", sa.Text),
    sa.Column("language", sa.String(8), index=True),
    sa.Column("published_year", sa.Integer, index=True),
    sa.Column("pages", sa.Integer, index=True),
    sa.Column("isbn10", sa.String(10)),
    sa.Column("isbn13", sa.String(13)),
    sa.Column("source", sa.String(64), nullable=False),
    sa.Column("source_id", sa.String(128), nullable=False),
    sa.Column("metadata_json", sa.Text, nullable=False),
    sa.Column("content_hash", sa.String(64), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

book_authors = sa.Table(
    "book_authors",
    metadata,
    sa.Column("book_id", sa.String(36), sa.ForeignKey("books.id"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("name", sa.Text, nullable=False, index=True),
)

book_categories = sa.Table(
    "book_categories",
    metadata,
    sa.Column("book_id", sa.String(36), sa.ForeignKey("books.id"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("name", sa.Text, nullable=False, index=True),
)

book_identifiers = sa.Table(
    "book_identifiers",
    metadata,
    sa.Column("key", sa.String(160), primary_key=True),
    sa.Column("book_id", sa.String(36), sa.ForeignKey("books.id"), nullable=False, index=True),
)

book_provenance = sa.Table(
    "book_provenance",
    metadata,
    sa.Column("book_id", sa.String(36), sa.ForeignKey("books.id"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("field", sa.String(32), nullable=False),
    sa.Column("source", sa.String(64), nullable=False),
    sa.Column("source_id", sa.String(128), nullable=False),
)

book_sources = sa.Table(
    "book_sources",
    metadata,
    sa.Column("book_id", sa.String(36), sa.ForeignKey("books.id"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("source", sa.String(64), nullable=False),
    sa.Column("source_id", sa.String(128), nullable=False),
    sa.Column("file", sa.Text, nullable=False),
    sa.Column("line", sa.Integer, nullable=False),
)

CHILD_TABLES = (book_authors, book_categories, book_identifiers, book_provenance, book_sources)

# Records fetched from external providers (migration 0006): merged again on every ingest.
provider_records = sa.Table(
    "provider_records",
    metadata,
    sa.Column("source", sa.String(64), primary_key=True),
    sa.Column("source_id", sa.String(128), primary_key=True),
    sa.Column("record_json", sa.Text, nullable=False),
    sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
)

explanations = sa.Table(
    "explanations",
    metadata,
    sa.Column("book_id", sa.String(36), primary_key=True),
    sa.Column("query_key", sa.String(64), primary_key=True),
    sa.Column("prompt_version", sa.String(64), primary_key=True),
    sa.Column("model", sa.String(200), primary_key=True),
    sa.Column("query_text", sa.Text, nullable=False),
    sa.Column("payload_json", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

# --- the assistant (migration 0004) ------------------------------------------------------

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
    sa.Column("review", sa.Text),
    sa.Column("lease_owner", sa.String(120)),
    sa.Column("lease_until", sa.DateTime(timezone=True)),
    sa.Index("ix_pending_actions_user_status", "user", "status"),
    sa.Index("ix_pending_actions_conversation", "conversation"),
)


review_outbox = sa.Table(
    "review_outbox",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("last_error", sa.Text),
)


upload_jobs = sa.Table(
    "upload_jobs",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("user", sa.String(120), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("collection", sa.String(63), nullable=False),
    sa.Column("project_id", sa.String(36)),
    sa.Column("filename", sa.String(200), nullable=False),
    sa.Column("stored", sa.String(255), nullable=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("progress", sa.Float, nullable=False),
    sa.Column("stage", sa.String(40), nullable=False),
    sa.Column("result", sa.Text),
    sa.Column("error", sa.Text),
    sa.Column("error_code", sa.String(16)),
    sa.Column("owner", sa.String(120)),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True)),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
    sa.Index("ix_upload_jobs_user_status", "user", "status"),
    sa.Index("ix_upload_jobs_status", "status"),
)


upload_reviews = sa.Table(
    "upload_reviews",
    metadata,
    sa.Column("collection", sa.String(63), primary_key=True),
    sa.Column("document_id", sa.String(80), primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("review", sa.Text, nullable=False),
)


collections = sa.Table(
    "collections",
    metadata,
    sa.Column("name", sa.String(63), primary_key=True),
    sa.Column("filters_json", sa.Text, nullable=False),
    sa.Column("generation", sa.Integer, nullable=False),
    sa.Column("mapping_text", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

documents = sa.Table(
    "documents",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column(
        "collection",
        sa.String(63),
        sa.ForeignKey("collections.name", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("source", sa.Text, nullable=False),
    sa.Column("uri", sa.String(1000), nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("cite_as", sa.String(1000), nullable=False, index=True),
    sa.Column("metadata_json", sa.Text, nullable=False),
    sa.Column("content_hash", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("pages_json", sa.Text, nullable=False),
    sa.Column("sections_json", sa.Text, nullable=False),
    sa.Column("notes_json", sa.Text, nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("collection", "uri", name="uq_documents_collection_uri"),
)

passages = sa.Table(
    "passages",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column(
        "document_id",
        sa.String(32),
        sa.ForeignKey("documents.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("collection", sa.String(63), nullable=False, index=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("page", sa.Integer),
    sa.Column("section", sa.Text),
    sa.Column("anchor", sa.String(300)),
    sa.Column("start_offset", sa.Integer, nullable=False),
    sa.Column("end_offset", sa.Integer, nullable=False),
)


# --- research workspaces (migration 0006) ----------------------------------------------------

_PROJECT = "projects.id"

organizations = sa.Table(
    "organizations",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("name", sa.String(120), nullable=False),
    sa.Column("review_document_created", sa.Boolean, nullable=False),
    sa.Column("review_document_updated", sa.Boolean, nullable=False),
    sa.Column("review_task_in_review", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

organization_members = sa.Table(
    "organization_members",
    metadata,
    sa.Column(
        "organization_id",
        sa.String(36),
        sa.ForeignKey("organizations.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("user", sa.String(200), primary_key=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("display_name", sa.String(120), nullable=False),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_organization_members_user", "user"),
)

projects = sa.Table(
    "projects",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column(
        "organization_id",
        sa.String(36),
        sa.ForeignKey("organizations.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("name", sa.String(120), nullable=False),
    sa.Column("description", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_projects_organization", "organization_id"),
)

tasks = sa.Table(
    "tasks",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column(
        "project_id",
        sa.String(36),
        sa.ForeignKey("projects.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("title", sa.String(200), nullable=False),
    sa.Column("description", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("priority", sa.String(16), nullable=False),
    sa.Column("assignee", sa.String(200)),
    sa.Column("due_date", sa.Date),
    sa.Column("created_by", sa.String(200), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_tasks_project_status", "project_id", "status"),
    sa.Index("ix_tasks_assignee", "assignee"),
)

blockers = sa.Table(
    "blockers",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column(
        "project_id",
        sa.String(36),
        sa.ForeignKey("projects.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("task_id", sa.String(36), sa.ForeignKey("tasks.id", ondelete="SET NULL")),
    sa.Column("description", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("resolution", sa.Text),
    sa.Column("created_by", sa.String(200), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("resolved_at", sa.DateTime(timezone=True)),
    sa.Index("ix_blockers_project_status", "project_id", "status"),
)

project_documents = sa.Table(
    "project_documents",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column(
        "project_id",
        sa.String(36),
        sa.ForeignKey("projects.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("collection", sa.String(63), nullable=False),
    sa.Column("document_id", sa.String(32), nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("origin", sa.String(16), nullable=False),
    sa.Column("added_by", sa.String(200), nullable=False),
    sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint(
        "project_id", "collection", "document_id", name="uq_project_documents_document"
    ),
)

comments = sa.Table(
    "comments",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column(
        "project_id",
        sa.String(36),
        sa.ForeignKey("projects.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("task_id", sa.String(36), sa.ForeignKey("tasks.id", ondelete="CASCADE")),
    sa.Column(
        "document_id", sa.String(36), sa.ForeignKey("project_documents.id", ondelete="CASCADE")
    ),
    sa.Column("author", sa.String(200), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("citations_json", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_comments_task", "task_id"),
    sa.Index("ix_comments_document", "document_id"),
    sa.Index("ix_comments_project", "project_id"),
)
