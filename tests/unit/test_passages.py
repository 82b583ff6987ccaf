import uuid

import pytest

from lectern.domain.books import Book
from lectern.domain.normalize import edition_group
from lectern.domain.passages import (
    EMBED_CATEGORIES,
    EMBED_DESCRIPTION_WORDS,
    FieldWeights,
    book_passage,
)


def test_passage_puts_title_authors_categories_before_the_description() -> None:
    book = Book(
        id=uuid.uuid4(),
        title="The Lies of Locke Lamora",
        authors=("Scott Lynch",),
        categories=("fantasy", "heist"),
        description="A thief in Camorr. " * 200,
    )
    passage = book_passage(book, FieldWeights())
    assert passage.id == str(book.id)
    assert passage.text.startswith(
        "The Lies of Locke Lamora. by Scott Lynch. Categories: fantasy, heist. A thief"
    )
    assert passage.embed_text.startswith(passage.text[:60])
    weighted = book_passage(book)  # the default weights repeat authors and shelves
    assert weighted.text.startswith(
        "The Lies of Locke Lamora. by Scott Lynch. by Scott Lynch. Categories: fantasy, heist. "
        "Categories: fantasy, heist. A thief"
    )
    assert weighted.embed_text == passage.embed_text  # nothing to re-embed
    description_words = passage.embed_text.split("heist. ", 1)[1].split()
    assert len(description_words) == EMBED_DESCRIPTION_WORDS
    assert len(passage.text) > len(passage.embed_text)


def test_passage_of_a_bare_book_is_its_title() -> None:
    passage = book_passage(Book(id=uuid.uuid4(), title="Untitled"))
    assert passage.text == passage.embed_text == "Untitled"


def test_editions_share_a_group() -> None:
    assert edition_group("The Hunger Games: Special Edition", "Suzanne Collins") == edition_group(
        "The Hunger Games (The Hunger Games, #1)", "S. Collins"
    )
    assert edition_group("Catching Fire", "Suzanne Collins") != edition_group(
        "The Hunger Games", "Suzanne Collins"
    )


def test_lexical_text_keeps_specific_categories_the_embed_text_leaves_out() -> None:
    common = tuple(f"topic {n}" for n in range(EMBED_CATEGORIES))
    book = Book(id=uuid.uuid4(), title="Six of Crows", categories=(*common, "heist"))
    passage = book_passage(book)
    assert "heist" in passage.text
    assert "heist" not in passage.embed_text and "topic 11" in passage.embed_text


@pytest.mark.parametrize(
    ("title", "work"),
    [
        ("The Hunger Games Trilogy Boxset", "The Hunger Games"),
        ("Harry Potter Boxed Set Books 1-7", "Harry Potter"),
        ("Foundation Trilogy", "Foundation"),
    ],
)
def test_box_sets_group_with_their_work(title: str, work: str) -> None:
    assert edition_group(title, "A Writer") == edition_group(work, "A Writer")


@pytest.mark.parametrize(
    ("title", "key"),
    [
        ("Catch-22", "catch 22"),
        ("Jet Set", "jet set"),
        ("The Collection", "collection"),
        ("A Series of Unfortunate Events", "series of unfortunate events"),
    ],
)
def test_titles_that_only_look_like_editions_keep_their_words(title: str, key: str) -> None:
    assert edition_group(title, "A Writer") == f"{key}|writer"
