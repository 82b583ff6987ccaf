"""How a search read its query: the query plan (`/search` with `understand`) and the fallback."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from lectern.domain.fallback import FallbackReport
from lectern.domain.search import QueryPlan


class RecognitionOut(BaseModel):
    """Something understood in the query: `text` is the query's own words for it."""

    kind: str
    value: str
    text: str
    start: int
    end: int


class PlanFiltersOut(BaseModel):
    """Hard filters the plan adds (explicit filters win; exclusions add up)."""

    language: str | None
    min_year: int | None
    max_year: int | None
    min_pages: int | None
    max_pages: int | None
    exclude_categories: list[str]
    exclude_authors: list[str]
    exclude_titles: list[str]
    exclude_youth: bool


class ExclusionOut(BaseModel):
    """Something the reader ruled out.

    Remove it with `ignore: ["not:<label>"]` (or `"audience"` for young readers).
    """

    scope: Literal["category", "author", "title", "audience"]
    label: str
    values: list[str] = Field(description="The shelves, authors or titles it rules out.")


class PlanOut(BaseModel):
    """What was understood from the query, and why; remove parts with `ignore`."""

    source: str
    intent: str
    strategy: str
    strategy_reason: str
    filters: PlanFiltersOut
    categories: list[str]
    authors: list[str]
    like_title: str | None
    like_book_id: str | None
    exclusions: list[ExclusionOut]
    variations: list[str]
    recognised: list[RecognitionOut]
    notes: list[str]

    @classmethod
    def of(cls, plan: QueryPlan) -> PlanOut:
        """Map a plan."""
        query = plan.original_query
        f = plan.filters
        return cls(
            source=plan.source,
            intent=plan.intent,
            strategy=plan.strategy,
            strategy_reason=plan.strategy_reason,
            filters=PlanFiltersOut(
                language=f.language,
                min_year=f.min_year,
                max_year=f.max_year,
                min_pages=f.min_pages,
                max_pages=f.max_pages,
                exclude_categories=list(f.exclude_categories),
                exclude_authors=list(f.exclude_authors),
                exclude_titles=list(f.exclude_titles),
                exclude_youth=f.exclude_youth,
            ),
            categories=list(plan.categories),
            authors=list(plan.authors),
            like_title=plan.like_title,
            like_book_id=plan.like_book_id,
            exclusions=[
                ExclusionOut(scope=e.scope, label=e.label, values=list(e.values))
                for e in plan.exclusions
            ],
            variations=list(plan.variations),
            recognised=[
                RecognitionOut(
                    kind=r.kind,
                    value=r.value,
                    text=query[r.start : r.end],
                    start=r.start,
                    end=r.end,
                )
                for r in plan.recognised
            ],
            notes=list(plan.notes),
        )


class FallbackCallOut(BaseModel):
    """One tool call of the fallback agent."""

    name: str
    arguments: dict[str, Any]
    results: int
    error: str | None


class FallbackOut(BaseModel):
    """Whether the search handed over to the fallback agent, why, and what it did."""

    triggered: bool
    reasons: list[str]
    model: str | None
    tool_calls: list[FallbackCallOut]
    refused_calls: int
    latency_ms: float
    first_ids: list[str] = Field(description="The first search's results, before the agent.")
    answer: str
    error: str | None

    @classmethod
    def of(cls, report: FallbackReport) -> FallbackOut:
        """Map a fallback report."""
        return cls(
            triggered=report.triggered,
            reasons=list(report.reasons),
            model=report.model,
            tool_calls=[
                FallbackCallOut(
                    name=c.name, arguments=dict(c.arguments), results=c.results, error=c.error
                )
                for c in report.tool_calls
            ],
            refused_calls=report.refused_calls,
            latency_ms=report.latency_ms,
            first_ids=list(report.first_ids),
            answer=report.answer,
            error=report.error,
        )
