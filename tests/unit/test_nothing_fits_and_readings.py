"""A request the catalog cannot serve says so; a short ambiguous one offers readings."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence

from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.adapters.understanding.titles import RapidfuzzTitleMatcher
from lectern.application.book_filters import BookFilterIndex
from lectern.application.evaluation.config import RunConfig
from lectern.application.evaluation.datasets import NegativeTest
from lectern.application.evaluation.negative import NegativeTestRunner
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import StoredEntry
from lectern.application.search import BookSearchService, SearchResponse
from lectern.application.understanding import Vocabulary
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.search import NothingFits, SearchQuery, reading_words
from tests.fakes import (
    FakeCatalog,
    FakeEmbedder,
    FakeLexicalIndex,
    FakeTitleMatcher,
    FakeVectorIndex,
    ScriptedLLM,
)

VOCAB = ["dune", "hunger", "games", "desert", "spice", "memoir", "cooking", "kitchen"]


def _book(n: int, title: str, author: str, text: str) -> Book:
    return Book(id=uuid.UUID(int=n), title=title, authors=(author,), description=text)


BOOKS = [
    _book(1, "Dune", "Frank Herbert", "desert planet spice"),
    _book(2, "Dune Messiah", "Frank Herbert", "desert spice emperor"),
    _book(3, "Dune: House Atreides", "Brian Herbert", "desert spice prequel"),
    _book(4, "The Hunger Games", "Suzanne Collins", "games arena hunger"),
    _book(5, "Hunger", "Knut Hamsun", "hunger in the city"),
    _book(6, "Hunger: A Memoir of My Body", "Roxane Gay", "memoir body hunger"),
    _book(7, "Kitchen Confidential", "Anthony Bourdain", "cooking kitchen memoir"),
]


def _service(books: Sequence[Book] = BOOKS, *, titles: bool = False) -> BookSearchService:
    catalog = FakeCatalog()
    for book in books:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): f"{b.title} {b.authors[0]} {b.description}".lower() for b in books}
    retriever = HybridRetriever(
        FakeLexicalIndex(texts), FakeVectorIndex(FakeEmbedder(VOCAB), texts), FakeEmbedder(VOCAB)
    )
    matcher = RapidfuzzTitleMatcher(_vocabulary(catalog)) if titles else None
    return BookSearchService(
        catalog, retriever, BookFilterIndex(catalog.book_facts()), titles=matcher
    )


def _vocabulary(catalog: FakeCatalog) -> Vocabulary:
    return Vocabulary.build(catalog.book_names(), ["en"])


def _planned(service: BookSearchService, text: str) -> SearchResponse:
    """The search with the rules' plan, as `--understand` runs it."""
    catalog = service.catalog
    assert isinstance(catalog, FakeCatalog)
    plan = RuleBasedUnderstanding(_vocabulary(catalog)).plan(text)
    return service.search(SearchQuery(text), plan=plan)


def test_only_a_bare_short_request_is_read_as_a_title() -> None:
    assert reading_words("Dune") == ("dune",)
    assert reading_words("the hunger one") == ("hunger",)
    assert reading_words("It") == ()
    assert reading_words("a memoir about cooking in a kitchen") == ()


def test_the_hunger_one_offers_three_readings_by_different_authors() -> None:
    response = _service().search(SearchQuery("the hunger one"))
    authors = [r.author for r in response.readings]
    assert len(authors) == 3 and len(set(authors)) == 3
    assert {r.title for r in response.readings} == {
        "The Hunger Games",
        "Hunger",
        "Hunger: A Memoir of My Body",
    }
    assert response.results  # the reader still gets results beside the question


def test_dune_offers_the_novel_and_the_other_author_s_dune() -> None:
    readings = _service().search(SearchQuery("Dune")).readings
    assert [r.author for r in readings] == ["Frank Herbert", "Brian Herbert"]


def test_a_specific_request_asks_no_question() -> None:
    assert _service().search(SearchQuery("desert planet spice")).readings == ()


def test_words_no_book_uses_say_nothing_fits_and_the_rest_are_the_nearest() -> None:
    response = _service().search(SearchQuery("kubernetes helm charts for cooking"))
    assert response.nothing_fits == NothingFits(("kubernetes", "helm", "charts"))
    assert "nearest" in response.nothing_fits.message
    assert response.results  # the nearest books, marked as such by `nothing_fits`
    assert _service().search(SearchQuery("memoir of cooking")).nothing_fits is None


# --- "books like X": which one, and an X the catalog does not hold ---------------------------

HUNGER_TOO = _book(8, "Hunger", "Jane Doe", "hunger in the hills")


def test_like_x_whose_title_two_authors_share_asks_which_one() -> None:
    response = _planned(_service([*BOOKS, HUNGER_TOO], titles=True), "books like Hunger")
    assert response.plan is not None and response.plan.like_title == "Hunger"
    assert {(r.title, r.author) for r in response.readings} == {
        ("Hunger", "Knut Hamsun"),
        ("Hunger", "Jane Doe"),
    }
    assert response.readings[0].book_id == response.plan.like_book_id  # the one searched
    assert response.nothing_fits is None


def test_like_x_with_one_book_of_that_title_asks_nothing() -> None:
    response = _planned(_service(titles=True), "books like Kitchen Confidential")
    assert response.readings == () and response.nothing_fits is None


def test_like_x_no_title_is_near_says_x_is_not_in_the_catalog() -> None:
    response = _planned(_service(titles=True), "books like The Spice Kitchen Chronicles")
    assert response.nothing_fits is not None
    assert response.nothing_fits.title == "The Spice Kitchen Chronicles"
    assert response.nothing_fits.message.startswith(
        "'The Spice Kitchen Chronicles' is not in the catalog"
    )
    assert "nearest" in response.nothing_fits.message
    assert response.results  # the nearest books, marked as such


def test_like_x_misspelt_is_offered_not_called_missing() -> None:
    response = _planned(_service(titles=True), "books like Kitchen Confidentail")
    assert response.nothing_fits is None or response.nothing_fits.title is None
    assert [r.title for r in response.readings] == ["Kitchen Confidential"]


def test_without_a_title_matcher_search_claims_nothing_about_x() -> None:
    response = _planned(_service(), "books like The Spice Kitchen Chronicles")
    assert response.nothing_fits is None or response.nothing_fits.title is None


# --- the negative tests' checks ----------------------------------------------------------------


def _negative(**fields: object) -> NegativeTest:
    return NegativeTest.model_validate(
        {"kind": "ambiguous", "expect": "results", "why": "-", **fields}
    )


def _run(service: BookSearchService, test: NegativeTest) -> Mapping[str, object]:
    catalog = service.catalog
    assert isinstance(catalog, FakeCatalog)
    understanding = RuleBasedUnderstanding(_vocabulary(catalog))
    runner = NegativeTestRunner(service, catalog, ScriptedLLM({}), understanding=understanding)
    config = RunConfig(disabled=("grounding",))
    record = runner.run([test], config, "run")[0]
    assert isinstance(record, dict)
    return record


def test_a_negative_test_checks_the_not_in_catalog_notice_both_ways() -> None:
    service = _service(titles=True)
    absent = _negative(
        id="absent", text="books like The Spice Kitchen Chronicles", not_in_catalog=True
    )
    assert _run(service, absent)["passed"]
    misspelt = _negative(id="misspelt", text="books like Kitchen Confidentail", not_in_catalog=True)
    record = _run(service, misspelt)
    assert not record["passed"]
    assert record["problems"] == [
        "expected the search to say the book asked about is not in the catalog"
    ]


def test_a_negative_test_checks_the_titles_the_readings_offer() -> None:
    service = _service([*BOOKS, HUNGER_TOO], titles=True)
    wanted = _negative(
        id="hunger", text="books like Hunger", readings_include=["Hunger"], min_readings=2
    )
    assert _run(service, wanted)["passed"]
    missing = _negative(id="dune", text="Dune", readings_include=["Dune: The Movie"])
    assert _run(service, missing)["problems"] == ["the readings do not offer 'Dune: The Movie'"]


def test_a_planned_search_reads_titles_by_spelling_the_exact_title_first() -> None:
    readings = _planned(_service(titles=True), "Dune").readings
    assert [(r.title, r.author) for r in readings] == [
        ("Dune", "Frank Herbert"),
        ("Dune: House Atreides", "Brian Herbert"),
    ]


def test_a_plain_search_never_asks_the_title_matcher() -> None:
    service = _service()
    matcher = FakeTitleMatcher()
    service.titles = matcher
    service.search(SearchQuery("Dune"))
    assert matcher.asked == []  # and no spelt_like either: it would build the vocabulary
