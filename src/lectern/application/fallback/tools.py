"""The fallback agent's two tools, `search_catalog` and `get_similar_books`, over the search.

Signatures (what the model sees as JSON schema):

    search_catalog(query: str, limit: int = 10, language: str | None = None,
                   min_year: int | None = None, max_year: int | None = None,
                   min_pages: int | None = None, max_pages: int | None = None,
                   exclude_authors: list[str] = [], exclude_categories: list[str] = [])
    get_similar_books(book: str, limit: int = 10,
                      exclude_authors: list[str] = [], exclude_categories: list[str] = [])

`book` is a book id or a title. Both return `{"books": [...]}`, each book as every model
sees one (`application/book_view.py`: id and citable fields), and `get_similar_books` adds
`similar_to`, the book it started from (the same view, without its description). A toolbox
lives for one run and records every call with the books it returned: the results the
reader gets are taken from those records, never from text the model wrote.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lectern.application.book_lookup import resolve_book
from lectern.application.book_view import book_json
from lectern.application.fallback.ports import AgentTool
from lectern.application.ports import BookCatalog, QueryUnderstanding, TitleMatcher
from lectern.application.search import BookSearchService
from lectern.application.understanding import Vocabulary
from lectern.domain.books import Book, JSONValue
from lectern.domain.normalize import MAX_PAGES
from lectern.domain.search import SearchFilters, SearchQuery, SearchResult
from lectern.errors import InvalidQueryError, ToolError

MAX_TOOL_RESULTS = 20


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class SearchCatalogInput(_Input):
    """Input of search_catalog."""

    query: str = Field(min_length=1, max_length=500, description="What to look for.")
    limit: int = Field(10, ge=1, le=MAX_TOOL_RESULTS, description="How many books.")
    language: str | None = Field(None, description="ISO 639-1 code, e.g. en, es.")
    min_year: int | None = Field(None, description="Published in or after this year.")
    max_year: int | None = Field(None, description="Published in or before this year.")
    min_pages: int | None = Field(None, ge=1, le=MAX_PAGES, description="At least this long.")
    max_pages: int | None = Field(
        None,
        ge=1,
        le=MAX_PAGES,
        description="At most this long (books of unknown length come after those known to fit).",
    )
    exclude_authors: list[str] = Field(
        default_factory=list, max_length=10, description="Leave out books by these authors."
    )
    exclude_categories: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="Leave out books on shelves containing these words.",
    )


class GetSimilarBooksInput(_Input):
    """Input of get_similar_books."""

    book: str = Field(min_length=1, max_length=300, description="A book id or a title.")
    limit: int = Field(10, ge=1, le=MAX_TOOL_RESULTS, description="How many books.")
    exclude_authors: list[str] = Field(
        default_factory=list, max_length=10, description="Leave out books by these authors."
    )
    exclude_categories: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="Leave out books on shelves containing these words.",
    )


@dataclass(frozen=True, slots=True)
class ToolRecord:
    """One call as it ran: the checked arguments, the books returned, or the error."""

    name: str
    arguments: dict[str, JSONValue]
    results: tuple[SearchResult, ...] = ()
    error: str | None = None


def _excluded(result: SearchResult, authors: Sequence[str], categories: Sequence[str]) -> bool:
    """True for a book by an excluded author, or on a shelf containing an excluded word.

    Containment, not equality: "not fantasy" leaves out "epic fantasy" and "high fantasy"
    shelves too, which is what a reader means.
    """
    banned_authors = [a.casefold() for a in authors if a.strip()]
    banned_categories = [c.casefold() for c in categories if c.strip()]
    book = result.book
    if any(b in c.casefold() for c in book.categories for b in banned_categories):
        return True
    return any(b in a.casefold() for a in book.authors for b in banned_authors)


@dataclass
class FallbackToolbox:
    """`search_catalog` and `get_similar_books` for one fallback run, recording each call."""

    search: BookSearchService
    catalog: BookCatalog
    understanding: QueryUnderstanding | None = None
    vocabulary: Vocabulary | None = None
    titles: TitleMatcher | None = None
    """Resolves a misspelt title for `get_similar_books` when no title matches exactly."""
    records: list[ToolRecord] = field(default_factory=list)

    def tools(self) -> list[AgentTool]:
        """The two tools, as the agent port takes them."""
        return [
            AgentTool(
                "search_catalog",
                "Search the book catalog (BM25 and embeddings). Use other words than the "
                "first search, exclude authors or shelves, or drop a filter that left too "
                "few books; a page limit shows the books known to fit first. Returns books with "
                "id, title, authors, year, language, pages (when known), shelves and blurb.",
                SearchCatalogInput,
                self._recorded("search_catalog", self.search_catalog),
            ),
            AgentTool(
                "get_similar_books",
                "Books nearest to one book (by id or title) by meaning, never its own other "
                "editions; can exclude authors or shelves.",
                GetSimilarBooksInput,
                self._recorded("get_similar_books", self.get_similar_books),
            ),
        ]

    def _recorded(
        self, name: str, run: Callable[[Any], tuple[list[SearchResult], dict[str, JSONValue]]]
    ) -> Callable[[BaseModel], JSONValue]:
        def call(arguments: BaseModel) -> JSONValue:
            given: dict[str, JSONValue] = arguments.model_dump(mode="json", exclude_defaults=True)
            try:
                results, extra = run(arguments)
            except (ToolError, InvalidQueryError, ValidationError) as error:
                self.records.append(ToolRecord(name, given, error=str(error)))
                raise ToolError(str(error)) from None
            self.records.append(ToolRecord(name, given, tuple(results)))
            books: list[JSONValue] = [book_json(r.book) for r in results]
            return {"books": books, **extra}

        return call

    def search_catalog(
        self, args: SearchCatalogInput
    ) -> tuple[list[SearchResult], dict[str, JSONValue]]:
        """Plan the words (as a reader's search is), search with the exclusions as filters."""
        plan = self.understanding.plan(args.query) if self.understanding else None
        filters = SearchFilters(
            language=args.language,
            min_year=args.min_year,
            max_year=args.max_year,
            min_pages=args.min_pages,
            max_pages=args.max_pages,
            exclude_categories=tuple(args.exclude_categories),
            exclude_authors=tuple(args.exclude_authors),
        )
        response = self.search.search(
            SearchQuery(args.query, filters, max_results=args.limit), plan=plan
        )
        kept = [
            r
            for r in response.results
            if not _excluded(r, args.exclude_authors, args.exclude_categories)
        ]
        return kept[: args.limit], {}

    def get_similar_books(
        self, args: GetSimilarBooksInput
    ) -> tuple[list[SearchResult], dict[str, JSONValue]]:
        """Neighbours of the book, minus the excluded."""
        book = self._resolve(args.book)
        excluding = bool(args.exclude_authors or args.exclude_categories)
        wanted = min(args.limit * 3, 60) if excluding else args.limit
        response = self.search.similar(book.id, wanted)
        kept = [
            r
            for r in response.results
            if not _excluded(r, args.exclude_authors, args.exclude_categories)
        ]
        return kept[: args.limit], {"similar_to": book_json(book, with_description=False)}

    def _resolve(self, reference: str) -> Book:
        """A book id or title (`book_lookup`), else the closest title by spelling.

        `similar_to` in the tool's answer names the book used, so a caller sees when a
        misspelt title was read as another.
        """
        return resolve_book(
            reference, self.catalog, lambda: self.search, self.vocabulary, self.titles
        )
