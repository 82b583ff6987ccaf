"""Book requests found wrong by trying the product by hand (session 18), one construct each.

"Same for Emma" as the first thing said has no change before it to make again: which change
is meant is asked, naming the book (it asked "Which book, and how many stars?"). "Rate X a 3"
is three stars for X, with or without a remark after a dash.
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


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        ("rate Holes a 3", [("rate_book", {"book": "Holes", "stars": 3})]),
        ("rate Gilead a 4, loved it", [("rate_book", {"book": "Gilead", "stars": 4})]),
        ("rate Holes a 3 — it was our last pick.", [("rate_book", {"book": "Holes", "stars": 3})]),
        (
            "Delete Dnf, and rate Cinder a 2 – too slow for us.",
            [("delete_list", {"list": "Dnf"}), ("rate_book", {"book": "Cinder", "stars": 2})],
        ),
    ],
)
def test_a_grade_said_with_its_article_and_a_remark_after_a_dash(said: str, calls: object) -> None:
    # "rate X a 3" looked for a book called "X a"; a remark after an em dash hid the grade.
    assert _calls(said) == calls
