"""A due date moved by an amount ("push it out a week"): from the date shown, looked up, or
from today (dev18, dev19).

"push it out a week" after the runbook's details, and "that's too tight. give it two more
weeks from today", had asked what to change: the amount is no date, and the date it counts
from is the task's own due date (or today, when said).
"""

from __future__ import annotations

from datetime import date

import pytest

from lectern.adapters.understanding.due_extended import due_moved
from lectern.adapters.understanding.scaffold import Done
from lectern.domain.assistant import AIResponse, Message
from tests.unit.test_workspace_phrasings import SYSTEM, _rules

RUNBOOK = "Write the incident runbook"


@pytest.mark.parametrize(
    ("said", "task", "days", "months", "from_today"),
    [
        ("push it out a week", "it", 7, 0, False),
        ("give it two more weeks from today", "it", 14, 0, True),
        ("give the runbook an extra week", "the runbook", 7, 0, False),
        ("extend the hunt by 3 days", "the hunt", 3, 0, False),
        ("the drill needs another week", "the drill", 7, 0, False),
        ("push the deadline on the runbook back a week", "the runbook", 7, 0, False),
        ("bump the runbook by 2 weeks please", "the runbook", 14, 0, False),
        ("give it a couple more days", "it", 2, 0, False),
        ("slide the drill a month", "the drill", 0, 1, False),
        ("push the hunt out by ten days from now", "the hunt", 10, 0, True),
    ],
)
def test_the_amount_and_the_task(
    said: str, task: str, days: int, months: int, from_today: bool
) -> None:
    moved = due_moved(said)
    assert moved is not None
    assert (moved.task, moved.days, moved.months, moved.from_today) == (
        task,
        days,
        months,
        from_today,
    )


@pytest.mark.parametrize(
    "said",
    [
        "push the runbook to friday",
        "give the runbook to bob",
        "move the hunt a few days",  # how many is not said
        "push the runbook out 40 weeks",
        "the drill needs another reviewer",
        "give it two stars",
    ],
)
def test_no_amount_of_time_is_no_move(said: str) -> None:
    assert due_moved(said) is None


def _stages(said: str, history: list[Message] | None = None) -> list:  # type: ignore[type-arg]
    stages = _rules().plan(said, history or [], SYSTEM)
    assert stages, said
    return stages


def test_from_today_needs_no_look_up() -> None:
    calls = _stages("give the runbook two more weeks from today")[0](None)
    assert [(c.name, c.arguments) for c in calls] == [
        ("update_task", {"task_id": RUNBOOK, "due_date": "2026-11-16"})
    ]


def test_from_the_due_date_the_last_reply_showed() -> None:
    history = [
        Message("user", "what does the runbook task look like"),
        Message(
            "assistant",
            f"{RUNBOOK} (in progress, medium priority, assigned to alice, due 2026-11-12) "
            "[task:0f0e5b7c-0000-4000-8000-000000000001]",
        ),
    ]
    calls = _stages("push the runbook out a week", history)[0](None)
    assert [(c.name, c.arguments) for c in calls] == [
        ("update_task", {"task_id": RUNBOOK, "due_date": "2026-11-19"})
    ]


def test_else_the_task_is_looked_up_then_moved_from_its_record() -> None:
    stages = _stages("give the runbook an extra week")
    look = stages[0](None)
    assert [(c.name, c.arguments) for c in look] == [("get_task_details", {"task_id": RUNBOOK})]
    record = {"task": {"task_id": "t-1", "title": RUNBOOK, "due_date": "2026-11-30"}}
    moved = stages[1](Done(list(look), [record]))
    assert isinstance(moved, list)
    assert [(c.name, c.arguments) for c in moved] == [
        ("update_task", {"task_id": "t-1", "due_date": "2026-12-07"})
    ]


def test_a_task_with_no_due_date_is_asked_from_when() -> None:
    stages = _stages("the drill needs another week")
    look = stages[0](None)
    record = {"task": {"task_id": "t-2", "title": "Schedule the phishing drill", "due_date": None}}
    asked = stages[1](Done(list(look), [record]))
    assert isinstance(asked, AIResponse)
    assert "no due date" in asked.text


def test_the_deadline_with_no_task_in_view_is_asked_which_task() -> None:
    reply = _stages("push the deadline back a week")[0](None)
    assert isinstance(reply, AIResponse)
    assert reply.text.startswith("Which task")


def test_a_month_ends_on_the_last_day_when_the_day_is_missing() -> None:
    moved = due_moved("slide the drill a month")
    assert moved is not None
    assert moved.applied(date(2027, 1, 31)) == date(2027, 2, 28)
