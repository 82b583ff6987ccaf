"""A book moved onto a list with no list said it leaves ("..., and move it to summer").

Read by meaning, "rate emma 3 and move it to tbr" proposed removing Emma from TBR (the wrong
way round), and "... move it to summer" took "move" for a book. A move onto one of the
reader's lists puts the book there; with both ends named it is taken off one, put on the
other (as before).
"""

from __future__ import annotations

import pytest

import tests.unit.test_understanding_book_v13 as v13


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "rate holes 3 and move it to spooky please",
            [
                ("rate_book", {"book": "Holes", "stars": 3}),
                ("add_to_list", {"list": "Spooky", "book": "Holes"}),
            ],
        ),
        (
            "give gilead five stars, then shift it onto summer",
            [
                ("rate_book", {"book": "Gilead", "stars": 5}),
                ("add_to_list", {"list": "Summer", "book": "Gilead"}),
            ],
        ),
        (
            "loved misery, 4 stars, transfer it to spooky",
            [
                ("rate_book", {"book": "Misery", "stars": 4}),
                ("add_to_list", {"list": "Spooky", "book": "Misery"}),
            ],
        ),
        ("move coraline over to summer", [("add_to_list", {"list": "Summer", "book": "Coraline"})]),
        (
            "please transfer holes into spooky",
            [("add_to_list", {"list": "Spooky", "book": "Holes"})],
        ),
    ],
)
def test_a_move_onto_a_list_puts_the_book_there(said: str, expected: list[object]) -> None:
    assert v13._calls(said, system=v13.SYSTEM) == expected


def test_a_move_between_two_named_lists_takes_it_off_one() -> None:
    assert v13._calls("move holes from summer to spooky", system=v13.SYSTEM) == [
        ("remove_from_list", {"list": "Summer", "book": "Holes"}),
        ("add_to_list", {"list": "Spooky", "book": "Holes"}),
    ]


def test_a_move_onto_no_list_of_theirs_is_no_add() -> None:
    calls = v13._calls("move holes to the attic", system=v13.SYSTEM)
    assert ("add_to_list", {"list": "the attic", "book": "Holes"}) not in calls
    assert all(name != "remove_from_list" for name, _ in calls)
