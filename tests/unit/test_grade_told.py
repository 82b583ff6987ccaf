"""A grade someone else gave is told, not asked ("Dune got 4 stars in the paper").

Found trying our own words (session 22): it rated Dune 4 stars, a wrong action older than
this pass. The reader's own verdict ("gets 4 stars from me") still asks.
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.not_asked import not_asked


@pytest.mark.parametrize(
    "said",
    [
        "Dune got 4 stars in the paper",
        "The Hobbit got five stars from the Guardian",
        "Dune has 4 stars on Goodreads",
        "Rebecca earned 3 stars from the critics",
        "Emma scored 8/10 in my book club's poll",
    ],
)
def test_a_grade_someone_else_gave_is_told(said: str) -> None:
    assert not_asked(said)


@pytest.mark.parametrize(
    "said", ["Dune gets 4 stars from me", "rate dune 4 stars", "give Emma five stars"]
)
def test_the_readers_own_grade_asks(said: str) -> None:
    assert not not_asked(said)
