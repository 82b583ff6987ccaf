"""A list set down as "new list: Name" after another request (dev14) is a second request.

"delete Old TBR. new list: Reading Group 2027" deletes one list and makes another; the label
"new list:" starts a request as a verb would.
"""

from __future__ import annotations

import pytest

from lectern.application.assistant.names import NAMES_HEADER
from tests.unit.test_understanding_book_v13 import _calls

LISTS = ("Old TBR", "TBR", "Book Club", "Done")
SYSTEM = "\n".join([NAMES_HEADER, "- reader: ana", *(f"- list: {name}" for name in LISTS)])


@pytest.mark.parametrize(
    ("said", "deleted", "made"),
    [
        ("delete Old TBR. new list: Reading Group 2027", "Old TBR", "Reading Group 2027"),
        ("delete the Book Club list. New list - Club Picks", "Book Club", "Club Picks"),
        ("get rid of Done; new list: Finished 2026", "Done", "Finished 2026"),
    ],
)
def test_new_list_after_a_deletion_is_made_too(said: str, deleted: str, made: str) -> None:
    assert _calls(said, system=SYSTEM) == [
        ("delete_list", {"list": deleted}),
        ("create_list", {"name": made}),
    ]


def test_new_list_alone_is_made() -> None:
    assert _calls("new list: Beach 2026", system=SYSTEM) == [
        ("create_list", {"name": "Beach 2026"})
    ]
