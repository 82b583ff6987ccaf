"""Review triggers: an edit that the organization's review settings name queues a review.

Queueing happens after the edit is stored and never fails the edit.
"""

from __future__ import annotations

import structlog

from lectern.application.workspace.ports import ReviewJob, ReviewQueue, WorkspaceStore
from lectern.domain.workspace import Project, ReviewTrigger

log = structlog.get_logger(__name__)


class ReviewTriggers:
    """Queue a review after an edit (work items and documents use it)."""

    store: WorkspaceStore
    reviews: ReviewQueue | None

    def _review(self, project: Project, trigger: ReviewTrigger, target: str, user: str) -> None:
        """Queue a review when the organization asks for one; never fail the edit."""
        organization = self.store.organization(project.organization_id)
        if organization is None or not organization.reviews.wants(trigger):
            return
        if self.reviews is None:
            log.warning("review not queued: no review queue", target=target, trigger=trigger)
            return
        job = ReviewJob(organization.id, project.id, target, trigger, user)
        try:
            job_id = self.reviews.enqueue(job)
        except Exception as error:  # noqa: BLE001 - the edit stands whatever the queue does
            log.error("review not queued", target=target, trigger=trigger, error=str(error))
            return
        log.info("review queued", target=target, trigger=trigger, job=job_id)
