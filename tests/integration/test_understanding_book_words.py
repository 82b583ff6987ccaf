"""Book requests whose words decide what a near reading by meaning may not (rules + MiniLM).

Phrased fresh, none a sentence of the understanding sets: a correction needs a word saying
something is wrong, a list name ends where the request goes on, and "the list" names none.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from lectern.adapters.llm.book_rules import BookRules
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.llm.rule_steps import BookSteps
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.ruled_out import ruled_out
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.book_lookup import books_titled, names_a_title, names_an_author
from lectern.domain.assistant import ToolCall
from tests.assistant_world import World, make_catalog, make_vocabulary, make_world


@pytest.fixture
def world(layer: Understanding, tmp_path: Path) -> World:
    del tmp_path
    catalog = make_catalog()
    vocabulary = make_vocabulary(catalog)
    # As bootstrap wires it: titles are known, so "X and Y" may be two books.
    policy = RulePolicy(
        RuleBasedUnderstanding(vocabulary),
        layer,
        titles=lambda title: names_a_title(title, vocabulary),
        books=lambda title: books_titled(title, vocabulary, catalog),
        authors=lambda name: names_an_author(name, vocabulary),
    )
    return make_world(policy, catalog=catalog)


def _names(reply: object) -> list[str]:
    return [c.name for c in reply.tool_calls]  # type: ignore[attr-defined]


def test_a_year_range_is_a_search_not_a_correction_or_a_details_question(world: World) -> None:
    reply = world.service.chat("reader", "science fiction published before 1980")
    assert _names(reply) == ["search_books"]
    assert reply.actions == ()


def test_a_list_name_ends_where_the_request_goes_on(world: World) -> None:
    reply = world.service.chat("reader", "make a list called Road Trips and keep it empty")
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("create_list", {"name": "Road Trips"})
    ]


def test_deleting_the_list_that_names_none_is_asked_back(world: World) -> None:
    now = world.clock()
    world.library.create_list("reader", str(uuid.uuid4()), "Winter", now)
    reply = world.service.chat("reader", "get rid of the list")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text


def test_it_with_no_book_in_view_is_asked_back(world: World) -> None:
    reply = world.service.chat("reader", "give it five stars")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text


def test_taking_a_book_from_a_list_never_deletes_the_list(world: World) -> None:
    now = world.clock()
    world.library.create_list("reader", str(uuid.uuid4()), "Autumn", now)
    reply = world.service.chat("reader", "remove the Dickens novel from my list")
    assert "delete_list" not in _names(reply)
    assert all(a.preview.tool_name != "delete_list" for a in reply.actions)


def test_a_book_named_by_its_author_is_asked_back(world: World) -> None:
    now = world.clock()
    world.library.create_list("reader", str(uuid.uuid4()), "Crime", now)
    reply = world.service.chat("reader", "put the Highsmith novel on my Crime list")
    assert reply.tool_calls == () and reply.actions == ()
    assert "Highsmith" in reply.text and "?" in reply.text


def test_a_list_whose_name_holds_a_book_word_is_not_a_book_search(world: World) -> None:
    now = world.clock()
    world.library.create_list("reader", str(uuid.uuid4()), "Mystery books", now)
    reply = world.service.chat("reader", "delete Mystery books")
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("delete_list", {"list": "Mystery books"})
    ]


def test_titles_akin_to_a_book_are_similar_books(world: World) -> None:
    reply = world.service.chat("reader", "any titles akin to The Hobbit?")
    assert [c.name for c in reply.tool_calls][:1] == ["similar_books"]
    assert reply.tool_calls[0].arguments["book"] == "The Hobbit"


def test_a_book_not_yet_chosen_is_asked_for_not_taken_as_a_title(world: World) -> None:
    for name in ("Winter", "Attic"):
        world.library.create_list("reader", str(uuid.uuid4()), name, world.clock())
    reply = world.service.chat("reader", "move a novel from Winter to Attic")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text


def _calls(reply: object) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]  # type: ignore[attr-defined]


def test_several_ratings_said_with_one_verb_are_each_proposed(world: World) -> None:
    reply = world.service.chat("reader", "four stars for Gilead, 2 for The Hobbit")
    assert _calls(reply) == [
        ("rate_book", {"book": "Gilead", "stars": 4}),
        ("rate_book", {"book": "The Hobbit", "stars": 2}),
    ]
    three = world.service.chat("reader", "rate Dune 5 stars, The Silmarillion 3 and Gilead 4")
    assert [c[1]["stars"] for c in _calls(three)] == [5, 3, 4]


def test_books_put_on_a_new_list_named_after_them_fill_it(world: World) -> None:
    reply = world.service.chat(
        "reader", "pop The Hobbit and The Silmarillion onto a new list called Middle-earth"
    )
    assert _calls(reply) == [
        ("create_list", {"name": "Middle-earth"}),
        ("add_to_list", {"list": "Middle-earth", "book": "The Hobbit"}),
        ("add_to_list", {"list": "Middle-earth", "book": "The Silmarillion"}),
    ]


def test_a_year_in_a_list_name_is_no_correction() -> None:
    names = Names({"list": ["Finished 2025"]})
    said = "Gilead shouldn't be on Finished 2025, I read it in 2024 actually"
    assert "propose_correction" in ruled_out(said, names)
    assert "propose_correction" not in ruled_out(said, Names({"list": ["Winter"]}))
    rules = BookRules(
        BookSteps(lambda name, **arguments: ToolCall("c", name, arguments), None), None
    )
    assert rules.correction(said, lambda book: book, ["Finished 2025"]) == []


def test_my_list_among_several_is_asked_which(world: World) -> None:
    for name in ("To read", "Gifts"):
        world.library.create_list("reader", str(uuid.uuid4()), name, world.clock())
    reply = world.service.chat("reader", "add Gilead to my list")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text


def test_a_trailing_instead_is_no_part_of_the_title(world: World) -> None:
    world.library.create_list("reader", str(uuid.uuid4()), "Fantasy", world.clock())
    reply = world.service.chat("reader", "remove Dune from Fantasy, and add The Hobbit instead")
    assert ("add_to_list", {"list": "Fantasy", "book": "The Hobbit"}) in _calls(reply)


def test_this_one_with_the_readers_feelings_is_the_book_in_view(world: World) -> None:
    from lectern.domain.assistant import PageContext

    page = PageContext("book", str(uuid.UUID(int=1)), "Dune")
    reply = world.service.chat("reader", "honestly this one bored me silly. two stars", page=page)
    assert _calls(reply) == [("rate_book", {"book": str(uuid.UUID(int=1)), "stars": 2})]


def test_a_wish_and_a_reason_around_an_entry_are_not_the_title(world: World) -> None:
    world.library.create_list("reader", str(uuid.uuid4()), "Fantasy", world.clock())
    wanted = world.service.chat("reader", "i want gilead on the fantasy list")
    assert [(n, a["list"], str(a["book"]).casefold()) for n, a in _calls(wanted)] == [
        ("add_to_list", "Fantasy", "gilead")
    ]
    dropped = world.service.chat("reader", "pls delist dune from fantasy, i finished it")
    assert [(n, a["list"], str(a["book"]).casefold()) for n, a in _calls(dropped)] == [
        ("remove_from_list", "Fantasy", "dune")
    ]


def test_getting_a_list_with_its_name_quoted_creates_it(world: World) -> None:
    reply = world.service.chat("reader", "could I get a list 'Night reads'")
    assert _calls(reply) == [("create_list", {"name": "Night reads"})]


def test_the_date_the_record_has_set_against_the_right_one_is_a_correction(world: World) -> None:
    reply = world.service.chat("reader", "Gilead is from 2004 - the year you have is a reprint")
    assert _calls(reply) == [("propose_correction", {"book": "Gilead", "published_year": 2004})]


def test_a_question_naming_no_book_after_one_was_talked_of_means_it(world: World) -> None:
    first = world.service.chat("reader", "tell me about The Hobbit")
    assert _names(first) == ["get_book_details"]
    reply = world.service.chat(
        "reader", "hmm, and who's the author?", conversation=first.conversation
    )
    assert _names(reply) == ["get_book_details"]
    assert reply.tool_calls[0].arguments["book"] in (str(uuid.UUID(int=2)), "The Hobbit")


def test_the_other_one_is_asked_about_not_read_as_a_title(world: World) -> None:
    reply = world.service.chat("reader", "ok and what about the other one?")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text


def test_a_mistyped_request_verb_is_no_title(world: World) -> None:
    reply = world.service.chat("reader", "Recomend me books close to The Hobbit please")
    assert _names(reply)[:1] == ["similar_books"]
    assert reply.tool_calls[0].arguments["book"] == "The Hobbit"


def test_a_book_said_by_its_writers_name_is_asked_about(world: World) -> None:
    world.library.create_list("reader", str(uuid.uuid4()), "Shelf", world.clock())
    for said in ("take the Herbert off my Shelf list", "pop the Robinson on Shelf"):
        reply = world.service.chat("reader", said)
        assert reply.tool_calls == () and reply.actions == (), said
        assert "?" in reply.text
    titled = world.service.chat("reader", "pop the Hobbit on Shelf")
    assert _names(titled) == ["add_to_list"]
