"""A free-text value that runs on into the reader's own words or the next request (dev21).

A new list's name read up to the end of the message swallowed what came after it:
"rename my shelf 'tbr' to 'to-read' so it matches goodreads" named the list
"to-read' so it matches goodreads" (a quoted name ends at its closing quote,
`slots.quoted_lead`), and "renam my list scifi to Sci Fi Faves and ad The Martain to it"
named it "Sci Fi Faves and ad The Martain to it" ("ad X to Y", the layer's own short "add",
starts a request after a joint: `compound.ADD_SLIPPED`).
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.compound import clauses
from lectern.adapters.understanding.slots import name_ended
from tests.unit.test_values_said import _calls


@pytest.mark.parametrize(
    ("value", "said", "name"),
    [
        # dev21
        (
            "to-read' so it matches goodreads",
            "rename my shelf 'tbr' to 'to-read' so it matches goodreads",
            "to-read",
        ),
        # ours
        ("Beach Bag' for the summer", "rename 'Summer' to 'Beach Bag' for the summer", "Beach Bag"),
        ('Spooky" like last year', 'make a list called "Spooky" like last year', "Spooky"),
        ("“Gifts” so I remember", "create a list named “Gifts” so I remember", "Gifts"),
        (
            "'Bedtime', it is for Zainab",
            "make a list called 'Bedtime', it is for Zainab",
            "Bedtime",
        ),
        (
            "Night Reads' because it's cosier",
            "rename faves to 'Night Reads' because it's cosier",
            "Night Reads",
        ),
        # near-misses: the quote is part of the name, or the words after it are the name's
        ("Kids' Books", "rename 'Kids' to Kids' Books", "Kids' Books"),
        ("Sofia's Picks", "rename 'Sofia' to Sofia's Picks", "Sofia's Picks"),
        ("'Cosy' Reads", "make a list called 'Cosy' Reads", "'Cosy' Reads"),
        ("Read and Rate", "make a list called Read and Rate", "Read and Rate"),
    ],
)
def test_a_quoted_name_ends_at_its_quote(value: str, said: str, name: str) -> None:
    assert name_ended(value, said).strip("'") == name.strip("'")


@pytest.mark.parametrize(
    ("said", "parts"),
    [
        # dev21
        (
            "rename my list scifi to Sci Fi Faves and ad The Martain to it",
            ["rename my list scifi to Sci Fi Faves", "ad The Martain to it"],
        ),
        # ours
        (
            "rename Summer to Beach Bag and ad Jaws to it",
            ["rename Summer to Beach Bag", "ad Jaws to it"],
        ),
        (
            "make a list called Spooky, ad Dune to it",
            ["make a list called Spooky", "ad Dune to it"],
        ),
        ("rate Emma 4 and ad it to TBR", ["rate Emma 4", "ad it to TBR"]),
        (
            "rename faves to Comfort; ad Emma onto it",
            ["rename faves to Comfort", "ad Emma onto it"],
        ),
        ("delete Bleak then ad The Road to TBR", ["delete Bleak", "ad The Road to TBR"]),
    ],
)
def test_a_short_add_starts_the_next_request(said: str, parts: list[str]) -> None:
    assert clauses(said) == parts


@pytest.mark.parametrize(
    "said",
    [
        "make a list called Salt and ad hoc notes",
        "make a list called Ads and Posters",
        "create a list named Crime and Punishment",
        "rename Summer to Salt and Pepper",
    ],
)
def test_no_request_no_cut(said: str) -> None:
    assert clauses(said) == []


def test_the_name_no_longer_swallows_the_next_request() -> None:
    calls = _calls("rename Summer to Beach Bag and add Jaws to it")
    assert calls == [
        ("rename_list", {"list": "Summer", "new_name": "Beach Bag"}),
        ("add_to_list", {"list": "Beach Bag", "book": "Jaws"}),
    ]


@pytest.mark.parametrize(
    "said",
    [
        "rename Summer to Beach Bag and ad Jaws to it",
        "rename Beach to Sea Days and ad The Hobbit to it",
        "rename my list Summer to Beach Bag then ad Jaws to it",
    ],
)
def test_a_later_request_read_as_nothing_is_asked_not_named(said: str) -> None:
    asked = _calls(said)
    assert isinstance(asked, str) and "Should the list be called" in asked


def test_a_quoted_new_name_is_what_the_quotes_hold() -> None:
    calls = _calls("rename my list 'faves' to 'Comfort Reads' so it matches my other app")
    assert calls == [("rename_list", {"list": "faves", "new_name": "Comfort Reads"})]


@pytest.mark.parametrize(
    "said",
    [
        "rename Summer to Salt and Pepper",
        "rename Summer to Read and Rate",
        "rename Summer to Crime and Punishment",
    ],
)
def test_a_name_with_and_stays_whole(said: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list) and calls[0][1]["new_name"] == said.split(" to ", 1)[1]


# --- the workspace: a change's own words that run on into the next request --------------------

WORKSPACE_SAID = [
    # ours: the words would hold the next request whole
    (
        "resolve the vendor blocker with the window is booked and move the patch to in progress",
        "move the patch to in progress",
    ),
    ("comment on the drill that it is booked, and assign it to bob", "assign it to bob"),
    (
        "log a blocker on the hunt that logs are missing and make it high priority",
        "make it high priority",
    ),
    ("note on the runbook: legal is reading it; then close the drill", "close the drill"),
    ("add a comment to the patch saying gw1 is done and mark it done", "mark it done"),
]


@pytest.mark.parametrize(("said", "later"), WORKSPACE_SAID)
def test_words_holding_a_later_request_are_found(said: str, later: str) -> None:
    from lectern.adapters.understanding.workspace_parts import swallowed
    from lectern.domain.assistant import ToolCall

    words = said.split(" ", 4)[-1]
    calls = [ToolCall("t", "add_comment", {"task_id": "x", "content": words})]
    assert swallowed(calls, said) == later


@pytest.mark.parametrize(
    "said",
    [
        "comment: tested and working",
        "add a comment to the patch that gw1 and gw2 are done",
        "resolve the vendor blocker: Salt and Pepper team confirmed",
        "comment on the drill that we should move it to friday",
        "comment 'close it and move on' on the drill",
    ],
)
def test_words_with_and_stay_whole(said: str) -> None:
    from lectern.adapters.understanding.workspace_parts import swallowed
    from lectern.domain.assistant import ToolCall

    calls = [ToolCall("t", "add_comment", {"task_id": "x", "content": said})]
    assert swallowed(calls, said) is None


TOLD = [
    (
        "The vendor booked the window for sunday.",
        "Resolve the vendor blocker, then assign the patch to bob",
        [("resolve_blocker", "The vendor booked the window for sunday"), ("assign_task", None)],
    ),
    (
        "legal signed off on the runbook.",
        "Comment on the runbook and close the drill",
        [("add_comment", "Legal signed off on the runbook."), ("complete_task", None)],
    ),
    (
        "The window is booked.",
        "Resolve that blocker and make the patch high priority",
        [("resolve_blocker", "The window is booked"), ("update_task", None)],
    ),
    (
        "Vendor said yes for saturday.",
        "resolve the maintenance window blocker and set the check point patch to in progress",
        [("resolve_blocker", "Vendor said yes for saturday"), ("update_task", None)],
    ),
    (
        "The window is sorted.",
        "Resolve the vendor blocker and give the patch to alice",
        [("resolve_blocker", "The window is sorted"), ("assign_task", None)],
    ),
]


@pytest.mark.parametrize(("circumstances", "request_", "expected"), TOLD)
def test_what_was_told_is_the_first_requests_words_not_the_next_requests(
    circumstances: str, request_: str, expected: list[tuple[str, str | None]]
) -> None:
    from lectern.adapters.llm.told_first import told_first
    from lectern.adapters.understanding.request_sentence import Request
    from tests.unit.test_workspace_dev12_a import _Plan

    calls = told_first(Request(circumstances, request_), _Plan.of).calls()
    assert [c[0] for c in calls] == [name for name, _ in expected]
    for (_, args), (_, words) in zip(calls, expected, strict=True):
        if words is not None:
            assert words in (args.get("resolution"), args.get("content"))


def test_the_request_said_after_what_it_records_is_no_later_request() -> None:
    # dev10: "the hunt it is blocked because SIEM is down, please add blocker" had been asked
    # back ("I read 'add blocker' as a request of its own"): it is the request itself.
    from lectern.adapters.understanding.workspace_parts import swallowed
    from lectern.domain.assistant import ToolCall

    said = "the hunt it is blocked because SIEM is down, please add blocker"
    made = [ToolCall("c", "create_blocker", {"task_id": "t", "description": said})]
    assert swallowed(made, said) is None
    said = "vendor window is booked, close the blocker note CAB approved it"
    made = [ToolCall("c", "resolve_blocker", {"blocker_id": "b", "resolution": said})]
    assert swallowed(made, said) is None
    said = "the blocker about vendor window, it is solved, please close it"
    made = [ToolCall("c", "resolve_blocker", {"blocker_id": "b", "resolution": said})]
    assert swallowed(made, said) is None
    said = "the vendor window blocker can be closed, change ticket CHG-4471 approved"
    made = [ToolCall("c", "resolve_blocker", {"blocker_id": "b", "resolution": said})]
    assert swallowed(made, said) is None
    said = "resolve that blocker and move the check point patch to in progress"
    words = "blocker and move the check point patch to in progress"
    made = [ToolCall("c", "resolve_blocker", {"blocker_id": "b", "resolution": words})]
    assert swallowed(made, said) is not None
