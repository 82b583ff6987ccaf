"""A request that is a catalog title shows the most read book of that title first."""

from __future__ import annotations

import uuid

from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.adapters.understanding.titles import RapidfuzzTitleMatcher
from lectern.application.book_filters import BookFilterIndex
from lectern.application.hybrid_retrieval import HybridRetriever, SearchConfig
from lectern.application.known_item import KnownItems
from lectern.application.ports import StoredEntry
from lectern.application.search import BookSearchService, SearchResponse
from lectern.application.understanding import Vocabulary, title_forms
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.search import SearchFilters, SearchQuery
from tests.fakes import (
    FakeCatalog,
    FakeEmbedder,
    FakeLexicalIndex,
    FakeSpelling,
    FakeVectorIndex,
)

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


# Known-item search without a plan: the request itself is looked up as a title.

DEVIL = _book(
    40, "The Devil in the White City: Murder, Magic, and Madness", "Erik Larson", "a fair", 300
)
LOVE = _book(60, "Love", "Toni Morrison", "a novel", 20_000)
TRAVELER = _book(42, "Time Traveler", "Someone Else", "a clock", 10)
WRINKLE = _book(43, "A Wrinkle in Time", "Madeleine L'Engle", "a tesseract", 8_000)
MORE = [
    DEVIL,
    *(
        _book(n, f"White City Tales {n}", "Ann Writer", "devil city white city devil", 100)
        for n in range(44, 50)
    ),
    LOVE,
    *(_book(n, f"Stories of {n}", "Poet", "love stories love stories", 50) for n in range(50, 56)),
    TRAVELER,
    *(
        _book(n, f"Time Travel Clocks {n}", "Physicist", "time travel time travel", 50)
        for n in range(56, 60)
    ),
    WRINKLE,
]


def _titled_service(
    known: bool = True, spelling: FakeSpelling | None = None, pool: int = 100
) -> BookSearchService:
    catalog = FakeCatalog()
    for book in [*BOOKS, *MORE]:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {
        str(b.id): f"{b.title} {b.authors[0]} {b.description}".lower() for b in [*BOOKS, *MORE]
    }
    embedder = FakeEmbedder(VOCAB)
    retriever = HybridRetriever(
        FakeLexicalIndex(texts),
        FakeVectorIndex(embedder, texts),
        embedder,
        SearchConfig(candidate_pool=pool),
    )
    vocabulary = Vocabulary.build(catalog.book_names(), ["en"])
    items = KnownItems(lambda: vocabulary, spelling if spelling is not None else FakeSpelling())
    return BookSearchService(
        catalog,
        retriever,
        BookFilterIndex(catalog.book_facts()),
        known_items=items if known else None,
    )


def _first_then_unchanged(query: str, first: set[uuid.UUID]) -> None:
    """The named books lead; every other result keeps the order the fused ranking gave it."""
    on = _ids(_titled_service().search(SearchQuery(query, max_results=20), mmr_lambda=None))
    off = _ids(
        _titled_service(known=False).search(SearchQuery(query, max_results=20), mmr_lambda=None)
    )
    assert set(on[: len(first)]) == first
    assert on[len(first) :] == [i for i in off if i not in first][: 20 - len(first)]


def test_a_bare_title_puts_every_book_of_that_title_first_without_a_plan() -> None:
    off = _ids(_titled_service(known=False).search(SearchQuery("Dune")))
    assert off[0] != HERBERT.id
    _first_then_unchanged("Dune", {HERBERT.id, BOOKS[1].id})


def test_the_books_of_one_title_keep_the_searchs_order_among_themselves() -> None:
    off = _ids(_titled_service(known=False).search(SearchQuery("dune", max_results=20)))
    same_title = [i for i in off if i in {HERBERT.id, BOOKS[1].id}]
    assert _ids(_titled_service().search(SearchQuery("dune")))[:2] == same_title


def test_case_punctuation_the_article_and_the_subtitle_do_not_matter() -> None:
    for query in (
        "the devil in the white city",
        "Devil in the White City",
        "THE DEVIL IN THE WHITE CITY: MURDER, MAGIC, AND MADNESS!",
    ):
        assert _ids(_titled_service().search(SearchQuery(query)))[0] == DEVIL.id, query


def test_a_title_said_without_its_article_a_finds_it() -> None:
    assert _ids(_titled_service().search(SearchQuery("wrinkle in time")))[0] == WRINKLE.id


def test_one_slip_in_a_long_title_is_read_by_spelling_among_the_candidates() -> None:
    spelling = FakeSpelling()
    service = _titled_service(spelling=spelling)
    assert _ids(service.search(SearchQuery("devil in the white citty")))[0] == DEVIL.id
    (asked,) = spelling.asked
    assert asked[0] == "devil in the white citty"
    assert len(asked[1]) <= 2 * len(BOOKS + MORE)  # the candidates' titles, not the catalog


def test_a_slip_in_a_short_title_is_not_guessed() -> None:
    on = _ids(_titled_service().search(SearchQuery("dnue")))
    off = _ids(_titled_service(known=False).search(SearchQuery("dnue")))
    assert on == off


def test_a_request_that_contains_a_one_word_title_is_not_taken_for_it() -> None:
    request = SearchQuery("love stories")
    on = _ids(_titled_service().search(request, mmr_lambda=None))
    assert on == _ids(_titled_service(known=False).search(request, mmr_lambda=None))
    assert on[0] != LOVE.id
    _first_then_unchanged("love", {LOVE.id})


def test_a_topic_of_catalog_words_is_never_read_as_a_near_title() -> None:
    spelling = FakeSpelling()
    service = _titled_service(spelling=spelling)
    on = _ids(service.search(SearchQuery("time travel")))
    assert on == _ids(_titled_service(known=False).search(SearchQuery("time travel")))
    assert spelling.asked == []  # every word is a catalog word: no spelling compared


def test_a_titled_book_the_search_did_not_retrieve_still_comes_first() -> None:
    service = _titled_service(pool=10)
    found = _ids(service.search(SearchQuery("Love", max_results=20), mmr_lambda=None))
    assert found[0] == LOVE.id
    assert found.count(LOVE.id) == 1


def test_the_titled_books_keep_the_filters_without_a_plan() -> None:
    kept_out = SearchQuery("Dune", SearchFilters(exclude_authors=("Frank Herbert",)))
    found = _ids(_titled_service().search(kept_out))
    assert HERBERT.id not in found
    assert found[0] == BOOKS[1].id


def test_switched_off_the_ranking_is_the_fused_one() -> None:
    service = _titled_service(known=False)
    assert _ids(service.search(SearchQuery("Dune")))[0] != HERBERT.id


def test_title_forms_try_the_words_as_typed_first() -> None:
    assert title_forms(("the", "road")) == (
        ("the", "road"),
        ("road",),
        ("a", "road"),
        ("an", "road"),
    )
    assert title_forms(("a",)) == (("a",), ("the", "a"), ("a", "a"), ("an", "a"))
    assert KnownItems(lambda: Vocabulary.build([], ["en"])).titled("  ") == ()


def test_the_title_only_vocabulary_files_titles_as_the_full_one_does() -> None:
    catalog = FakeCatalog()
    for book in [*BOOKS, *MORE]:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    full = Vocabulary.build(catalog.book_names(), ["en"])
    titles = Vocabulary.of_titles(catalog.book_names())
    assert titles.titles == full.titles and titles.main_titles == full.main_titles
    assert titles.words <= full.words and "devil" in titles.words


def test_a_subtitle_is_left_out_only_when_no_title_is_the_words_themselves() -> None:
    companion = _book(61, "Dune: The Official Companion", "Fan Writer", "dune dune dune", 90_000)
    catalog = FakeCatalog()
    for book in [*BOOKS, companion, DEVIL]:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    vocabulary = Vocabulary.build(catalog.book_names(), ["en"])
    known = KnownItems(lambda: vocabulary)
    assert set(known.titled("dune")) == {str(HERBERT.id), str(BOOKS[1].id)}
    assert known.titled("devil in the white city") == (str(DEVIL.id),)


def test_a_work_found_by_another_edition_shows_the_book_of_the_title_typed() -> None:
    # "The Hunger Games Trilogy Boxset" and "The Hunger Games" are one work in the index;
    # the boxset's text matches more, but the reader typed the novel's title.
    novel = _book(70, "The Hunger Games", "Suzanne Collins", "a girl volunteers", 4_000_000)
    boxset = _book(71, "The Hunger Games Trilogy Boxset", "Suzanne Collins", "hunger games" * 5, 9)
    guide = _book(72, "The Hunger Games Tribute Guide", "Emily Seife", "hunger games guide", 80)
    books = [novel, boxset, guide]
    catalog = FakeCatalog()
    for book in books:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): f"{b.title} {b.description}".lower() for b in books}
    work = {str(novel.id): "w", str(boxset.id): "w"}
    embedder = FakeEmbedder(["hunger", "games", "guide"])
    retriever = HybridRetriever(
        FakeLexicalIndex(texts, work), FakeVectorIndex(embedder, texts), embedder
    )
    vocabulary = Vocabulary.build(catalog.book_names(), ["en"])
    service = BookSearchService(
        catalog,
        retriever,
        BookFilterIndex(catalog.book_facts()),
        known_items=KnownItems(lambda: vocabulary, FakeSpelling()),
    )
    found = _ids(service.search(SearchQuery("the hunger games")))
    assert found[0] == novel.id
    assert boxset.id not in found  # one entry per work


def test_a_request_naming_a_book_by_title_offers_only_the_books_of_that_title() -> None:
    # Without the title read, "Dune" offers "Dune Chronicle 3"; read as the title, the page
    # leads with the novel and offers only what still is a choice: the two books called Dune.
    offered = {}
    for known in (True, False):
        service = _titled_service(known=known)
        service.titles = RapidfuzzTitleMatcher(
            Vocabulary.build(service.catalog.book_names(), ["en"])
        )
        offered[known] = service.search(SearchQuery("Dune")).readings
    assert "Dune Chronicle 3" in [r.title for r in offered[False]]
    assert {r.title for r in offered[True]} == {"Dune"}
    assert len(offered[True]) == 2
