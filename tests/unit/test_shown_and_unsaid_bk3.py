"""Moves with no list said, writing asked for the reader, questions typed without their
mark, and several authors set against a record with fewer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.compound import _GAPPED_ENTRIES, clauses
from lectern.adapters.understanding.corrections import authors_of
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.move_unplaced import unplaced_move
from lectern.adapters.understanding.off_topic import off_topic
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolSpec

CATALOG = {"dune", "matilda", "dracula", "good omens", "the help", "emma", "carrie"}
LISTS = ("TBR", "Summer", "Classics")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


def _is_title(words: str) -> bool:
    return words.strip().casefold() in CATALOG


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    return [(title.strip().title(), "Someone", 10)] if _is_title(title) else []


def _calls(text: str) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=_is_title, books=_books)
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=SYSTEM)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


# --- a move with no list said ---------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "move dune",
        "shift matilda please",
        "pls move The Help",
        "transfer Dracula somewhere else",
        "could you move emma",
        "relocate carrie elsewhere",
    ],
)
def test_a_move_that_names_no_list_is_asked_where(said: str) -> None:
    reply = _calls(said)
    assert isinstance(reply, str)
    assert "Which list" in reply


@pytest.mark.parametrize(
    "said", ["move on", "move dune to Summer", "move Dune from TBR to Summer", "move along"]
)
def test_a_move_with_a_list_or_no_book_is_not_asked_where(said: str) -> None:
    assert unplaced_move(said, LISTS) is None


def test_a_move_from_a_reader_with_no_lists_is_not_asked_where() -> None:
    assert unplaced_move("move dune", ()) is None


# --- writing asked for the reader -----------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Can you help me write the email to the school about my son's homework? it's not about "
        "books",
        "draft a letter to my landlord about the heating",
        "could u write me a cover letter for a job",
        "help me compose a message to my boss",
        "quick one, this is nothing to do with books: what should I cook tonight",
        "pls proofread my cv",
    ],
)
def test_writing_for_the_reader_or_a_request_said_not_about_books_is_off_topic(said: str) -> None:
    assert off_topic(said)


@pytest.mark.parametrize(
    "said",
    [
        "books about writing letters",
        "a novel told in letters",
        "add The Help to Summer",
        "write a review of Dune",
    ],
)
def test_books_about_letters_and_reviews_stay_on_topic(said: str) -> None:
    assert not off_topic(said)


# --- a question typed without its mark, then said again ------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "what categories. list them",
        "which genres do you have. name them all",
        "what languages. show me them",
        "what categories do u have. show them",
    ],
)
def test_a_question_without_its_mark_is_the_request_the_next_sentence_repeats(said: str) -> None:
    assert _calls(said) == [("catalog_facets", {"top": 10})]


# --- several authors against a record with fewer -------------------------------------------


@pytest.mark.parametrize(
    ("said", "authors"),
    [
        (
            "hey the author of good omens is terry pratchett and neil gaiman both not just one",
            ["Terry Pratchett", "Neil Gaiman"],
        ),
        (
            "good omens is by pratchett and gaiman together, not just one of them",
            ["Pratchett", "Gaiman"],
        ),
        (
            "the writer of matilda is roald dahl and quentin blake both, not only one",
            ["Roald Dahl", "Quentin Blake"],
        ),
        ("author: Stephen King & Peter Straub, not just King", ["Stephen King", "Peter Straub"]),
        ("the authors of The Talisman are King, Straub, not merely one", ["King", "Straub"]),
    ],
)
def test_several_authors_said_against_fewer_are_every_one(said: str, authors: list[str]) -> None:
    assert authors_of(said) == authors


def test_several_authors_against_fewer_is_a_correction() -> None:
    said = "hey the author of good omens is terry pratchett and neil gaiman both not just one"
    assert _calls(said) == [
        (
            "propose_correction",
            {"book": "Good Omens", "authors": ["Terry Pratchett", "Neil Gaiman"]},
        )
    ]


# --- two entries with their verb said once -------------------------------------------------


@pytest.mark.parametrize(
    ("said", "parts"),
    [
        (
            "add Matilda to Sofia's list and Diary of a Wimpy Kid to Luca's",
            ["add Matilda to Sofia's list", "add Diary of a Wimpy Kid to Luca's list"],
        ),
        (
            "put Emma on Summer, and Dune on Classics",
            ["put Emma on Summer", "put Dune on Classics"],
        ),
        (
            "take Carrie off TBR and Dracula off Summer please",
            ["take Carrie off TBR", "take Dracula off Summer"],
        ),
        (
            "pls add Pride and Prejudice to Classics & Dune to TBR",
            ["add Pride and Prejudice to Classics", "add Dune to TBR"],
        ),
        (
            "remove emma from tbr plus dune from summer",
            ["remove emma from tbr", "remove dune from summer"],
        ),
    ],
)
def test_two_entries_with_one_verb_are_two_requests(said: str, parts: list[str]) -> None:
    assert clauses(said) == parts


@pytest.mark.parametrize(
    "said", ["add Matilda and Emma to Summer", "add Matilda to Summer and rate it 4"]
)
def test_one_list_or_a_second_verb_is_no_gapped_entry(said: str) -> None:
    assert _GAPPED_ENTRIES.match(said) is None


def test_gapped_entries_reach_both_lists() -> None:
    calls = _calls("put Emma on Summer, and Dune on Classics")
    assert calls == [
        ("add_to_list", {"list": "Summer", "book": "Emma"}),
        ("add_to_list", {"list": "Classics", "book": "Dune"}),
    ]
