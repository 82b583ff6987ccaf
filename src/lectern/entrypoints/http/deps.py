"""Dependencies the routers declare once, as `Annotated` aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from lectern.application.assistant.service import AssistantService
from lectern.application.search import BookSearchService
from lectern.application.workspace.service import WorkspaceService
from lectern.bootstrap import Services
from lectern.errors import AssistantDisabledError, NotReadyError


def app_services(request: Request) -> Services:
    """The services the app was created with."""
    services: Services = request.app.state.services
    return services


def search_service(request: Request) -> BookSearchService:
    """The loaded search service, or 503 while the indexes are missing or loading."""
    search: BookSearchService | None = request.app.state.search
    if search is None:
        raise NotReadyError(request.app.state.not_ready or "starting")
    return search


def current_user(request: Request) -> str:
    """The caller's user name, as the Guard middleware authenticated it."""
    user: str | None = getattr(request.state, "user", None)
    if user is None:  # only open paths get this far without a user
        raise NotReadyError("no authenticated user on this request")
    return user


def require_assistant(services: Services) -> AssistantService:
    """The assistant, or AssistantDisabledError (404) when LECTERN_ASSISTANT_ENABLED is false."""
    if not services.settings.assistant_enabled:
        raise AssistantDisabledError(
            "the assistant is switched off on this server (LECTERN_ASSISTANT_ENABLED=false)"
        )
    return services.assistant()


async def enabled_assistant(services: Services) -> AssistantService:
    """`require_assistant` for async routes: the first build reads the catalog, off the loop."""
    return await run_in_threadpool(require_assistant, services)


AppServices = Annotated[Services, Depends(app_services)]
Search = Annotated[BookSearchService, Depends(search_service)]
CurrentUser = Annotated[str, Depends(current_user)]


def workspace_service(services: AppServices) -> WorkspaceService:
    """The research workspace of the app's services."""
    return services.workspace()


Workspace = Annotated[WorkspaceService, Depends(workspace_service)]
