"""A request that is a catalog title shows the most read book of that title first."""

from __future__ import annotations

import uuid

from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.adapters.understanding.titles import RapidfuzzTitleMatcher
from lectern.application.book_filters import BookFilterIndex
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import StoredEntry
from lectern.application.search import BookSearchService, SearchResponse
from lectern.application.understanding import Vocabulary
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.search import SearchFilters, SearchQuery
from tests.fakes import FakeCatalog, FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

VOCAB = ["dune", "desert", "spice", "sand"]


def _book(n: int, title: str, author: str, text: str, ratings: int) -> Book:
    return Book(
        id=uuid.UUID(int=n),
        title=title,
        authors=(author,),
        description=text,
        language="en",
        metadata={"ratings_count": ratings},
    )


HERBERT = _book(1, "Dune", "Frank Herbert", "a desert planet and its spice", 900_000)
BOOKS = [
    HERBERT,
    _book(2, "Dune", "Ann Other", "a walk on the sand", 40),  # the same title, little read
    *(
        _book(n, f"Dune Chronicle {n}", "Brian Herbert", "dune dune dune sand spice", 5_000)
        for n in range(3, 16)
    ),
]


def _service() -> tuple[BookSearchService, RuleBasedUnderstanding]:
    catalog = FakeCatalog()
    for book in BOOKS:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): f"{b.title} {b.authors[0]} {b.description}".lower() for b in BOOKS}
    embedder = FakeEmbedder(VOCAB)
    retriever = HybridRetriever(FakeLexicalIndex(texts), FakeVectorIndex(embedder, texts), embedder)
    vocabulary = Vocabulary.build(catalog.book_names(), ["en"])
    service = BookSearchService(
        catalog,
        retriever,
        BookFilterIndex(catalog.book_facts()),
        titles=RapidfuzzTitleMatcher(vocabulary),
    )
    return service, RuleBasedUnderstanding(vocabulary)


def _ids(response: SearchResponse) -> list[uuid.UUID]:
    return [r.book.id for r in response.results]


def test_a_bare_title_shows_the_most_read_book_of_that_title_first() -> None:
    service, rules = _service()
    plan = rules.plan("Dune")
    assert any(r.kind == "title" for r in plan.recognised)
    unplanned = service.search(SearchQuery("Dune"))
    assert _ids(unplanned)[0] != HERBERT.id  # the word alone ranks the chronicles first
    planned = service.search(SearchQuery("Dune"), plan=plan, depth=20)
    assert _ids(planned)[0] == HERBERT.id
    assert planned.ranked_ids[0] == str(HERBERT.id)
    assert planned.ranked_ids.count(str(HERBERT.id)) == 1
    assert len(planned.results) == 10


def test_the_named_book_keeps_the_filters() -> None:
    service, rules = _service()
    plan = rules.plan("Dune")
    kept_out = SearchQuery("Dune", SearchFilters(exclude_authors=("Frank Herbert",)))
    assert HERBERT.id not in _ids(service.search(kept_out, plan=plan))
