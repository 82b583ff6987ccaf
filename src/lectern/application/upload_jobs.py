"""Uploads as jobs: accepted and stored at once, ingested in the background.

An upload's cheap part runs in the request (size, name and type checks, the file stored
atomically); its expensive part (extraction, passages, embeddings, index) runs as a job on
a queue: rq on Redis when LECTERN_REDIS_URL is set (served by `lectern workspace worker`),
else a bounded thread pool in the serving process. Every job's state lives in the database
(`upload_jobs`), so the caller polls `GET /jobs/{id}` and a crash leaves each job visible:
`recover` (start-up) fails the running jobs of a process that is gone and queues the queued
ones again. Per user, at most `max_jobs` jobs and `quota_bytes` bytes are queued or running
at once; more is refused with `UploadQuotaError` (429) before anything is stored.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

import structlog

from lectern.errors import (
    CollectionInputError,
    UploadJobNotFoundError,
    UploadQuotaError,
    UploadRejectedError,
)

if TYPE_CHECKING:
    from lectern.application.collections import AddReport
    from lectern.domain.workspace import ProjectDocument

log = structlog.get_logger(__name__)

JobStatus = Literal["queued", "running", "succeeded", "failed"]
JobKind = Literal["collection", "project"]
ACTIVE: tuple[JobStatus, ...] = ("queued", "running")
FINISHED: tuple[JobStatus, ...] = ("succeeded", "failed")
INTERRUPTED = (
    "interrupted: the process running this upload stopped before it finished; upload the file again"
)


@dataclass(frozen=True, slots=True)
class UploadJob:
    """One upload's ingest: who asked, what file, how far it got, and what it did."""

    id: str
    user: str
    kind: JobKind
    collection: str
    project_id: str | None
    filename: str
    stored: str
    """The stored file's name in the collection's upload folder."""
    size: int
    status: JobStatus
    progress: float
    """0 queued, 0.1 running (reading and indexing), 1 finished."""
    stage: str
    created_at: datetime
    result: Mapping[str, Any] | None = None
    """What the old synchronous answer carried (documents added, updated, skipped...)."""
    error: str | None = None
    error_code: str | None = None
    """A refused upload's reason (too_large, unsupported, invalid, unreadable)."""
    owner: str | None = None
    """The process running it (`host:pid:token`)."""
    started_at: datetime | None = None
    finished_at: datetime | None = None

    @property
    def done(self) -> bool:
        """Succeeded or failed."""
        return self.status in FINISHED


class UploadJobStore(Protocol):
    """Where jobs' state is kept (a database table)."""

    def add(self, job: UploadJob) -> None:
        """Store a new job."""
        ...

    def get(self, job_id: str) -> UploadJob | None:
        """One job, or None."""
        ...

    def active_load(self, user: str) -> tuple[int, int]:
        """(jobs, bytes) the user has queued or running."""
        ...

    def claim(self, job_id: str, owner: str, now: datetime) -> bool:
        """Claim: queued -> running for `owner`; False when another runner took it first."""
        ...

    def finish(self, job: UploadJob) -> None:
        """Store a finished job's status, progress, result or error."""
        ...

    def with_status(self, status: JobStatus) -> list[UploadJob]:
        """Every job in this status, oldest first."""
        ...


class JobQueue(Protocol):
    """Runs a job (by id) somewhere: a thread of this process or an rq worker."""

    def submit(self, job_id: str) -> None:
        """Queue the job; raises when the queue cannot take it."""
        ...


Runner = Callable[[UploadJob], Mapping[str, Any]]
"""Ingests one job's stored file; returns the result kept on the job (raises to fail it)."""


def process_token() -> str:
    """This process: host name, pid and a random part (pids are reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def owner_alive(owner: str | None, *, host: str | None = None) -> bool | None:
    """Whether the process named by `owner` still runs (None: on another host, unknown)."""
    if not owner:
        return False
    parts = owner.split(":")
    if len(parts) < 2 or not parts[1].isdigit():
        return False
    if parts[0] != (host or socket.gethostname()):
        return None
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class UploadJobs:
    """Accepts uploads as jobs, runs them, and answers for their state."""

    def __init__(
        self,
        store: UploadJobStore,
        runners: Mapping[JobKind, Runner],
        *,
        quota_bytes: int,
        max_jobs: int,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
        owner: str | None = None,
        discard: Callable[[UploadJob], object] | None = None,
    ) -> None:
        """`runners` ingest a job of each kind; the queue is attached with `use`.

        `discard` removes the stored file of a job that was interrupted (its process died),
        so the collection's next ingest does not take it in unannounced.
        """
        self.store = store
        self.runners = runners
        self.discard = discard
        self.quota_bytes = quota_bytes
        self.max_jobs = max_jobs
        self.clock = clock
        self.new_id = new_id
        self.owner = owner or process_token()
        self.queue: JobQueue | None = None
        self._admit = threading.Lock()

    def use(self, queue: JobQueue) -> None:
        """The queue new and recovered jobs go to."""
        self.queue = queue

    # --- accept ---------------------------------------------------------------------------

    def check_quota(self, user: str, size: int) -> None:
        """Raise `UploadQuotaError` when one more job of `size` bytes is over a limit."""
        jobs, queued_bytes = self.store.active_load(user)
        if jobs >= self.max_jobs:
            raise UploadQuotaError(
                f"you have {jobs} upload(s) queued or running; at most {self.max_jobs} at "
                "once (LECTERN_UPLOAD_MAX_JOBS): wait for one to finish (GET /jobs/{id})"
            )
        if queued_bytes + size > self.quota_bytes:
            raise UploadQuotaError(
                f"you have {queued_bytes:,} bytes of uploads queued or running; this one "
                f"({size:,} bytes) would pass the {self.quota_bytes:,}-byte quota "
                "(LECTERN_UPLOAD_QUOTA_BYTES): wait for them to finish"
            )

    def submit(
        self,
        user: str,
        kind: JobKind,
        size: int,
        store_file: Callable[[], tuple[str, str]],
        *,
        filename: str,
        project_id: str | None = None,
    ) -> UploadJob:
        """Check the quota, store the file (`store_file` -> collection, stored name), queue.

        The quota check and the job's row are one step in this process (a lock), so two
        uploads of one user at once cannot both pass the last free place.
        """
        if self.queue is None:
            raise RuntimeError("no job queue is attached (UploadJobs.use)")
        with self._admit:
            self.check_quota(user, size)
            collection, stored = store_file()
            job = UploadJob(
                id=self.new_id(),
                user=user,
                kind=kind,
                collection=collection,
                project_id=project_id,
                filename=filename,
                stored=stored,
                size=size,
                status="queued",
                progress=0.0,
                stage="queued",
                created_at=self.clock(),
            )
            self.store.add(job)
        try:
            self.queue.submit(job.id)
        except Exception as error:
            failed = self._failed(job, f"the job queue refused it: {type(error).__name__}")
            self.store.finish(failed)
            log.error("upload job not queued", job=job.id, error=str(error))
            return failed
        log.info("upload job queued", job=job.id, user=user, collection=collection, size=size)
        return job

    # --- run --------------------------------------------------------------------------------

    def run(self, job_id: str) -> UploadJob | None:
        """Run one queued job (what a queue's worker calls); None when it was not queued."""
        if not self.store.claim(job_id, self.owner, self.clock()):
            return None
        job = self.store.get(job_id)
        if job is None:
            return None
        try:
            result = self.runners[job.kind](job)
        except UploadRejectedError as error:
            finished = replace(self._failed(job, str(error)), error_code=error.reason)
        except CollectionInputError as error:
            finished = replace(self._failed(job, str(error)), error_code="unreadable")
        except Exception as error:  # noqa: BLE001 - kept on the job for its owner to read
            log.error("upload job failed", job=job.id, error=f"{type(error).__name__}: {error}")
            finished = self._failed(job, f"the ingest failed: {type(error).__name__}: {error}")
        else:
            finished = replace(
                job,
                status="succeeded",
                progress=1.0,
                stage="done",
                result=dict(result),
                finished_at=self.clock(),
            )
        self.store.finish(finished)
        log.info("upload job finished", job=job.id, status=finished.status)
        return finished

    def abandon(self, job_id: str, reason: str) -> UploadJob | None:
        """Fail a job whose runner was lost (its worker process died); a finished job stays."""
        job = self.store.get(job_id)
        if job is None or job.done:
            return None
        return self._interrupted(job, reason)

    def _interrupted(self, job: UploadJob, reason: str) -> UploadJob:
        failed = self._failed(job, reason)
        self.store.finish(failed)
        if self.discard is not None:
            try:
                self.discard(job)
            except Exception as error:  # noqa: BLE001 - the orphan clean-up takes it later
                log.warning("interrupted upload kept", job=job.id, error=str(error))
        return failed

    def _failed(self, job: UploadJob, reason: str) -> UploadJob:
        return replace(
            job,
            status="failed",
            progress=1.0,
            stage="failed",
            error=reason[:2000],
            finished_at=self.clock(),
        )

    # --- read -------------------------------------------------------------------------------

    def get(self, user: str, job_id: str) -> UploadJob:
        """The caller's job (anyone else's is not found, as an unknown id)."""
        job = self.store.get(job_id)
        if job is None or job.user != user:
            raise UploadJobNotFoundError(f"no upload job {job_id!r}")
        return job

    def wait(self, user: str, job_id: str, seconds: float, poll: float = 0.05) -> UploadJob:
        """The caller's job once finished, or as it stands after `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            job = self.get(user, job_id)
            if job.done or time.monotonic() >= deadline:
                return job
            time.sleep(min(poll, max(0.0, deadline - time.monotonic())))
            poll = min(poll * 1.5, 0.5)

    # --- recover ----------------------------------------------------------------------------

    def recover(self) -> tuple[list[str], list[str]]:
        """After a crash: fail the running jobs of a dead process, queue the queued again.

        A running job whose process (same host) is gone is marked failed with the reason;
        one owned by a live process, or by another host, is left alone. Returns the ids
        (failed, requeued).
        """
        failed: list[str] = []
        for job in self.store.with_status("running"):
            if job.owner == self.owner or owner_alive(job.owner) is not False:
                continue
            self._interrupted(job, INTERRUPTED)
            failed.append(job.id)
        requeued: list[str] = []
        if self.queue is not None:
            for job in self.store.with_status("queued"):
                try:
                    self.queue.submit(job.id)
                except Exception as error:  # noqa: BLE001 - stays queued for the next start
                    log.warning("upload job not requeued", job=job.id, error=str(error))
                    break
                requeued.append(job.id)
        if failed or requeued:
            log.warning("upload jobs recovered", failed=failed, requeued=requeued)
        return failed, requeued

    def pending_files(self) -> set[tuple[str, str]]:
        """(collection, stored name) of every queued or running job (kept by the clean-up)."""
        return {(j.collection, j.stored) for s in ACTIVE for j in self.store.with_status(s)}


def job_view(job: UploadJob) -> dict[str, Any]:
    """A job as plain data (ids, status, progress, result or errors)."""
    data = asdict(job)
    data["result"] = dict(job.result) if job.result is not None else None
    return data


def collection_result(report: AddReport, document_id: str, review: Any) -> dict[str, Any]:
    """A collection upload's result: what the synchronous 201 answer carried."""
    return {
        "collection": report.collection,
        "documents": report.documents,
        "passages": report.passages,
        "added": report.added,
        "updated": report.updated,
        "unchanged": report.unchanged,
        "new_passages": report.new_passages,
        "skipped": [{"path": s.path, "reason": s.reason} for s in report.skipped],
        "notes": [f"{uri}: {note}" for uri, note in report.notes],
        "document_id": document_id,
        "review": review,
    }


def project_result(link: ProjectDocument) -> dict[str, Any]:
    """A project upload's result: the project document (as the 201 answer carried it)."""
    return {
        "id": link.id,
        "project_id": link.project_id,
        "collection": link.collection,
        "document_id": link.document_id,
        "title": link.title,
        "origin": link.origin,
        "added_by": link.added_by,
        "added_at": link.added_at.isoformat(),
        "updated_at": link.updated_at.isoformat(),
    }
