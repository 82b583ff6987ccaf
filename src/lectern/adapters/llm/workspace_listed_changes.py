"""Several changes said as a list of objects, each with what is said of it.

The rules read one verb shared by a plain list ("mark the drill and the runbook done", "add
tasks 'A' and 'B'"), but people also list each object with a value of its own, or add a
second object after the first change is said whole, and the rules made the first change
and silently dropped the rest, or asked which task:
- new tasks announced, then each title with its own details: "add two tasks to phishing
  awareness: 'Collect click-rate metrics' due nov 30 and 'Brief the exec team' due dec 4";
- hand-offs listed as pairs after a heading: "reshuffle: check point patching -> alice,
  phishing drill -> alice, hunt -> bob" (the arrow already spelt "to");
- a whole change, then another task "too": "mark the drill done, and the runbook too" (the
  same change to that task).
Each object is read by the single-request rules; if any one of them does not read exactly
(a title that is not kept, a task or person not stored), the message is left to the other
readings, which ask.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lectern.adapters.llm.workspace_refs import Refs
from lectern.adapters.understanding.mentions import covered, resolve, resolve_person
from lectern.domain.assistant import ToolCall

Reader = Callable[[str, Refs], list[ToolCall]]
Maker = Callable[..., ToolCall]

_OPEN = "\"“‘'"
_CLOSE = "\"”’'"
_ANNOUNCED = re.compile(
    r"^(?P<verb>(?:please\s+)?(?:add|create|make|open|log|set\s+up)\s+)"
    r"(?:(?:two|three|four|five|\d+|some|a\s+few|a\s+couple\s+of|these|the\s+following)\s+)?"
    r"(?:new\s+)?(?:tasks|todos|to-dos|items)\s+(?P<where>(?:to|in|on|under|for)\s+[^:"
    + _OPEN
    + r"]+?)\s*:\s*(?P<items>["
    + _OPEN
    + r"].+)$",
    re.I,
)
"""'add two tasks to P: ' and the titles after it."""

_ITEM = re.compile(
    r"[" + _OPEN + r"](?P<t>[^" + _OPEN + _CLOSE + r"]+)[" + _CLOSE + r"](?P<tail>[^"
    r"" + _OPEN + r"]*?)(?=(?:\s*[,;]\s*(?:and\s+)?|\s+(?:and|&|plus)\s+)[" + _OPEN + r"]|\W*$)",
    re.I,
)
_ITEM_GAP = re.compile(r"^(?:\s*[,;]\s*(?:and\s+)?|\s+(?:and|&|plus)\s+)$", re.I)


def each_title_with_its_own(text: str, refs: Refs, create: Reader) -> list[ToolCall]:
    """One new task per quoted title, each with the details said after it, or []."""
    announced = _ANNOUNCED.match(text.strip())
    if announced is None:
        return []
    items = announced.group("items")
    found = list(_ITEM.finditer(items))
    if len(found) < 2 or not any(m.group("tail").strip(" ,.") for m in found):
        return []  # titles alone: the plain list's reading
    end = 0
    made: list[ToolCall] = []
    for item in found:
        between = items[end : item.start()]
        if end and not _ITEM_GAP.match(between):
            return []
        end = item.end()
        title, tail = item.group("t").strip(), item.group("tail").strip(" ,.")
        said = f'{announced.group("verb")}a task {announced.group("where")}: "{title}" {tail}'
        calls = create(said.strip(), refs)
        if len(calls) != 1 or calls[0].name != "create_task":
            return []
        if str(calls[0].arguments.get("title", "")).casefold() != title.casefold():
            return []
        made.extend(calls)
    if items[end:].strip(" .!"):
        return []
    return made


_HEADING = re.compile(
    r"^(?:(?:quick\s+)?(?:reshuffle|re-?assign(?:ments?)?|assignments?|hand-?offs?|handovers?|"
    r"owners?|ownership|swap|swaps|rotation|who\s+takes\s+what|new\s+owners?)\s*[:—–-]\s*)?",
    re.I,
)
_PAIR = re.compile(r"^(?P<task>.+?)(?:\s+(?:to|->|→|=>)|\s*:)\s+(?P<who>[\w .'-]+?)$", re.I)


def handoffs_listed(text: str, refs: Refs, make: Maker) -> list[ToolCall]:
    """One assignment per 'task -> person' pair of a list of two or more, or []."""
    heading = _HEADING.match(text.strip())
    body = text.strip()[heading.end() if heading else 0 :].strip(" .!")
    pieces = [p.strip() for p in re.split(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+", body) if p.strip()]
    if len(pieces) < 2:
        return []
    tasks = refs.names.of("task")
    readers = refs.names.of("reader")
    made: list[ToolCall] = []
    for piece in pieces:
        pair = _PAIR.match(piece)
        if pair is None:
            return []
        said_task = re.sub(r"^(?:the|our)\s+", "", pair.group("task"), flags=re.I)
        task = resolve(said_task, tasks).name
        if task is None or covered(said_task, task) < 1.0:
            return []  # every word of it the task's: "the drill" is one, "move X" is not
        member = resolve_person(pair.group("who"), refs.names, readers[0] if readers else None)
        if member.name is None:
            return []
        made.append(make("assign_task", task_id=task, assignee_id=member.name))
    if len({c.arguments["task_id"] for c in made}) < len(made):
        return []  # one task to two people: asked
    return made


_TOO = re.compile(
    r"^(?P<first>.+?)\s*,?\s+(?:and|&|plus)\s+(?:also\s+)?(?:do\s+)?(?P<other>[^,]+?)"
    r"\s*,?\s+(?:too|as\s+well|also)(?![^?]*\?)\W*$",
    re.I,
)


def same_change_too(text: str, refs: Refs, one: Reader, make: Maker) -> list[ToolCall]:
    """A whole change, then another task "too": the same change to each, or []."""
    said = _TOO.match(text.strip())
    if said is None:
        return []
    other = re.sub(r"^(?:the|that|our)\s+", "", said.group("other").strip(), flags=re.I)
    task = resolve(other, refs.names.of("task")).name
    if task is None or covered(other, task) < 1.0:
        return []  # "..., and bob too", "and the vpn project too": no task alone
    calls = one(said.group("first"), refs)
    if len(calls) != 1 or not calls[0].arguments.get("task_id"):
        return []
    first = calls[0]
    if first.arguments["task_id"] == task or first.name in ("create_task", "create_blocker"):
        return []
    return [first, make(first.name, **{**first.arguments, "task_id": task})]
