"""Books like one "but under 300 pages": the limits a "but ..." states narrow the neighbours.

"anything like the hobbit but under 300 pages?" was read as books like The Hobbit with the
page limit said as not held: the tool had no limit to take. `similar_books` now takes the
search's language, year and page limits, and the rules read them from the tail.
"""

from __future__ import annotations

import uuid
from typing import Any, cast

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intents import NearestExampleClassifier
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.assistant.tools import QueryTool, ToolContext
from lectern.domain.assistant import Message
from lectern.domain.books import Book
from lectern.domain.search import SearchFilters
from tests.assistant_world import START, make_catalog, make_vocabulary, make_world
from tests.unit.test_understanding_book_v13 import CATALOG, SYSTEM, TOOLS, _ListMinded


def _calls(text: str) -> list[tuple[str, dict[str, Any]]]:
    layer = Understanding(cast(NearestExampleClassifier, _ListMinded()))
    policy = RulePolicy(
        RuleBasedUnderstanding(make_vocabulary(make_catalog())),
        layer,
        titles=lambda words: words.strip().casefold() in CATALOG,
        books=lambda t: [(CATALOG[t.casefold()], "Someone", 10)] if t.casefold() in CATALOG else [],
    )
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=SYSTEM)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize(
    ("said", "limits"),
    [
        ("anything like holes but under 300 pages?", {"max_pages": 300}),
        ("books like Holes but no longer than 250 pages", {"max_pages": 250}),
        ("something like Gilead, but at least 400 pages", {"min_pages": 400}),
        ("novels like Misery but published after 2000", {"min_year": 2001}),
        ("more like Coraline but from before 1990 please", {"max_year": 1989}),
    ],
)
def test_the_limits_a_but_states_narrow_similar_books(said: str, limits: dict[str, int]) -> None:
    [(name, arguments)] = _calls(said)
    assert name == "similar_books"
    assert arguments["book"] in CATALOG.values()
    assert {k: v for k, v in arguments.items() if k not in ("book", "limit")} == limits


def test_a_but_with_no_limit_in_it_narrows_nothing() -> None:
    [(name, arguments)] = _calls("books like Holes but funnier")
    assert name == "similar_books" and arguments == {"book": "Holes", "limit": 5}


def _similar(**arguments: Any) -> list[dict[str, Any]]:
    world = make_world()
    tool = world.registry.get("similar_books")
    assert isinstance(tool, QueryTool)
    output = tool.run(tool.parse({"book": "Dune", **arguments}), ToolContext("reader", "c", START))
    assert isinstance(output.data, dict)
    return cast(list[dict[str, Any]], output.data["books"])


def test_similar_books_keeps_only_the_neighbours_within_the_years() -> None:
    every = _similar(limit=10)
    years = [int(b["published_year"]) for b in every if b.get("published_year")]
    assert min(years) < 1990 < max(years), "the fixture needs books on both sides of 1990"
    narrowed = _similar(limit=10, min_year=1990)
    assert narrowed and all(int(b["published_year"]) >= 1990 for b in narrowed)


def test_similar_books_refuses_contradictory_limits() -> None:
    with pytest.raises(Exception, match="min_year"):
        _similar(min_year=2000, max_year=1990)


def _one(**fields: Any) -> Book:
    return Book(id=uuid.uuid4(), title="T", **fields)


def test_a_book_fits_the_limits_by_its_own_fields() -> None:
    limits = SearchFilters(language="en", max_year=1950, max_pages=300)
    assert limits.fits_book(_one(language="en", published_year=1900, pages=200)) is True
    assert limits.fits_book(_one(language="en", published_year=1900, pages=400)) is False
    assert limits.fits_book(_one(language="fr", published_year=1900, pages=200)) is False
    assert limits.fits_book(_one(language="en", published_year=1990, pages=200)) is False
    assert limits.fits_book(_one(language="en", published_year=None, pages=200)) is False
    assert limits.fits_book(_one(language="en", published_year=1900)) is None
    assert SearchFilters().fits_book(_one()) is True
