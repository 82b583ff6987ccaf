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
from lectern.adapters.understanding.condition_said import Check, _Untold, checked, conditional
from lectern.adapters.understanding.layer import CHANGES
from lectern.adapters.understanding.mentions import Names, find_in, names_from_prompt
from lectern.adapters.understanding.request_parts import QUOTED, said_from
from lectern.adapters.understanding.scaffold import Done
from lectern.adapters.understanding.workspace_patterns import IT, WORKSPACE_PAGE
from lectern.domain.assistant import AIResponse, ToolCall

Step = Callable[[Any], "AIResponse | list[ToolCall]"]
_POINTER = re.compile(r"(?<![\w'’-])(?:it|(?:this|that)\s+(?:one|task))(?![\w'’-])", re.I)
"""A pointer standing for the task in a change's words ("give it to alice"): never "this
friday", never "it's"."""
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


def condition_left(request: str, system: str) -> bool:
    """Whether a message asks a change on a condition of the record ("if it's still todo").

    Where `on_condition` did not take it (the change starts with a look-up of its own), the
    change is asked back, never made without its condition nor with the condition's words
    ("still todo") read as its value.
    """
    if not (names_from_prompt(system).of("project") or WORKSPACE_PAGE.search(system)):
        return False
    found = conditional(request)
    return found is not None and checked(found.condition) is not None


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
        if task is not None and not IT.fullmatch(check.task.strip()):
            # "give it to alice": the task in the condition's own words ("the drill")
            change = _pointed(change, check.task.strip(), names)
        elif shown is not None:
            change = _pointed(change, shown, names)  # the task the question is about
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


def _pointed(change: str, task: str, names: Names) -> str:
    """The change with its pointer ("it") read as `task`, when it names no task of its own.

    Only a pointer before a comment's words begin and outside quotes is the change's task:
    "comment on it that it is ready" keeps its words, and "give the drill to bob and make it
    urgent" keeps its own task.
    """
    if find_in(change, names.of("task")).name is not None:
        return change
    end = said_from(change)
    quoted = [span.span() for span in QUOTED.finditer(change)]
    for pointer in _POINTER.finditer(change):
        if pointer.start() >= end:
            break
        if any(start <= pointer.start() < stop for start, stop in quoted):
            continue
        return f"{change[: pointer.start()]}{task}{change[pointer.end() :]}"
    return change


def _looked_up(steps: Sequence[Step]) -> str | None:
    """The task a plan only looks up (a question its record answers), or None."""
    first = steps[0](Done([], [])) if len(steps) > 1 else None
    if isinstance(first, list) and len(first) == 1 and first[0].name == "get_task_details":
        return str(first[0].arguments.get("task_id"))
    return None


def _task_named(check: Check, names: Names, it_task: str | None) -> str | None:
    if IT.fullmatch(check.task.strip()) and it_task is None:
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
        try:
            held = check.test(record, today, who) != negated
        except _Untold as untold:
            title = record.get("title") or "the task"
            return AIResponse(
                f"I can't tell whether {check.said} for '{title}': {untold}, so I haven't "
                "changed anything.",
                model=MODEL_ID,
            )
        if held:
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
