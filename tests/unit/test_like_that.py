"""Books "like that" after a book was named are books like that book.

"she loved Matilda. more like that? something she can read herself" (dev18) asked for
books like a book called "that? something she can read herself": "that" points back at the
book just named, and what follows its "?" is a remark.
"""

from __future__ import annotations

import pytest

import tests.unit.test_understanding_book_v13 as v13


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("she loved Holes. more like that? something she can read herself", "Holes"),
        ("i loved Gilead. anything like that? something shorter maybe", "Gilead"),
        ("Misery was great, got anything like that one?", "Misery"),
        ("I finished Coraline. Any more like this?", "Coraline"),
        ("Holes!! more like that please", "Holes"),
    ],
)
def test_like_that_after_a_book_is_like_that_book(said: str, book: str) -> None:
    [(name, arguments)] = v13._calls(said, system=v13.SYSTEM)
    assert name == "similar_books" and arguments["book"] == book
