"""Request and response bodies of the HTTP API, mapped explicitly to and from the domain."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field

from lectern.application.search import MAX_RESULTS, SearchResponse
from lectern.application.understanding import EXCLUSION_PREFIX
from lectern.domain.books import PAGE_BUCKETS_UP_TO, Book, Facets
from lectern.domain.fallback import FallbackReport
from lectern.domain.grounding import Explanation
from lectern.domain.normalize import MAX_PAGES
from lectern.domain.retrieval import DEFAULT_STRATEGY, Strategy
from lectern.domain.search import (
    DEFAULT_RESULTS,
    MAX_QUERY_CHARS,
    PLAN_FIELDS,
    QueryPlan,
    SearchFilters,
    SearchQuery,
    SearchResult,
)

MAX_EXCLUDED = 20
"""Names one request may exclude per kind."""
IGNORE_PATTERN = rf"^(?:{'|'.join(PLAN_FIELDS)}|{EXCLUSION_PREFIX}\S.{{0,199}})$"


def json_response(model: BaseModel) -> Response:
    """A model built by our own mapping, serialised once (FastAPI would validate it again)."""
    return Response(model.model_dump_json(), media_type="application/json")


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


ExcludedNames = list[Annotated[str, Field(min_length=1, max_length=200)]]


class FiltersIn(_In):
    """Restrictions every result must satisfy; exclusions rule books out."""

    language: str | None = Field(default=None, max_length=16, examples=["es"])
    category: str | None = Field(default=None, max_length=200, examples=["fantasy"])
    min_year: int | None = Field(default=None, ge=-3000, le=2100)
    max_year: int | None = Field(default=None, ge=-3000, le=2100)
    min_pages: int | None = Field(
        default=None,
        ge=1,
        le=MAX_PAGES,
        description="At least this many pages; books of unknown length pass, ranked after "
        "the books known to fit.",
    )
    max_pages: int | None = Field(default=None, ge=1, le=MAX_PAGES, examples=[300])
    exclude_categories: ExcludedNames = Field(
        default_factory=list,
        max_length=MAX_EXCLUDED,
        description="Shelves to rule out; each also rules out shelves containing it "
        "('romance' rules out 'paranormal romance').",
        examples=[["cozy mystery"]],
    )
    exclude_authors: ExcludedNames = Field(
        default_factory=list, max_length=MAX_EXCLUDED, examples=[["Stephen King"]]
    )
    exclude_titles: ExcludedNames = Field(
        default_factory=list,
        max_length=MAX_EXCLUDED,
        description="Titles or series to rule out (their words in a title, or the series).",
        examples=[["Twilight"]],
    )
    exclude_youth: bool = Field(
        default=False,
        description="Rule out every shelf for young readers (young adult, children's, "
        "juvenile, middle grade, picture books, teen).",
    )

    def to_domain(self) -> SearchFilters:
        """The domain filters (raises InvalidQueryError for contradictions: a 422)."""
        return SearchFilters(
            self.language,
            self.category,
            self.min_year,
            self.max_year,
            self.min_pages,
            self.max_pages,
            tuple(self.exclude_categories),
            tuple(self.exclude_authors),
            tuple(self.exclude_titles),
            self.exclude_youth,
        )


class SearchRequest(_In):
    """A search: free text plus optional filters and knobs."""

    text: str = Field(
        min_length=1,
        max_length=10 * MAX_QUERY_CHARS,
        description=f"Plain words; cut to {MAX_QUERY_CHARS} characters after cleaning.",
        examples=["dark fantasy heist in a magical city"],
    )
    filters: FiltersIn = Field(default_factory=FiltersIn)
    max_results: int = Field(default=DEFAULT_RESULTS, ge=1, le=MAX_RESULTS)
    strategy: Strategy = DEFAULT_STRATEGY
    mmr_lambda: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="MMR's relevance weight (1 keeps relevance order, lower adds variety). "
        "Omitted: the server's LECTERN_MMR_LAMBDA; null keeps the fused order.",
    )
    use_explanations: bool = False
    understand: bool = Field(
        default=False,
        description="Read filters, variations and a strategy from the text first; the "
        "response's `plan` says what was understood. Explicit filters win.",
    )
    ignore: list[Annotated[str, Field(pattern=IGNORE_PATTERN, max_length=210)]] = Field(
        default_factory=list,
        max_length=20,
        description="Parts of the understood plan to leave out (the reader removed them): "
        f"{', '.join(PLAN_FIELDS)}, or one exclusion as `not:<label>` (`not:Stephen King`).",
    )
    fallback: bool | None = Field(
        default=None,
        description="Hand over to the fallback agent when robust signals fire (no or too "
        "few results, one author, an exploratory query). Omitted: the server's "
        "LECTERN_SEARCH_FALLBACK.",
    )

    def to_domain(self) -> SearchQuery:
        """The domain query (raises InvalidQueryError for contradictory filters)."""
        return SearchQuery(
            text=self.text,
            filters=self.filters.to_domain(),
            max_results=self.max_results,
            use_explanations=self.use_explanations,
        )


class BookOut(BaseModel):
    """A book as the page shows it; the citable fields are given whole."""

    id: str
    title: str = Field(description="The citable title field: title, and ': subtitle' if any.")
    authors: list[str]
    categories: list[str]
    description: str | None
    year: int | None
    language: str | None
    isbn10: str | None
    isbn13: str | None
    cover_url: str | None
    series: str | None
    pages: int | None = Field(description="Printed pages, when a source states them.")

    @classmethod
    def of(cls, book: Book) -> BookOut:
        """Map a domain book."""
        cover = book.metadata.get("cover_url")
        series = book.metadata.get("series")
        return cls(
            id=str(book.id),
            title=book.field_text("title"),
            authors=list(book.authors),
            categories=list(book.categories),
            description=book.description,
            year=book.published_year,
            language=book.language,
            isbn10=book.isbn10,
            isbn13=book.isbn13,
            cover_url=cover if isinstance(cover, str) else None,
            series=series if isinstance(series, str) else None,
            pages=book.pages,
        )


class CitationOut(BaseModel):
    """A verified quote: a literal piece of the named field."""

    field: Literal["title", "authors", "categories", "description"]
    snippet: str
    relevance: float


class ExplanationOut(BaseModel):
    """Why the book matches, with its verified quotes."""

    text: str
    grounded: bool
    confidence: float
    model: str
    citations: list[CitationOut]

    @classmethod
    def of(cls, explanation: Explanation) -> ExplanationOut:
        """Map a domain explanation (already validated)."""
        return cls(
            text=explanation.text,
            grounded=explanation.grounded,
            confidence=explanation.confidence,
            model=explanation.model,
            citations=[
                CitationOut(field=c.chunk_id, snippet=c.snippet, relevance=c.relevance_score)  # type: ignore[arg-type]
                for c in explanation.citations
            ],
        )


class ResultOut(BaseModel):
    """One ranked book with the scores that put it there."""

    rank: int
    book: BookOut
    score: float
    source: Literal["lexical", "vector", "hybrid"]
    lexical_score: float | None
    lexical_rank: int | None
    vector_score: float | None
    vector_rank: int | None
    explanation: ExplanationOut | None

    @classmethod
    def of(cls, result: SearchResult) -> ResultOut:
        """Map a domain result."""
        return cls(
            rank=result.rank,
            book=BookOut.of(result.book),
            score=result.final_score,
            source=result.source,
            lexical_score=result.lexical_score,
            lexical_rank=result.lexical_rank,
            vector_score=result.vector_score,
            vector_rank=result.vector_rank,
            explanation=ExplanationOut.of(result.explanation) if result.explanation else None,
        )


class Timings(BaseModel):
    """Where the time went, in milliseconds."""

    retrieval_ms: float
    explanation_ms: float | None
    stages: dict[str, float]


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


class SearchOut(BaseModel):
    """Results, and whether the vector side took part."""

    results: list[ResultOut]
    degraded: bool
    degraded_reason: str | None
    strategy: str
    mmr_lambda: float | None
    timings: Timings
    plan: PlanOut | None = None
    """With `understand`: what was understood."""
    fallback: FallbackOut | None = None
    """With `fallback`: whether the agent ran, why, its tool calls and the time it added."""

    @classmethod
    def of(cls, response: SearchResponse) -> SearchOut:
        """Map a search response."""
        stages = dict(response.timings_ms)
        return cls(
            results=[ResultOut.of(r) for r in response.results],
            degraded=response.degraded,
            degraded_reason=response.degraded_reason,
            strategy=response.strategy,
            mmr_lambda=response.mmr_lambda,
            timings=Timings(
                retrieval_ms=stages.get("retrieval_ms", 0.0),
                explanation_ms=stages.get("explain_ms"),
                stages=stages,
            ),
            plan=PlanOut.of(response.plan) if response.plan is not None else None,
            fallback=(FallbackOut.of(response.fallback) if response.fallback is not None else None),
        )


class CountOut(BaseModel):
    """A facet value and how many books have it."""

    value: str
    count: int


class FacetsOut(BaseModel):
    """What the filters can choose from."""

    languages: list[CountOut]
    categories: list[CountOut]
    min_year: int | None
    max_year: int | None
    year_histogram: list[tuple[int, int]] = Field(description="(decade start, books) pairs")
    page_histogram: list[tuple[int, int]] = Field(
        description="(bucket start, books) pairs in 100-page buckets; the last bucket, "
        f"{PAGE_BUCKETS_UP_TO}, holds every book of {PAGE_BUCKETS_UP_TO} pages or more"
    )

    @classmethod
    def of(cls, facets: Facets) -> FacetsOut:
        """Map domain facets."""
        return cls(
            languages=[CountOut(value=c.name, count=c.count) for c in facets.languages],
            categories=[CountOut(value=c.name, count=c.count) for c in facets.top_categories],
            min_year=facets.min_year,
            max_year=facets.max_year,
            year_histogram=list(facets.year_histogram),
            page_histogram=list(facets.page_histogram),
        )


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


class EvaluateRequest(_In):
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
