"""Mechanisms the thirteenth pass's book requests lacked, each phrased fresh beside dev13's own.

From dev13 (pool-v13): a book told to be on a list already ("this is on my Spooky list by
mistake, please take it off") asks to put nothing there, and names the list a later "take it
off" means; a correction naming only its field and value ("language should be english", "the
year here is wrong") is of the book in view; two languages set against each other ("X isn't
in French, it's English") say a correction, the one denied being no part of the title.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.book_plan import plan_books
from lectern.adapters.understanding.corrections import language_of
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.intents import (
    IntentReading,
    IntentScore,
    NearestExampleClassifier,
)
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.list_told import list_told, tells_a_list_holds
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.referents import book_resolver
from lectern.adapters.understanding.ruled_out import ruled_out
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec

CATALOG = {"holes": "Holes", "gilead": "Gilead", "coraline": "Coraline", "misery": "Misery"}
LISTS = ("Summer", "Dnf", "Spooky")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
PAGE_BOOK = "0b3c2a56-3c8e-4f3e-9a53-0d2b5c1f7e11"
PAGE = f"The reader is on a book page: Coraline (id {PAGE_BOOK})."
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]
NAMES = names_from_prompt(SYSTEM)


def _in_view(reference: str) -> str:
    return (
        PAGE_BOOK
        if reference.casefold() in ("it", "here", "on this page", "this page")
        else reference
    )


def _nowhere(reference: str) -> str:
    return reference


def _call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall("c", name, arguments)


class _ListMinded:
    """Reads as MiniLM did: a telling about a list is nearest adding; "take off", removing."""

    def classify(
        self, text: str, allowed: Iterable[str], boosts: Mapping[str, float] | None = None
    ) -> IntentReading:
        del allowed, boosts
        removes = re.search(r"\b(?:take|remove)\b", text, re.I) is not None
        order = ["remove_from_list", "add_to_list"] if removes else ["add_to_list"]
        order += [i for i in ("delete_list", "get_list_details") if i not in order]
        scores = (0.3, 0.15, 0.14, 0.13)
        ranked = tuple(IntentScore(i, s) for i, s in zip(order, scores, strict=False))
        return IntentReading(ranked, confidence=0.97, margin=0.15)


def _calls(text: str, system: str = f"{SYSTEM}\n{PAGE}") -> list[tuple[str, dict[str, Any]]]:
    def books(title: str) -> Sequence[tuple[str, str, int]]:
        found = CATALOG.get(title.strip().casefold())
        return [(found, "Someone", 10)] if found else []

    layer = Understanding(cast(NearestExampleClassifier, _ListMinded()))
    policy = RulePolicy(
        layer=layer, titles=lambda words: words.strip().casefold() in CATALOG, books=books
    )
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=system)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


# --- a book told to be on a list already -----------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "this is on my Spooky list by mistake, please take it off",
        "it's in the Summer list by accident, can you remove it",
        "Holes is on my Dnf list but it shouldn't be - take it out",
        "this book's still on my Summer list, remove it",
    ],
)
def test_a_book_told_on_a_list_is_neither_added_nor_the_list_deleted(said: str) -> None:
    assert {"add_to_list", "delete_list"} <= ruled_out(said, NAMES)


@pytest.mark.parametrize(
    "said",
    [
        "Holes is on my Summer list, add Gilead too",
        "Holes is on the Summer list, please delete the whole Summer list",
        "can you put Holes on my Summer list",
    ],
)
def test_a_request_beside_what_a_list_holds_is_still_read(said: str) -> None:
    gone = ruled_out(said, NAMES)
    assert "add_to_list" not in gone or "delete_list" not in gone


def test_telling_names_the_list_and_a_question_does_not() -> None:
    assert list_told("this is on my Summer list by mistake", NAMES) == "Summer"
    assert list_told("Holes is in the Dnf list", NAMES) == "Dnf"
    assert list_told("is Holes on my Summer list?", NAMES) is None
    assert not tells_a_list_holds("add Holes to my Summer list")


@pytest.mark.parametrize(
    "said",
    [
        "this is on my Spooky list by mistake, please take it off",
        "it's in the Spooky list by accident, can you remove it",
        "this one is on my Spooky list, take it out",
    ],
)
def test_take_it_off_after_the_telling_removes_the_book_in_view(said: str) -> None:
    assert _calls(said) == [("remove_from_list", {"list": "Spooky", "book": PAGE_BOOK})]


def test_the_telling_alone_adds_nothing() -> None:
    made = [name for name, _ in _calls("this is on my Spooky list by mistake")]
    assert "add_to_list" not in made


# --- a correction with its book unsaid, or two languages set against each other --------------


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("Dolores Claiborne isn't in French, it's English", "English"),
        ("trainspotting is english not french pls correct", "English"),
        ("Emma isn't in Spanish, it's English", "English"),
        ("persuasion is german not english", "German"),
    ],
)
def test_two_languages_set_against_each_other_say_the_right_one(said: str, language: str) -> None:
    assert language_of(said) == language


def test_a_language_wished_for_in_a_search_is_no_correction() -> None:
    assert language_of("I want French novels") is None


@pytest.mark.parametrize(
    ("said", "fields"),
    [
        ("language should be english", {"language": "English"}),
        ("the language should be French", {"language": "French"}),
        ("the year here is wrong, it was published in 1943", {"published_year": 1943}),
        ("the date on this page is wrong, should be 1943", {"published_year": 1943}),
    ],
)
def test_a_correction_without_its_book_means_the_book_in_view(
    said: str, fields: dict[str, Any]
) -> None:
    planned = plan_books("propose_correction", said, NAMES, _in_view, _call)
    assert planned == [ToolCall("c", "propose_correction", {"book": PAGE_BOOK, **fields})]


def test_a_correction_without_its_book_and_none_in_view_is_asked() -> None:
    planned = plan_books("propose_correction", "language should be english", NAMES, _nowhere, _call)
    assert planned is None


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("trainspotting is english not french pls correct", "trainspotting"),
        ("Dolores Claiborne isn't in French, it's English", "Dolores Claiborne"),
    ],
)
def test_the_denied_language_is_no_part_of_the_title(said: str, book: str) -> None:
    planned = plan_books("propose_correction", said, NAMES, _nowhere, _call)
    assert planned == [ToolCall("c", "propose_correction", {"book": book, "language": "English"})]


@pytest.mark.parametrize("said", ["here", "on here", "this page", "on this page"])
def test_here_and_this_page_point_at_the_book_in_view(said: str) -> None:
    assert book_resolver([], f"{SYSTEM}\n{PAGE}")(said) == PAGE_BOOK
