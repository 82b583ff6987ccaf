"""Projects: listed, found by name, created and changed within the user's organizations."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import cast

from lectern.application.workspace.access import WorkspaceAccess
from lectern.application.workspace.references import pick
from lectern.domain.workspace import (
    MAX_NAME_CHARS,
    PROJECT_STATUSES,
    Project,
    ProjectStatus,
    check_choice,
    clean_body,
    clean_text,
)


class Projects(WorkspaceAccess):
    """The projects of the user's organizations."""

    clock: Callable[[], datetime]
    new_id: Callable[[], str]

    def projects(
        self,
        user: str,
        *,
        organization_id: str | None = None,
        status: str | None = None,
    ) -> list[Project]:
        """The projects the user can see (of one organization, of one status)."""
        if organization_id is not None:
            self._membership(user, organization_id)
            found = self.store.projects([organization_id])
        else:
            found = self._visible_projects(user)
        if status is not None:
            wanted = check_choice(status, PROJECT_STATUSES, "project status")
            found = [p for p in found if p.status == wanted]
        return found

    def find_project(self, user: str, reference: str) -> Project:
        """A project by id, else by name (exact, then every word of the reference)."""
        reference = reference.strip()
        visible = self._visible_projects(user)
        return pick(
            visible,
            reference,
            lambda p: p.id,
            lambda p: p.name,
            "project",
        )

    def create_project(
        self,
        user: str,
        organization_id: str,
        name: str,
        *,
        description: str = "",
        status: str = "active",
    ) -> Project:
        """A new project (owners and members)."""
        self._require_editor(self._membership(user, organization_id))
        now = self.clock()
        project = Project(
            self.new_id(),
            organization_id,
            clean_text(name, "project name", MAX_NAME_CHARS),
            clean_body(description, "description"),
            cast(ProjectStatus, check_choice(status, PROJECT_STATUSES, "project status")),
            now,
            now,
        )
        self.store.add_project(project)
        return project

    def update_project(
        self,
        user: str,
        project_id: str,
        *,
        name: str | None = None,
        description: str | None = None,
        status: str | None = None,
    ) -> Project:
        """Change a project's name, description or status."""
        project = self.require_editor(user, project_id)
        updated = replace(
            project,
            name=clean_text(name, "project name", MAX_NAME_CHARS)
            if name is not None
            else project.name,
            description=clean_body(description, "description")
            if description is not None
            else project.description,
            status=cast(ProjectStatus, check_choice(status, PROJECT_STATUSES, "project status"))
            if status is not None
            else project.status,
            updated_at=self.clock(),
        )
        self.store.update_project(updated)
        return updated
