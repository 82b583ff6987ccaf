"""A request that names only shelves lists their books first past the first page."""

from __future__ import annotations

import uuid

from lectern.application.book_filters import BookFilterIndex
from lectern.application.hybrid_retrieval import HybridRetriever, SearchConfig
from lectern.application.ports import StoredEntry
from lectern.application.search import BookSearchService, _names_only_shelves
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.search import QueryPlan, Recognition, SearchFilters, SearchQuery
from tests.fakes import FakeCatalog, FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

VOCAB = ["time", "travel", "paradox", "machine", "love", "war", "ship"]
SHELF = "time travel"
# (description, on the shelf, ratings count)
BOOKS = [
    ("time travel paradox machine", True, 10),
    ("time travel love", True, 10),
    ("time war ship", False, 10),
    ("travel love ship", False, 10),
    ("a quiet garden", True, 5),  # on the shelf, no word of the request: ordered by ratings
    ("an old house", True, 500),
    ("machine love time", True, 10),
    ("war and peace time", False, 10),
]
QUERY = "time travel"
NAMED = (Recognition("category", SHELF, 0, len(QUERY)),)
PLAN = QueryPlan(QUERY, categories=(SHELF,), recognised=NAMED)
# Two BM25 and two vector candidates, then BM25's tail: not every book on the shelf is found.
CONFIG = SearchConfig(
    fusion="convex", weights={"lexical": 0.6, "vector": 0.4}, candidate_pool=4, lexical_tail=2
)


def _id(number: int) -> str:
    return str(uuid.UUID(int=number))


ON_SHELF = {_id(n) for n, (_, held, _) in enumerate(BOOKS, start=1) if held}


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


def _service(shelf_tail: int) -> BookSearchService:
    catalog = FakeCatalog()
    books = [_book(n) for n in range(1, len(BOOKS) + 1)]
    for book in books:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): b.description or "" for b in books}
    embedder = FakeEmbedder(VOCAB)
    retriever = HybridRetriever(
        FakeLexicalIndex(texts), FakeVectorIndex(embedder, texts), embedder, CONFIG
    )
    return BookSearchService(
        catalog, retriever, BookFilterIndex(catalog.book_facts()), shelf_tail=shelf_tail
    )


def _ranked(service: BookSearchService, plan: QueryPlan = PLAN, k: int = 2) -> list[str]:
    response = service.search(SearchQuery(QUERY, max_results=k), plan=plan, depth=20)
    return list(response.ranked_ids)


def test_past_the_first_page_the_shelf_comes_first_and_the_page_never_moves() -> None:
    without = _service(0).search(SearchQuery(QUERY, max_results=2), plan=PLAN, depth=20)
    with_shelf = _service(100).search(SearchQuery(QUERY, max_results=2), plan=PLAN, depth=20)
    page = [r.book.id for r in without.results]
    assert [r.book.id for r in with_shelf.results] == page
    candidates = list(without.ranked_ids)
    ranked = list(with_shelf.ranked_ids)
    assert ranked[:2] == candidates[:2]
    rest = candidates[2:]
    on = [i for i in rest if i in ON_SHELF]
    off = [i for i in rest if i not in ON_SHELF]
    found = ON_SHELF - set(candidates)
    assert found  # the pool missed some of the shelf
    others = ranked[2 + len(on) : 2 + len(on) + len(found)]
    assert ranked == [*candidates[:2], *on, *others, *off]
    assert set(others) == found
    # The shelf's other books: BM25 over the request's words first, then the books with
    # none of them by ratings count (500 before 5).
    assert others[-2:] == [_id(6), _id(5)]


def test_the_setting_caps_the_shelf_books_added() -> None:
    candidates = _ranked(_service(0))
    assert len(_ranked(_service(1))) == len(candidates) + 1


def test_a_short_list_is_filled_from_the_shelf_after_the_candidates() -> None:
    shown = _service(100).search(SearchQuery(QUERY, max_results=20), plan=PLAN)
    alone = _service(0).search(SearchQuery(QUERY, max_results=20), plan=PLAN)
    count = len(alone.results)
    assert [r.book.id for r in shown.results[:count]] == [r.book.id for r in alone.results]
    filled = {str(r.book.id) for r in shown.results[count:]}
    assert filled
    assert filled == ON_SHELF - {str(r.book.id) for r in alone.results}


def test_a_request_saying_more_than_its_shelf_keeps_the_candidates_order() -> None:
    more = QueryPlan(f"{QUERY} with ships", categories=(SHELF,), recognised=NAMED)
    assert _ranked(_service(100), more) == _ranked(_service(0), more)
    plain = QueryPlan(QUERY)
    assert _ranked(_service(100), plain) == _ranked(_service(0), plain)


def test_the_shelf_books_keep_the_filters() -> None:
    plan = QueryPlan(
        QUERY,
        categories=(SHELF,),
        recognised=NAMED,
        filters=SearchFilters(exclude_titles=("Book 6",)),
    )
    ranked = _ranked(_service(100), plan)
    assert _id(6) not in ranked
    assert _id(5) in ranked


def test_nothing_is_looked_up_when_the_page_is_all_that_is_asked() -> None:
    service = _service(100)
    service.search(SearchQuery(QUERY, max_results=2), plan=PLAN)
    lexical = service.retriever.lexical
    assert isinstance(lexical, FakeLexicalIndex)
    assert all(allowed is None for allowed in lexical.allowed_seen)


def test_a_request_names_only_shelves_when_every_other_word_is_a_frame_or_a_filter() -> None:
    def plan(text: str, *spans: tuple[str, str]) -> QueryPlan:
        recognised = []
        for kind, words in spans:
            start = text.index(words)
            recognised.append(Recognition(kind, words, start, start + len(words)))  # type: ignore[arg-type]
        shelves = tuple(w for k, w in spans if k == "category")
        return QueryPlan(text, categories=shelves, recognised=tuple(recognised))

    assert _names_only_shelves(plan("books about time travel", ("category", "time travel")))
    assert _names_only_shelves(
        plan("epic fantasy with dragons", ("category", "epic fantasy"), ("category", "dragons"))
    )
    assert _names_only_shelves(
        plan("fantasy books in spanish", ("category", "fantasy"), ("language", "in spanish"))
    )
    assert not _names_only_shelves(
        plan("a cozy mystery in a small english village", ("category", "cozy mystery"))
    )
    assert not _names_only_shelves(QueryPlan("books about time travel"))


def test_the_holders_of_several_shelves_are_on_every_one() -> None:
    catalog = FakeCatalog()
    for number, shelves in enumerate([("a", "b"), ("a",), ("b",)], start=1):
        book = Book(id=uuid.UUID(int=number), title=f"B{number}", categories=shelves)
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    filters = BookFilterIndex(catalog.book_facts())
    assert filters.holders_of(["a", "b"]) == {_id(1)}
    assert filters.holders_of(["a"]) == {_id(1), _id(2)}
    assert filters.holders_of([]) == frozenset()


def test_a_shelf_is_held_under_every_spelling_of_it() -> None:
    catalog = FakeCatalog()
    shelves = [("world war ii",), ("wwii",), ("world war 2", "fiction"), ("world war i",)]
    for number, names in enumerate(shelves, start=1):
        book = Book(id=uuid.UUID(int=number), title=f"B{number}", categories=names)
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    filters = BookFilterIndex(catalog.book_facts())
    assert filters.holders_of(["world war 2"]) == {_id(1), _id(2), _id(3)}
    assert filters.holders_of(["world war 2", "fiction"]) == {_id(3)}
    assert filters.holders_of(["world war i"]) == {_id(4)}


def test_a_longer_page_shows_the_shelf_after_the_first_ten() -> None:
    catalog = FakeCatalog()
    books = [
        Book(id=uuid.UUID(int=n), title=f"T{n}", description="time travel " + "war " * n)
        for n in range(1, 15)
    ] + [
        Book(id=uuid.UUID(int=n), title=f"S{n}", description="a garden", categories=(SHELF,))
        for n in range(15, 18)
    ]
    for book in books:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): b.description or "" for b in books}
    embedder = FakeEmbedder(VOCAB)
    config = SearchConfig(fusion="convex", candidate_pool=40)
    retriever = HybridRetriever(
        FakeLexicalIndex(texts), FakeVectorIndex(embedder, texts), embedder, config
    )
    service = BookSearchService(
        catalog, retriever, BookFilterIndex(catalog.book_facts()), shelf_tail=100
    )
    ten = service.search(SearchQuery(QUERY), plan=PLAN)
    more = service.search(SearchQuery(QUERY, max_results=14), plan=PLAN)
    deep = service.search(SearchQuery(QUERY), plan=PLAN, depth=14)
    shown = [str(r.book.id) for r in more.results]
    assert shown[:10] == [str(r.book.id) for r in ten.results]
    shelf = {_id(15), _id(16), _id(17)} - set(shown[:10])
    assert shelf
    assert set(shown[10 : 10 + len(shelf)]) == shelf
    assert shown == list(deep.ranked_ids)


def test_a_shelf_broader_than_the_places_left_gives_half_to_its_most_read_books() -> None:
    page = 2
    narrow = _ranked(_service(100))
    broad = _ranked(_service(2))  # two places past the page, three shelf books left
    on = [i for i in narrow[page:] if i in ON_SHELF]
    assert len(set(ON_SHELF) - set(narrow[:page])) > 2
    assert broad[:page] == narrow[:page]
    # half the places to the best matched candidate on the shelf, the rest to the most
    # read shelf book not yet listed ("an old house", 500 ratings), whatever its words
    assert broad[page : page + 2] == [on[0], _id(6)]


def test_a_compound_shelf_is_read_as_its_parts() -> None:
    catalog = FakeCatalog()
    shelves = [("ya paranormal",), ("young adult", "paranormal"), ("paranormal",), ("ya",)]
    for number, names in enumerate(shelves, start=1):
        book = Book(id=uuid.UUID(int=number), title=f"B{number}", categories=names)
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    filters = BookFilterIndex(catalog.book_facts())
    assert filters.parts_of("ya paranormal") == ("young adult", "paranormal")
    assert filters.parts_of("paranormal") is None
    assert filters.parts_of("ya paranormal romance") is None  # "romance" is on no shelf


def test_places_left_after_a_compound_shelf_go_to_the_books_on_its_parts() -> None:
    catalog = FakeCatalog()
    books = [
        Book(id=uuid.UUID(int=n), title=f"T{n}", description="ghost " * n) for n in range(1, 12)
    ] + [
        Book(id=uuid.UUID(int=12), title="S12", description="ghost", categories=("ya paranormal",)),
        Book(id=uuid.UUID(int=13), title="P13", description="a garden", categories=("paranormal",)),
        Book(
            id=uuid.UUID(int=14),
            title="B14",
            description="a house",
            categories=("young adult", "paranormal"),
        ),
    ]
    for book in books:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): b.description or "" for b in books}
    embedder = FakeEmbedder(["ghost"])
    config = SearchConfig(fusion="convex", candidate_pool=40, lexical_tail=0)

    def ranked(shelf_tail: int) -> list[str]:
        retriever = HybridRetriever(
            FakeLexicalIndex(texts), FakeVectorIndex(embedder, texts), embedder, config
        )
        service = BookSearchService(
            catalog, retriever, BookFilterIndex(catalog.book_facts()), shelf_tail=shelf_tail
        )
        query = "ghost ya paranormal"
        plan = QueryPlan(
            query,
            categories=("ya paranormal",),
            recognised=(Recognition("category", query, 0, len(query)),),
        )
        return list(service.search(SearchQuery(query), plan=plan, depth=14).ranked_ids)

    without, with_parts = ranked(0), ranked(100)
    assert with_parts[:10] == without[:10]
    # past the page, the book on both of the compound's parts comes before the book on
    # one part and before the candidates on neither
    past = with_parts[10:]
    assert past[0] == _id(14), (without, with_parts)
    assert _id(14) not in without[:10]
