"""A request told after its circumstances, read alone or with them as its words.

"the window's sorted, vendor gave us Sunday. mark the blocker resolved": the request alone
asks what resolved the blocker, which was told before it; the circumstances are then what
the change records. They fill only a change's words (a resolution, a blocker, a comment),
never a new task's title: a telling sentence is no task.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, TypeVar

from lectern.adapters.understanding.intent_examples import WORKSPACE_TOOLS
from lectern.adapters.understanding.request_sentence import Request
from lectern.adapters.understanding.scaffold import Done, Step
from lectern.adapters.understanding.workspace_need_told import need_told_as_title
from lectern.adapters.understanding.workspace_parts import first_joint, swallowed
from lectern.adapters.understanding.workspace_told_request import told_request

RECORDS_WHAT_WAS_TOLD = frozenset({"resolve_blocker", "create_blocker", "add_comment"})
"""The changes whose words may be the circumstances told before the request."""


_POINTED = re.compile(
    r"\b(?:that|this|the\s+same)\s+(?:record|doc|document|advisory|write-?up|entry|one|"
    r"bug|vuln(?:erability)?|cve|technique)\b",
    re.I,
)
"""A request's pointer at a record the circumstances named ("pull up that record")."""

_IDENTIFIER = re.compile(r"\bCVE-\d{4}-\d{3,}\b|\bT\d{4}(?:\.\d{3})?\b", re.I)
"""An advisory's or a technique's id: the name of one document."""


_BARE_CHANGE = re.compile(
    r"^(?:(?:so\s+|and\s+)?(?:could|can|would|will)\s+(?:you|u)\s+|please\s+)?(?:please\s+)?"
    r"(?:change|update|fix|edit|amend|adjust)\s+(?:it|that|this|"
    # "change Hunt for unusual VPN logins?": the task "it" was, named; no value said after it
    r"(?-i:[A-Z])(?:(?!\s(?:to|into|by|as|from|with)\s)[^,.;:!?]){2,60}?)"
    r"(?:\s+(?:for\s+me|please))?\W*$",
    re.I,
)
"""A request that only asks for the change told before it ("Could you change it?")."""


class Planned(Protocol):
    """A plan: its steps, each given the calls and results so far."""

    @property
    def steps(self) -> list[Step]:
        """The plan's steps."""
        ...


_P = TypeVar("_P", bound=Planned)


def told_first(told: Request, plan: Callable[[str], _P]) -> _P:
    """The request's plan: alone, or with the circumstances as the words it records.

    Alone when that is a workspace request said in full; with the circumstances only when
    every change they give records words (never a new task); else alone's.
    """
    said = f"{told.circumstances} {told.request}"
    if told_request(said) != said:
        # "projects. list.": sentences that are one clipped or told request, read whole
        whole = plan(said)
        first = whole.steps[0](Done([], [])) if whole.steps else None
        if isinstance(first, list) and first and all(c.name in WORKSPACE_TOOLS for c in first):
            return whole
    told = need_told_as_title(told)  # "Somebody needs to brief the execs. A task for that"
    alone = plan(told.request)
    read = alone.steps[0](Done([], [])) if alone.steps else None
    if (
        isinstance(read, list)
        and all(call.name in WORKSPACE_TOOLS for call in read)
        and swallowed(read, told.request) is None
    ):
        return alone
    if _BARE_CHANGE.match(told.request):
        # "the description of the hunt should also say X. Could you change it?": the change
        # is what was told; the request only asks for it
        own = plan(told.circumstances)
        first = own.steps[0](Done([], [])) if own.steps else None
        # (a description added to is looked up first: `workspace_texts.added_to_description`)
        changes = ("update_task", "get_task_details")
        if isinstance(first, list) and first and all(c.name in changes for c in first):
            return own
    pointed = _POINTED.search(told.request)
    ids = {i.upper() for i in _IDENTIFIER.findall(told.circumstances)}
    if pointed is not None and len(ids) == 1:
        # "... the Check Point bug (CVE-2024-24919). Can you pull up that record?": the
        # record pointed at is the one the circumstances name by its id
        request = f"{told.request[: pointed.start()]}{ids.pop()}{told.request[pointed.end() :]}"
        by_id = plan(request)
        first = by_id.steps[0](Done([], [])) if by_id.steps else None
        if isinstance(first, list) and first and all(c.name in WORKSPACE_TOOLS for c in first):
            return by_id
    joint = first_joint(told.request)
    if joint is not None:
        # "... resolve that blocker and move the patch to in progress": what was told is
        # the first request's words, and they end where the next request begins
        head, tail = told.request[:joint], told.request[joint:]
        tail = tail if tail.lstrip()[:1] in (",", ";") else f",{tail}"
        worded = f"{head.rstrip(' .!')}: {told.circumstances.rstrip(' .!')}{tail}"
    else:
        worded = f"{told.request.rstrip(' .!')}: {told.circumstances.rstrip(' .!')}"
    with_them = plan(worded)
    first = with_them.steps[0](Done([], [])) if with_them.steps else None
    calls = first if isinstance(first, list) else []
    if joint is not None:
        # the first change records the words; the later ones are changes of their own
        recorded = bool(calls) and calls[0].name in RECORDS_WHAT_WAS_TOLD
        recorded = recorded and all(call.name in WORKSPACE_TOOLS for call in calls)
        recorded = recorded and not any(call.name == "create_task" for call in calls)
    else:
        # a question back is no recording of what was told (all() of no calls was true)
        recorded = isinstance(first, list) and all(
            call.name in RECORDS_WHAT_WAS_TOLD for call in calls
        )
    return with_them if first and recorded else alone
