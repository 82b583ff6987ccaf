"""What is said beside a book request that asks nothing, and a rating's grade left unsaid.

Found by hand and on dev14: a remark after a list named without the word "list" ("take the
hobbit off my tbr, already read it ages ago"); a reason or a request swallowed by a rating's
review ("give it five stars, and since I have now read it, take it off ..."); a relative
"which" read as a question; a rating asked without its stars, or with them said in words
("it was a solid four"); "actually make that 4" and "same again for X" after a change; a list
"for summer" named "for summer"; "remove from TBR" on a book's page; "remove the last one.
she hated it".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.book_patterns import LIST_WITH
from lectern.adapters.understanding.book_plan import plan_books
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.remarks import (
    book_unsaid,
    remark_after,
    review_told,
    ungraded,
    without_reason_told,
)
from lectern.adapters.understanding.slots import stars_of
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import Message, ToolCall, ToolSpec

CATALOG = {
    "the hobbit": "The Hobbit",
    "the kite runner": "The Kite Runner",
    "gone girl": "Gone Girl",
    "dune": "Dune",
    "rebecca": "Rebecca",
    "the peach keeper": "The Peach Keeper",
    "holes": "Holes",
}
LISTS = ("TBR", "To Read", "Summer", "Book Club", "Kids")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
PAGE_BOOK = "0b3c2a56-3c8e-4f3e-9a53-0d2b5c1f7e11"
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]
NAMES = names_from_prompt(SYSTEM)


def _books(title: str) -> Sequence[tuple[str, str, int]]:
    found = CATALOG.get(" ".join(title.casefold().split()))
    return [(found, "Someone", 10)] if found else []


def _calls(text: str, history: Sequence[Message] = ()) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(titles=lambda words: bool(_books(words)), books=_books)
    reply = policy.complete_with_tools([*history, Message("user", text)], TOOLS, system=SYSTEM)
    if not reply.tool_calls:
        return reply.text
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def _call(name: str, **arguments: Any) -> ToolCall:
    return ToolCall("c", name, arguments)


def _in_view(reference: str) -> str:
    return PAGE_BOOK if reference.casefold() in ("it", "this") else reference


# --- a remark after a list named without the word "list" -------------------------------------


@pytest.mark.parametrize(
    ("said", "call"),
    [
        (
            "could u take the hobbit off my tbr, already read it ages ago",
            ("remove_from_list", {"list": "TBR", "book": "The Hobbit"}),
        ),
        (
            "can you pull gone girl out of Book Club, nobody voted for it",
            ("remove_from_list", {"list": "Book Club", "book": "Gone Girl"}),
        ),
        (
            "pop Dune onto Summer, saw it at the shop",
            ("add_to_list", {"list": "Summer", "book": "Dune"}),
        ),
        (
            "could you stick rebecca on book club; my sister recommended it",
            ("add_to_list", {"list": "Book Club", "book": "Rebecca"}),
        ),
    ],
)
def test_a_remark_after_the_list_is_no_part_of_its_name(said: str, call: object) -> None:
    assert _calls(said) == [call]


def test_a_clause_that_asks_is_no_remark() -> None:
    assert remark_after("take dune off Summer, and show me my lists") is None
    assert remark_after("take dune off Summer, already read it") == (
        "take dune off Summer",
        "already read it",
    )


# --- a rating's review holds no reason and no request ----------------------------------------


@pytest.mark.parametrize(
    ("review", "told"),
    [
        ("and since I have now read it, take it off my To Read list", None),
        ("loved it, because we finished it for club", "loved it"),
        ("a slow start but worth it. take it off Summer", "a slow start but worth it"),
        ("gorgeous prose", "gorgeous prose"),
    ],
)
def test_a_review_is_cut_before_a_reason_or_a_request(review: str, told: str | None) -> None:
    assert review_told(review) == told


@pytest.mark.parametrize(
    ("said", "book", "listed"),
    [
        (
            "Hello again. I have finished The Kite Runner, which my former pupil recommended to "
            "me. It was harrowing but beautifully done. Please give it five stars, and since I "
            "have now read it, take it off my To Read list. Thank you kindly.",
            "The Kite Runner",
            "To Read",
        ),
        (
            "I finished Rebecca, which my aunt gave me. Please give it four stars, and as we "
            "have read it, remove it from Book Club.",
            "Rebecca",
            "Book Club",
        ),
        (
            "rate Gone Girl 3 stars since I finished it, then take it off my Summer list",
            "Gone Girl",
            "Summer",
        ),
    ],
)
def test_a_rating_then_a_removal_with_a_reason_between(said: str, book: str, listed: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert [name for name, _ in calls] == ["rate_book", "remove_from_list"]
    assert "review" not in calls[0][1] and calls[0][1]["book"] == book
    assert calls[1][1] == {"list": listed, "book": book}


# --- a rating asked without its stars, or with them in words ---------------------------------


@pytest.mark.parametrize(
    ("said", "named"),
    [
        ("rate The Secret History", "The Secret History"),
        ("can you rate Dune for me", "Dune"),
        ("I want to rate this one", "it"),
        ("i'd like to score Gone Girl please", "Gone Girl"),
    ],
)
def test_a_rating_without_stars_asks_how_many(said: str, named: str) -> None:
    asked = ungraded(said)
    assert asked is not None and f"give {named}?" in asked.question
    reply = _calls(said)
    assert isinstance(reply, str) and "How many stars" in reply, reply


@pytest.mark.parametrize("said", ["rate Dune 4", "rate my lists", "rate books like dune"])
def test_a_rating_with_its_stars_or_no_book_is_not_asked(said: str) -> None:
    assert ungraded(said) is None


@pytest.mark.parametrize(
    ("said", "stars"),
    [
        ("i think i'd like to rate gone girl, it was a solid four", 4),
        ("I'd like to rate Dune, it's an easy five", 5),
        ("rate holes for me, that was a generous two", 2),
    ],
)
def test_a_grade_said_in_words_as_a_verdict(said: str, stars: int) -> None:
    assert stars_of(said) == stars


def test_a_one_off_is_no_grade() -> None:
    assert stars_of("rate dune, it's a one-off") is None


# --- the last change again --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "said", "call"),
    [
        (
            "rate Rebecca 3 stars",
            "actually make that 4",
            ("rate_book", {"book": "Rebecca", "stars": 4}),
        ),
        (
            "rate dune 2 stars",
            "hmm no, change it to 3",
            ("rate_book", {"book": "Dune", "stars": 3}),
        ),
        (
            "give Holes five stars",
            "wait, make it four",
            ("rate_book", {"book": "Holes", "stars": 4}),
        ),
    ],
)
def test_a_grade_said_again_after_a_rating(before: str, said: str, call: object) -> None:
    history = [Message("user", before), Message("assistant", "Done.")]
    assert _calls(said, history) == [call]


def test_a_grade_said_again_after_no_rating_rates_nothing() -> None:
    history = [Message("user", "add Rebecca to Summer"), Message("assistant", "Added.")]
    reply = _calls("actually make that 4", history)
    assert not isinstance(reply, list) or all(name != "rate_book" for name, _ in reply)


@pytest.mark.parametrize(
    ("before", "said", "call"),
    [
        (
            "add Rebecca to Summer",
            "same again for The Peach Keeper",
            ("add_to_list", {"list": "Summer", "book": "The Peach Keeper"}),
        ),
        (
            "remove dune from Book Club",
            "same again with Gone Girl",
            ("remove_from_list", {"list": "Book Club", "book": "Gone Girl"}),
        ),
    ],
)
def test_same_again_for_another_book(before: str, said: str, call: object) -> None:
    history = [Message("user", before), Message("assistant", "Done.")]
    assert _calls(said, history) == [call]


# --- a list "for" something is named by it ----------------------------------------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("make me a list for summer with a couple of beach reads", "summer"),
        ("start a list for our book club with three short mysteries", "book club"),
        ("create a new list for winter evenings and add dune to it", "winter evenings"),
        ("make a list called for the win with 2 thrillers", "for the win"),
    ],
)
def test_a_new_list_for_something_is_named_by_it(said: str, name: str) -> None:
    found = LIST_WITH.match(said)
    assert found is not None and found["name"] == name


# --- the book in view, the book last listed ---------------------------------------------------


@pytest.mark.parametrize(
    ("intent", "said", "listed"),
    [
        ("remove_from_list", "remove from TBR", "TBR"),
        ("remove_from_list", "take off Summer please", "Summer"),
        ("add_to_list", "add to Book Club", "Book Club"),
    ],
)
def test_a_change_with_its_book_unsaid_is_the_book_in_view(
    intent: str, said: str, listed: str
) -> None:
    assert book_unsaid(said)
    planned = plan_books(intent, said, NAMES, _in_view, _call)
    assert planned == [_call(intent, list=listed, book=PAGE_BOOK)]


def test_a_change_with_its_book_unsaid_and_none_in_view_asks() -> None:
    planned = plan_books("remove_from_list", "remove from TBR", NAMES, lambda r: r, _call)
    assert not isinstance(planned, list)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("remove the last one. she hated it", "remove the last one"),
        ("take the second one off. we never read it", "take the second one off"),
        ("drop the first one! it was too scary", "drop the first one"),
        ("remove Mr. Penumbra's book", "remove Mr. Penumbra's book"),
    ],
)
def test_why_told_after_the_request_is_no_part_of_it(said: str, kept: str) -> None:
    assert without_reason_told(said) == kept


# --- the stars answered to the question asked -------------------------------------------------


@pytest.mark.parametrize("answer", ["4 stars", "4", "four", "4 stars please"])
def test_the_stars_answered_to_the_question_complete_the_rating(answer: str) -> None:
    # found trying it by hand: the suggested reply "4 stars" was asked "Which book, and how
    # many stars?" again, a question that led nowhere
    asked = _calls("rate Gone Girl")
    assert isinstance(asked, str) and asked.startswith("How many stars")
    history = [Message("user", "rate Gone Girl"), Message("assistant", asked)]
    assert _calls(answer, history) == [("rate_book", {"book": "Gone Girl", "stars": 4})]


def test_an_answer_that_is_no_grade_or_another_question_is_not_a_rating() -> None:
    history = [
        Message("user", "rate Gone Girl"),
        Message("assistant", "How many stars (1 to 5) should I give Gone Girl?"),
    ]
    assert not any(name == "rate_book" for name, _ in _calls("add Dune to TBR", history) or [])
    answered_elsewhere = [Message("user", "rate Gone Girl"), Message("assistant", "Done.")]
    assert _calls("4", answered_elsewhere) != [("rate_book", {"book": "Gone Girl", "stars": 4})]


@pytest.mark.parametrize("answer", ["Dune, 4 stars", "4 stars for Dune", "Rebecca - four"])
def test_an_answer_naming_a_book_is_read_whole_not_cut_to_its_grade(answer: str) -> None:
    history = [
        Message("user", "rate it"),
        Message("assistant", "Which book, and how many stars (1 to 5)?"),
    ]
    calls = _calls(answer, history)
    assert not any(name == "rate_book" and args.get("book") == "it" for name, args in calls)
