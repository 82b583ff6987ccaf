"""Research workspaces: organizations, members, projects, tasks, blockers, documents, comments.

Revision ID: 0006
Revises: 0004 (re-chained to 0005 when the book pages migration lands)
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _project_id() -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        "project_id",
        sa.String(36),
        sa.ForeignKey("projects.id", ondelete="CASCADE"),
        nullable=False,
    )


def upgrade() -> None:
    """Create the workspace tables."""
    op.create_table(
        "organizations",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("review_document_created", sa.Boolean, nullable=False),
        sa.Column("review_document_updated", sa.Boolean, nullable=False),
        sa.Column("review_task_in_review", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "organization_members",
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
    )
    op.create_index("ix_organization_members_user", "organization_members", ["user"])
    op.create_table(
        "projects",
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
    )
    op.create_index("ix_projects_organization", "projects", ["organization_id"])
    op.create_table(
        "tasks",
        sa.Column("id", sa.String(36), primary_key=True),
        _project_id(),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("priority", sa.String(16), nullable=False),
        sa.Column("assignee", sa.String(200)),
        sa.Column("due_date", sa.Date),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tasks_project_status", "tasks", ["project_id", "status"])
    op.create_index("ix_tasks_assignee", "tasks", ["assignee"])
    op.create_table(
        "blockers",
        sa.Column("id", sa.String(36), primary_key=True),
        _project_id(),
        sa.Column("task_id", sa.String(36), sa.ForeignKey("tasks.id", ondelete="SET NULL")),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("resolution", sa.Text),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True)),
    )
    op.create_index("ix_blockers_project_status", "blockers", ["project_id", "status"])
    op.create_table(
        "project_documents",
        sa.Column("id", sa.String(36), primary_key=True),
        _project_id(),
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
    op.create_table(
        "comments",
        sa.Column("id", sa.String(36), primary_key=True),
        _project_id(),
        sa.Column("task_id", sa.String(36), sa.ForeignKey("tasks.id", ondelete="CASCADE")),
        sa.Column(
            "document_id",
            sa.String(36),
            sa.ForeignKey("project_documents.id", ondelete="CASCADE"),
        ),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("citations_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_comments_task", "comments", ["task_id"])
    op.create_index("ix_comments_document", "comments", ["document_id"])
    op.create_index("ix_comments_project", "comments", ["project_id"])


def downgrade() -> None:
    """Drop the workspace tables."""
    for index, table in (
        ("ix_comments_project", "comments"),
        ("ix_comments_document", "comments"),
        ("ix_comments_task", "comments"),
    ):
        op.drop_index(index, table_name=table)
    op.drop_table("comments")
    op.drop_table("project_documents")
    op.drop_index("ix_blockers_project_status", table_name="blockers")
    op.drop_table("blockers")
    op.drop_index("ix_tasks_assignee", table_name="tasks")
    op.drop_index("ix_tasks_project_status", table_name="tasks")
    op.drop_table("tasks")
    op.drop_index("ix_projects_organization", table_name="projects")
    op.drop_table("projects")
    op.drop_index("ix_organization_members_user", table_name="organization_members")
    op.drop_table("organization_members")
    op.drop_table("organizations")
