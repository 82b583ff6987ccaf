"""Reviews in a background thread of this process: the fallback without Redis.

The same retry limit as the Redis queue, but nothing survives a restart: a review queued
just before the process stops is lost (logged when it is queued).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

import structlog

from lectern.application.workspace.ports import ReviewJob

log = structlog.get_logger(__name__)


class ThreadReviewQueue:
    """Runs each review on one worker thread, retrying a failure `retries` times."""

    def __init__(
        self,
        handler: Callable[[ReviewJob], object],
        *,
        retries: int = 3,
        retry_seconds: float = 30.0,
    ) -> None:
        """`handler` runs one review (it raises to ask for a retry)."""
        self.handler = handler
        self.retries = retries
        self.retry_seconds = retry_seconds
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
        self._ids = itertools.count(1)
        self.futures: list[Future[object]] = []

    def enqueue(self, job: ReviewJob) -> str:
        """Start the review in the background."""
        job_id = f"thread-{next(self._ids)}"
        self.futures.append(self._executor.submit(self._run, job, job_id))
        return job_id

    def _run(self, job: ReviewJob, job_id: str) -> object:
        for attempt in range(self.retries + 1):
            try:
                return self.handler(job)
            except Exception as error:  # noqa: BLE001 - logged, retried, then given up
                log.error(
                    "review failed",
                    job=job_id,
                    target=job.target,
                    attempt=attempt + 1,
                    error=f"{type(error).__name__}: {error}",
                    retries_left=self.retries - attempt,
                )
                if attempt < self.retries:
                    time.sleep(self.retry_seconds)
        return None

    def drain(self) -> None:
        """Wait for every queued review (tests and the demo)."""
        for future in list(self.futures):
            future.result()

    def close(self) -> None:
        """Finish the queued reviews and stop the thread."""
        self._executor.shutdown(wait=True)
