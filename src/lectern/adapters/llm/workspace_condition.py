"""A change asked on a condition of a task's record: looked up, then proposed if it holds.

The reading is `understanding/condition_said.py`. Like a due date moved by an amount
(`workspace_moved.py`), the task is looked up first (a look-up changes nothing) and the next
stage reads its record: the change, planned from its own words as if asked alone, is proposed
only when the condition holds; otherwise nothing changes and the reply says what the record
says. A condition the record cannot tell ("if he's free") is left to the not-asked rules,
which ask; a change it cannot be read for is asked about after the look-up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from lectern.adapters.llm.workspace_questions import MODEL_ID, CallMaker
from lectern.adapters.llm.workspace_refs import _Unclear, person_ref, task_ref
from lectern.adapters.understanding.condition_said import Check, checked, conditional
from lectern.adapters.understanding.layer import CHANGES
from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.scaffold import Done
from lectern.domain.assistant import AIResponse, ToolCall

Step = Callable[[Any], "AIResponse | list[ToolCall]"]
_POINTER = re.compile(r"\b(?:it|this(?:\s+(?:one|task))?|that(?:\s+(?:one|task))?)\b", re.I)
_ASKED_FIRST = re.compile(r"^(?P<asked>[^?]{3,120}\?)\s*(?P<rest>\S.*)$", re.S)
"""A question put before the conditional change."""
_STATUS_SAID = {
    "todo": "still to do",
    "in_progress": "in progress",
    "in_review": "in review",
    "done": "done",
}


def asked_change(request: str) -> str:
    """The change a message asks on a condition the record can tell, else the message."""
    found = conditional(request)
    if found is None or checked(found.condition) is None:
        return request
    return found.change


def on_condition(
    text: str,
    names: Names,
    it_task: str | None,
    today: date,
    call: CallMaker,
    reread: Callable[[str], Sequence[Step]],
) -> list[Step] | None:
    """Look-up, test, then the change's own stages; None when the message is no such thing.

    A question before it that the look-up answers ("What is the state of this task? If it's
    still todo, put it in progress.") is answered by the same look-up.
    """
    first_asked = _ASKED_FIRST.match(text.strip())
    asked, text = (first_asked["asked"], first_asked["rest"]) if first_asked else (None, text)
    found = conditional(text)
    check = checked(found.condition) if found is not None else None
    if found is None or check is None:
        return None
    try:
        shown = _looked_up(reread(asked)) if asked is not None else None
        if asked is not None and shown is None:
            return None  # another question beside it: read as before
        task = _task_named(check, names, it_task) or shown
        if shown is not None and task != shown:
            return None
        change = found.change
        if task is not None and not _POINTER.fullmatch(check.task.strip()):
            # "give it to alice": the task in the condition's own words ("the drill")
            change = _POINTER.sub(check.task.strip(), change, count=1)
        elif shown is not None:
            change = _POINTER.sub(shown, change, count=1)  # the task the question is about
        steps = list(reread(change))
        first = steps[0](Done([], [])) if steps else None
        if isinstance(first, list):
            if not first or not any(c.name in CHANGES for c in first):
                return None  # no change read: not this reading
            if task is None:
                task = str(first[0].arguments.get("task_id") or "") or None
        if task is None:
            return None
        who = person_ref(check.who, names) if check.who else None
    except _Unclear as unclear:
        question = unclear.question
        return [lambda _: question.response(MODEL_ID)]
    look = call("get_task_details", task_id=task)
    gate = _gate(check, found.negated, today, who)
    return [lambda _: [look], gate, *steps]


def _looked_up(steps: Sequence[Step]) -> str | None:
    """The task a plan only looks up (a question its record answers), or None."""
    first = steps[0](Done([], [])) if len(steps) > 1 else None
    if isinstance(first, list) and len(first) == 1 and first[0].name == "get_task_details":
        return str(first[0].arguments.get("task_id"))
    return None


def _task_named(check: Check, names: Names, it_task: str | None) -> str | None:
    if _POINTER.fullmatch(check.task.strip()) and it_task is None:
        return None  # "it": the change's own task
    return task_ref(check.task, names, it_task)


def _gate(check: Check, negated: bool, today: date, who: str | None) -> Step:
    def gate(done: Any) -> AIResponse | list[ToolCall]:
        result = done.results[0] if done.results else None
        record = result.get("task") if isinstance(result, dict) else None
        if not isinstance(record, dict):
            return AIResponse(
                "I couldn't read that task's record, so I haven't changed anything.",
                model=MODEL_ID,
            )
        if check.test(record, today, who) != negated:
            return []  # the condition holds: the change's stages follow
        return AIResponse(_not_held(record, check, negated), model=MODEL_ID)

    return gate


def _not_held(record: dict[str, Any], check: Check, negated: bool) -> str:
    title = record.get("title") or "The task"
    status = _STATUS_SAID.get(str(record.get("status")), str(record.get("status")))
    owner = record.get("assignee_id")
    facts = [status, f"assigned to {owner}" if owner else "unassigned"]
    if record.get("priority"):
        facts.append(f"{record['priority']} priority")
    if record.get("due_date"):
        facts.append(f"due {record['due_date']}")
    said = f"unless {check.said}" if negated else f"if {check.said}"
    return (
        f"'{title}' is {', '.join(facts)}. You asked for the change only {said}, so I haven't "
        "changed anything."
    )
