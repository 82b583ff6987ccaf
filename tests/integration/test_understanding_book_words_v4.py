"""Book requests of the classes dev4 found, phrased fresh (rules + MiniLM, a fixture catalog).

None is a sentence of the understanding sets: several requests in one message (a look-up
among them, a later "it" for the list an earlier part made or renamed), the verbs people
put on lists and delete them with, the book in view asked about without a title, titles as
people spell them (and one two authors share, asked about), a list said to have the wrong
name, an author correction stated as "only X", refusals and topics in searches.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.book_lookup import books_titled, names_a_title
from lectern.application.ports import StoredEntry
from lectern.domain.assistant import PageContext
from lectern.domain.books import Book, CatalogEntry, FieldProvenance
from tests.assistant_world import World, make_catalog, make_vocabulary, make_world
from tests.fakes import FakeCatalog

EXTRA = [
    ("The Time Traveler's Wife", ("Audrey Niffenegger",), 900),
    ("Night Shift", ("Stephen King",), 880),
    ("Night Shift", ("Nora Roberts",), 700),
]


def _catalog() -> FakeCatalog:
    catalog = make_catalog()
    for n, (title, authors, readers) in enumerate(EXTRA, start=500):
        book = Book(
            id=uuid.UUID(int=n),
            title=title,
            authors=authors,
            description=f"{title}, a novel.",
            language="en",
            published_year=2003,
            categories=("fiction",),
            metadata={"ratings_count": readers},
        )
        provenance = (FieldProvenance("title", "goodbooks", str(n)),)
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), provenance, ()), "h")
    return catalog


@pytest.fixture
def world(layer: Understanding, tmp_path: Path) -> World:
    del tmp_path
    catalog = _catalog()
    vocabulary = make_vocabulary(catalog)
    policy = RulePolicy(
        RuleBasedUnderstanding(vocabulary),
        layer,
        titles=lambda title: names_a_title(title, vocabulary),
        books=lambda title: books_titled(title, vocabulary, catalog),
    )
    return make_world(policy, catalog=catalog)


def _lists(world: World, *names: str) -> None:
    for name in names:
        world.library.create_list("reader", str(uuid.uuid4()), name, world.clock())


def _calls(reply: object) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]  # type: ignore[attr-defined]


def _names(reply: object) -> list[str]:
    return [c.name for c in reply.tool_calls]  # type: ignore[attr-defined]


def _asked(reply: object) -> bool:
    return reply.tool_calls == () and "?" in reply.text  # type: ignore[attr-defined]


# --- several requests in one message -------------------------------------------------------


def test_a_new_list_filled_then_the_lists_shown_is_three_calls(world: World) -> None:
    reply = world.service.chat(
        "reader", "start a list called Deserts, put Dune on it, then show me my lists"
    )
    assert _calls(reply)[:2] == [
        ("create_list", {"name": "Deserts"}),
        ("add_to_list", {"list": "Deserts", "book": "Dune"}),
    ]
    assert _names(reply)[2:] == ["get_reading_lists"]


def test_a_list_shown_then_another_deleted(world: World) -> None:
    _lists(world, "Winter", "Attic")
    reply = world.service.chat("reader", "what's on Winter, then get rid of the Attic list")
    assert _calls(reply) == [
        ("get_list_details", {"list": "Winter"}),
        ("delete_list", {"list": "Attic"}),
    ]


def test_a_rating_then_similar_books_after_a_semicolon(world: World) -> None:
    reply = world.service.chat("reader", "give Gilead four stars; also show me books like it")
    assert _names(reply) == ["rate_book", "similar_books"]
    assert reply.tool_calls[1].arguments["book"] == "Gilead"


def test_a_list_renamed_then_filled_through_it_and_both_approved(world: World) -> None:
    _lists(world, "Winter")
    reply = world.service.chat("reader", "firstly rename Winter to Cosy, then add Gilead to it")
    assert _calls(reply) == [
        ("rename_list", {"list": "Winter", "new_name": "Cosy"}),
        ("add_to_list", {"list": "Cosy", "book": "Gilead"}),
    ]
    for action in reply.actions:
        world.service.approve("reader", action.id)
    (cosy,) = world.library.lists("reader")
    assert cosy.name == "Cosy" and len(cosy.entries) == 1


def test_a_search_then_the_facets(world: World) -> None:
    reply = world.service.chat(
        "reader", "which languages does the catalog hold, and find me fantasy in french"
    )
    assert _names(reply) == ["catalog_facets", "search_books"]


# --- verbs people use ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "said", ["chuck Gilead onto my Winter list", "Gilead -> Winter", "shove Gilead on Winter list"]
)
def test_a_book_put_on_a_list_in_other_words(world: World, said: str) -> None:
    _lists(world, "Winter", "Attic")
    assert _calls(world.service.chat("reader", said)) == [
        ("add_to_list", {"list": "Winter", "book": "Gilead"})
    ]


@pytest.mark.parametrize("said", ["nuke my attic list", "ditch the Attic list please"])
def test_a_list_deleted_in_other_words(world: World, said: str) -> None:
    _lists(world, "Winter", "Attic")
    reply = world.service.chat("reader", said)
    assert _names(reply) == ["delete_list"]
    assert str(reply.tool_calls[0].arguments["list"]).casefold() == "attic"


def test_a_list_begun_with_the_name(world: World) -> None:
    reply = world.service.chat("reader", "I'd love to begin a fresh list with the name Sagas")
    assert _calls(reply) == [("create_list", {"name": "Sagas"})]


@pytest.mark.parametrize(
    "said", ["some info about the silmarillion", "I want to know more about the book Gilead"]
)
def test_a_book_asked_after_in_other_words(world: World, said: str) -> None:
    assert _names(world.service.chat("reader", said)) == ["get_book_details"]


def test_a_book_taken_off_with_a_reason_after_the_list(world: World) -> None:
    _lists(world, "Winter")
    reply = world.service.chat("reader", "Kindly pull Dune off my Winter list, I gave up on it.")
    assert _calls(reply) == [("remove_from_list", {"list": "Winter", "book": "Dune"})]


# --- the book in view -----------------------------------------------------------------------


def test_how_long_is_it_asks_about_the_book_in_view(world: World) -> None:
    page = PageContext("book", str(uuid.UUID(int=1)), "Dune")
    reply = world.service.chat("reader", "how many pages does it have?", page=page)
    assert _names(reply) == ["get_book_details"]


def test_what_the_reader_says_of_themselves_is_not_the_book(world: World) -> None:
    page = PageContext("book", str(uuid.UUID(int=1)), "Dune")
    reply = world.service.chat("reader", "finally finished this, give it a 5", page=page)
    assert _calls(reply) == [("rate_book", {"book": str(uuid.UUID(int=1)), "stars": 5})]


def test_anything_similar_means_the_book_in_view(world: World) -> None:
    page = PageContext("book", str(uuid.UUID(int=1)), "Dune")
    reply = world.service.chat("reader", "looks great - something like that?", page=page)
    assert _calls(reply)[0] == ("similar_books", {"book": str(uuid.UUID(int=1)), "limit": 5})


# --- titles as people spell them -------------------------------------------------------------


def test_a_title_is_passed_on_as_the_catalog_spells_it(world: World) -> None:
    reply = world.service.chat("reader", "who wrote the time travelers wife")
    assert _calls(reply) == [("get_book_details", {"book": "The Time Traveler's Wife"})]


def test_a_title_with_more_words_after_it_is_the_title(world: World) -> None:
    reply = world.service.chat("reader", "anything in the same spirit as Gilead? Slow, kind.")
    assert _calls(reply)[0] == ("similar_books", {"book": "Gilead", "limit": 5})


def test_a_title_two_widely_read_authors_share_is_asked_about(world: World) -> None:
    reply = world.service.chat("reader", "books like Night Shift please")
    assert _asked(reply)
    assert "Stephen King" in reply.text and "Nora Roberts" in reply.text


# --- lists, corrections, searches, the assistant itself ------------------------------------


def test_a_list_said_to_have_the_wrong_name_is_renamed(world: World) -> None:
    _lists(world, "Wintr")
    reply = world.service.chat("reader", "oops, the list 'Wintr' should be 'Winter'")
    assert _calls(reply) == [("rename_list", {"list": "Wintr", "new_name": "Winter"})]


@pytest.mark.parametrize(
    "said",
    [
        "gilead's author should be marilynne robinson only",
        "Fix the authors of Gilead please. It should only be Marilynne Robinson.",
    ],
)
def test_an_author_correction_said_as_only_one(world: World, said: str) -> None:
    (call,) = _calls(world.service.chat("reader", said))
    assert call[0] == "propose_correction"
    assert call[1]["book"] == "Gilead"
    assert [str(a).casefold() for a in call[1]["authors"]] == ["marilynne robinson"]  # type: ignore[attr-defined]


def test_a_topic_asked_after_is_a_search(world: World) -> None:
    assert _names(world.service.chat("reader", "what's out there on desert ecology")) == [
        "search_books"
    ]


def test_a_refused_author_said_without_by_is_left_out(world: World) -> None:
    reply = world.service.chat("reader", "space opera, no Frank Herbert please, I've had my fill")
    (call,) = reply.tool_calls
    assert call.name == "search_books"
    assert call.arguments.get("exclude_authors") == ["Frank Herbert"]
    assert "exclude_categories" not in call.arguments
    assert "fill" not in str(call.arguments["query"])


def test_asking_what_else_it_does_is_no_search(world: World) -> None:
    reply = world.service.chat("reader", "can you do anything besides recommending books?")
    assert reply.tool_calls == () and reply.suggestions == ()
    assert "reading lists" in reply.text


def test_a_verdict_names_the_book_a_later_it_means(world: World) -> None:
    reply = world.service.chat("reader", "I adored Gilead, now show me more like it")
    assert _calls(reply) == [("similar_books", {"book": "Gilead", "limit": 5})]


def test_a_later_removal_with_no_list_is_off_the_list_just_named(world: World) -> None:
    _lists(world, "Winter", "Attic")
    reply = world.service.chat("reader", "add Gilead to Winter, take Dune off")
    assert _calls(reply) == [
        ("add_to_list", {"list": "Winter", "book": "Gilead"}),
        ("remove_from_list", {"list": "Winter", "book": "Dune"}),
    ]


def test_one_change_said_twice_is_proposed_once(world: World) -> None:
    _lists(world, "Winter", "Attic")
    reply = world.service.chat("reader", "Dune has no place on Winter, pull it off")
    assert _calls(reply) == [("remove_from_list", {"list": "Winter", "book": "Dune"})]


def test_a_remark_after_a_rating_of_the_book_in_view_is_no_title(world: World) -> None:
    page = PageContext("book", str(uuid.UUID(int=1)), "Dune")
    reply = world.service.chat("reader", "give this one a 3 - dragged a bit", page=page)
    assert _calls(reply) == [("rate_book", {"book": str(uuid.UUID(int=1)), "stars": 3})]
