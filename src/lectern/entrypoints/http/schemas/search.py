"""Request and response bodies of `/search`: filters, ranked results, explanations, timings."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from lectern.application.search import MAX_RESULTS, SearchResponse
from lectern.application.understanding import EXCLUSION_PREFIX
from lectern.domain.grounding import Explanation
from lectern.domain.normalize import MAX_PAGES
from lectern.domain.retrieval import DEFAULT_STRATEGY, Strategy
from lectern.domain.search import (
    DEFAULT_RESULTS,
    MAX_QUERY_CHARS,
    PLAN_FIELDS,
    NothingFits,
    Reading,
    SearchFilters,
    SearchQuery,
    SearchResult,
)
from lectern.entrypoints.http.schemas.base import StrictIn
from lectern.entrypoints.http.schemas.books import BookOut
from lectern.entrypoints.http.schemas.plans import FallbackOut, PlanOut

MAX_EXCLUDED = 20
"""Names one request may exclude per kind."""
IGNORE_PATTERN = rf"^(?:{'|'.join(PLAN_FIELDS)}|{EXCLUSION_PREFIX}\S.{{0,199}})$"

ExcludedNames = list[Annotated[str, Field(min_length=1, max_length=200)]]


class FiltersIn(StrictIn):
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


class SearchRequest(StrictIn):
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
        description="Hand over to the fallback agent when the plan left something to fix "
        "(no or too few results, a page limit few books are known to fit, a 'like X' whose X "
        "is no catalog title, an explicit request to explore). Omitted: the server's "
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


class NothingFitsOut(BaseModel):
    """The catalog cannot serve the request: the results are the nearest it has, not matches."""

    message: str = Field(description="What to tell the reader above the results.")
    words: list[str] = Field(description="Words of the request that no catalog book uses.")
    title: str | None = Field(
        description='The X of "books like X" when the catalog holds no book so titled.'
    )

    @classmethod
    def of(cls, nothing_fits: NothingFits) -> NothingFitsOut:
        """Map the domain notice."""
        return cls(
            message=nothing_fits.message, words=list(nothing_fits.words), title=nothing_fits.title
        )


class ReadingOut(BaseModel):
    """One book an ambiguous request may mean: send its id or title back to pick it."""

    book_id: str
    title: str
    author: str | None

    @classmethod
    def of(cls, reading: Reading) -> ReadingOut:
        """Map a domain reading."""
        return cls(book_id=reading.book_id, title=reading.title, author=reading.author)


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
    nothing_fits: NothingFitsOut | None = None
    """Set when the catalog cannot serve the request: the results are only the nearest."""
    readings: list[ReadingOut] = Field(
        default_factory=list,
        description='Which one? Two or three books a short or "like X" request may mean, or '
        'the titles an absent X is spelt nearly like ("did you mean").',
    )

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
            nothing_fits=(
                NothingFitsOut.of(response.nothing_fits)
                if response.nothing_fits is not None
                else None
            ),
            readings=[ReadingOut.of(r) for r in response.readings],
        )
