"""Upload jobs on Redis with rq, served by the same worker as reviews.

A job carries only its id (JSON); the worker (`lectern workspace worker`) reads the job's
row and the stored file (the same data directory as the server), so the serving process
only accepts and stores. rq does not retry an ingest: a failure is recorded on the job.
"""

from __future__ import annotations

from collections.abc import Callable

import redis
from rq import Queue
from rq.serializers import JSONSerializer

QUEUE_NAME = "lectern-uploads"
UploadHandler = Callable[[str], object]
_handler: UploadHandler | None = None
"""The worker process's upload handler (set by `set_upload_handler`)."""


def set_upload_handler(handler: UploadHandler) -> None:
    """What `perform_upload` runs in this (worker) process."""
    global _handler
    _handler = handler


def perform_upload(job_id: str) -> str:
    """What a worker runs for one job: the handler (it records the job's outcome)."""
    if _handler is None:
        raise RuntimeError("this process runs no upload worker (no handler was set)")
    _handler(job_id)
    return job_id


class RqUploadQueue:
    """Enqueues upload jobs on a Redis queue that `lectern workspace worker` serves."""

    def __init__(
        self, url: str, *, queue_name: str = QUEUE_NAME, timeout_seconds: int = 6 * 3600
    ) -> None:
        """Nothing connects until the first job."""
        self.connection = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
        self.queue = Queue(queue_name, connection=self.connection, serializer=JSONSerializer)
        self.timeout_seconds = timeout_seconds

    def submit(self, job_id: str) -> None:
        """Queue one job; raises when Redis cannot be reached."""
        self.queue.enqueue(
            perform_upload,
            job_id,
            job_timeout=self.timeout_seconds,
            result_ttl=86_400,
            failure_ttl=7 * 86_400,
            description=f"upload {job_id}",
        )

    def close(self) -> None:
        """Release the connections."""
        self.connection.close()
