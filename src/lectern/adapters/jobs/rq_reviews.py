"""The review queue on Redis with rq: jobs survive restarts, workers retry with a limit.

rq was chosen over a PostgreSQL queue (procrastinate) because Redis is already the
project's shared runtime store (sessions, rate limits) and reviews must run whichever
database holds the catalog (SQLite by default; procrastinate needs PostgreSQL). Jobs carry
only ids (JSON, never pickles). A worker (`lectern workspace worker`) runs them in its own
process with `SimpleWorker` (no fork per job: SQLAlchemy pools and the embedding model stay
loaded); a failure is logged and retried `retries` times `retry_seconds` apart, then kept
in rq's failed-job registry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

import redis
import structlog
from rq import Queue, Retry, SimpleWorker, get_current_job
from rq.serializers import JSONSerializer

from lectern.application.workspace.ports import ReviewJob

log = structlog.get_logger(__name__)

QUEUE_NAME = "lectern-reviews"
ReviewHandler = Callable[[ReviewJob], object]
_handler: ReviewHandler | None = None
"""The worker process's review handler (set by `run_review_worker`)."""


def perform_review(payload: dict[str, Any]) -> str | None:
    """What a worker runs for one job: the handler on the job's review (raises to retry)."""
    if _handler is None:
        raise RuntimeError("this process runs no review worker (no handler was set)")
    job = ReviewJob(**payload)
    current = get_current_job()
    retries_left = current.retries_left if current is not None else None
    try:
        result = _handler(job)
    except Exception as error:
        log.error(
            "review failed",
            target=job.target,
            trigger=job.trigger,
            error=f"{type(error).__name__}: {error}",
            retries_left=retries_left,
        )
        raise
    return getattr(result, "id", None)


class RqReviewQueue:
    """Enqueues reviews on a Redis queue that `lectern workspace worker` serves."""

    def __init__(
        self,
        url: str,
        *,
        queue_name: str = QUEUE_NAME,
        retries: int = 3,
        retry_seconds: int = 30,
        timeout_seconds: int = 300,
    ) -> None:
        """Nothing connects until the first job."""
        self.connection = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
        self.queue = Queue(queue_name, connection=self.connection, serializer=JSONSerializer)
        self.retries = retries
        self.retry_seconds = retry_seconds
        self.timeout_seconds = timeout_seconds

    def enqueue(self, job: ReviewJob) -> str:
        """Queue one review; raises when Redis cannot be reached (the caller logs it)."""
        retry = Retry(max=self.retries, interval=self.retry_seconds) if self.retries else None
        queued = self.queue.enqueue(
            perform_review,
            asdict(job),
            retry=retry,
            job_timeout=self.timeout_seconds,
            result_ttl=86_400,
            failure_ttl=7 * 86_400,
            description=f"review {job.target} ({job.trigger})",
        )
        return str(queued.id)

    def close(self) -> None:
        """Release the connections."""
        self.connection.close()


def run_review_worker(
    queue: RqReviewQueue,
    handler: ReviewHandler,
    *,
    burst: bool = False,
    also: Sequence[Queue] = (),
) -> bool:
    """Serve the queue (and `also` these, e.g. uploads) here (`burst`: until empty)."""
    global _handler
    _handler = handler
    queues = [queue.queue, *also]
    worker = SimpleWorker(queues, connection=queue.connection, serializer=JSONSerializer)
    return bool(worker.work(burst=burst, with_scheduler=True, logging_level="WARNING"))
