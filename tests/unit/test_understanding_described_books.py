"""A book named by its writer and what it is about, or by one word of its title (dev15).

"put the Ishiguro butler one on Book Club", "add the Vonnegut war one to Classics", "rate
the Orwell farm one a 4", "put that Gatsby book on my TBR": the writer's catalog books (their
titles, shelves and descriptions) say which book is meant; several fitting, or none, are
asked about with the writer's books named; a writer alone is asked as before.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.described_books import fitting
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.application.assistant.names import NAMES_HEADER
from lectern.application.ports import StoredEntry
from lectern.application.understanding import author_key, key_of
from lectern.application.writers_books import CatalogWriters, WrittenBook, surname_of
from lectern.domain.assistant import Message, ToolSpec
from lectern.domain.books import Book, CatalogEntry
from tests.fakes import FakeCatalog

W = WrittenBook
BOOKS = (
    W("The Remains of the Day", "Kazuo Ishiguro", ("fiction", "booker prize"), "", 105_000),
    W(
        "Never Let Me Go",
        "Kazuo Ishiguro",
        ("fiction", "dystopia"),
        "A gothic meditation.",
        294_000,
    ),
    W(
        "Slaughterhouse-Five",
        "Kurt Vonnegut Jr.",
        ("war", "world war ii", "war stories"),
        "",
        846_000,
    ),
    W("Mother Night", "Kurt Vonnegut Jr.", ("war", "satire"), "", 52_000),
    W("Cat's Cradle", "Kurt Vonnegut Jr.", ("science fiction",), "Ice-nine.", 238_000),
    W("The Graveyard Book", "Neil Gaiman", ("fantasy", "young adult"), "", 302_000),
    W("Coraline", "Neil Gaiman", ("fantasy", "horror"), "A locked door.", 316_000),
    W("Animal Farm", "George Orwell", ("classics", "politics"), "", 1_881_000),
    W("Animal Farm / 1984", "George Orwell", ("classics",), "Farm animals overthrow ...", 116_000),
    W("1984", "George Orwell", ("dystopia",), "A totalitarian government.", 1_956_000),
    W("Homage to Catalonia", "George Orwell", ("history",), "The Spanish Civil War.", 22_000),
    W(
        "The Hobbit",
        "J.R.R. Tolkien",
        ("fantasy", "dragons"),
        "A dragon, a dragon's gold.",
        2_071_000,
    ),
    W("The Silmarillion", "J.R.R. Tolkien", ("fantasy", "dragons"), "", 134_000),
    W("The Grapes of Wrath", "John Steinbeck", ("classics", "dust bowl"), "", 322_000),
    W("Of Mice and Men", "John Steinbeck", ("classics", "friendship"), "", 1_467_000),
    W("Murder on the Orient Express", "Agatha Christie", ("mystery",), "A train.", 138_000),
    W("The Mystery of the Blue Train", "Agatha Christie", ("mystery",), "", 17_000),
    W("Death on the Nile", "Agatha Christie", ("mystery",), "", 65_000),
    W("The Goldfinch", "Donna Tartt", ("art", "pulitzer"), "", 396_000),
    W("The Secret History", "Donna Tartt", ("college", "mystery"), "", 168_000),
    W("The Great Gatsby", "F. Scott Fitzgerald", ("classics",), "", 2_683_000),
    W("CliffsNotes on Fitzgerald's The Great Gatsby", "Kelly Noe", ("study aids",), "", 72),
    W("The Green Mile", "Stephen King", ("horror",), "", 200_000),
    W("Paper Towns", "John Green", ("young adult",), "", 400_000),
    W("Gone Girl", "Gillian Flynn", ("thriller",), "", 1_900_000),
    W("The Girl on the Train", "Paula Hawkins", ("thriller",), "", 1_300_000),
    W("Dune", "Frank Herbert", ("science fiction",), "", 600_000),
)
LISTS = ("Book Club", "Classics", "Kids", "TBR")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


class Shelf:
    """The catalog's books by writer and title word, over `BOOKS`."""

    def books_by(self, name: str) -> Sequence[WrittenBook]:
        said = set(author_key(name))
        theirs = [b for b in BOOKS if said and said <= set(author_key(b.author))]
        return sorted(theirs, key=lambda b: -b.popularity)

    def titled_with(self, word: str) -> Sequence[tuple[str, int]]:
        found = [b for b in BOOKS if key_of(word)[0] in key_of(b.title)]
        return [(b.title, b.popularity) for b in sorted(found, key=lambda b: -b.popularity)]


def _titled(title: str) -> list[tuple[str, str, int]]:
    key = key_of(title)
    bare = key[1:] if key[:1] == ("the",) else key
    return [
        (b.title, b.author, b.popularity)
        for b in BOOKS
        if key_of(b.title) in (key, bare, ("the", *bare))
    ]


def _writer(name: str) -> bool:
    """As `names_an_author`: a writer's surname or name, and no title."""
    key = author_key(name)
    surnames = {surname_of(b.author) for b in BOOKS}
    return len(key) == 1 and not _titled(name) and key[0] in surnames


def _calls(text: str) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(
        titles=lambda words: bool(_titled(words)),
        books=_titled,
        authors=_writer,
        writers=Shelf(),
    )
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=SYSTEM)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize(
    ("text", "tool", "book"),
    [
        # dev15
        ("add the Vonnegut war one to Classics", "add_to_list", "Slaughterhouse-Five"),
        ("rate the Orwell farm one a 4", "rate_book", "Animal Farm"),
        ("put that Gatsby book on my TBR", "add_to_list", "The Great Gatsby"),
        ("more like the Gaiman graveyard one please, my kid inhaled it", "similar_books", None),
        # own phrasings: a word of the title, a shelf, a description, another writer
        ("add the Tolkien dragon one to Kids", "add_to_list", "The Hobbit"),
        ("could you put the Steinbeck dust bowl book on Classics", "add_to_list", None),
        ("give the Christie nile one 5 stars", "rate_book", "Death on the Nile"),
        ("add the Orwell Spanish war one to Classics", "add_to_list", "Homage to Catalonia"),
        ("tell me about the Tartt college one", "get_book_details", "The Secret History"),
        ("put that Goldfinch book on Book Club", "add_to_list", "The Goldfinch"),
    ],
)
def test_a_writers_book_said_by_what_it_is_about_is_that_book(
    text: str, tool: str, book: str | None
) -> None:
    calls = _calls(text)
    assert isinstance(calls, list), calls
    assert calls[0][0] == tool
    expected = (
        book
        or {
            "similar_books": "The Graveyard Book",
            "add_to_list": "The Grapes of Wrath",
        }[tool]
    )
    assert calls[0][1]["book"] == expected


def test_a_described_book_and_a_title_are_two_books() -> None:
    calls = _calls("put the Gaiman graveyard one and Coraline on the Kids list")
    assert calls == [
        ("add_to_list", {"list": "Kids", "book": "The Graveyard Book"}),
        ("add_to_list", {"list": "Kids", "book": "Coraline"}),
    ]
    more = _calls("put the Orwell farm one and Dune on Classics")
    assert [c[1]["book"] for c in more] == ["Animal Farm", "Dune"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # dev15: nothing the catalog holds says "butler" or "painting"
        ("put the Ishiguro butler one on Book Club", "The Remains of the Day"),
        ("tell me about that Tartt one, the one with the painting", "The Goldfinch"),
        # two books fit: the shelves of both say "dragons" / "war" alike, or a title and a
        # more widely read book about a train
        ("put the Christie train one on TBR", "Murder on the Orient Express"),
        ("add the Steinbeck rabbits one to Classics", "Of Mice and Men"),
    ],
)
def test_a_description_no_one_book_fits_is_asked_naming_the_writers_books(
    text: str, named: str
) -> None:
    reply = _calls(text)
    assert isinstance(reply, str), reply
    assert "Which book" in reply or "which book" in reply
    assert named in reply


@pytest.mark.parametrize(
    "text",
    [
        "add the Christie novel to TBR",  # a writer alone: which of theirs is asked
        "put the Vonnegut one on Classics",
        "rate the Steinbeck book 4",
    ],
)
def test_a_writer_alone_is_still_asked(text: str) -> None:
    reply = _calls(text)
    assert isinstance(reply, str) and "Which book by" in reply, reply


def test_a_title_that_starts_with_a_writers_name_is_the_title() -> None:
    # "green" is John Green's surname, but "green mile" runs on into a catalog title
    assert _calls("add the green mile one to TBR") == [
        ("add_to_list", {"list": "TBR", "book": "The Green Mile"})
    ]


def test_a_title_word_held_by_several_widely_read_titles_is_not_guessed() -> None:
    girls = [b for b in BOOKS if "girl" in key_of(b.title)]
    assert len(fitting(["girl"], girls)) == 2
    reply = _calls("put that Girl book on TBR")
    assert isinstance(reply, str), reply


def test_the_catalog_writers_read_a_surname_with_a_suffix_and_descriptions() -> None:
    catalog = FakeCatalog()
    for title, author, description, readers in (
        ("Slaughterhouse-Five", "Kurt Vonnegut Jr.", "Billy Pilgrim in Dresden.", 900),
        ("Player Piano", "Kurt Vonnegut", None, 30),
        ("Gatsby's Girl", "Caroline Preston", None, 5),
    ):
        book = Book(
            uuid.uuid4(),
            title,
            authors=(author,),
            description=description,
            metadata={"ratings_count": readers},
        )
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), (), ()), "h")
    writers = CatalogWriters(catalog)
    theirs = writers.books_by("Vonnegut")
    assert [b.title for b in theirs] == ["Slaughterhouse-Five", "Player Piano"]
    assert theirs[0].description == "Billy Pilgrim in Dresden."
    assert writers.books_by("Kurt Vonnegut Jr.")[0].author == "Kurt Vonnegut Jr."
    assert [t for t, _ in writers.titled_with("Gatsby's")] == ["Gatsby's Girl"]
