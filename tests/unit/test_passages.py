import uuid

from lectern.domain.books import Book
from lectern.domain.normalize import edition_group
from lectern.domain.passages import EMBED_DESCRIPTION_WORDS, book_passage


def test_passage_puts_title_authors_categories_before_the_description() -> None:
    book = Book(
        id=uuid.uuid4(),
        title="The Lies of Locke Lamora",
        authors=("Scott Lynch",),
        categories=("fantasy", "heist"),
        description="A thief in Camorr. " * 200,
    )
    passage = book_passage(book)
    assert passage.id == str(book.id)
    assert passage.text.startswith(
        "The Lies of Locke Lamora. by Scott Lynch. Categories: fantasy, heist. A thief"
    )
    assert passage.embed_text.startswith(passage.text[:60])
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
