"""Search value objects: queries, filters, results and query plans."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import Literal

from lectern.domain.books import Book
from lectern.domain.grounding import Explanation
from lectern.errors import InvalidQueryError

__all__ = [
    "QueryPlan",
    "Recognition",
    "ResultSource",
    "SearchFilters",
    "SearchQuery",
    "SearchResult",
    "Strategy",
]
from lectern.domain.retrieval import DEFAULT_STRATEGY, Strategy

Intent = Literal["recommendation", "factual", "exploratory"]
ResultSource = Literal["lexical", "vector", "hybrid"]
DEFAULT_RESULTS = 10
"""How many results a search or a similar-books request returns when not told."""


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Restrictions every result must satisfy; None means no restriction."""

    language: str | None = None
    category: str | None = None
    min_year: int | None = None
    max_year: int | None = None

    def __post_init__(self) -> None:
        """Refuse a year range that cannot match anything."""
        if (
            self.min_year is not None
            and self.max_year is not None
            and self.min_year > self.max_year
        ):
            raise InvalidQueryError(
                f"min_year ({self.min_year}) is after max_year ({self.max_year})"
            )

    @property
    def is_empty(self) -> bool:
        """True when no filter is set."""
        return (
            self.language is None
            and self.category is None
            and self.min_year is None
            and self.max_year is None
        )


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """What a reader asked for."""

    text: str
    filters: SearchFilters = field(default_factory=SearchFilters)
    max_results: int = DEFAULT_RESULTS
    use_explanations: bool = False


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One ranked book with the scores that put it there."""

    book: Book
    final_score: float
    rank: int
    source: ResultSource
    lexical_score: float | None = None
    vector_score: float | None = None
    lexical_rank: int | None = None
    vector_rank: int | None = None
    explanation: Explanation | None = None


RecognitionKind = Literal[
    "language", "years", "category", "author", "title", "like", "intent", "strategy"
]
PlanField = Literal["language", "years", "categories", "authors", "like"]
"""What a reader can remove from a plan (a chip on the page)."""


@dataclass(frozen=True, slots=True)
class Recognition:
    """One thing understood in the query, and the characters it came from."""

    kind: RecognitionKind
    value: str
    start: int
    end: int
    """`original_query[start:end]` is the matched text; (0, 0) when not from a span."""


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """How a query will be run: intent, filters, variations and strategy, and why.

    Language and years are hard filters; categories and author hints are soft: they become
    variations, so a book without shelves can still be found. `like_book_id` (for "books
    like X") adds X's neighbours by embedding and keeps X itself out of the results.
    """

    original_query: str
    intent: Intent = "recommendation"
    filters: SearchFilters = field(default_factory=SearchFilters)
    variations: tuple[str, ...] = ()
    strategy: Strategy = DEFAULT_STRATEGY
    strategy_reason: str = ""
    categories: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    like_book_id: str | None = None
    like_title: str | None = None
    recognised: tuple[Recognition, ...] = ()
    notes: tuple[str, ...] = ()
    """What was repaired, dropped or chosen between, in plain words."""
    source: str = "rules"
    """Who planned: `rules-v1`, a model id, or a fallback."""

    def without(self, *fields: PlanField) -> QueryPlan:
        """The plan minus what the reader removed (chips on the page)."""
        filters = self.filters
        if "language" in fields:
            filters = replace(filters, language=None)
        if "years" in fields:
            filters = replace(filters, min_year=None, max_year=None)
        dropped = set(fields)
        kinds = {
            "language": "language",
            "years": "years",
            "categories": "category",
            "authors": "author",
            "like": "like",
        }
        gone = {kinds[f] for f in dropped}
        removed_terms = {
            r.value.casefold() for r in self.recognised if r.kind in gone and r.kind != "like"
        }
        return replace(
            self,
            filters=filters,
            categories=() if "categories" in dropped else self.categories,
            authors=() if "authors" in dropped else self.authors,
            like_book_id=None if "like" in dropped else self.like_book_id,
            like_title=None if "like" in dropped else self.like_title,
            variations=tuple(v for v in self.variations if v.casefold() not in removed_terms),
            recognised=tuple(r for r in self.recognised if r.kind not in gone),
            notes=(*self.notes, f"removed by the reader: {', '.join(sorted(dropped))}"),
        )


def merge_filters(explicit: SearchFilters, planned: SearchFilters) -> SearchFilters:
    """Field by field: an explicit filter wins over the plan's; the plan fills the gaps.

    Years count as one field: when the plan's years would contradict the explicit ones
    (explicit min 2015, planned max 2000), the plan's years are dropped.
    """
    min_year = explicit.min_year if explicit.min_year is not None else planned.min_year
    max_year = explicit.max_year if explicit.max_year is not None else planned.max_year
    if min_year is not None and max_year is not None and min_year > max_year:
        min_year, max_year = explicit.min_year, explicit.max_year
    return SearchFilters(
        explicit.language if explicit.language is not None else planned.language,
        explicit.category if explicit.category is not None else planned.category,
        min_year,
        max_year,
    )


MAX_QUERY_CHARS = 1_000
"""Longer queries are cut here: nobody types more, and pasted pages only add noise."""


def clean_query_text(text: str, max_chars: int = MAX_QUERY_CHARS) -> str:
    """Drop control characters, collapse whitespace, cut to `max_chars`; refuse empty."""
    printable = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    cleaned = " ".join(printable.split())
    if not cleaned:
        raise InvalidQueryError("the query is empty: type a few words to search for")
    return cleaned[:max_chars].rstrip()
