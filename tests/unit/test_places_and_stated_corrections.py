"""Lists said by their place, and catalog corrections stated rather than asked (dev21).

From dev21 (pool-v21): "Kindred goes on the second list", "rename the second one to Finished
and take The Hobbit off the first", "the last one, call it Done instead", "that second list
is pointless now, bin it"; "X doesn't have a language on it. It's English - we have the copy
right here", "I was looking at 1984, ..., and the author field has Erich Fromm on it, ... -
the author is George Orwell", "X - you know, the Murakami - is filed under 'Businesswomen',
which is just odd. Its category should be Fiction." Below, phrasings of our own, and the
near-misses that must change nothing (or ask).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.understanding.correction_said import correction_said
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.shown_places import with_places_named
from lectern.domain.assistant import Message
from tests.unit.test_shown_places import HORROR, _calls
from tests.unit.test_understanding_stars_v19 import _calls as _book_calls

LISTS = ("Summer", "Winter", "Gifts")
"""The reader's lists, oldest first (the order every view shows them in)."""


def _said(text: str, lists: Sequence[str] = LISTS) -> Any:
    return _calls(text, lists, "hello", "Hello! How can I help?")


# --- a list by its place ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        ("Dune goes on the second list", [("add_to_list", {"list": "Winter", "book": "Dune"})]),
        ("take Emma off my first list", [("remove_from_list", {"list": "Summer", "book": "Emma"})]),
        ("what's on the third list?", [("get_list_details", {"list": "Gifts"})]),
        ("what is in my 2nd list", [("get_list_details", {"list": "Winter"})]),
        (
            "rename the last one to Presents",
            [("rename_list", {"list": "Gifts", "new_name": "Presents"})],
        ),
        (
            "the first one, call it Beach instead",
            [("rename_list", {"list": "Summer", "new_name": "Beach"})],
        ),
        (
            "put Dune on the last list and take Carrie off the first",
            [
                ("add_to_list", {"list": "Gifts", "book": "Dune"}),
                ("remove_from_list", {"list": "Summer", "book": "Carrie"}),
            ],
        ),
    ],
)
def test_a_list_said_by_its_place_is_the_list_there_oldest_first(said: str, calls: Any) -> None:
    assert _said(said) == calls


def test_the_other_of_two_lists_is_the_one_not_named() -> None:
    calls = _said("move Dune from Summer to the other list", ("Summer", "Winter"))
    assert calls == [
        ("remove_from_list", {"list": "Summer", "book": "Dune"}),
        ("add_to_list", {"list": "Winter", "book": "Dune"}),
    ]


@pytest.mark.parametrize(
    "said",
    [
        "put Dune on the fifth list",  # past the end
        "move Dune from Summer to the other list",  # the other of three
        "rename the fourth one to Presents",
    ],
)
def test_a_place_no_list_holds_is_asked(said: str) -> None:
    history = [Message("user", "hello"), Message("assistant", "Hello!")]
    assert isinstance(with_places_named(said, history, LISTS), Clarification)
    assert isinstance(_said(said), str)


@pytest.mark.parametrize(
    "said",
    [
        "rate the second one 4 stars",  # a book's slot: never a list's name
        "add the first one to Summer",
        "tell me about the first one",
        "the second one was great",
        "I loved Dune from the first.",  # a bare place with no list spoken of
    ],
)
def test_a_place_in_a_book_slot_names_no_list(said: str) -> None:
    history = [Message("user", "hello"), Message("assistant", "Hello!")]
    assert with_places_named(said, history, LISTS) == said


def test_a_place_among_the_books_shown_is_still_the_book() -> None:
    history = [Message("user", "what's in my horror list"), Message("assistant", HORROR)]
    lists = ("Horror", "Summer")
    assert with_places_named("remove the second one", history, lists) == "remove the second one"
    assert with_places_named("delete the first one", history, lists) == "delete the first one"
    calls = _calls("remove the second one", lists, "what's in my horror list", HORROR)
    assert calls == [("remove_from_list", {"list": "Horror", "book": "Carrie"})]


# --- a correction stated ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        ("Emma doesn't have a year on it. It's 1815 - I checked the first edition.",
         "published_year", 1815),
        ("Rebecca - the du Maurier one - is filed under Horror, which is just odd. Its genre "
         "should be Gothic.", "categories", ["Gothic"]),
        ("I was reading Stoner, and the year field says 2003, which is wrong - the year is 1965",
         "published_year", 1965),
        ("I was looking at Piranesi and the language field shows French, which is nonsense - "
         "the language is English", "language", "English"),
        ("Dracula is listed as Romance, which is silly. Its category should be Horror.",
         "categories", ["Horror"]),
        ("The Road is missing its author. It's Cormac McCarthy - says so on the cover.",
         "authors", ["Cormac McCarthy"]),
        ("I was rereading Jane Eyre, and the author field has Jean Rhys on it, she only wrote "
         "the preface - the author is Charlotte Bronte and only Charlotte Bronte",
         "authors", ["Charlotte Bronte"]),
    ],
)  # fmt: skip
def test_a_field_stated_wrong_with_its_right_value_is_proposed(
    said: str, field: str, value: object
) -> None:
    calls = _book_calls(said)
    assert isinstance(calls, list), calls
    assert [c[0] for c in calls] == ["propose_correction"]
    assert calls[0][1][field] == value


@pytest.mark.parametrize(
    "said",
    [
        "Dune doesn't have a language on it.",
        "Rebecca is filed under Horror, which is just odd.",
        "I was looking at Dune and the author field has Frank Smith on it, which is nonsense",
    ],
)
def test_a_field_stated_wrong_with_no_value_asks_which(said: str) -> None:
    reply = _book_calls(said)
    assert isinstance(reply, str), reply
    assert "?" in reply


@pytest.mark.parametrize(
    "said",
    [
        "the ending of Dune is wrong",  # an opinion
        "is the year of Dune right?",  # a question about a field
        "Dune is filed under Romance, which is absurd. It is great.",
        "Dune is filed under Science Fiction, which is great",
        # a value said of another book than the one looked at
        "I was looking at Dune, and the author field has Frank Smith on it - the author of Emma "
        "is Jane Austen",
    ],
)
def test_a_near_miss_proposes_no_correction(said: str) -> None:
    calls = _book_calls(said)
    assert not (isinstance(calls, list) and any(c[0] == "propose_correction" for c in calls))


@pytest.mark.parametrize(
    "said",
    [
        # another field's value after the one told: which is meant is not settled here
        "I was looking at Dune, and the author field has Frank Smith on it - the year is 1965",
        "Dune has no language. It's English - and what year is it from?",
        "Dune doesn't have a language. It's a shame.",
    ],
)
def test_a_stated_correction_that_says_more_is_left_as_written(said: str) -> None:
    assert correction_said(said) is None


def test_a_missing_author_then_a_verdict_is_no_author() -> None:
    assert correction_said("Dune doesn't have an author. It's a shame.") is None
    assert correction_said("Rebecca has no category. It's a shame, really.") is None
