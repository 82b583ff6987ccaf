"""Uploads as jobs: their state, so a crash leaves each one visible.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create upload_jobs."""
    op.create_table(
        "upload_jobs",
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
    )
    op.create_index("ix_upload_jobs_user_status", "upload_jobs", ["user", "status"])
    op.create_index("ix_upload_jobs_status", "upload_jobs", ["status"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_upload_jobs_status", "upload_jobs")
    op.drop_index("ix_upload_jobs_user_status", "upload_jobs")
    op.drop_table("upload_jobs")
