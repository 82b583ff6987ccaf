"""Reviews that could not be queued wait in the database (`review_outbox`) and are retried.

The review queue on Redis fails while Redis is down; an edit must not fail with it, and its
review must not be lost. `OutboxReviewQueue` tries the queue first; when enqueueing raises,
the job is written to the outbox table of the catalog database (migration 0009) and
`flush` (the server's timer) hands each kept job to the queue again once it answers,
oldest first, deleting it only after the queue took it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime

import sqlalchemy as sa
import structlog
from sqlalchemy.engine import Engine

from lectern.adapters.catalog.tables import review_outbox
from lectern.application.workspace.ports import ReviewJob, ReviewQueue

log = structlog.get_logger(__name__)
OUTBOX_PREFIX = "outbox:"
"""Job ids of reviews kept in the outbox start with this."""


class OutboxReviewQueue:
    """A review queue that keeps what its inner queue refused, and retries it."""

    def __init__(
        self,
        inner: ReviewQueue,
        engine: Engine,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        """Wrap `inner`; the outbox lives in `engine`'s database (already migrated)."""
        self.inner = inner
        self.engine = engine
        self.clock = clock

    def enqueue(self, job: ReviewJob) -> str:
        """Queue the review; kept in the outbox (and its id returned) when the queue fails."""
        try:
            return self.inner.enqueue(job)
        except Exception as error:  # noqa: BLE001 - any queue failure: keep the job
            kept = str(uuid.uuid4())
            with self.engine.begin() as connection:
                connection.execute(
                    review_outbox.insert().values(
                        id=kept,
                        payload=json.dumps(asdict(job), sort_keys=True),
                        created_at=self.clock(),
                        attempts=1,
                        last_error=f"{type(error).__name__}: {error}"[:2000],
                    )
                )
            log.warning("review kept in the outbox", target=job.target, error=str(error))
            return OUTBOX_PREFIX + kept

    def waiting(self) -> int:
        """How many reviews wait in the outbox."""
        with self.engine.connect() as connection:
            count = connection.execute(sa.select(sa.func.count()).select_from(review_outbox))
            return int(count.scalar_one())

    def flush(self, limit: int = 100) -> int:
        """Hand kept reviews to the queue, oldest first; returns how many it took.

        Stops at the first failure (the queue is still down); the job stays, its attempt
        counted. Safe beside another flusher: a row is deleted only by whoever deletes it
        first, and a job both handed on runs its review twice at worst (reviews replace).
        """
        statement = (
            sa.select(review_outbox.c.id, review_outbox.c.payload)
            .order_by(review_outbox.c.created_at, review_outbox.c.id)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(statement).all()
        handed = 0
        for kept, payload in rows:
            try:
                job_id = self.inner.enqueue(ReviewJob(**json.loads(payload)))
            except Exception as error:  # noqa: BLE001 - still down: try again next time
                with self.engine.begin() as connection:
                    connection.execute(
                        review_outbox.update()
                        .where(review_outbox.c.id == kept)
                        .values(
                            attempts=review_outbox.c.attempts + 1,
                            last_error=f"{type(error).__name__}: {error}"[:2000],
                        )
                    )
                break
            with self.engine.begin() as connection:
                connection.execute(review_outbox.delete().where(review_outbox.c.id == kept))
            log.info("review handed on from the outbox", outbox=kept, job=job_id)
            handed += 1
        return handed
