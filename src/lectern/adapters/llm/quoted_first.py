"""A request beside what someone else said or a machine printed: read alone, then with it.

'fwd from Bob: "I'm out sick" -- give it to alice then' is the reader's request "give it to
alice then" (the task in the talk); Bob, who wrote the quote, is nobody it names. The request
is read alone first, as a request told after its circumstances is (`told_first`: a pasted
alert may still be the words a comment records). Only when the request alone asks which task
or project it is about, and the quoted words name that thing, are they read with it: 'Fwd:
"the NetScaler review is not urgent anymore, drop it to low" -- please change the priority'
changes the NetScaler review, and "... 'what is the VPN gateway hardening project for?' from
the new hire. can you show me the project details" shows that project. Even then the calls
must be the change the request's question named ("Which task should I change?": an update),
on the thing the quote names, and a person given a task must be one the reader named: the
quote's own request is never made for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from lectern.adapters.llm.told_first import Planned, told_first
from lectern.adapters.understanding.mentions import Names, find_in
from lectern.adapters.understanding.request_sentence import Request, points_back
from lectern.adapters.understanding.scaffold import Done
from lectern.domain.assistant import AIResponse, ToolCall

_P = TypeVar("_P", bound=Planned)

_ASKED_WHICH = re.compile(
    r"^Which (?P<kind>task|project) should I (?P<action>show|complete|assign|change|comment on|"
    r"look at)\?"
)
"""The question a request asks when it names no task or project (`layer.name_it`)."""

_TOOLS_OF = {
    "show": {"get_task_details"},
    "complete": {"complete_task"},
    "assign": {"assign_task"},
    "change": {"update_task"},
    "comment on": {"add_comment"},
    "look at": {"get_project_details", "get_tasks", "get_documents"},
}
"""The tools a question's verb allows: the request's own, never the quote's."""


def _first(plan: Planned) -> list[ToolCall] | AIResponse | None:
    if not plan.steps:
        return None
    first = plan.steps[0](Done([], []))
    return first if isinstance(first, (list, AIResponse)) else None


def _named_by_reader(calls: list[ToolCall], request: str) -> bool:
    """Whether everyone the calls give a task to is named in the reader's own words."""
    return all(
        re.search(rf"\b(?:{re.escape(str(person))}|me)\b", request, re.I)
        for person in (call.arguments.get("assignee_id") for call in calls)
        if person is not None
    )


def quoted_first(told: Request, plan: Callable[[str], _P], names: Names, said: str) -> _P:
    """The request's plan, read alone, or with the quoted words naming what it is about.

    `said`: the whole message, read as written when the request's words are the quote's
    ('re: drill -- "HR approved" . comment that on the drill and mark it done').
    """
    alone = told_first(told, plan)
    asked = _first(alone)
    if not isinstance(asked, AIResponse):
        return alone
    if points_back(told.request):
        whole = plan(" ".join(said.split()))
        calls = _first(whole)
        if isinstance(calls, list) and calls and _named_by_reader(calls, told.request):
            return whole
        return alone
    which = _ASKED_WHICH.match(asked.text)
    if which is None:
        return _about_the_subject(told, plan, names) or alone
    kind, action = which["kind"], which["action"]
    named = find_in(told.circumstances, names.of(kind)).name
    if named is None or find_in(told.request, names.of(kind)).name is not None:
        return alone
    with_quote = plan(f"{told.request.rstrip(' .!?')}: {told.circumstances}")
    calls = _first(with_quote)
    if not isinstance(calls, list) or not calls:
        return alone
    for call in calls:
        if call.name not in _TOOLS_OF[action] or call.arguments.get(f"{kind}_id") != named:
            return alone
    # the quote's writer and the people it names are not who the reader gave a task to
    return with_quote if _named_by_reader(calls, told.request) else alone


_IT = re.compile(r"\bit\b", re.I)


def _about_the_subject(told: Request, plan: Callable[[str], _P], names: Names) -> _P | None:
    """The request about the task a short subject line names, or None.

    "re: runbook -- can you assign it to bob": its "it" is the runbook. Only a subject of a
    few words naming one stored task, only a request that says "it", and only calls on that
    task, given to people the reader named.
    """
    if len(told.circumstances.split()) > 5 or len(_IT.findall(told.request)) != 1:
        return None
    task = find_in(told.circumstances, names.of("task")).name
    if task is None or find_in(told.request, names.of("task")).name is not None:
        return None
    about = plan(_IT.sub(task, told.request, count=1))
    calls = _first(about)
    if not isinstance(calls, list) or not calls:
        return None
    if any(call.arguments.get("task_id") != task for call in calls):
        return None
    return about if _named_by_reader(calls, told.request) else None
