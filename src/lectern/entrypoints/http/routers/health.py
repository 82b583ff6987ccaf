"""Liveness and readiness probes (never behind a key, never rate-limited)."""

from __future__ import annotations

import time

from fastapi import APIRouter, Request, Response

from lectern import __version__
from lectern.application.search import BookSearchService
from lectern.bootstrap import Services
from lectern.entrypoints.http.schemas import ComponentOut, ComponentStatus, LiveOut, ReadyOut
from lectern.errors import LecternError

router = APIRouter(tags=["health"])


@router.get("/health")
async def live() -> LiveOut:
    """Liveness: the process answers."""
    return LiveOut(status="ok", version=__version__)


@router.get("/health/ready", responses={503: {"model": ReadyOut}})
def ready(request: Request, response: Response) -> ReadyOut:
    """Readiness of each server (database, Redis, Qdrant), the catalog, indexes and models."""
    state = request.app.state
    components = dependencies_of(state.services)
    components.update(components_of(state.services, state.search, state.not_ready))
    statuses = {c.status for c in components.values()}
    overall = "down" if "down" in statuses else ("degraded" if "degraded" in statuses else "ok")
    if overall == "down":
        response.status_code = 503
    return ReadyOut(status=overall, components=components)  # type: ignore[arg-type]


def dependencies_of(services: Services) -> dict[str, ComponentOut]:
    """Each configured server, checked now, with the check's latency; never raises."""
    out: dict[str, ComponentOut] = {}
    for probe in services.dependency_probes():
        started = time.perf_counter()
        status: ComponentStatus
        try:
            detail = probe.check()
            status = "ok"
        except Exception as error:  # noqa: BLE001 - readiness reports, never raises
            detail = f"{type(error).__name__}: {error}"[:300]
            status = "down" if probe.required else "degraded"
        out[probe.name] = ComponentOut(
            status=status,
            detail=detail,
            latency_ms=round((time.perf_counter() - started) * 1000, 2),
            required=probe.required,
        )
    return out


def components_of(
    services: Services, search: BookSearchService | None, reason: str | None
) -> dict[str, ComponentOut]:
    """Each component's status, count and version; readiness reports, it never raises."""
    out: dict[str, ComponentOut] = {}
    try:
        books = services.catalog.counts().books
        out["catalog"] = ComponentOut(status="ok" if books else "down", count=books)
    except Exception as error:  # noqa: BLE001 - readiness reports, never raises
        out["catalog"] = ComponentOut(status="down", detail=type(error).__name__)
    if search is None:
        down = ComponentOut(status="down", detail=reason or "starting")
        out.update(lexical_index=down, vector_index=down, embedder=down)
    else:
        retriever = search.retriever
        out["lexical_index"] = ComponentOut(status="ok", count=len(retriever.lexical))
        if retriever.vector is not None and retriever.embedder is not None:
            out["vector_index"] = ComponentOut(
                status="ok", count=len(retriever.vector), version=retriever.vector.model_id
            )
            out["embedder"] = ComponentOut(status="ok", version=retriever.embedder.model_id)
        else:
            degraded = ComponentOut(status="degraded", detail=retriever.unavailable_reason)
            out.update(vector_index=degraded, embedder=degraded)
    try:
        out["llm"] = ComponentOut(status="ok", version=services.llm().model_id)
    except LecternError as error:
        out["llm"] = ComponentOut(status="degraded", detail=str(error))
    return out
