"""A title and a grade out of ten, with no verb ("Gone Girl 8/10"), is a rating (dev19).

"Gone Girl 7/10" had been read as arithmetic (off topic); an even grade halved into stars was
dropped again when the sentence read no further as a rating, so "Gone Girl 8/10" was too.
An odd grade is asked about; arithmetic is still off topic.
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.off_topic import off_topic
from lectern.adapters.understanding.request_sentence import without_asides


@pytest.mark.parametrize(
    "said",
    ["Gone Girl 7/10", "dune 10/10", "Rebecca: 6/10", "The Road 9 / 10", "Matilda, 8/10"],
)
def test_a_grade_out_of_ten_is_no_arithmetic(said: str) -> None:
    assert not off_topic(said)


@pytest.mark.parametrize("said", ["what is 12/3?", "what's 7 * 8?", "3/4 + 1/4 =", "12 x 12?"])
def test_arithmetic_is_still_off_topic(said: str) -> None:
    assert off_topic(said)


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("Gone Girl 8/10", "4 stars"),
        ("dune 10/10", "5 stars"),
        ("The Road 6/10", "3 stars"),
        ("matilda two out of ten", "1 stars"),
        ("Rebecca 4 out of 10, too slow", "2 stars"),
    ],
)
def test_an_even_grade_is_kept_halved(said: str, read: str) -> None:
    assert read in without_asides(said)


def test_an_odd_grade_is_left_as_said() -> None:
    assert "7/10" in without_asides("Gone Girl 7/10")
