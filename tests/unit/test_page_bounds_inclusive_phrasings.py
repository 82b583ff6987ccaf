"""A page bound said with "under" or "over" includes the number the reader named.

"under 300 pages" had been read as at most 299 and "over 500 pages" as at least 501. Readers
mean the number loosely: a 300-page book is what someone asking for "under 300 pages" is
happy with, and 11 of 11 such requests by independent writers in the dev sets expected 300
("over 800 pages" expected 800). The reading is now the number itself, in every language
the page rules read, for the search's plan and for the book assistant alike; "between",
"at most" and "at least" read as before, and a refused side ("no less than 400 pages",
"nothing over 300 pages") is read before the direction word it holds. Phrasings are our
own, not from the sets.
"""

from __future__ import annotations

from typing import Any

import pytest

from lectern.adapters.llm.book_rules import BookRules
from lectern.adapters.llm.rule_steps import BookSteps
from lectern.domain.assistant import ToolCall
from tests.unit.test_query_understanding_rules import RULES as ASSISTANT_RULES
from tests.unit.test_understanding_exclusions import RULES


def _call(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall("t", tool, dict(arguments))


def _limits(said: str) -> tuple[int | None, int | None]:
    filters = RULES.plan(said).filters
    return filters.min_pages, filters.max_pages


def _searched(said: str) -> tuple[Any, Any]:
    search = BookRules(BookSteps(_call, None), ASSISTANT_RULES).search_call(said)
    return search.arguments.get("min_pages"), search.arguments.get("max_pages")


INCLUSIVE = [
    ("cozy mysteries under 350 pages", (None, 350)),
    ("anything below 180 pp for the flight", (None, 180)),
    ("a biography with fewer than 400 pages", (None, 400)),
    ("something shorter than 220 pages", (None, 220)),
    ("ghost stories, less than 150 pgs please", (None, 150)),
    ("family sagas over 900 pages", (900, None)),
    ("a fantasy above 450 pages", (450, None)),
    ("more than 650 pages of space opera", (650, None)),
    ("a thriller longer than 420 pages", (420, None)),
    ("una novela de terror de menos de 250 páginas", (None, 250)),
    ("une histoire d'amour de moins de 180 pages", (None, 180)),
    ("ein Krimi unter 220 Seiten", (None, 220)),
    ("un giallo con meno di 150 pagine", (None, 150)),
    ("una novela de más de 600 páginas", (600, None)),
    ("un roman de plus de 400 pages", (400, None)),
    ("ein Roman über 500 Seiten", (500, None)),
    ("un romanzo di più di 350 pagine", (350, None)),
]
"""Our own "under N" / "over N" phrasings: the bound is N itself."""

UNCHANGED = [
    ("war novels between 200 and 300 pages", (200, 300)),
    ("a 150-250 pages memoir", (150, 250)),
    ("a horror novel of at most 300 pages", (None, 300)),
    ("no more than 300 pages of poetry", (None, 300)),
    ("a saga of at least 500 pages", (500, None)),
    ("no fewer than 400 pages of fantasy", (400, None)),
    ("mysteries, 250 pages or less", (None, 250)),
]
"""Bounds that already included their number read as before ("no more than" is not "more
than": it stays an upper bound)."""


@pytest.mark.parametrize(("said", "limits"), INCLUSIVE + UNCHANGED)
def test_a_page_bound_includes_the_number_named(said: str, limits: tuple[Any, Any]) -> None:
    assert _limits(said) == limits


@pytest.mark.parametrize(
    ("said", "limits"),
    [
        ("no less than 400 pages of fantasy", (400, None)),
        ("sci-fi not under 500 pages", (500, None)),
        ("a memoir, not below 200 pages", (200, None)),
        ("sea stories, nothing over 300 pages", (None, 300)),
        ("a novel not longer than 280 pages", (None, 280)),
        ("nothing above 350 pages please", (None, 350)),
        ("thrillers, nothing under 200 pages", (200, None)),
        ("none under 150 pages please", (150, None)),
        ("no books over 300 pages", (None, 300)),
        ("Krimis, nicht unter 300 Seiten", (300, None)),
        ("novelas, no menos de 300 páginas", (300, None)),
        ("des romans, pas plus de 250 pages", (None, 250)),
    ],
)
def test_a_refused_side_is_the_other_bound(said: str, limits: tuple[Any, Any]) -> None:
    # "no less than 400 pages" holds "less than 400 pages": read alone it was at most 399,
    # the opposite of what was asked, in the search's plan (the assistant rewrote it first)
    assert _limits(said) == limits


@pytest.mark.parametrize(
    ("said", "limits"),
    [
        ("a mystery under 300 pages", (None, 300)),
        ("a fantasy over 500 pages", (500, None)),
        ("a western shorter than 250 pages", (None, 250)),
        ("a thriller under two hundred pages", (None, 200)),
        ("sci-fi not under five hundred pages please", (500, None)),
        ("nothing over 300 pages, a romance", (None, 300)),
    ],
)
def test_the_book_assistant_searches_the_same_bound(said: str, limits: tuple[Any, Any]) -> None:
    assert _searched(said) == limits


@pytest.mark.parametrize(
    "said",
    [
        "thrillers with under 300 reviews",
        "a fantasy that sold over 500 copies",
        "a novel published over 30 years ago",
        "a series of more than 10 books",
        "fewer than 3 characters, a chamber piece",
        "a story set in 300 BC",
    ],
)
def test_numbers_that_are_not_page_counts_set_no_limit(said: str) -> None:
    assert _limits(said) == (None, None)


def test_contradictory_bounds_are_still_dropped() -> None:
    assert _limits("books over 500 pages and under 300 pages") == (None, None)
