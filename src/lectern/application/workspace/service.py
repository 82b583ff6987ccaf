"""`WorkspaceService`: every read and write scoped by the caller's membership.

Each call names the user first. A thing is found by id, then its organization, then the
user's membership of that organization; without a membership the answer is "not found"
(the same as for an id that does not exist), so ids of other organizations say nothing.
Viewers read; writes need an owner or member; members and review settings need an owner.
An edit that an organization's review settings name queues a review after the edit is
stored; queueing never fails the edit.

The parts live in their own modules: `access` (membership, roles, the one visibility
check), `organizations`, `projects`, `work` (tasks, blockers, comments), `documents` and
`triggers` (reviews queued after edits); this class puts them together and adds search.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime

from lectern.application.access import CollectionAccess
from lectern.application.collections import CollectionService
from lectern.application.workspace.documents import Documents, ProjectDocumentView
from lectern.application.workspace.organizations import Organizations
from lectern.application.workspace.ports import ReviewQueue, WorkspaceStore
from lectern.application.workspace.projects import Projects
from lectern.application.workspace.search import (
    ContentHit,
    TextIndexFactory,
    search_documents,
    search_items,
)
from lectern.application.workspace.work import TASK_FIELDS, WorkItems
from lectern.errors import InvalidQueryError

__all__ = ["TASK_FIELDS", "ProjectDocumentView", "WorkspaceService"]


class WorkspaceService(Organizations, Projects, WorkItems, Documents):
    """Organizations, members, projects, tasks, blockers, comments and documents, per user."""

    def __init__(
        self,
        store: WorkspaceStore,
        *,
        collections: CollectionService | None = None,
        text_index: TextIndexFactory | None = None,
        reviews: ReviewQueue | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
        max_upload_bytes: int = 20_000_000,
    ) -> None:
        """Adapters come from bootstrap; `reviews` is None when reviews cannot run."""
        self.store = store
        self.collections = collections
        self.text_index = text_index
        self.reviews = reviews
        self.clock = clock
        self.new_id = new_id
        self.max_upload_bytes = max_upload_bytes
        self.access = CollectionAccess(store)

    def search_content(
        self, user: str, query: str, *, project_id: str | None = None, limit: int = 10
    ) -> list[ContentHit]:
        """Projects, tasks, blockers and comments (BM25) and document passages (hybrid)."""
        text = " ".join(query.split())
        if not text:
            raise InvalidQueryError("the query is empty")
        projects = (
            [self.project(user, project_id)]
            if project_id is not None
            else self._visible_projects(user)
        )
        hits = search_items(self.store, self.text_index, projects, text, limit)
        hits += search_documents(self._links(projects), self.collections, text, limit)
        hits.sort(key=lambda h: -h.score)
        return hits[:limit]
