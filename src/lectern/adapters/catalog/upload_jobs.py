"""Upload jobs' state in the catalog database (`upload_jobs`, migration 0010)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from lectern.adapters.catalog.tables import upload_jobs
from lectern.application.upload_jobs import ACTIVE, JobStatus, UploadJob


def _aware(value: datetime | None) -> datetime | None:
    """SQLite gives naive datetimes back; every stored one is UTC."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=UTC)


class SqlAlchemyUploadJobStore:
    """Jobs as rows; the claim is one conditional UPDATE (one runner wins)."""

    def __init__(self, engine: Engine) -> None:
        """`engine`'s database is already migrated."""
        self.engine = engine

    def add(self, job: UploadJob) -> None:
        """Store a new job."""
        with self.engine.begin() as connection:
            connection.execute(upload_jobs.insert().values(**self._row(job)))

    def get(self, job_id: str) -> UploadJob | None:
        """One job, or None."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(upload_jobs).where(upload_jobs.c.id == job_id)
            ).first()
        return None if row is None else self._job(row._mapping)

    def active_load(self, user: str) -> tuple[int, int]:
        """(jobs, bytes) the user has queued or running."""
        statement = sa.select(
            sa.func.count(), sa.func.coalesce(sa.func.sum(upload_jobs.c.size), 0)
        ).where(upload_jobs.c.user == user, upload_jobs.c.status.in_(ACTIVE))
        with self.engine.connect() as connection:
            count, size = connection.execute(statement).one()
        return int(count), int(size)

    def claim(self, job_id: str, owner: str, now: datetime) -> bool:
        """Claim: queued -> running for `owner`; False when it was not queued."""
        with self.engine.begin() as connection:
            done = connection.execute(
                upload_jobs.update()
                .where(upload_jobs.c.id == job_id, upload_jobs.c.status == "queued")
                .values(
                    status="running", owner=owner, started_at=now, progress=0.1, stage="ingesting"
                )
            )
        return bool(done.rowcount == 1)

    def finish(self, job: UploadJob) -> None:
        """Store a finished job's status, progress, result or error."""
        row = self._row(job)
        with self.engine.begin() as connection:
            connection.execute(
                upload_jobs.update()
                .where(upload_jobs.c.id == job.id)
                .values(
                    **{
                        k: row[k]
                        for k in (
                            "status",
                            "progress",
                            "stage",
                            "result",
                            "error",
                            "error_code",
                            "finished_at",
                        )
                    }
                )
            )

    def with_status(self, status: JobStatus) -> list[UploadJob]:
        """Every job in this status, oldest first."""
        statement = (
            sa.select(upload_jobs)
            .where(upload_jobs.c.status == status)
            .order_by(upload_jobs.c.created_at, upload_jobs.c.id)
        )
        with self.engine.connect() as connection:
            return [self._job(r._mapping) for r in connection.execute(statement)]

    @staticmethod
    def _row(job: UploadJob) -> dict[str, Any]:
        return {
            "id": job.id,
            "user": job.user,
            "kind": job.kind,
            "collection": job.collection,
            "project_id": job.project_id,
            "filename": job.filename,
            "stored": job.stored,
            "size": job.size,
            "status": job.status,
            "progress": job.progress,
            "stage": job.stage,
            "result": None if job.result is None else json.dumps(job.result, sort_keys=True),
            "error": job.error,
            "error_code": job.error_code,
            "owner": job.owner,
            "created_at": job.created_at,
            "started_at": job.started_at,
            "finished_at": job.finished_at,
        }

    @staticmethod
    def _job(row: Any) -> UploadJob:
        return UploadJob(
            id=row["id"],
            user=row["user"],
            kind=row["kind"],
            collection=row["collection"],
            project_id=row["project_id"],
            filename=row["filename"],
            stored=row["stored"],
            size=int(row["size"]),
            status=row["status"],
            progress=float(row["progress"]),
            stage=row["stage"],
            created_at=_aware(row["created_at"]) or datetime.now(UTC),
            result=None if row["result"] is None else json.loads(row["result"]),
            error=row["error"],
            error_code=row["error_code"],
            owner=row["owner"],
            started_at=_aware(row["started_at"]),
            finished_at=_aware(row["finished_at"]),
        )
