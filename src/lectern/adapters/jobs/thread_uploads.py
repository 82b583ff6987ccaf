"""Upload jobs on a bounded thread pool of the serving process (without Redis).

The pool has `workers` threads, so at most that many ingests run at once and a large upload
holds one thread, not the server. A job queued when the process stops is still `queued` in
the database; the next start-up queues it again (`UploadJobs.recover`).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

import structlog

log = structlog.get_logger(__name__)


class ThreadUploadQueue:
    """Runs each submitted job id with `handler` on one of `workers` threads."""

    def __init__(self, handler: Callable[[str], object], *, workers: int = 2) -> None:
        """`handler` runs one job by id (it records its own failures)."""
        self.handler = handler
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="upload")
        self.futures: list[Future[object]] = []

    def submit(self, job_id: str) -> None:
        """Queue the job."""
        self.futures = [f for f in self.futures if not f.done()]
        self.futures.append(self._executor.submit(self._run, job_id))

    def _run(self, job_id: str) -> object:
        try:
            return self.handler(job_id)
        except Exception as error:  # noqa: BLE001 - a job's own failure is on the job
            log.error("upload job crashed", job=job_id, error=f"{type(error).__name__}: {error}")
            return None

    def drain(self) -> None:
        """Wait for every queued job (tests and the bench)."""
        for future in list(self.futures):
            future.result()

    def close(self) -> None:
        """Finish the queued jobs and stop the threads."""
        self._executor.shutdown(wait=True)
