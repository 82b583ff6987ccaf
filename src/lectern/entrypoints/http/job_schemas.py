"""Upload jobs on the wire: what `GET /jobs/{id}` and a 202 upload answer carry."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

from lectern.application.upload_jobs import UploadJob


class JobErrorOut(BaseModel):
    """Why a job failed."""

    code: str
    """too_large, unsupported, invalid, unreadable, or failed (the ingest itself broke)."""
    message: str


class JobOut(BaseModel):
    """An upload job: its state, its progress, and what it did once finished."""

    id: str
    url: str
    """Where to poll it (`GET /jobs/{id}`; only its owner sees it)."""
    kind: Literal["collection", "project"]
    collection: str
    project_id: str | None
    filename: str
    size: int
    status: Literal["queued", "running", "succeeded", "failed"]
    progress: float
    """0 queued, 0.1 while reading and indexing, 1 finished."""
    stage: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    result: dict[str, Any] | None
    """When succeeded: what the synchronous answer carried (documents added, updated,
    skipped; for a project upload, the project document)."""
    errors: list[JobErrorOut]

    @classmethod
    def of(cls, job: UploadJob) -> JobOut:
        """Map from the application."""
        errors = (
            [JobErrorOut(code=job.error_code or "failed", message=job.error or "")]
            if job.status == "failed"
            else []
        )
        return cls(
            id=job.id,
            url=f"/jobs/{job.id}",
            kind=job.kind,
            collection=job.collection,
            project_id=job.project_id,
            filename=job.filename,
            size=job.size,
            status=job.status,
            progress=job.progress,
            stage=job.stage,
            created_at=job.created_at,
            started_at=job.started_at,
            finished_at=job.finished_at,
            result=dict(job.result) if job.result is not None else None,
            errors=errors,
        )


class AcceptedOut(BaseModel):
    """A 202 answer: the upload is stored and its ingest queued."""

    job: JobOut
