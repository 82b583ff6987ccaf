"""A task's due date moved by an amount: from the date shown, looked up, or from today.

The reading is `understanding/due_extended.py`. "push it out a week" just after the task's
details were shown counts from the due date that reply showed; otherwise the task is looked
up first (a look-up changes nothing) and the change proposed from its record. A task with
no due date is asked about, never given one counted from an assumed day.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from lectern.adapters.llm.workspace_questions import MODEL_ID, CallMaker, Stage
from lectern.adapters.llm.workspace_refs import Refs
from lectern.adapters.llm.workspace_replies import _summary
from lectern.adapters.understanding.due_extended import Moved, due_moved
from lectern.adapters.understanding.layer import Clarification
from lectern.domain.assistant import AIResponse, Message, ToolCall

_SHOWN_DUE = re.compile(
    r"(?:^|\d+\.\s+)(?P<title>[^\n(]+?)\s+\([^()\n]*\bdue\s+(?P<due>\d{4}-\d{2}-\d{2})\)"
    r"(?:\s*\[task:(?P<id>[\w-]+)\])?",
    re.M,
)
"""A task line of a reply with its due date ("Write the runbook (..., due 2026-11-12)")."""
_DEADLINE_ONLY = re.compile(r"^(?:the|its|that|this)?\s*(?:deadline|due\s+date)$", re.I)


def moved_due(
    text: str,
    refs: Refs,
    call: CallMaker,
    today: date,
    history: Sequence[Message],
) -> list[Stage]:
    """The stages moving a task's due date by the amount the message says, or []."""
    moved = due_moved(text)
    if moved is None:
        return []
    words = "it" if _DEADLINE_ONLY.match(moved.task) else moved.task
    task = refs.task(words)  # a task the words leave open is asked (`_Unclear`)
    if task not in refs.names.of("task") and not re.fullmatch(r"[\w-]{32,36}", task):
        return []  # no stored task: not this reading
    if moved.from_today:
        return _proposed(call, task, moved.applied(today))
    shown = _shown_due(history, task)
    if shown is not None:
        return _proposed(call, task, moved.applied(shown))
    look = call("get_task_details", task_id=task)
    return [
        lambda _: [look],
        lambda done: _from_record(done, call, task, moved),
        lambda done: AIResponse(_summary(done), model=MODEL_ID),
    ]


def _proposed(call: CallMaker, task: str, day: date) -> list[Stage]:
    calls = [call("update_task", task_id=task, due_date=day.isoformat())]
    return [lambda _: calls, lambda done: AIResponse(_summary(done), model=MODEL_ID)]


def _shown_due(history: Sequence[Message], task: str) -> date | None:
    """The due date the last reply showed for `task` (by title or id), or None."""
    reply = next((m.content for m in reversed(history) if m.role == "assistant"), "")
    for row in _SHOWN_DUE.finditer(reply):
        if task in (row["title"].strip(), row["id"]):
            return date.fromisoformat(row["due"])
    return None


def _from_record(
    done: Any, call: CallMaker, task: str, moved: Moved
) -> list[ToolCall] | AIResponse:
    result = done.results[-1] if done.results else None
    record = result.get("task") if isinstance(result, dict) else None
    due = record.get("due_date") if isinstance(record, dict) else None
    if not isinstance(due, str):
        title = record.get("title") if isinstance(record, dict) else task
        return Clarification(
            f"'{title}' has no due date yet, so I can't move it by an amount: when should it be "
            "due?",
            ("Due next Friday", "Due end of the month"),
        ).response(MODEL_ID)
    task_id = record.get("task_id") if isinstance(record, dict) else None
    day = moved.applied(date.fromisoformat(due))
    return [call("update_task", task_id=task_id or task, due_date=day.isoformat())]
