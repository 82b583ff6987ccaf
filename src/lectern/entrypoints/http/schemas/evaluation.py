"""Request and response bodies of `/evaluate`: runs started and their status."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from lectern.entrypoints.http.schemas.base import StrictIn


class EvaluateRequest(StrictIn):
    """An evaluation run: the judged query set through the search, measured."""

    config: Literal["full", "baseline"] = "full"
    disable: list[Literal["query_understanding", "multi_query", "grounding", "mmr"]] = Field(
        default_factory=list, max_length=4
    )
    force_strategy: Literal["balanced", "lexical_heavy", "vector_heavy"] | None = None
    judge_repeats: int = Field(default=1, ge=1, le=10)
    limit: int | None = Field(
        default=None, ge=1, le=10_000, description="Only the first n judged queries."
    )


class EvaluateAccepted(BaseModel):
    """A run was started; poll `status_url`."""

    run_id: str
    status: Literal["running"]
    status_url: str


class RunSummaryOut(BaseModel):
    """One stored run, in brief."""

    run_id: str
    started_at: str | None = None
    label: str | None = None
    git_commit: str | None = None
    queries: int | None = None
    failures: int = 0
    negative_passed: int = 0
    negative_total: int = 0
    metrics: dict[str, float | None] = Field(default_factory=dict)


class RunStatusOut(BaseModel):
    """A run: still running, failed (with why), or finished (with its whole artifact)."""

    run_id: str
    status: Literal["running", "finished", "failed"]
    error: str | None = None
    artifact: dict[str, Any] | None = None
