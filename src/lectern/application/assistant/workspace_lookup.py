"""What the workspace tools, read and action alike, share: the service, and what a reader names.

A reader names a project, task or document by id or by name; on a project's page that
project's tasks and documents are tried first. The status and priority names are the
specification's, for the tools' input schemas.
"""

from __future__ import annotations

from typing import Literal

from lectern.application.assistant.tools import ToolContext, ToolDeps
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.assistant import PageContext
from lectern.domain.workspace import ProjectDocument, Task
from lectern.errors import InvalidQueryError, ToolError, WorkspaceNotFoundError

TaskStatusName = Literal["todo", "in_progress", "in_review", "done"]
PriorityName = Literal["low", "medium", "high", "urgent"]
ProjectStatusName = Literal["active", "on_hold", "completed", "archived"]


def workspace_of(deps: ToolDeps) -> WorkspaceService:
    """The workspace service the tools work with (ToolError when the installation has none)."""
    if deps.workspace is None:
        raise ToolError("this installation has no research workspace")
    return deps.workspace


def page_project(page: PageContext) -> str | None:
    """The project the reader's page is about, if any."""
    if page.type == "project":
        return page.id
    return page.project_id


def resolve_task(service: WorkspaceService, context: ToolContext, reference: str) -> Task:
    """A task by id or title: on a project's page its tasks first, then every visible one."""
    scope = page_project(context.page)
    if scope is not None:
        try:
            return service.find_task(context.user, reference, project_id=scope)
        except (WorkspaceNotFoundError, InvalidQueryError):
            pass
    return service.find_task(context.user, reference)


def resolve_document(
    service: WorkspaceService, context: ToolContext, reference: str
) -> ProjectDocument:
    """A project document by id or title, the page's project first."""
    scope = page_project(context.page)
    if scope is not None:
        try:
            return service.find_document(context.user, reference, project_id=scope)
        except (WorkspaceNotFoundError, InvalidQueryError):
            pass
    return service.find_document(context.user, reference)
