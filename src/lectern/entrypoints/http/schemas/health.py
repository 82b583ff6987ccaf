"""Response bodies of `/health/live` and `/health/ready`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

ComponentStatus = Literal["ok", "degraded", "down"]


class ComponentOut(BaseModel):
    """One part of the service."""

    status: ComponentStatus
    detail: str | None = None
    count: int | None = None
    version: str | None = None
    latency_ms: float | None = None
    """How long the check of a server (database, Redis, Qdrant) took."""
    required: bool | None = None
    """A server the configuration needs: when it is down, readiness answers 503."""


class ReadyOut(BaseModel):
    """Readiness: every part, and the worst of them."""

    status: ComponentStatus
    components: dict[str, ComponentOut]


class LiveOut(BaseModel):
    """Liveness."""

    status: Literal["ok"]
    version: str
