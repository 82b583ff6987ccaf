"""Research workspaces and their automatic reviews."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lectern.adapters.privacy.patterns import PatternPiiDetector
from lectern.application.access import CollectionAccess
from lectern.application.workspace.ports import ReviewQueue
from lectern.application.workspace.reviews import ReviewService
from lectern.application.workspace.service import WorkspaceService
from lectern.bootstrap.base import log
from lectern.bootstrap.collections import CollectionWiring
from lectern.errors import ConfigurationError

if TYPE_CHECKING:
    from lectern.adapters.jobs.review_outbox import OutboxReviewQueue
    from lectern.adapters.jobs.rq_reviews import RqReviewQueue


class WorkspaceWiring(CollectionWiring):
    """Workspaces, who may read which collection, and the review queue."""

    def workspace(self) -> WorkspaceService:
        """Organizations, projects, tasks, blockers, comments and documents, per member."""
        return self._once("workspace", self._build_workspace)

    def collection_access(self) -> CollectionAccess:
        """Who may read which collection: every surface that names a collection asks it."""
        return self.workspace().access

    def _build_workspace(self) -> WorkspaceService:
        from lectern.adapters.catalog.workspace_store import SqlAlchemyWorkspaceStore
        from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex

        store = self.overrides.workspace_store or SqlAlchemyWorkspaceStore(self._assistant_engine())
        return WorkspaceService(
            store,
            collections=self.collections(),
            text_index=Bm25sLexicalIndex.build,
            reviews=self.review_queue(),
            clock=self.clock,
            max_upload_bytes=self.settings.max_upload_bytes,
        )

    def review_queue(self) -> ReviewQueue:
        """Reviews on Redis (rq) when LECTERN_REDIS_URL is set, else a background thread."""
        if self.overrides.review_queue is not None:
            return self.overrides.review_queue
        return self._once("review_queue", self._build_review_queue)

    def _build_review_queue(self) -> ReviewQueue:
        settings = self.settings
        if settings.redis_url is not None:
            return self.review_outbox()
        from lectern.adapters.jobs.thread_reviews import ThreadReviewQueue

        return ThreadReviewQueue(
            lambda job: self.reviews().run(job),
            retries=settings.review_retries,
            retry_seconds=settings.review_retry_seconds,
        )

    def review_outbox(self) -> OutboxReviewQueue:
        """The rq queue, with reviews it refuses (Redis down) kept in the database."""
        from lectern.adapters.jobs.review_outbox import OutboxReviewQueue

        return self._once(
            "review_outbox",
            lambda: OutboxReviewQueue(
                self.rq_reviews(), self._assistant_engine(), clock=self.clock
            ),
        )

    def rq_reviews(self) -> RqReviewQueue:
        """The rq queue on LECTERN_REDIS_URL (the worker serves the same one)."""
        if self.settings.redis_url is None:
            raise ConfigurationError(
                "LECTERN_REDIS_URL is not set: the review worker needs Redis (without it, "
                "reviews run inside the serving process)"
            )
        from lectern.adapters.jobs.rq_reviews import RqReviewQueue

        url = self.settings.redis_url
        return self._once(
            "rq_reviews",
            lambda: RqReviewQueue(
                url,
                retries=self.settings.review_retries,
                retry_seconds=self.settings.review_retry_seconds,
            ),
        )

    def flush_reviews(self) -> None:
        """Hand reviews kept while Redis was down to the queue (the server's timer)."""
        if self.settings.redis_url is None or self.overrides.review_queue is not None:
            return
        try:
            self.review_outbox().flush()
        except Exception as error:  # noqa: BLE001 - the outbox keeps them for the next tick
            log.warning("review outbox not flushed", error=f"{type(error).__name__}: {error}")

    def reviews(self) -> ReviewService:
        """Automatic reviews with the configured model (masked text for hosted ones)."""
        return self._once("reviews", self._build_reviews)

    def _build_reviews(self) -> ReviewService:
        settings = self.settings
        return ReviewService(
            self.workspace(),
            self.llm(),
            self.overrides.pii or PatternPiiDetector(),
            mask_pii=settings.llm not in ("extractive", "local"),
            max_claims=settings.review_max_claims,
        )
