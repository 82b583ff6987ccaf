"""Review findings on the book surface: a question about a list, "the first one" as a book, a
verdict on the author, a corrected request, a hesitant or joined list name, and the rival rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.correction_said import correction_said
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.said_around import said_bare
from lectern.adapters.understanding.slots import name_ended
from lectern.application.assistant.names import NAMES_HEADER
from lectern.application.book_lookup import by_several_writers
from lectern.domain.assistant import Message, ToolSpec

CATALOG = {"dune", "dune messiah", "children of dune", "emma", "kindred", "what alice forgot"}
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]
LISTS = ("TBR", "Summer", "Kids")


def _is_title(words: str) -> bool:
    return words.strip().casefold() in CATALOG


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    return [(title.strip().title(), "Someone", 10)] if _is_title(title) else []


def _calls(text: str) -> list[tuple[str, dict[str, Any]]] | str:
    system = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {n}" for n in LISTS)])
    policy = RulePolicy(titles=_is_title, books=_books)
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=system)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def _changes(text: str) -> list[tuple[str, dict[str, Any]]]:
    calls = _calls(text)
    reads = {"get_list_details", "get_book_details", "search_books", "get_reading_lists"}
    return [] if isinstance(calls, str) else [c for c in calls if c[0] not in reads]


@pytest.mark.parametrize(
    "said",
    [
        "what goes on Summer?",
        "what goes on the first list?",
        "What else goes on TBR?",
        "which book goes on Summer?",
        "so what goes on Kids?",
        "which ones go on Summer",
        "what could go on TBR?",
        "what should come off Kids?",
    ],
)
def test_a_question_of_what_goes_on_a_list_moves_no_book(said: str) -> None:
    assert _changes(said) == []


@pytest.mark.parametrize(
    ("said", "tool", "book", "where"),
    [
        ("Dune goes on Summer", "add_to_list", "Dune", "Summer"),
        ("What Alice Forgot goes on Summer", "add_to_list", "What Alice Forgot", "Summer"),
        ("Kindred can come off TBR now", "remove_from_list", "Kindred", "TBR"),
    ],
)
def test_a_book_said_to_go_on_a_list_still_moves(
    said: str, tool: str, book: str, where: str
) -> None:
    assert _calls(said) == [(tool, {"list": where, "book": book})]


@pytest.mark.parametrize(
    "said",
    [
        "I finished the first one, bin it",
        "I finished the first one of the trilogy, delete it from TBR",
        "loved the first one, can go on Summer",
        "read the second one already, scrap it",
        "the first one in the series, delete it from Kids",
        "enjoyed the last one, it can go on TBR",
    ],
)
def test_the_nth_one_said_as_a_book_is_no_list(said: str) -> None:
    assert not any(c[0] in ("delete_list", "rename_list") for c in _changes(said))


@pytest.mark.parametrize(
    ("said", "target"),
    [
        ("the first one, bin it", "TBR"),
        ("delete the second one", "Summer"),
        ("scrap the last one", "Kids"),
    ],
)
def test_the_nth_one_beside_a_list_verb_is_still_a_list(said: str, target: str) -> None:
    assert _calls(said) == [("delete_list", {"list": target})]


@pytest.mark.parametrize(
    "said",
    [
        "Emma is filed under Romance. The author is brilliant",
        "Dune is listed as Fiction. The author is dead",
        "Dune is listed as Fiction. The author is a genius",
        "Emma is shelved as Romance. The author is so clever",
        "Kindred is filed under Horror. The author is really good",
    ],
)
def test_a_verdict_on_the_author_is_no_author(said: str) -> None:
    assert correction_said(said) is None


@pytest.mark.parametrize(
    ("said", "author"),
    [
        ("Dune is listed as Romance. The author is Frank Herbert", "Frank Herbert"),
        ("Emma is filed under Romance. The author is Austen", "Austen"),
        ("Emma is filed under Romance. The author should be jane austen", "jane austen"),
    ],
)
def test_a_name_for_the_author_is_still_read(said: str, author: str) -> None:
    assert correction_said(said) == f"the author of {said.split(' is ')[0]} should be {author}"


@pytest.mark.parametrize(
    "said",
    [
        "add Dune to TBR. I mean Dune Messiah",
        "rate Dune 4 stars. I mean Dune Messiah",
        "add Dune to TBR. I meant Children of Dune",
        "add Dune to Summer. Sorry, it's Dune Messiah",
        "put Dune on Kids. Or rather Children of Dune",
    ],
)
def test_a_sentence_that_corrects_is_no_remark(said: str) -> None:
    assert said_bare(said, LISTS) == said


@pytest.mark.parametrize(
    ("said", "bare"),
    [
        ("add Dune to TBR. I need it for my essay", "add Dune to TBR."),
        ("add Dune to TBR. My sister recommended it", "add Dune to TBR."),
    ],
)
def test_a_remark_after_the_request_is_still_dropped(said: str, bare: str) -> None:
    assert said_bare(said, LISTS).rstrip(".") == bare.rstrip(".")


@pytest.mark.parametrize(
    "said",
    [
        "rename Summer to 'Beach' or maybe 'Pool'",
        "rename Summer to Beach or maybe Pool",
        "create a list called Cozy, or perhaps Snug",
        'make a new list named "Later" or possibly "Someday"',
        "rename Kids to Young Ones or maybe Juniors",
    ],
)
def test_a_hesitant_name_is_asked(said: str) -> None:
    assert isinstance(_calls(said), str)


def test_two_quoted_names_are_not_one() -> None:
    said = "rename Summer to 'Beach' or maybe 'Pool'"
    assert name_ended("Beach' or maybe 'Pool", said) == "Beach"
    assert name_ended("Beach", "rename Summer to 'Beach'") == "Beach"


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("create a list called Read and Rate", "Read and Rate"),
        ("make a new list called Bed and Breakfast Reads", "Bed and Breakfast Reads"),
        ("make a list called Salt and Pepper", "Salt and Pepper"),
        ("rename Summer to Now or Never", "Now or Never"),
        ("create a list called Rock and Roll Memoirs", "Rock and Roll Memoirs"),
    ],
)
def test_a_joined_name_runs_to_the_end(said: str, name: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list) and calls[0][1].get("name", calls[0][1].get("new_name")) == name


def test_a_later_request_still_ends_the_name() -> None:
    assert _calls("create a list called Beach and add Dune to it") == [
        ("create_list", {"name": "Beach"}),
        ("add_to_list", {"list": "Beach", "book": "Dune"}),
    ]


@pytest.mark.parametrize(
    ("books", "several"),
    [
        ([("Sibley", 100.0), ("Reinhart", 40.0)], True),
        ([("Austen", 100.0), ("Bronte", 0.5)], False),  # below the rival share
        ([("Herbert", 100.0), ("Herbert", 90.0)], False),  # editions of one book
        ([], False),
    ],
)
def test_the_rival_rule_has_one_source(books: list[tuple[str, float]], several: bool) -> None:
    assert by_several_writers(books) is several


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("start a list called Travel and leave it empty", "Travel"),
        ("make a list called Salt and Pepper and keep it short", "Salt and Pepper"),
        ("create a list called Read and Rate", "Read and Rate"),
    ],
)
def test_a_clause_pointing_back_at_the_list_ends_its_name(said: str, name: str) -> None:
    # dev: "Travel and leave it empty" had become the new list's name
    from lectern.adapters.understanding.slots import list_name_of

    assert list_name_of(said) == name
