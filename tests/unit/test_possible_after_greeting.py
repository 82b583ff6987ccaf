"""A change asked as whether it is possible, after a greeting ("hiya, is there any chance you
could take Dracula off Horror?"): the greeting had hidden the frame, and the reader's reason
after it ("read it twice already") made the whole read as a report."""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.hedges import unhedged


@pytest.mark.parametrize(
    ("said", "plain"),
    [
        (
            "hiya, is there any chance you could take Dracula off Horror?",
            "please take Dracula off Horror?",
        ),
        ("hey, is it possible to add Emma to TBR", "please add Emma to TBR"),
        ("morning, is there a way to delete my Misc list?", "please delete my Misc list?"),
        ("heya is it possible to rename Summer to Beach", "please rename Summer to Beach"),
        ("evening, is there any chance you could add Dune to Summer", "please add Dune to Summer"),
    ],
)
def test_the_frame_after_a_greeting_is_a_request(said: str, plain: str) -> None:
    assert unhedged(said) == plain


def test_a_question_in_general_after_a_greeting_stays_one() -> None:
    said = "hiya, is it possible to rate books here?"
    assert unhedged(said) == said
