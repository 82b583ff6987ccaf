"""The books on a shelf the plan recognised fill the list after every candidate."""

from __future__ import annotations

import uuid

from lectern.application.book_filters import BookFilterIndex
from lectern.application.hybrid_retrieval import HybridRetriever, SearchConfig
from lectern.application.ports import StoredEntry
from lectern.application.search import BookSearchService
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.search import QueryPlan, SearchFilters, SearchQuery
from tests.fakes import FakeCatalog, FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

VOCAB = ["time", "travel", "paradox", "machine", "love", "war", "ship"]
SHELF = "time-travel"
# (description, on the shelf, ratings count)
BOOKS = [
    ("time travel paradox machine", True, 10),
    ("time travel love", True, 10),
    ("time war ship", False, 10),
    ("travel love ship", False, 10),
    ("a quiet garden", True, 5),  # on the shelf, no word of the request: ordered by ratings
    ("an old house", True, 500),
    ("machine love time", True, 10),
    ("war and peace", False, 10),
]
QUERY = "time travel"
PLAN = QueryPlan(QUERY, categories=(SHELF,))
# Two BM25 and two vector candidates: the pool cannot hold every book on the shelf.
CONFIG = SearchConfig(fusion="convex", weights={"lexical": 0.6, "vector": 0.4}, candidate_pool=4)


def _book(number: int) -> Book:
    text, on_shelf, ratings = BOOKS[number - 1]
    return Book(
        id=uuid.UUID(int=number),
        title=f"Book {number}",
        authors=(f"A {number}",),
        description=text,
        categories=(SHELF,) if on_shelf else ("fiction",),
        metadata={"ratings_count": ratings},
    )


def _id(number: int) -> str:
    return str(uuid.UUID(int=number))


ON_SHELF = {_id(n) for n, (_, held, _) in enumerate(BOOKS, start=1) if held}


def _service(shelf_tail: int, config: SearchConfig = CONFIG) -> BookSearchService:
    catalog = FakeCatalog()
    books = [_book(n) for n in range(1, len(BOOKS) + 1)]
    for book in books:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): b.description or "" for b in books}
    embedder = FakeEmbedder(VOCAB)
    retriever = HybridRetriever(
        FakeLexicalIndex(texts), FakeVectorIndex(embedder, texts), embedder, config
    )
    return BookSearchService(
        catalog, retriever, BookFilterIndex(catalog.book_facts()), shelf_tail=shelf_tail
    )


def _ranked(service: BookSearchService, plan: QueryPlan = PLAN, k: int = 2) -> list[str]:
    response = service.search(SearchQuery(QUERY, max_results=k), plan=plan, depth=20)
    return list(response.ranked_ids)


def test_the_shelf_tail_follows_every_candidate_and_never_moves_the_first_page() -> None:
    without = _service(0).search(SearchQuery(QUERY, max_results=2), plan=PLAN, depth=20)
    with_tail = _service(10).search(SearchQuery(QUERY, max_results=2), plan=PLAN, depth=20)
    assert [r.book.id for r in with_tail.results] == [r.book.id for r in without.results]
    candidates = list(without.ranked_ids)
    assert list(with_tail.ranked_ids[: len(candidates)]) == candidates
    tail = list(with_tail.ranked_ids[len(candidates) :])
    assert tail
    assert set(tail) == ON_SHELF - set(candidates)
    # BM25 over the request's words first ("machine love time" has "time"), then the books
    # with none of them by ratings count: 500 before 5.
    words_first = [i for i in tail if i not in {_id(5), _id(6)}]
    assert tail == [*words_first, _id(6), _id(5)]


def test_the_tail_is_cut_to_its_setting() -> None:
    candidates = _ranked(_service(0))
    assert len(_ranked(_service(1))) == len(candidates) + 1


def test_a_short_list_is_filled_from_the_tail_after_the_candidates() -> None:
    service = _service(10)
    shown = service.search(SearchQuery(QUERY, max_results=8), plan=PLAN)
    alone = _service(0).search(SearchQuery(QUERY, max_results=8), plan=PLAN)
    count = len(alone.results)
    assert [r.book.id for r in shown.results[:count]] == [r.book.id for r in alone.results]
    filled = [str(r.book.id) for r in shown.results[count:]]
    assert filled
    assert set(filled) == ON_SHELF - {str(r.book.id) for r in alone.results}


def test_no_shelf_in_the_plan_no_tail() -> None:
    plain = QueryPlan(QUERY)
    assert _ranked(_service(10), plain) == _ranked(_service(0), plain)


def test_the_tail_keeps_the_filters() -> None:
    plan = QueryPlan(
        QUERY, categories=(SHELF,), filters=SearchFilters(exclude_titles=("Book 6",))
    )
    assert _id(6) not in _ranked(_service(10), plan)
    assert _id(5) in _ranked(_service(10), plan)


def test_nothing_is_looked_up_when_the_candidates_fill_the_list() -> None:
    service = _service(10)
    service.search(SearchQuery(QUERY, max_results=2), plan=PLAN)
    lexical = service.retriever.lexical
    assert isinstance(lexical, FakeLexicalIndex)
    # One BM25 query for the request and one for the shelf's name variation; none for a tail.
    assert all(allowed is None for allowed in lexical.allowed_seen)
