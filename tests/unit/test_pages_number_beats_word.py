"""A page count said in numbers beats a length word that would contradict it.

"literary fiction, under 300 pages (people moan about long ones)" (dev18) read "long" as at
least 500 pages beside the at most 300 said, and both limits were dropped as contradictory: the
number the reader gave was lost to a word about other books.
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from tests.assistant_world import make_catalog, make_vocabulary


@pytest.fixture(scope="module")
def rules() -> RuleBasedUnderstanding:
    return RuleBasedUnderstanding(make_vocabulary(make_catalog()))


@pytest.mark.parametrize(
    ("said", "low", "high"),
    [
        ("literary fiction, under 300 pages (people moan about long ones)", None, 300),
        ("a long novel under 300 pages", None, 300),
        ("short books over 600 pages", 600, None),
        ("no more than 250 pages, the long ones bore me", None, 250),
        ("thrillers of at least 400 pages, nothing short", 400, None),
    ],
)
def test_the_number_said_is_the_limit(
    rules: RuleBasedUnderstanding, said: str, low: int | None, high: int | None
) -> None:
    filters = rules.plan(said).filters
    assert (filters.min_pages, filters.max_pages) == (low, high)


def test_a_length_word_that_agrees_with_the_number_still_narrows(
    rules: RuleBasedUnderstanding,
) -> None:
    filters = rules.plan("at least 200 pages, not too long").filters
    assert (filters.min_pages, filters.max_pages) == (200, 400)
