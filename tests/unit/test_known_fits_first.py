"""A page limit shows the books known to fit first at the default k, MMR or not."""

from __future__ import annotations

import uuid

from lectern.application.book_filters import BookFilterIndex
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import StoredEntry
from lectern.application.search import BookSearchService
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.search import DEFAULT_RESULTS, SearchFilters, SearchQuery
from tests.fakes import FakeCatalog, FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

VOCAB = ["thriller", "crime", "spy", "murder", "detective", "chase", "night", "city"]
WORDS = ["spy", "murder", "detective", "chase", "night"]


def _book(n: int, text: str, pages: int | None) -> Book:
    return Book(
        id=uuid.UUID(int=n),
        title=f"Book {n}",
        authors=(f"Author {n}",),
        description=text,
        language="en",
        categories=("thriller",),
        pages=pages,
    )


# Twenty-five strong matches of unknown length, then two weaker ones known to fit 300 pages
# and one known to be too long.
BOOKS = [
    *(_book(n, f"thriller crime city {WORDS[n % 5]} {WORDS[n // 5]}", None) for n in range(25)),
    _book(30, "crime city spy night", 250),
    _book(31, "crime city murder chase", 280),
    _book(32, "thriller crime city spy murder", 900),
]


def _service() -> BookSearchService:
    catalog = FakeCatalog()
    for book in BOOKS:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): f"{b.title} {b.description}".lower() for b in BOOKS}
    embedder = FakeEmbedder(VOCAB)
    retriever = HybridRetriever(
        FakeLexicalIndex(texts), FakeVectorIndex(FakeEmbedder(VOCAB), texts), embedder
    )
    return BookSearchService(catalog, retriever, BookFilterIndex(catalog.book_facts()))


def test_thrillers_under_300_pages_show_the_known_fits_first_at_the_default_k() -> None:
    service = _service()
    query = SearchQuery("thriller crime city", filters=SearchFilters(max_pages=300))
    response = service.search(query)  # the default k and the default MMR lambda
    pages = [r.book.pages for r in response.results]
    assert len(pages) == DEFAULT_RESULTS
    assert pages[:2] in ([280, 250], [250, 280])
    assert all(p is None for p in pages[2:])  # unknown lengths after them, none too long


def test_without_mmr_the_known_fits_still_come_first() -> None:
    service = _service()
    query = SearchQuery("thriller crime city", filters=SearchFilters(max_pages=300))
    pages = [r.book.pages for r in service.search(query, mmr_lambda=None).results]
    assert sorted(p for p in pages[:2] if p is not None) == [250, 280]
