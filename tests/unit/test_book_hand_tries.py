"""Book requests found wrong by trying the product by hand (session 18), one construct each.

"Same for Emma" as the first thing said has no change before it to make again: which change
is meant is asked, naming the book (it asked "Which book, and how many stars?").
"""

from __future__ import annotations

import pytest

from lectern.domain.assistant import Message
from tests.unit.test_understanding_book_v12 import _calls


@pytest.mark.parametrize(
    ("said", "book"),
    [
        ("same for Holes", "Holes"),
        ("do the same with Gilead", "Gilead"),
        ("ditto for cinder", "cinder"),
    ],
)
def test_same_for_a_book_with_nothing_before_asks_which_change(said: str, book: str) -> None:
    reply = _calls(said)
    assert isinstance(reply, str), reply
    assert book in reply and "?" in reply, reply
    assert "stars" not in reply, reply


def test_same_for_a_book_after_a_look_up_still_asks() -> None:
    history = [Message("user", "what lists do I have?"), Message("assistant", "You have 4 lists.")]
    reply = _calls("same for Holes", history=history)
    assert isinstance(reply, str) and "Holes" in reply, reply
