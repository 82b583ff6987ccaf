"""A librarian's "shelve X on <list>" puts the book on that list.

dev18's "Rename 'Staff Picks' to 'Staff Picks 2026' and shelve The Goldfinch on it." renamed
the list to "Staff Picks 2026' and shelve The Goldfinch on it": "shelve" was no verb of a
request, so the message was not split and the new name ran on past its closing quote.
"""

from __future__ import annotations

import pytest

import tests.unit.test_understanding_book_v13 as v13


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("shelve holes on summer", [("add_to_list", {"list": "Summer", "book": "Holes"})]),
        (
            "shelve Gilead onto Spooky please",
            [("add_to_list", {"list": "Spooky", "book": "Gilead"})],
        ),
        (
            "could you shelve misery on spooky",
            [("add_to_list", {"list": "Spooky", "book": "Misery"})],
        ),
        ("pls shelve coraline to dnf", [("add_to_list", {"list": "Dnf", "book": "Coraline"})]),
        (
            "Rename 'Summer' to 'Summer 2027' and shelve Holes on it.",
            [
                ("rename_list", {"list": "Summer", "new_name": "Summer 2027"}),
                ("add_to_list", {"list": "Summer 2027", "book": "Holes"}),
            ],
        ),
    ],
)
def test_shelve_puts_the_book_on_the_list(said: str, expected: list[object]) -> None:
    assert v13._calls(said, system=v13.SYSTEM) == expected
