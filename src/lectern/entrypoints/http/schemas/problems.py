"""The problem body (RFC 9457) every error response carries."""

from __future__ import annotations

from pydantic import BaseModel


class ProblemOut(BaseModel):
    """RFC 9457 problem details."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
    request_id: str | None = None
    errors: list[dict[str, str]] | None = None
    fresh_action_id: str | None = None
    """Changed since preview: the fresh preview's action, when one could be made."""
