"""A free-text value that runs on into the reader's own words or the next request (dev21).

A new list's name read up to the end of the message swallowed what came after it:
"rename my shelf 'tbr' to 'to-read' so it matches goodreads" named the list
"to-read' so it matches goodreads" (a quoted name ends at its closing quote,
`slots.quoted_lead`), and "renam my list scifi to Sci Fi Faves and ad The Martain to it"
named it "Sci Fi Faves and ad The Martain to it" ("ad X to Y", the layer's own short "add",
starts a request after a joint: `compound.ADD_SLIPPED`).
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.compound import clauses
from lectern.adapters.understanding.slots import name_ended
from tests.unit.test_values_said import _calls


@pytest.mark.parametrize(
    ("value", "said", "name"),
    [
        # dev21
        (
            "to-read' so it matches goodreads",
            "rename my shelf 'tbr' to 'to-read' so it matches goodreads",
            "to-read",
        ),
        # ours
        ("Beach Bag' for the summer", "rename 'Summer' to 'Beach Bag' for the summer", "Beach Bag"),
        ('Spooky" like last year', 'make a list called "Spooky" like last year', "Spooky"),
        ("“Gifts” so I remember", "create a list named “Gifts” so I remember", "Gifts"),
        (
            "'Bedtime', it is for Zainab",
            "make a list called 'Bedtime', it is for Zainab",
            "Bedtime",
        ),
        (
            "Night Reads' because it's cosier",
            "rename faves to 'Night Reads' because it's cosier",
            "Night Reads",
        ),
        # near-misses: the quote is part of the name, or the words after it are the name's
        ("Kids' Books", "rename 'Kids' to Kids' Books", "Kids' Books"),
        ("Sofia's Picks", "rename 'Sofia' to Sofia's Picks", "Sofia's Picks"),
        ("'Cosy' Reads", "make a list called 'Cosy' Reads", "'Cosy' Reads"),
        ("Read and Rate", "make a list called Read and Rate", "Read and Rate"),
    ],
)
def test_a_quoted_name_ends_at_its_quote(value: str, said: str, name: str) -> None:
    assert name_ended(value, said).strip("'") == name.strip("'")


@pytest.mark.parametrize(
    ("said", "parts"),
    [
        # dev21
        (
            "rename my list scifi to Sci Fi Faves and ad The Martain to it",
            ["rename my list scifi to Sci Fi Faves", "ad The Martain to it"],
        ),
        # ours
        (
            "rename Summer to Beach Bag and ad Jaws to it",
            ["rename Summer to Beach Bag", "ad Jaws to it"],
        ),
        (
            "make a list called Spooky, ad Dune to it",
            ["make a list called Spooky", "ad Dune to it"],
        ),
        ("rate Emma 4 and ad it to TBR", ["rate Emma 4", "ad it to TBR"]),
        (
            "rename faves to Comfort; ad Emma onto it",
            ["rename faves to Comfort", "ad Emma onto it"],
        ),
        ("delete Bleak then ad The Road to TBR", ["delete Bleak", "ad The Road to TBR"]),
    ],
)
def test_a_short_add_starts_the_next_request(said: str, parts: list[str]) -> None:
    assert clauses(said) == parts


@pytest.mark.parametrize(
    "said",
    [
        "make a list called Salt and ad hoc notes",
        "make a list called Ads and Posters",
        "create a list named Crime and Punishment",
        "rename Summer to Salt and Pepper",
    ],
)
def test_no_request_no_cut(said: str) -> None:
    assert clauses(said) == []


def test_the_name_no_longer_swallows_the_next_request() -> None:
    calls = _calls("rename Summer to Beach Bag and add Jaws to it")
    assert calls == [
        ("rename_list", {"list": "Summer", "new_name": "Beach Bag"}),
        ("add_to_list", {"list": "Beach Bag", "book": "Jaws"}),
    ]


@pytest.mark.parametrize(
    "said",
    [
        "rename Summer to Beach Bag and ad Jaws to it",
        "rename Beach to Sea Days and ad The Hobbit to it",
        "rename my list Summer to Beach Bag then ad Jaws to it",
    ],
)
def test_a_later_request_read_as_nothing_is_asked_not_named(said: str) -> None:
    asked = _calls(said)
    assert isinstance(asked, str) and "Should the list be called" in asked


def test_a_quoted_new_name_is_what_the_quotes_hold() -> None:
    calls = _calls("rename my list 'faves' to 'Comfort Reads' so it matches my other app")
    assert calls == [("rename_list", {"list": "faves", "new_name": "Comfort Reads"})]


@pytest.mark.parametrize(
    "said",
    [
        "rename Summer to Salt and Pepper",
        "rename Summer to Read and Rate",
        "rename Summer to Crime and Punishment",
    ],
)
def test_a_name_with_and_stays_whole(said: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list) and calls[0][1]["new_name"] == said.split(" to ", 1)[1]
