"""Search value objects: queries, filters, results and query plans."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from lectern.domain.books import Book
from lectern.domain.grounding import Explanation
from lectern.errors import InvalidQueryError

__all__ = [
    "QueryPlan",
    "ResultSource",
    "SearchFilters",
    "SearchQuery",
    "SearchResult",
    "Strategy",
]
from lectern.domain.retrieval import Strategy

Intent = Literal["recommendation", "factual", "exploratory"]
ResultSource = Literal["lexical", "vector", "hybrid"]


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
    max_results: int = 10
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


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """How a query will be run: intent, filters, variations and strategy."""

    original_query: str
    intent: Intent = "recommendation"
    filters: SearchFilters = field(default_factory=SearchFilters)
    variations: tuple[str, ...] = ()
    strategy: Strategy = "balanced"


MAX_QUERY_CHARS = 1_000
"""Longer queries are cut here: nobody types more, and pasted pages only add noise."""


def clean_query_text(text: str, max_chars: int = MAX_QUERY_CHARS) -> str:
    """Drop control characters, collapse whitespace, cut to `max_chars`; refuse empty."""
    printable = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    cleaned = " ".join(printable.split())
    if not cleaned:
        raise InvalidQueryError("the query is empty: type a few words to search for")
    return cleaned[:max_chars].rstrip()
