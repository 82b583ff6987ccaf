"""Who may see and change what in the workspace, checked the same way for everything.

A thing is found by id, then its project, then the user's membership of the project's
organization; without a membership the answer is "not found" (the same as for an id that
does not exist), so ids of other organizations say nothing. Viewers read; writes need an
owner or member; members and review settings need an owner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

from lectern.application.access import CollectionAccess
from lectern.application.workspace.ports import WorkspaceStore
from lectern.domain.assistant import PageContext
from lectern.domain.workspace import (
    Blocker,
    Member,
    Project,
    ProjectDocument,
    Role,
    Task,
    can_edit,
    can_manage,
)
from lectern.errors import WorkspaceNotFoundError, WorkspacePermissionError


class _InProject(Protocol):
    @property
    def project_id(self) -> str: ...


_Item = TypeVar("_Item", bound=_InProject)


class WorkspaceAccess:
    """Membership, roles and the one visibility check the workspace's parts share."""

    store: WorkspaceStore
    access: CollectionAccess

    # --- membership -----------------------------------------------------------------------

    def _membership(self, user: str, organization_id: str) -> Member:
        for member in self.store.memberships(user):
            if member.organization_id == organization_id:
                return member
        raise WorkspaceNotFoundError(f"no organization {organization_id!r}")

    def _organization_ids(self, user: str) -> list[str]:
        return [m.organization_id for m in self.store.memberships(user)]

    def _visible_projects(self, user: str) -> list[Project]:
        return self.store.projects(self._organization_ids(user))

    @staticmethod
    def _require_editor(member: Member) -> None:
        if not can_edit(member.role):
            raise WorkspacePermissionError(
                "viewers can read this organization but not change it (ask an owner for the "
                "member role)"
            )

    @staticmethod
    def _require_owner(member: Member) -> None:
        if not can_manage(member.role):
            raise WorkspacePermissionError("only an owner of the organization may do this")

    def role_in_project(self, user: str, project_id: str) -> Role:
        """The user's role in the project's organization (WorkspaceNotFoundError if none)."""
        project = self.project(user, project_id)
        return self._membership(user, project.organization_id).role

    def require_editor(self, user: str, project_id: str) -> Project:
        """The project, when the user may change it; WorkspacePermissionError for viewers."""
        project = self.project(user, project_id)
        self._require_editor(self._membership(user, project.organization_id))
        return project

    # --- visibility -----------------------------------------------------------------------

    def _visible(self, user: str, project_id: str, missing: str) -> Project:
        """The project, when it exists and the user is a member of its organization.

        The one visibility check: projects, tasks, blockers and documents found by id all
        pass through it, and anything else answers `missing` (WorkspaceNotFoundError), the
        same as an id that does not exist.
        """
        project = self.store.project(project_id)
        if project is None or project.organization_id not in self._organization_ids(user):
            raise WorkspaceNotFoundError(missing)
        return project

    def _visible_item(self, user: str, found: _Item | None, missing: str) -> tuple[_Item, Project]:
        """A task, blocker or document found by id, with its project, if the user can see it."""
        if found is None:
            raise WorkspaceNotFoundError(missing)
        return found, self._visible(user, found.project_id, missing)

    def project(self, user: str, project_id: str) -> Project:
        """One project the user can see."""
        return self._visible(user, project_id, f"no project {project_id!r}")

    def task(self, user: str, task_id: str) -> Task:
        """One task the user can see."""
        task, _ = self._visible_item(user, self.store.task(task_id), f"no task {task_id!r}")
        return task

    def blocker(self, user: str, blocker_id: str) -> Blocker:
        """One blocker the user can see."""
        missing = f"no blocker {blocker_id!r}"
        blocker, _ = self._visible_item(user, self.store.blocker(blocker_id), missing)
        return blocker

    def document(self, user: str, document_id: str) -> ProjectDocument:
        """One project document the user can see."""
        missing = f"no document {document_id!r}"
        found, project = self._visible_item(user, self.store.document(document_id), missing)
        if not self.access.may_link(project.organization_id, found.collection):
            raise WorkspaceNotFoundError(missing)
        return found

    def _links(self, projects: Sequence[Project]) -> list[ProjectDocument]:
        """The projects' document links, leaving out any naming another organization's files.

        Linking checks this too; the filter keeps links stored before that check harmless.
        """
        organization_of = {p.id: p.organization_id for p in projects}
        return [
            d
            for d in self.store.documents(list(organization_of))
            if self.access.may_link(organization_of[d.project_id], d.collection)
        ]

    def checked_page(self, user: str, page: PageContext) -> PageContext:
        """A workspace page as the user may see it: stored names, the owning project.

        The page context comes from the client: a project, task or document (or a
        dashboard's project) the user cannot see answers WorkspaceNotFoundError (404), as
        the tools do, so that naming another organization's id reveals nothing.
        """
        if page.type == "project" and page.id:
            project = self.project(user, page.id)
            return PageContext("project", project.id, project.name, project_id=project.id)
        if page.type == "task" and page.id:
            task = self.task(user, page.id)
            return PageContext("task", task.id, task.title, project_id=task.project_id)
        if page.type == "document" and page.id:
            document = self.document(user, page.id)
            return PageContext(
                "document", document.id, document.title, project_id=document.project_id
            )
        if page.project_id:
            project = self.project(user, page.project_id)
            return replace(page, project_id=project.id)
        return page
