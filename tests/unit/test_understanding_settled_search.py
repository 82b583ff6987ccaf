"""A search taken back part-way (dev14): the query is what the writer settles on after it.

"fantasy maybe? no wait, not fantasy, I've had enough dragons this year. something cosy set in
a small town" must search for the small town, never leave out a shelf called "wait".
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.settled_search import settled_search
from tests.unit.test_understanding_book_v13 import SYSTEM, _calls
from tests.unit.test_understanding_exclusions import RULES

RETRACTION_WORDS = {"wait", "actually", "scratch", "hang", "hold"}


@pytest.mark.parametrize(
    ("said", "settled", "taken_back"),
    [
        (
            "looking for something cosy... fantasy maybe? no wait, not fantasy, I've had enough "
            "dragons this year. something cosy set in a small town, a little bit of magic "
            "realism would be fine",
            "small town",
            "maybe",
        ),
        (
            "I want sci-fi, hmm, actually not sci-fi, I just finished a trilogy. something funny "
            "about office life",
            "office life",
            "I want",
        ),
        (
            "recommend a romance? on second thought, not romance, I'm sick of it. a road-trip "
            "story with friends",
            "road-trip story",
            "sick",
        ),
        (
            "something with dragons... scratch that, no fantasy at all. a literary novel about "
            "a family",
            "literary novel",
            "dragons",
        ),
    ],
)
def test_the_query_is_what_is_settled_on_after_the_retraction(
    said: str, settled: str, taken_back: str
) -> None:
    calls = _calls(said, system=SYSTEM)
    assert [name for name, _ in calls] == ["search_books"]
    arguments = calls[0][1]
    assert settled in arguments["query"]
    assert taken_back not in arguments["query"]
    excluded = {word for c in arguments.get("exclude_categories", []) for word in c.split()}
    assert not excluded & RETRACTION_WORDS


@pytest.mark.parametrize(
    "said",
    [
        "any horror, no gore",
        "a thriller that is actually scary",
        "fantasy maybe? no wait",
        "short mysteries, no romance, I've read too much of it",
    ],
)
def test_a_search_with_nothing_settled_after_a_retraction_is_left_whole(said: str) -> None:
    assert settled_search(said) == said


@pytest.mark.parametrize(
    "query",
    [
        "horror? no wait, not horror",
        "a mystery, no actually, a thriller",
        "fantasy, no scratch that, science fiction",
    ],
)
def test_no_wait_is_never_a_shelf_left_out_by_the_query_rules(query: str) -> None:
    plan = RULES.plan(query)
    assert not {word for e in plan.exclusions for word in e.label.split()} & RETRACTION_WORDS
