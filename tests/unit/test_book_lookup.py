"""A title said without its subtitle names the subtitled book, with or without its "The"."""

from __future__ import annotations

import uuid

import pytest

from lectern.application.book_lookup import resolve_book
from lectern.application.ports import StoredEntry
from lectern.domain.books import Book, CatalogEntry
from lectern.errors import ToolError
from tests.assistant_world import make_catalog, make_search, make_vocabulary

SUBTITLED = Book(
    id=uuid.UUID(int=77),
    title="The Lantern Years: Life and Letters of a Harbour Town",
    authors=("Ada Quill",),
    description="A harbour town's letters across a century of storms.",
    language="en",
    published_year=1999,
    categories=("history",),
    metadata={"ratings_count": 10},
)


@pytest.fixture
def world() -> tuple[object, object]:
    catalog = make_catalog()
    catalog.entries[SUBTITLED.id] = StoredEntry(CatalogEntry(SUBTITLED, (), (), ()), "h")
    return catalog, make_search(catalog)


SAID = ["The Lantern Years", "Lantern Years", "the lantern years"]


@pytest.mark.parametrize("said", SAID)
def test_a_title_without_its_subtitle_names_the_book_by_search(said: str, world: tuple) -> None:
    catalog, search = world
    assert resolve_book(said, catalog, lambda: search).id == SUBTITLED.id


@pytest.mark.parametrize("said", SAID)
def test_the_vocabulary_knows_a_title_before_its_colon(said: str, world: tuple) -> None:
    catalog, _ = world

    def no_search() -> object:
        raise AssertionError("the vocabulary alone names it")

    vocabulary = make_vocabulary(catalog)
    assert resolve_book(said, catalog, no_search, vocabulary).id == SUBTITLED.id


def test_a_title_before_a_colon_is_never_a_title_found_in_a_message(world: tuple) -> None:
    catalog, _ = world
    vocabulary = make_vocabulary(catalog)
    assert vocabulary.best_title(("the", "lantern", "years")) is None


def test_a_title_no_book_starts_with_is_still_unknown(world: tuple) -> None:
    catalog, search = world
    with pytest.raises(ToolError, match="search for it first"):
        resolve_book("The Lantern Decades", catalog, lambda: search)


def _companion(number: int, title: str, writer: str, readers: int) -> Book:
    return Book(
        id=uuid.UUID(int=number),
        title=title,
        authors=(writer,),
        description="A companion book.",
        language="en",
        published_year=2010,
        categories=("film",),
        metadata={"ratings_count": readers},
    )


def test_words_beginning_two_writers_titles_name_neither(world: tuple) -> None:
    # "Harry Potter": Film Wizardry (Sibley) and A Pop-Up Book (Williamson); the more read one
    # had been added to a list.
    catalog, _ = world
    for book in (
        _companion(81, "Wizard Days: Film Wizardry", "Brian Sibling", 45000),
        _companion(82, "Wizard Days: A Pop-Up Book", "Andrew Williams", 22000),
    ):
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    vocabulary = make_vocabulary(catalog)
    with pytest.raises(ToolError, match="several books"):
        resolve_book("Wizard Days", catalog, lambda: make_search(catalog), vocabulary)
    whole = resolve_book("Wizard Days: Film Wizardry", catalog, lambda: None, vocabulary)
    assert whole.id == uuid.UUID(int=81)


def test_editions_by_one_writer_are_one_book(world: tuple) -> None:
    catalog, _ = world
    for book in (
        _companion(83, "Night Harbour: A Novel", "Ada Quill", 9000),
        _companion(84, "Night Harbour: Anniversary Edition", "Ada Quill", 800),
    ):
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    vocabulary = make_vocabulary(catalog)
    found = resolve_book("Night Harbour", catalog, lambda: make_search(catalog), vocabulary)
    assert found.id == uuid.UUID(int=83)
