"""The workspace's ports: where organizations and their things are kept, and the review queue."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from lectern.domain.workspace import (
    Blocker,
    BlockerStatus,
    Comment,
    Member,
    Organization,
    Project,
    ProjectDocument,
    ReviewTrigger,
    Task,
    TaskStatus,
)


class WorkspaceStore(Protocol):
    """Organizations, members, projects, tasks, blockers, comments and project documents.

    The store does not check membership: the service does, before every read and write.
    Lists come oldest first unless said otherwise.
    """

    def add_organization(self, organization: Organization, owner: Member) -> None:
        """Store a new organization with its first owner, in one transaction."""
        ...

    def organization(self, organization_id: str) -> Organization | None:
        """The organization with this id."""
        ...

    def update_organization(self, organization: Organization) -> None:
        """Write an organization's name and review settings."""
        ...

    def memberships(self, user: str) -> list[Member]:
        """Every membership of a user."""
        ...

    def members(self, organization_id: str) -> list[Member]:
        """An organization's members."""
        ...

    def put_member(self, member: Member) -> None:
        """Add a member, or change an existing member's role and display name."""
        ...

    def remove_member(self, organization_id: str, user: str) -> None:
        """Remove a membership (tasks assigned to the user keep the name)."""
        ...

    def add_project(self, project: Project) -> None:
        """Store a new project."""
        ...

    def project(self, project_id: str) -> Project | None:
        """The project with this id."""
        ...

    def projects(self, organization_ids: Sequence[str]) -> list[Project]:
        """The projects of these organizations."""
        ...

    def update_project(self, project: Project) -> None:
        """Write a project's name, description, status and update time."""
        ...

    def add_task(self, task: Task) -> None:
        """Store a new task."""
        ...

    def task(self, task_id: str) -> Task | None:
        """The task with this id."""
        ...

    def tasks(
        self,
        project_ids: Sequence[str],
        *,
        status: TaskStatus | None = None,
        assignee: str | None = None,
    ) -> list[Task]:
        """Tasks of these projects, optionally of one status or assignee."""
        ...

    def update_task(self, task: Task) -> None:
        """Write every editable field of a task and its update time."""
        ...

    def add_blocker(self, blocker: Blocker) -> None:
        """Store a new blocker."""
        ...

    def blocker(self, blocker_id: str) -> Blocker | None:
        """The blocker with this id."""
        ...

    def blockers(
        self, project_ids: Sequence[str], *, status: BlockerStatus | None = None
    ) -> list[Blocker]:
        """Blockers of these projects, optionally of one status."""
        ...

    def update_blocker(self, blocker: Blocker) -> None:
        """Write a blocker's description, status, resolution and resolution time."""
        ...

    def add_comment(self, comment: Comment) -> None:
        """Store a new comment (with its citations)."""
        ...

    def comments(
        self, *, task_id: str | None = None, document_id: str | None = None
    ) -> list[Comment]:
        """The comments on one task or one project document."""
        ...

    def project_comments(self, project_ids: Sequence[str]) -> list[Comment]:
        """Every comment in these projects."""
        ...

    def add_document(self, document: ProjectDocument) -> None:
        """Link a collection document to a project."""
        ...

    def document(self, document_id: str) -> ProjectDocument | None:
        """The project document with this id."""
        ...

    def documents(self, project_ids: Sequence[str]) -> list[ProjectDocument]:
        """The documents these projects link to."""
        ...

    def update_document(self, document: ProjectDocument) -> None:
        """Write a project document's title and update time."""
        ...

    def remove_document(self, document_id: str) -> None:
        """Unlink a document (its comments go with it; the collection keeps the document)."""
        ...


@dataclass(frozen=True, slots=True)
class ReviewJob:
    """One automatic review to run: what was edited, in which organization, and why."""

    organization_id: str
    project_id: str
    target: str
    """`document:<project document id>` or `task:<task id>`."""
    trigger: ReviewTrigger
    requested_by: str


class ReviewQueue(Protocol):
    """Runs reviews in the background; enqueueing must not fail the edit that asked."""

    def enqueue(self, job: ReviewJob) -> str:
        """Queue a review; returns the queue's job id."""
        ...
