"""A request the plan reads as naming shelves is fused with the shelf weights."""

from __future__ import annotations

import uuid

from lectern.application.book_filters import BookFilterIndex
from lectern.application.hybrid_retrieval import HybridRetriever, SearchConfig
from lectern.application.ports import StoredEntry
from lectern.application.search import BookSearchService
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.search import QueryPlan, SearchQuery
from tests.fakes import FakeCatalog, FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

VOCAB = ["time", "travel", "paradox", "machine", "love", "war"]
TEXTS = [
    "time travel paradox machine",
    "time travel love",
    "time war war war",
    "travel love love love",
    "machine paradox",
]
BOOKS = [
    Book(id=uuid.UUID(int=n), title=f"Book {n}", authors=(f"A {n}",), description=text)
    for n, text in enumerate(TEXTS, start=1)
]
# BM25 alone for shelf requests; an even mix otherwise.
CONFIG = SearchConfig(
    fusion="convex",
    weights={"lexical": 0.3, "vector": 0.3},
    shelf_weights={"lexical": 1.0, "vector": 0.0},
)


def _service() -> BookSearchService:
    catalog = FakeCatalog()
    for book in BOOKS:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): b.description or "" for b in BOOKS}
    retriever = HybridRetriever(
        FakeLexicalIndex(texts),
        FakeVectorIndex(FakeEmbedder(VOCAB), texts),
        FakeEmbedder(VOCAB),
        CONFIG,
    )
    return BookSearchService(catalog, retriever, BookFilterIndex(catalog.book_facts()))


def _scores(plan: QueryPlan) -> list[tuple[str, float]]:
    response = _service().search(SearchQuery("time travel"), plan=plan, mmr_lambda=None)
    return [(r.book.title, round(r.final_score, 6)) for r in response.results]


def test_a_request_naming_a_shelf_leans_on_the_shelf_weights() -> None:
    shelf = _scores(QueryPlan("time travel", categories=("time travel",)))
    # Vectors weigh nothing: the best BM25 match scores exactly 1 and the order is BM25's.
    assert shelf[0][1] == 1.0
    assert [score for _, score in shelf] == sorted((s for _, s in shelf), reverse=True)
    assert all(score <= 1.0 for _, score in shelf)


def test_a_request_naming_no_shelf_keeps_the_configured_weights() -> None:
    plain = _scores(QueryPlan("time travel"))
    shelf = _scores(QueryPlan("time travel", categories=("time travel",)))
    assert plain != shelf
    assert plain[0][1] <= 0.6  # an even mix, 0.3 each at most


def test_without_shelf_weights_a_shelf_request_keeps_the_configured_weights() -> None:
    service = _service()
    service.retriever.config = SearchConfig(fusion="convex", weights=dict(CONFIG.weights))
    plan = QueryPlan("time travel", categories=("time travel",))
    plain = service.search(SearchQuery("time travel"), plan=QueryPlan("time travel"))
    shelf = service.search(SearchQuery("time travel"), plan=plan)
    assert [r.final_score for r in plain.results] == [r.final_score for r in shelf.results]
