"""The joints, titles, corrections, topics and ratings dev4's classes added, phrased fresh."""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.book_patterns import TOPIC_LEAD
from lectern.adapters.understanding.compound import clauses, title_within
from lectern.adapters.understanding.corrections import authors_of
from lectern.adapters.understanding.slots import stars_of

TITLES = {"gilead", "the time traveler's wife", "war and peace", "night shift"}


def _is_title(words: str) -> bool:
    return words.casefold().strip() in TITLES or f"the {words.casefold().strip()}" in TITLES


@pytest.mark.parametrize(
    ("said", "parts"),
    [
        (
            "make a list 'Sea', pop Moby-Dick on it, then show me my lists",
            ["make a list 'Sea'", "pop Moby-Dick on it", "show me my lists"],
        ),
        ("Emma's year should be 1815; also rate it 4", ["Emma's year should be 1815", "rate it 4"]),
        ("what's on Winter, then bin the Attic list", ["what's on Winter", "bin the Attic list"]),
        ("find me sea stories, and show my lists", ["find me sea stories", "show my lists"]),
    ],
)
def test_a_message_splits_before_each_request(said: str, parts: list[str]) -> None:
    assert clauses(said) == parts


@pytest.mark.parametrize(
    "said", ["War and Peace", "sea stories, nothing over 300 pages", "rate it 4, loved it"]
)
def test_no_split_where_no_request_verb_follows(said: str) -> None:
    assert clauses(said) == []


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("Gilead for my aunt", "Gilead"),
        ("Gilead? Slow and kind", "Gilead"),
        ("just read time traveler's wife loved the ending", "time traveler's wife"),
        ("Night Shifts Of The Soul", None),
        ("Reread The Time Traveler's Wife", "The Time Traveler's Wife"),
        ("Reread Gilead", None),
        ("new Time Traveler's Wife", None),
        ("it, and what year. It's Gilead", "Gilead"),
        ("the one, you know, called The Time Traveler's Wife", "The Time Traveler's Wife"),
        ("war stories and peace talks", None),
    ],
)
def test_a_title_inside_more_words(said: str, title: str | None) -> None:
    assert title_within(said, _is_title) == title


@pytest.mark.parametrize(
    ("said", "authors"),
    [
        ("the authors of Beowulf are wrong, it should only be Seamus Heaney", ["Seamus Heaney"]),
        ("Beowulf author fix (Seamus Heaney only)", ["Seamus Heaney"]),
        ("beowulf's author should be seamus heaney alone", ["Seamus Heaney"]),
    ],
)
def test_one_right_author_said_as_only(said: str, authors: list[str]) -> None:
    assert authors_of(said) == authors


def test_a_topic_asked_after_is_not_the_readers_own_plate() -> None:
    assert TOPIC_LEAD.match("what's out there on sourdough baking")
    assert not TOPIC_LEAD.match("anything on my plate today?")


def test_a_bare_rating_may_end_in_a_remark() -> None:
    assert stars_of("rate it 4, loved it") == 4
    assert stars_of("give this one a 2 - too long") == 2
    assert stars_of("rate it 4, and 3 for the sequel") is None
