"""Books named by their place in a series (dev16).

"the second Hunger Games gets 4 stars", "the first Discworld book", "put the first and second
Hunger Games on Weekend", "tell me about the third Hunger Games": the catalog's series and
numbers say which book is meant; a place the catalog cannot fill, or an ordinal before a
title that is no numbered series, is asked about, never read as the series' first book.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import BOOK_TOOLS
from lectern.adapters.understanding.series_said import series_said
from lectern.application.assistant.names import NAMES_HEADER
from lectern.application.series_books import SeriesBook, series_key
from lectern.application.understanding import key_of
from lectern.domain.assistant import Message, ToolSpec
from lectern.domain.series import series_places

# (title, series text, number, readers), as the catalog's metadata gives them
RECORDS = (
    ("The Hunger Games", "The Hunger Games", "1", 4_780_000),
    ("Catching Fire", "The Hunger Games", "2", 1_831_000),
    ("Mockingjay", "The Hunger Games", "3", 1_719_000),
    ("The Hunger Games Trilogy Boxset", "The Hunger Games", "1-3", 129_000),
    ("The Color of Magic", "Discworld, #1; Rincewind", "1", 190_000),
    ("The Light Fantastic", "Discworld, #2; Rincewind", "2", 120_000),
    ("Mort", "Death, #1; Discworld", "4", 110_000),
    ("The Wee Free Men", "Discworld, #30; Tiffany Aching", "1", 90_000),
    ("Divergent", "Divergent", "1", 2_000_000),
    ("Insurgent", "Divergent", "2", 900_000),
    ("Allegiant", "Divergent", "3", 700_000),
    ("Four: A Divergent Collection", "Divergent", "3", 300_000),
    ("Dune", None, None, 600_000),
    ("The Second Sex", None, None, 50_000),
    ("Dracula", None, None, 900_000),
)
LISTS = ("Weekend", "Fantasy", "TBR")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])
TOOLS = [ToolSpec(name, "", {}) for name in BOOK_TOOLS]


class Shelf:
    """The numbered series of `RECORDS`, as `CatalogSeries` reads them."""

    def __init__(self) -> None:
        self.series: dict[tuple[str, ...], tuple[str, list[SeriesBook]]] = {}
        for title, text, number, readers in RECORDS:
            for name, place in series_places(title, text, number):
                books = self.series.setdefault(series_key(name), (name, []))[1]
                books.append(SeriesBook(title, place, readers))
        for _, books in self.series.values():
            books.sort(key=lambda b: (b.place, -b.popularity))

    def named(self, words: str) -> str | None:
        found = self.series.get(series_key(words))
        return found[0] if found else None

    def books_of(self, words: str) -> Sequence[SeriesBook]:
        found = self.series.get(series_key(words))
        return found[1] if found else ()


def _titled(title: str) -> list[tuple[str, str, int]]:
    key = key_of(title)
    bare = key[1:] if key[:1] == ("the",) else key
    return [
        (t, "Someone", readers)
        for t, _, _, readers in RECORDS
        if key_of(t) in (key, bare, ("the", *bare))
    ]


def _is_title(words: str) -> bool:
    return bool(_titled(words))


def _reply(turns: Sequence[str]) -> Any:
    policy = RulePolicy(titles=_is_title, books=_titled, series=Shelf())
    history: list[Message] = []
    reply = None
    for turn in turns:
        history.append(Message("user", turn))
        reply = policy.complete_with_tools(history, TOOLS, system=SYSTEM)
        history.append(Message("assistant", reply.text, reply.tool_calls))
    assert reply is not None
    return reply


def _calls(text: str) -> list[tuple[str, dict[str, Any]]] | str:
    reply = _reply([text])
    if not reply.tool_calls:
        return str(reply.text)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def test_the_series_places_of_a_record() -> None:
    assert series_places("Catching Fire", "The Hunger Games", "2") == [("The Hunger Games", 2)]
    assert series_places("Mort", "Death, #1; Discworld", "4") == [("Death", 1), ("Discworld", 4)]
    assert series_places("Boxset", "The Hunger Games", "1-3") == []
    assert series_places("Ender's Game (Ender's Saga, #1)", None, None) == [("Ender's Saga", 1)]


@pytest.mark.parametrize(
    ("text", "tool", "book"),
    [
        # dev16
        ("tell me about the third Hunger Games", "get_book_details", "Mockingjay"),
        # own phrasings: other orders, other series, digits, a typo-free shorthand
        ("rate the 2nd hunger games book 5 stars", "rate_book", "Catching Fire"),
        ("add the third book in the Hunger Games series to TBR", "add_to_list", "Mockingjay"),
        ("put book two of the Divergent series on my TBR", "add_to_list", "Insurgent"),
        ("add Discworld book 2 to Fantasy", "add_to_list", "The Light Fantastic"),
        ("how long is the fourth discworld novel?", "get_book_details", "Mort"),
        ("add the first Discworld book to Fantasy", "add_to_list", "The Color of Magic"),
        ("give Hunger Games #3 four stars", "rate_book", "Mockingjay"),
    ],
)
def test_a_book_said_by_its_place_in_a_series_is_that_book(text: str, tool: str, book: str) -> None:
    calls = _calls(text)
    assert isinstance(calls, list), calls
    assert calls[0][0] == tool
    assert calls[0][1]["book"] == book


def test_two_places_of_one_series_are_two_books() -> None:
    # dev16
    calls = _calls("put the first and second Hunger Games on the Weekend list")
    assert [c[1]["book"] for c in calls] == ["The Hunger Games", "Catching Fire"]  # type: ignore[index]
    calls = _calls("add the 1st & 2nd divergent books to TBR")
    assert [c[1]["book"] for c in calls] == ["Divergent", "Insurgent"]  # type: ignore[index]


def test_the_place_is_written_as_the_title_before_the_request_is_read() -> None:
    # dev16 (the layer reads "gets 4 stars from me" as the rating)
    said = series_said("the second Hunger Games gets 4 stars from me", Shelf(), _is_title)
    assert said == "Catching Fire gets 4 stars from me"
    said = series_said("Hunger Games book three was the best, 5 stars", Shelf(), _is_title)
    assert said == "Mockingjay was the best, 5 stars"


def test_the_book_said_by_its_place_is_it_in_the_next_turn() -> None:
    # dev16: "tell me about the third Hunger Games" then "ok rate it 3, the ending annoyed me"
    reply = _reply(["tell me about the third Hunger Games", "ok rate it 3, the ending annoyed me"])
    assert [c.name for c in reply.tool_calls] == ["rate_book"]
    assert reply.tool_calls[0].arguments["stars"] == 3


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # the catalog holds no fifth Hunger Games: asked, naming the series' books
        ("rate the fifth Hunger Games 2 stars", "Catching Fire"),
        # two widely read books numbered 3 (a collection numbered like the novel)
        ("add the third Divergent book to TBR", "Four: A Divergent Collection"),
    ],
)
def test_a_place_the_catalog_cannot_fill_is_asked(text: str, named: str) -> None:
    reply = _calls(text)
    assert isinstance(reply, str), reply
    assert named in reply


@pytest.mark.parametrize(
    "text",
    ["rate the second Dune 4 stars", "put the 3rd Dracula on TBR"],
)
def test_an_ordinal_before_a_title_of_no_series_is_asked(text: str) -> None:
    reply = _calls(text)
    assert isinstance(reply, str), reply
    assert "Which book" in reply


def test_a_title_holding_an_ordinal_and_places_of_no_series_are_as_written() -> None:
    shelf = Shelf()
    assert series_said("add The Second Sex to TBR", shelf, _is_title) is None
    assert series_said("add the first one to TBR", shelf, _is_title) is None
    assert series_said("remove the second book on my list", shelf, _is_title) is None
    assert series_said("first, add Dune to TBR", shelf, _is_title) is None
