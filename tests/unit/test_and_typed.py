"""A lower-case "n" typed for "and" joins what it joins ("add the hobbit n the fellowship").

dev18's "add the hobbit n the fellowship of the ring to fantasy" added only the second book:
"the hobbit n the fellowship of the ring" was read as one name.
"""

from __future__ import annotations

import pytest

import tests.unit.test_understanding_book_v13 as v13
from lectern.adapters.understanding.spoken import tidied


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "add holes n gilead to summer",
            [
                ("add_to_list", {"list": "Summer", "book": "Holes"}),
                ("add_to_list", {"list": "Summer", "book": "Gilead"}),
            ],
        ),
        (
            "rate misery 4 n put it on spooky",
            [
                ("rate_book", {"book": "Misery", "stars": 4}),
                ("add_to_list", {"list": "Spooky", "book": "Misery"}),
            ],
        ),
        (
            "take coraline n holes off dnf",
            [
                ("remove_from_list", {"list": "Dnf", "book": "Coraline"}),
                ("remove_from_list", {"list": "Dnf", "book": "Holes"}),
            ],
        ),
    ],
)
def test_n_typed_for_and_joins_two_requests_or_books(said: str, expected: list[object]) -> None:
    assert v13._calls(said, system=v13.SYSTEM) == expected


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("Guns N Roses biographies", "Guns N Roses biographies"),  # a capital N is a name's
        ("books n stuff", "books and stuff"),
        ("vitamin n", "vitamin n"),  # nothing after it: no join
    ],
)
def test_only_a_lower_case_n_between_words_is_and(said: str, kept: str) -> None:
    assert tidied(said) == kept
