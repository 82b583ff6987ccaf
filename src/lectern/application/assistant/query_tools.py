"""Read-only tools: the catalog through search, a book's details, facets, the user's lists."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from lectern.application.assistant.books import book_evidence, resolve_book
from lectern.application.assistant.ports import LibraryStore
from lectern.application.assistant.tools import QueryOutput, QueryTool, ToolContext, ToolInput
from lectern.application.book_view import book_json
from lectern.application.ports import BookCatalog
from lectern.application.search import MAX_RESULTS
from lectern.domain.books import JSONValue
from lectern.domain.library import ReadingList
from lectern.domain.normalize import MAX_PAGES, is_youth_shelf
from lectern.domain.relevance import near_the_top
from lectern.domain.search import SearchFilters, SearchQuery, SearchResult
from lectern.errors import InvalidQueryError, ToolError


def book_relevance_gate(
    results: Sequence[SearchResult], min_share: float
) -> tuple[list[SearchResult], int]:
    """Books scoring at least `min_share` of the top final score, and how many were dropped."""
    return near_the_top(results, lambda r: r.final_score, min_share)


def _books_output(results: Sequence[SearchResult], dropped: int, **extra: JSONValue) -> QueryOutput:
    evidence: dict[str, str] = {}
    books: list[JSONValue] = []
    for result in results:
        books.append({"rank": result.rank, **book_json(result.book)})
        evidence.update(book_evidence(result.book))
    return QueryOutput({"books": books, **extra}, evidence, retrieval=True, dropped=dropped)


class SearchBooksInput(ToolInput):
    """Input of search_books."""

    query: str = Field(min_length=1, max_length=500, description="What the reader asked for.")
    language: str | None = Field(None, description="ISO 639-1 code, e.g. en, es.")
    category: str | None = Field(None, description="A catalog category, e.g. mystery.")
    min_year: int | None = Field(None, description="Published in or after this year.")
    max_year: int | None = Field(None, description="Published in or before this year.")
    min_pages: int | None = Field(None, ge=1, le=MAX_PAGES, description="At least this long.")
    max_pages: int | None = Field(None, ge=1, le=MAX_PAGES, description="At most this long.")
    exclude_categories: list[str] = Field(
        default_factory=list, max_length=10, description="Shelves to rule out, e.g. romance."
    )
    exclude_authors: list[str] = Field(default_factory=list, max_length=10)
    exclude_titles: list[str] = Field(
        default_factory=list, max_length=10, description="Titles or series to rule out."
    )
    exclude_youth: bool = Field(False, description="Rule out books for young readers.")
    strategy: Literal["balanced", "lexical_heavy", "vector_heavy"] | None = None
    limit: int = Field(5, ge=1, le=20, description="How many books to return.")


class SearchBooks(QueryTool):
    """Hybrid search over the catalog, with the query understood into filters."""

    name = "search_books"
    description = (
        "Search the book catalog. Returns books with their fields (title, authors, year, "
        "categories, description) that a reply can quote. Use for any question about books."
    )
    Input = SearchBooksInput

    def run(self, args: SearchBooksInput, context: ToolContext) -> QueryOutput:
        """Plan (when the rules are there), search with exclusions as filters, apply the gate."""
        del context
        search = self.deps.searcher()
        plan = self.deps.understanding.plan(args.query) if self.deps.understanding else None
        try:
            filters = SearchFilters(
                args.language,
                args.category,
                args.min_year,
                args.max_year,
                args.min_pages,
                args.max_pages,
                tuple(args.exclude_categories),
                tuple(args.exclude_authors),
                tuple(args.exclude_titles),
                args.exclude_youth,
            )
            response = search.search(
                SearchQuery(args.query, filters, max_results=min(args.limit * 3, 60)),
                plan=plan,
                strategy=args.strategy or "balanced",
            )
        except InvalidQueryError as error:
            raise ToolError(str(error)) from None
        # Exclusions and page limits are hard filters of the search: nothing to drop here.
        results = response.results
        kept, dropped = book_relevance_gate(results[: args.limit], self.deps.min_relevance)
        understood: dict[str, JSONValue] = {}
        if plan is not None:
            applied = response.plan.filters if response.plan else plan.filters
            understood = {
                k: v
                for k, v in {
                    "language": applied.language,
                    "min_year": applied.min_year,
                    "max_year": applied.max_year,
                    "min_pages": applied.min_pages,
                    "max_pages": applied.max_pages,
                    "excluded": list[JSONValue]([e.label for e in plan.exclusions]) or None,
                    "like": plan.like_title,
                }.items()
                if v is not None
            }
        return _books_output(kept, dropped, understood=understood)


class BookInput(ToolInput):
    """A book by id or title."""

    book: str = Field(min_length=1, max_length=300, description="A book id or a title.")


class GetBookDetails(QueryTool):
    """One book's fields."""

    name = "get_book_details"
    description = (
        "A book's details (title, authors, year, language, pages, categories, description)."
    )
    Input = BookInput

    def run(self, args: BookInput, context: ToolContext) -> QueryOutput:
        """Resolve the book and return its fields."""
        del context
        book = resolve_book(self.deps, args.book)
        return QueryOutput({"book": book_json(book)}, book_evidence(book), retrieval=True)


class SimilarBooksInput(BookInput):
    """Input of similar_books."""

    limit: int = Field(5, ge=1, le=20)
    exclude_youth: bool = Field(
        False, description='Rule out books for young readers ("like X but for adults").'
    )
    language: str | None = Field(None, description="ISO 639-1 code, e.g. en, es.")
    min_year: int | None = Field(None, description="Published in or after this year.")
    max_year: int | None = Field(None, description="Published in or before this year.")
    min_pages: int | None = Field(
        None, ge=1, le=MAX_PAGES, description='At least this long ("like X but longer than 400").'
    )
    max_pages: int | None = Field(
        None, ge=1, le=MAX_PAGES, description='At most this long ("like X but under 300 pages").'
    )


YOUTH_DEPTH = 10
"""With `exclude_youth` or a limit on language, years or pages, this many times `limit`
neighbours are read before the ones that do not fit are left out (a young-adult book's nearest
neighbours are mostly young-adult too; a long novel's are mostly long)."""


class SimilarBooks(QueryTool):
    """Books nearest to one book."""

    name = "similar_books"
    description = "Books similar to a given book (by id or title)."
    Input = SimilarBooksInput

    def run(self, args: SimilarBooksInput, context: ToolContext) -> QueryOutput:
        """Neighbours of the book by embedding (or BM25 when vectors are missing)."""
        del context
        search = self.deps.searcher()
        book = resolve_book(self.deps, args.book)
        try:
            limits = SearchFilters(
                args.language, None, args.min_year, args.max_year, args.min_pages, args.max_pages
            )
            narrowed = args.exclude_youth or not limits.is_empty
            depth = min(MAX_RESULTS, args.limit * YOUTH_DEPTH) if narrowed else args.limit
            response = search.similar(book.id, depth)
        except InvalidQueryError as error:
            raise ToolError(str(error)) from None
        results = response.results
        if args.exclude_youth:
            results = [r for r in results if not any(map(is_youth_shelf, r.book.categories))]
        if not limits.is_empty:
            # Known to fit first, then the ones whose page count is unknown (as search does).
            fits = [(limits.fits_book(r.book), r) for r in results]
            results = [r for fit, r in fits if fit] + [r for fit, r in fits if fit is None]
        results = results[: args.limit]
        kept, dropped = book_relevance_gate(results, self.deps.min_relevance)
        narrowing: dict[str, JSONValue] = {
            name: value
            for name in ("language", "min_year", "max_year", "min_pages", "max_pages")
            if (value := getattr(args, name)) is not None
        }
        extra: dict[str, JSONValue] = {"similar_to": book_json(book, with_description=False)}
        if narrowing:
            extra["narrowed_by"] = narrowing
        return _books_output(kept, dropped, **extra)


class FacetsInput(ToolInput):
    """Input of catalog_facets."""

    top: int = Field(10, ge=1, le=50)


class CatalogFacets(QueryTool):
    """What the catalog holds."""

    name = "catalog_facets"
    description = "The catalog's languages, most common categories and year range."
    Input = FacetsInput

    def run(self, args: FacetsInput, context: ToolContext) -> QueryOutput:
        """Languages, categories and years with counts."""
        del context
        facets = self.deps.catalog.facets(top_categories=args.top)
        data: dict[str, JSONValue] = {
            "languages": [{"code": c.name, "books": c.count} for c in facets.languages[:20]],
            "categories": [{"name": c.name, "books": c.count} for c in facets.top_categories],
            "min_year": facets.min_year,
            "max_year": facets.max_year,
        }
        evidence = {
            "catalog:facets#categories": ", ".join(c.name for c in facets.top_categories),
            "catalog:facets#languages": ", ".join(c.name for c in facets.languages),
        }
        return QueryOutput(data, evidence)


class NoInput(ToolInput):
    """A tool without input."""


def list_json(reading_list: ReadingList, titles: dict[str, str]) -> dict[str, JSONValue]:
    """A reading list as the model sees it."""
    return {
        "list_id": reading_list.id,
        "name": reading_list.name,
        "books": [
            {"book_id": e.book_id, "title": titles.get(e.book_id, "?"), "note": e.note}
            for e in reading_list.entries
        ],
    }


def _titles(catalog: BookCatalog, ids: Sequence[str]) -> dict[str, str]:
    books = catalog.get_many([uuid.UUID(i) for i in ids])
    return {str(b.id): b.title for b in books}


class GetReadingLists(QueryTool):
    """The caller's reading lists."""

    name = "get_reading_lists"
    description = "The user's reading lists with the number of books on each."
    Input = NoInput

    def run(self, args: NoInput, context: ToolContext) -> QueryOutput:
        """Names, ids and sizes of the user's lists."""
        del args
        lists = self.deps.library.lists(context.user)
        data: list[JSONValue] = [
            {"list_id": r.id, "name": r.name, "books": len(r.entries)} for r in lists
        ]
        return QueryOutput({"lists": data})


class ListInput(ToolInput):
    """A reading list by id or name."""

    list: str = Field(min_length=1, max_length=100, description="A list id or its name.")


class GetListDetails(QueryTool):
    """One of the caller's lists, with its books."""

    name = "get_list_details"
    description = "The books on one of the user's reading lists (by list id or name)."
    Input = ListInput

    def run(self, args: ListInput, context: ToolContext) -> QueryOutput:
        """The list's books with titles and notes."""
        found = find_user_list(self.deps.library, context.user, args.list)
        if found is None:
            raise ToolError(f"you have no reading list called {args.list!r}")
        titles = _titles(self.deps.catalog, [e.book_id for e in found.entries])
        return QueryOutput({"list": list_json(found, titles)})


def find_user_list(library: LibraryStore, user: str, reference: str) -> ReadingList | None:
    """The user's list named by id or by name."""
    return library.get_list(user, reference.strip()) or library.find_list(user, reference)
