"""A request the catalog cannot serve says so; a short ambiguous one offers readings."""

from __future__ import annotations

import uuid

from lectern.application.book_filters import BookFilterIndex
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import StoredEntry
from lectern.application.search import BookSearchService
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.search import NothingFits, SearchQuery, reading_words
from tests.fakes import FakeCatalog, FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

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


def _service() -> BookSearchService:
    catalog = FakeCatalog()
    for book in BOOKS:
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    texts = {str(b.id): f"{b.title} {b.authors[0]} {b.description}".lower() for b in BOOKS}
    retriever = HybridRetriever(
        FakeLexicalIndex(texts), FakeVectorIndex(FakeEmbedder(VOCAB), texts), FakeEmbedder(VOCAB)
    )
    return BookSearchService(catalog, retriever, BookFilterIndex(catalog.book_facts()))


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
