"""Search bounds whose direction is said after the number, by refusal, or in words."""

from __future__ import annotations

from typing import Any

import pytest

from lectern.adapters.llm.book_rules import BookRules
from lectern.adapters.llm.rule_steps import BookSteps
from lectern.adapters.understanding.said_bounds import with_leading_bounds
from lectern.domain.assistant import ToolCall
from tests.unit.test_query_understanding_rules import RULES


def _call(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall("t", tool, dict(arguments))


def _bounds(said: str, low: str, high: str) -> tuple[Any, Any]:
    search = BookRules(BookSteps(_call, None), RULES).search_call(said)
    return search.arguments.get(low), search.arguments.get(high)


@pytest.mark.parametrize(
    ("said", "bounds"),
    [
        ("i search a novel in french, from 1950 or before, something classic please", (None, 1950)),
        ("westerns from 1960 or earlier", (None, 1960)),
        ("a mystery published 1930, or older, ideally", (None, 1930)),
        ("poetry written in 1900 and before", (None, 1900)),
        ("thrillers 1999 at the latest", (None, 1999)),
        ("fantasy from 2005 or later", (2005, None)),
        ("sci fi 2010 or newer pls", (2010, None)),
        ("romance novels from 1990 and after", (1990, None)),
        ("history books, 1950 at the earliest", (1950, None)),
        ("biographies no later than 1980", (None, 1980)),
        ("memoirs not after 1970", (None, 1970)),
        ("essays no earlier than 1920", (1920, None)),
        ("plays not before 1800", (1800, None)),
        ("novels from nineteen fifty or earlier", (None, 1950)),
    ],
)
def test_a_year_bound_is_read_by_its_direction_word(said: str, bounds: tuple[Any, Any]) -> None:
    assert _bounds(said, "min_year", "max_year") == bounds


@pytest.mark.parametrize(
    ("said", "bounds"),
    [
        (
            "find me books about the french revolution that are no more than three hundred "
            "pages long because i read on the train",
            (None, 300),
        ),
        ("a thriller under two hundred pages", (None, 200)),
        ("something on rome, at most a hundred and fifty pages", (None, 150)),
        ("poems, ninety pages tops", (None, 90)),
        ("a detective novel 250 pages max", (None, 250)),
        ("history of japan not longer than four hundred pages", (None, 400)),
        ("an epic fantasy no less than 600 pages", (600, None)),
        ("sci-fi not under five hundred pages please", (500, None)),
        ("a saga of 700 pages minimum", (700, None)),
        ("a family saga that's over eight hundred pages", (800, None)),
    ],
)
def test_a_page_bound_is_read_by_its_direction_word(said: str, bounds: tuple[Any, Any]) -> None:
    assert _bounds(said, "min_pages", "max_pages") == bounds


def test_pages_long_measures_the_count_and_asks_for_no_long_book() -> None:
    assert _bounds("books 200 pages long about whales", "min_pages", "max_pages") == (None, None)
    assert with_leading_bounds("three hundred pages long") == "300 pages"


@pytest.mark.parametrize(
    "said",
    [
        "a book from 1950 about the war",
        "books like Nineteen Eighty-Four",
        "the hundred years war",
        "one hundred years of solitude",
        "a long novel from before 1900",
    ],
)
def test_words_that_state_no_bound_are_left_alone(said: str) -> None:
    assert with_leading_bounds(said) == said
