"""A rename said, then taken back, changes nothing; the name settled on is the new name.

"rename horror to spooky, no wait, keep it" (found trying our own words, session 22) renamed
the list to "spooky, no wait, keep it": a wrong action older than this pass.
"""

from __future__ import annotations

import pytest

import tests.unit.test_understanding_book_v13 as v13
from lectern.adapters.understanding.self_corrected import settled_name


@pytest.mark.parametrize(
    "said",
    [
        "rename spooky to horror, no wait, keep it",
        "rename spooky to horror -- actually never mind",
        "rename the summer list to beach reads, scratch that, leave it",
        "rename dnf to abandoned... no actually, keep it as it is",
        "rename spooky to Halloween, wait no, forget it",
    ],
)
def test_a_rename_taken_back_changes_nothing(said: str) -> None:
    assert v13._calls(said, system=v13.SYSTEM) == []


@pytest.mark.parametrize(
    ("said", "settled"),
    [
        ("spooky, no wait, keep it", None),
        ("spooky, no wait, Halloween", "Halloween"),
        ("Beach Reads, or rather make it Beach Books", "Beach Books"),
        ("Summer Wait List", "Summer Wait List"),
        ("never mind", None),
    ],
)
def test_the_name_settled_on(said: str, settled: str | None) -> None:
    assert settled_name(said) == settled


@pytest.mark.parametrize(
    "said",
    [
        "add holes to summer... actually never mind",
        "rate gilead 2 stars, no wait, forget it",
        "take coraline off dnf -- on second thought, leave it",
        "delete the spooky list, wait no, cancel that",
        "put misery on spooky. no actually, keep it",
    ],
)
def test_any_request_wholly_taken_back_changes_nothing(said: str) -> None:
    assert v13._calls(said, system=v13.SYSTEM) == []


@pytest.mark.parametrize(
    "said",
    ["keep it on summer", "leave it on dnf please", "rate holes 4, never mind the review"],
)
def test_keep_or_never_mind_inside_a_request_is_no_take_back(said: str) -> None:
    from lectern.adapters.understanding.self_corrected import wholly_taken_back

    assert not wholly_taken_back(said)
