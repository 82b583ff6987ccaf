"""Lists pointed at by their place, "the other list", and a pointing aside before a request."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.shown_places import lists_shown, with_places_named
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

CATALOG = {"dracula", "carrie", "dune", "the martian", "the shining", "emma", "persuasion"}
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _is_title(words: str) -> bool:
    return words.strip().casefold() in CATALOG


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    return [(title.strip().title(), "Someone", 10)] if _is_title(title) else []


def _calls(
    text: str, lists: Sequence[str], asked: str, shown: str
) -> list[tuple[str, dict[str, Any]]] | str:
    system = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {n}" for n in lists)])
    history = [Message("user", asked), Message("assistant", shown)]
    policy = RulePolicy(titles=_is_title, books=_books)
    reply = policy.complete_with_tools([*history, Message("user", text)], TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


LISTS_SHOWN = "You have 3 reading lists: TBR (1 books), Done (1 books), Cosy Nights (4 books)"
HORROR = "Your list 'Horror':\n1. Dracula\n2. Carrie"
SUMMER = "Your list 'Summer':\n1. The Martian"


def test_the_lists_shown_are_read_in_their_order() -> None:
    history = [Message("assistant", LISTS_SHOWN)]
    assert lists_shown(history) == ["TBR", "Done", "Cosy Nights"]


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        (
            "rename the second one to Someday",
            [("rename_list", {"list": "Done", "new_name": "Someday"})],
        ),
        ("delete the first list", [("delete_list", {"list": "TBR"})]),
        ("what's in the last one", [("get_list_details", {"list": "Cosy Nights"})]),
        ("what's in the third one?", [("get_list_details", {"list": "Cosy Nights"})]),
        (
            "pls rename the 2nd list to Finished",
            [("rename_list", {"list": "Done", "new_name": "Finished"})],
        ),
    ],
)
def test_a_list_said_by_its_place_is_the_list_shown_there(said: str, calls: Any) -> None:
    lists = ("TBR", "Done", "Cosy Nights")
    assert _calls(said, lists, "show me my lists", LISTS_SHOWN) == calls


def test_a_place_past_the_lists_shown_names_none() -> None:
    history = [Message("assistant", LISTS_SHOWN)]
    said = "rename the fifth one to X"
    assert with_places_named(said, history, ("TBR", "Done", "Cosy Nights")) == said


@pytest.mark.parametrize(
    "said",
    [
        "ugh no, the OTHER list",
        "the other one please",
        "nope, other list",
        "i meant the other list",
    ],
)
def test_the_other_of_two_lists_is_shown_instead(said: str) -> None:
    calls = _calls(said, ("Summer", "Winter"), "show me my Summer list", SUMMER)
    assert calls == [("get_list_details", {"list": "Winter"})]


def test_the_other_of_several_lists_is_asked() -> None:
    history = [Message("user", "show me my Summer list"), Message("assistant", SUMMER)]
    asked = with_places_named("no, the other list", history, ("Summer", "Winter", "Spring"))
    assert isinstance(asked, Clarification)
    assert "Winter" in asked.question and "Spring" in asked.question


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        (
            "not that one the first one, remove dracula",
            [("remove_from_list", {"list": "Horror", "book": "Dracula"})],
        ),
        (
            "not that one, the second one, take carrie off",
            [("remove_from_list", {"list": "Horror", "book": "Carrie"})],
        ),
        (
            "no not that one - remove Carrie",
            [("remove_from_list", {"list": "Horror", "book": "Carrie"})],
        ),
        (
            "nope not this one, i meant the 2nd one, remove carrie",
            [("remove_from_list", {"list": "Horror", "book": "Carrie"})],
        ),
    ],
)
def test_a_pointing_aside_before_a_full_request_is_set_aside(said: str, calls: Any) -> None:
    assert _calls(said, ("Horror",), "what's in my horror list", HORROR) == calls


def test_an_aside_whose_place_holds_another_book_is_not_settled_here() -> None:
    history = [Message("user", "what's in my horror list"), Message("assistant", HORROR)]
    said = "not that one, the first one, remove carrie"
    assert with_places_named(said, history, ("Horror",)) == said
