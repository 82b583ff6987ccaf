"""Two letters swapped in a member's name are that member; another name is still asked.

"asign the chek point patchin to alcie" (dev18) was asked who 'alcie' is: alice, typed fast.
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.mentions import names_from_prompt, resolve_person
from tests.unit.test_workspace_phrasings import SYSTEM

NAMES = names_from_prompt(SYSTEM + "\n- member: vera (Vera Viewer)")


@pytest.mark.parametrize(
    ("said", "member"),
    [
        ("alcie", "alice"),
        ("aliec", "alice"),
        ("Aliec", "alice"),
        ("vear", "vera"),
        ("evra", "vera"),
    ],
)
def test_two_letters_swapped_name_the_member(said: str, member: str) -> None:
    assert resolve_person(said, NAMES).name == member


@pytest.mark.parametrize("said", ["dave", "vero", "alicia", "bobby", "al1ce", "obb"])
def test_another_name_or_a_short_one_is_no_member(said: str) -> None:
    assert resolve_person(said, NAMES).name is None
