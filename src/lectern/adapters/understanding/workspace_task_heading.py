"""A heading that names a task before requests about it: "three things on the hunt: ...".

"three things on the vpn login hunt: record a blocker that we have no access to the log
archive, comment 'waiting on infra for access', and make it high priority" names its task
once, in a heading, and each request after it is about that task. Read whole, the first
request's words ran on over the others. Each request that names no task of its own, and
says no "it", is given the heading's task where its object goes: "record a blocker on the
vpn login hunt that ...", "comment on the vpn login hunt '...'", "set the vpn login hunt to
high"; a request saying "it" means the task named last. The heading is a task's name only
when it has no verb of its own ("the hunt is blocked: comment ..." is a telling, left) and
every request after it (two or three, in one sentence) can be so given its task; otherwise
the message is left as it was.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, find_in
from lectern.adapters.understanding.request_parts import points_back
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB, OWN_VERB, parts

_HEADED = re.compile(
    r"^(?P<head>[^:\n\"“'‘?!.]{3,60}?)\s*(?::|\s[-–—]+)\s+(?P<rest>\S.+)$",
    re.I | re.S,
)
_HEAD_LEAD = re.compile(
    r"^(?:(?:a\s+)?(?:few|couple(?:\s+of)?|some|two|three|four|\d+)\s+"
    r"(?:things|changes|items|updates|bits)\s+)?(?:on|for|re|about|regarding|with|to)?\s*",
    re.I,
)
_NO_HEADING = re.compile(
    rf"\b{CHANGE_VERB}\b|\b(?:don['’]?t|do\s+not|not|never|no|please|pls|can|could)\b", re.I
)
_ASKS_CHANGE = re.compile(rf"^(?:(?:please|pls)\s+)?(?:{CHANGE_VERB}|record)\b", re.I)
_KIND_OBJECT = re.compile(
    r"^(?P<verb>\w+(?:\s+(?:down|up|in))?\s+(?:a|an|the|one|another)\s+(?:new\s+)?"
    r"(?:blocker|comment|note|blocking\s+issue))\b",
    re.I,
)
_WORDS_VERB = re.compile(r"^(?P<verb>(?:comment|note|add\s+a\s+note|reply))\b(?!\s+on\b)", re.I)
_FIELD_VERB = re.compile(
    r"^(?P<verb>(?:set|make|mark|move|push|bump|pull|put|change|raise|lower|drop|assign|give|"
    r"hand|close|complete|finish|start|reopen))\b(?=\s+(?:to|as|due|in|into|back|up|down|"
    r"over|high|low|medium|urgent|done|todo|by|on\s+hold)\b|\s*$)",
    re.I,
)


_FIELD_WORDS = re.compile(
    r"\b(?:in[\s_-]+review|review|in[\s_-]+progress|progress|done|to\s*-?do|high|low|medium|"
    r"urgent|priority|prio|status|due)\b",
    re.I,
)


_WORDS_START = re.compile(r"\b(?:that|saying|says|reading)\b|[:\"“'‘]")
"""Where a request's own words (a blocker's, a comment's) begin: they name no task."""


def _before_words(part: str) -> str:
    start = _WORDS_START.search(part)
    return part[: start.start()] if start else part


def _names_own_task(part: str, tasks: list[str]) -> bool:
    """Whether `part` names a task itself, before its own words and beside its field's values."""
    bare = _FIELD_WORDS.sub(" ", _before_words(part))
    return find_in(bare, tasks).name is not None


def _with_task(part: str, task: str) -> str | None:
    """`part` with `task` where its object goes, or None when it has no place for one."""
    for shape in (_KIND_OBJECT, _WORDS_VERB):
        said = shape.match(part)
        if said is not None:
            return f"{said.group('verb')} on {task}{part[said.end() :]}"
    said = _FIELD_VERB.match(part)
    if said is not None:
        return f"{said.group('verb')} {task}{part[said.end() :]}"
    return None


def task_heading(text: str, names: Names) -> str:
    """`text` with a heading's task given to each request after it that names none."""
    headed = _HEADED.match(text.strip())
    if headed is None:
        return text
    head = headed.group("head").strip()
    tasks = list(names.of("task"))
    if OWN_VERB.search(head) or _NO_HEADING.search(head) or len(head.split()) > 9:
        # "dont mark the patch done - set it to high instead" is a request, not a heading
        return text
    if find_in(head, tasks).name is None:
        return text
    task = _HEAD_LEAD.sub("", head, count=1).strip()
    rest = headed.group("rest").strip()
    if not _ASKS_CHANGE.match(rest):
        return text
    pieces = parts(rest)
    if not pieces or re.search(r"[.!?]\s+\S", rest):
        # one request ("runbook: unassign.") is a field's label the clipped readers read; a
        # later sentence ("... nobody on it for now.") is no request about the heading's task
        return text
    said: list[str] = []
    for index, piece in enumerate(pieces):
        pointer = points_back(_before_words(piece))
        if _names_own_task(piece, tasks) or (index and pointer):
            said.append(piece)
            continue
        # a later request is given "it", the task named last; a first request saying "it"
        # ("patching: start it, mark in progress") is left to the readers of a task's label
        given = None if pointer else _with_task(piece, "it" if said else task)
        if given is None:
            return text
        said.append(given)
    return ", ".join(said[:-1]) + ", and " + said[-1]
