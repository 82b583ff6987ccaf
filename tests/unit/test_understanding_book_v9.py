"""Mechanisms the ninth pass's book requests lacked, each phrased fresh (no sentence of it).

A list made with its books may be only the first of the message's requests: the reading that
leaves no request behind wins over the one that stops at the list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

CATALOG = {"stoner", "kindred", "middlesex", "war and peace", "the remains of the day"}
LISTS = ("Gifts", "Oldies")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _is_title(words: str) -> bool:
    return words.strip().casefold() in CATALOG


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    return [(title.strip().title(), "Someone", 10)] if _is_title(title) else []


def _calls(
    text: str, system: str = SYSTEM, history: Sequence[Message] = ()
) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=_is_title, books=_books)
    messages = [*history, Message("user", text)]
    reply = policy.complete_with_tools(messages, TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def test_a_request_after_a_list_made_with_its_book_is_kept() -> None:
    assert _calls("throw Kindred on a fresh list named Winter nights and then rate it five") == [
        ("create_list", {"name": "Winter nights"}),
        ("add_to_list", {"list": "Winter nights", "book": "Kindred"}),
        ("rate_book", {"book": "Kindred", "stars": 5}),
    ]


def test_a_list_made_with_its_books_alone_is_still_one_reading() -> None:
    assert _calls("start a new list Porch with Stoner and Middlesex") == [
        ("create_list", {"name": "Porch"}),
        ("add_to_list", {"list": "Porch", "book": "Stoner"}),
        ("add_to_list", {"list": "Porch", "book": "Middlesex"}),
    ]


def test_a_part_that_asks_nothing_alone_is_read_with_the_next() -> None:
    said = "we'd like a list for the holidays, name it Fireside, then add Stoner and Kindred to it"
    assert _calls(said) == [
        ("create_list", {"name": "Fireside"}),
        ("add_to_list", {"list": "Fireside", "book": "Stoner"}),
        ("add_to_list", {"list": "Fireside", "book": "Kindred"}),
    ]


@pytest.mark.parametrize(
    "said",
    ["who illustrated Kindred?", "who's the editor of Kindred", "translator of Kindred"],
)
def test_everyone_a_book_credits_is_asked_after_in_its_record(said: str) -> None:
    assert _calls(said) == [("get_book_details", {"book": "Kindred"})]


@pytest.mark.parametrize(
    "said",
    ["the page count of Stoner please", "what is the length of Stoner", "page count for Stoner?"],
)
def test_a_page_count_asked_as_a_noun_is_the_books_length(said: str) -> None:
    assert _calls(said) == [("get_book_details", {"book": "Stoner"})]


@pytest.mark.parametrize(
    ("said", "field", "value"),
    [
        (
            "the author of Kindred is wrong, it should be Octavia Butler",
            "authors",
            ["Octavia Butler"],
        ),
        (
            "the author of Kindred is wrong - the real author is Octavia Butler",
            "authors",
            ["Octavia Butler"],
        ),
        (
            "the category of Kindred is wrong, it's science fiction",
            "categories",
            ["science fiction"],
        ),
    ],
)
def test_the_words_before_a_corrections_value_are_not_the_value(
    said: str, field: str, value: list[str]
) -> None:
    calls = _calls(said)
    assert isinstance(calls, list) and calls[0][0] == "propose_correction", calls
    assert calls[0][1]["book"] == "Kindred" and calls[0][1][field] == value
