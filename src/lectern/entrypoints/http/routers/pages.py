"""The web page and the Prometheus exposition."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse

from lectern.entrypoints.http.deps import AppServices

STATIC = resources.files("lectern.entrypoints.http") / "static"
router = APIRouter(include_in_schema=False)


@router.get("/")
def page() -> FileResponse:
    """The web page."""
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


@router.get("/reading-lists")
def reading_lists_page() -> FileResponse:
    """The reading lists page (the lists themselves come from GET /lists)."""
    return FileResponse(str(STATIC / "lists.html"), media_type="text/html")


@router.get("/workspace")
def workspace_page() -> FileResponse:
    """The research workspace page (projects, a project, a task, the dashboard)."""
    return FileResponse(str(STATIC / "workspace.html"), media_type="text/html")


@router.get("/guidelines")
def guidelines_page() -> FileResponse:
    """The guideline chat page (answers come from POST /chat/stream)."""
    return FileResponse(str(STATIC / "guide.html"), media_type="text/html")


@router.get("/metrics")
def metrics(services: AppServices) -> Response:
    """Prometheus exposition."""
    return Response(services.metrics.exposition(), media_type="text/plain; version=0.0.4")
