"""Uploads as jobs: the queue they run on, their reviews, recovery and clean-up."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from lectern.adapters.privacy.patterns import PatternPiiDetector
from lectern.application.upload_jobs import UploadJob, UploadJobs, collection_result, project_result
from lectern.application.upload_reviews import UploadReviewer
from lectern.bootstrap.base import Overrides, log
from lectern.bootstrap.workspace import WorkspaceWiring
from lectern.errors import ConfigurationError
from lectern.settings import Settings

if TYPE_CHECKING:
    from lectern.adapters.jobs.rq_uploads import RqUploadQueue


def upload_worker(
    make: Callable[[Settings], UploadWiring], settings: Settings
) -> Callable[[str], object]:
    """An upload worker process's job handler, built in that process from the settings.

    `make` is the server's own services class (no overrides: see `_uploads_in_processes`).
    Half the cores (at least one) embed unless LECTERN_EMBED_THREADS says otherwise: the
    others stay free for the server's searches.
    """
    from lectern.observability import configure_logging

    # A spawned process starts with structlog's defaults (stdout); it logs as the server does.
    configure_logging(settings.log_level, settings.log_format)
    if settings.embed_threads is None:
        threads = max(1, (os.cpu_count() or 2) // 2)
        settings = settings.model_copy(update={"embed_threads": threads})
    return make(settings).upload_jobs().run


class UploadWiring(WorkspaceWiring):
    """Upload jobs on rq, worker processes or threads; the worker that serves them."""

    def upload_jobs(self) -> UploadJobs:
        """Uploads as jobs: state in the database, run on rq or on this process's threads."""
        return self._once("upload_jobs", self._build_upload_jobs)

    def _build_upload_jobs(self) -> UploadJobs:
        from lectern.adapters.catalog.upload_jobs import SqlAlchemyUploadJobStore

        settings = self.settings
        jobs = UploadJobs(
            SqlAlchemyUploadJobStore(self._assistant_engine()),
            {"collection": self._ingest_collection_upload, "project": self._ingest_project_upload},
            quota_bytes=settings.upload_quota_bytes,
            max_jobs=settings.upload_max_jobs,
            clock=self.clock,
            discard=lambda job: self.collections().discard_upload(job.collection, job.stored),
        )
        if settings.redis_url is not None:
            jobs.use(self.rq_uploads())
        elif self._uploads_in_processes():
            from lectern.adapters.jobs.process_uploads import ProcessUploadQueue

            start = partial(upload_worker, type(self), settings)
            jobs.use(
                ProcessUploadQueue(
                    start,
                    jobs.abandon,
                    workers=settings.upload_workers,
                    niceness=settings.upload_niceness,
                )
            )
        else:
            from lectern.adapters.jobs.thread_uploads import ThreadUploadQueue

            jobs.use(ThreadUploadQueue(jobs.run, workers=settings.upload_workers))
        return jobs

    def stop_uploads(self) -> None:
        """Stop the upload worker processes, if this process started any (server shutdown)."""
        jobs = self._built.get("upload_jobs")
        stop = getattr(getattr(jobs, "queue", None), "stop", None)
        if callable(stop):
            stop()

    def _uploads_in_processes(self) -> bool:
        """Whether upload jobs can run in worker processes built from the settings alone.

        Not with a caller's overrides (tests' fakes: a worker process cannot rebuild them),
        nor with Qdrant in local mode, which locks its folder to one process.
        """
        settings = self.settings
        if settings.upload_runner != "process" or self.overrides != Overrides():
            return False
        return settings.engine == "embedded" or settings.resolved_qdrant_url.startswith(
            ("http://", "https://")
        )

    def rq_uploads(self) -> RqUploadQueue:
        """The upload jobs' rq queue on LECTERN_REDIS_URL (the worker serves it too)."""
        if self.settings.redis_url is None:
            raise ConfigurationError("LECTERN_REDIS_URL is not set: uploads run in-process")
        from lectern.adapters.jobs.rq_uploads import RqUploadQueue

        url = self.settings.redis_url
        return self._once("rq_uploads", lambda: RqUploadQueue(url))

    def _ingest_collection_upload(self, job: UploadJob) -> dict[str, Any]:
        report, document_id = self.collections().ingest_upload(job.collection, job.stored)
        review = None
        if self.settings.review_uploads:
            review = self.upload_reviewer().review(job.collection, document_id)
        return collection_result(report, document_id, review)

    def _ingest_project_upload(self, job: UploadJob) -> dict[str, Any]:
        if job.project_id is None:
            raise ValueError("a project upload job names no project")
        link = self.workspace().finish_upload(job.user, job.project_id, job.stored)
        return project_result(link)

    def recover_uploads(self) -> None:
        """Fail upload jobs a dead process left running, queue queued ones again (start-up)."""
        try:
            self.upload_jobs().recover()
        except Exception as error:  # noqa: BLE001 - recovery never stops the server
            log.warning("upload job recovery failed", error=f"{type(error).__name__}: {error}")

    def clean_uploads(self) -> None:
        """Delete uploaded files a crash left outside every collection (start-up)."""
        try:
            keep = self.upload_jobs().pending_files()
            self.collections().clean_inbox(
                timedelta(seconds=self.settings.orphan_upload_seconds), keep
            )
        except Exception as error:  # noqa: BLE001 - a failed clean-up never stops the server
            log.warning("upload clean-up failed", error=f"{type(error).__name__}: {error}")

    def upload_reviewer(self) -> UploadReviewer:
        """Reviews of uploaded documents (run on upload when LECTERN_REVIEW_UPLOADS is on)."""
        return self._once("upload_reviewer", self._build_upload_reviewer)

    def _build_upload_reviewer(self) -> UploadReviewer:
        from lectern.adapters.catalog.upload_reviews import SqlAlchemyUploadReviews

        store = self.overrides.upload_reviews or SqlAlchemyUploadReviews(self._assistant_engine())
        return UploadReviewer(
            self.collections(),
            store,
            self.overrides.pii or PatternPiiDetector(),
            clock=self.clock,
        )

    def serve_reviews(self, *, burst: bool = False) -> bool:
        """Run the review and upload worker in this process (`lectern workspace worker`)."""
        from lectern.adapters.jobs.rq_reviews import run_review_worker
        from lectern.adapters.jobs.rq_uploads import set_upload_handler

        jobs = self.upload_jobs()
        set_upload_handler(jobs.run)
        uploads = self.rq_uploads()
        return run_review_worker(
            self.rq_reviews(), self.reviews().run, burst=burst, also=[uploads.queue]
        )
