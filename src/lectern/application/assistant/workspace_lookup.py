"""What the workspace tools, read and action alike, share: the service, and what a reader names.

A reader names a project, task or document by id or by name; on a project's page that
project's tasks and documents are tried first. The status and priority names are the
specification's, for the tools' input schemas.
"""

from __future__ import annotations

from typing import Literal, Protocol, TypeVar

from lectern.application.assistant.tools import ToolContext, ToolDeps
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.assistant import PageContext
from lectern.domain.workspace import Blocker, ProjectDocument, Task
from lectern.errors import InvalidQueryError, ToolError, WorkspaceNotFoundError

_FoundT = TypeVar("_FoundT", covariant=True)
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


class _Finder(Protocol[_FoundT]):
    def __call__(self, user: str, reference: str, *, project_id: str | None = None) -> _FoundT: ...


def _page_first(find: _Finder[_FoundT], context: ToolContext, reference: str) -> _FoundT:
    """What the reader names, looked for in the page's project first, then everywhere visible."""
    scope = page_project(context.page)
    if scope is not None:
        try:
            return find(context.user, reference, project_id=scope)
        except (WorkspaceNotFoundError, InvalidQueryError):
            pass
    return find(context.user, reference)


def resolve_task(service: WorkspaceService, context: ToolContext, reference: str) -> Task:
    """A task by id or title: on a project's page its tasks first, then every visible one."""
    return _page_first(service.find_task, context, reference)


def resolve_document(
    service: WorkspaceService, context: ToolContext, reference: str
) -> ProjectDocument:
    """A project document by id or title, the page's project first."""
    return _page_first(service.find_document, context, reference)


def resolve_blocker(service: WorkspaceService, context: ToolContext, reference: str) -> Blocker:
    """A blocker by id or words of it: the page's project first, then every visible one."""
    return _page_first(service.find_blocker, context, reference)
