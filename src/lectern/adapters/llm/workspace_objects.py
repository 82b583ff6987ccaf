"""Several objects that share one verb: one call per object, in the order said.

"assign both the runbook and the netscaler token review to bob", "mark the drill, the hunt
and the runbook as done": the verb and what follows the list ("to bob", "as done") are
said once for every task of the list. Each task is read alone, by the single-request rules,
in a message where the list is only that task; the reading stands when every task gives
the same change. Every object must be one stored task, named by its own words: a list with
one that is not gets a question, never a change of the tasks it did name.

"add three tasks to phishing awareness: "A", "B" and "C"": several quoted titles are as
many new tasks, each with what the message says of them all (the project, a priority).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lectern.adapters.llm.workspace_refs import Refs, _Unclear, task_words
from lectern.adapters.understanding.layer import Clarification, which_of
from lectern.adapters.understanding.mentions import covered, find_in, resolve
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB, OWN_VERB
from lectern.domain.assistant import ToolCall

Reader = Callable[[str, Refs], list[ToolCall]]
"""Reads one request: its calls, or [] when it is not one the reader knows."""

_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+", re.I)
"""Between two objects of one list ("the drill, the hunt and the runbook")."""

_COMMENT_LEAD = re.compile(
    r"^\W*(?:(?:add|post|leave|write|put|drop)\s+(?:a\s+)?)?(?:comment|note)\b", re.I
)
"""A comment asked for: the words after its "that" are what it says."""

_LIST_LEAD = re.compile(r"(?:\b(?:both|all(?:\s+of)?|each\s+of)\s+)$", re.I)
"""The word before a list that only says it is one ("both the runbook and ...")."""

_NOUN_LEAD = re.compile(r"^(?:the|that|our|my|this)\s+\w", re.I)
"""How an object the reader names starts, when it names no stored task ("the firewall audit")."""

_SEVERAL_TASKS = re.compile(
    r"\b(?:(?:two|three|four|five|six|\d+|some|a\s+few|a\s+couple\s+of|these|the\s+following)"
    r"\s+)?(?:new\s+)?(?:tasks|todos|to-dos|items)\b",
    re.I,
)
"""The words that announce several new tasks ("three tasks"): one of them is "a task"."""

_SAID_OF_ALL = re.compile(
    r"^\s*(?:$|[:,.!?;–—-]|(?:to|as|for|into|from|off|with|in|on|by|at|over|up|down|back|now|"
    r"please|pls|too|both|done|complete|completed|finished|urgent|high|low|medium|due|"
    r"tomorrow|today)\b)",
    re.I,
)
"""What may follow a list's last object: what is said of them all ("to bob", "as done")."""

_QUOTE = r"[\"“‘'](?P<q>[^\"“”‘’']+)[\"”’']"
_QUOTED_LIST = re.compile(
    rf"(?<!\w){_QUOTE}(?:(?:\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+)[\"“‘'][^\"“”‘’']+[\"”’'])+(?!\w)",
    re.I,
)
"""Two or more quoted titles joined by commas and "and"."""


@dataclass(frozen=True, slots=True)
class _Object:
    """One object of a list: where it stands in the message, and the stored task it names."""

    start: int
    end: int
    task: str | None
    words: str


def _task_of(words: str, refs: Refs) -> tuple[str | None, tuple[str, ...]]:
    """The one stored task all of the words name, or None and the tasks they might be."""
    said = task_words(words)
    tasks = refs.names.of("task")
    if not said or not tasks:
        return None, ()
    found = resolve(said, tasks)
    name = found.name or find_in(said, tasks).name
    if found.ambiguous:
        return None, tuple(found.candidates)
    if name is None or covered(said, name) < 1.0 or not _bounded(said, name):
        return None, ()
    project = find_in(said, refs.names.of("project")).name
    if project is not None and covered(said, project) >= covered(said, name):
        return None, ()  # "the vpn project": a project, not one of its tasks
    return name, ()


def _bounded(said: str, name: str) -> bool:
    """Whether a mention starts and ends with words of the name ("to the runbook" does not)."""
    words = re.findall(r"[\w'’-]+", said)
    return bool(words) and all(covered(w, name) == 1.0 for w in (words[0], words[-1]))


def _objects(text: str, refs: Refs) -> tuple[list[_Object], str] | None:
    """The objects of the message's list and the words after it, or None (no list).

    The list is the longest run of parts joined by commas and "and": the first part ends
    with an object (the verb before it), the middle ones are objects whole, and the last
    starts with one (what follows it is said of them all).
    """
    # "add a comment on X saying A, B": what is said is a free text, never a list of objects
    said = r"|\bthat\b" if _COMMENT_LEAD.match(text) else ""
    head = re.split(rf"[:\"“]|\b(?:saying|noting)\b{said}", text, maxsplit=1, flags=re.I)[0]
    joints = [m for m in _SEPARATOR.finditer(head) if m.start() > 0]
    if not joints:
        return None
    bounds = [0, *[p for m in joints for p in (m.start(), m.end())], len(text)]
    segments = [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2)]
    for first in range(len(segments) - 1):
        for last in range(len(segments) - 1, first, -1):
            found = _list_between(text, segments[first : last + 1], refs)
            if found is not None:
                return found
    return None


def _list_between(
    text: str, segments: list[tuple[int, int]], refs: Refs
) -> tuple[list[_Object], str] | None:
    """The list over these parts (each a span of `text`), or None when they are not one."""
    start, end = segments[0]
    opening = None
    for word in re.finditer(r"\S+", text[start:end]):
        at = start + word.start()
        if at == start:
            continue  # the verb's place: an object follows something
        task, _ = _task_of(text[at:end], refs)
        if task is not None:
            opening = _Object(at, end, task, text[at:end])
            break
    if opening is None:
        return None
    objects = [opening]
    for start, end in segments[1:-1]:
        task, maybe = _task_of(text[start:end], refs)
        if task is None and not _names_something(text[start:end], maybe):
            return None
        objects.append(_Object(start, end, task, text[start:end]))
    start, end = segments[-1]
    closing = None
    ends = [m.end() for m in re.finditer(r"[\w'’-]+", text[start:end])]
    for cut in sorted(ends, reverse=True):
        task, _ = _task_of(text[start : start + cut], refs)
        if task is not None:
            closing = _Object(start, start + cut, task, text[start : start + cut])
            break
    if closing is None:
        # an object named by words no stored task has ("... and the firewall audit to bob")
        said = re.match(
            r"(?P<o>.+?)(?=\s+(?:to|as|for|into|from|off|with)\b|\s*$)", text[start:end]
        )
        if said is None or not _names_something(said.group("o"), ()):
            return None
        if OWN_VERB.search(said.group("o")):
            return None  # "... and the hunt's still waiting": a clause about it, no object
        closing = _Object(start, start + said.end("o"), None, said.group("o"))
    return [*objects, closing], text[closing.end :]


def _names_something(words: str, candidates: tuple[str, ...]) -> bool:
    """Whether words that name no one stored task still name a thing ("the firewall audit")."""
    if candidates:
        return True
    said = words.strip()
    return bool(_NOUN_LEAD.match(said)) and not re.match(rf"{CHANGE_VERB}\b", said, re.I)


def each_object(text: str, refs: Refs, read: Reader) -> list[ToolCall]:
    """One change per task of a list the verb shares, in the order said, or [].

    Asks (`_Unclear`) when an object of a list that reads so names no one stored task.
    """
    found = _objects(text, refs)
    if found is None:
        return []
    objects, rest = found
    if not _SAID_OF_ALL.match(rest):
        return []  # "close the drill and the hunt is next": the list's last part is a clause
    lead = _LIST_LEAD.sub("", text[: objects[0].start].rstrip()) + " "
    known = [o for o in objects if o.task is not None]
    readings = []
    for one in known:
        try:
            calls = read(f"{lead}{one.words}{rest}", refs)
        except _Unclear:
            return []
        if not calls or any(c.arguments.get("task_id") != one.task for c in calls):
            return []
        readings.append(calls)
    shapes = {
        repr(
            [(c.name, sorted((k, v) for k, v in c.arguments.items() if k != "task_id")) for c in r]
        )
        for r in readings
    }
    if len(shapes) != 1:
        return []  # the tasks would not get the same change: not one verb shared
    unknown = next((o for o in objects if o.task is None), None)
    if unknown is not None:
        _, maybe = _task_of(unknown.words, refs)
        if maybe:
            raise _Unclear(which_of("task", maybe))
        tasks = refs.names.of("task")
        asked = task_words(unknown.words)
        raise _Unclear(
            Clarification(
                f"I can't find a task called {asked!r}. Which task do you mean?",
                tuple(tasks[:3]),
            )
        )
    if len({o.task for o in objects}) != len(objects):
        return []  # one task named twice: not a list of tasks
    return [call for calls in readings for call in calls]


def each_title(text: str, refs: Refs, create: Reader) -> list[ToolCall]:
    """One new task per quoted title of a list ("tasks "A", "B" and "C""), or []."""
    listed = _QUOTED_LIST.search(text)
    if listed is None:
        return []
    titles = re.findall(r"[\"“‘']([^\"“”‘’']+)[\"”’']", listed.group(0))
    made = []
    for title in titles:
        before = _SEVERAL_TASKS.sub("a task", text[: listed.start()])
        calls = create(f'{before}"{title}"{text[listed.end() :]}', refs)
        if len(calls) != 1 or calls[0].name != "create_task":
            return []
        if str(calls[0].arguments.get("title", "")).casefold() != title.strip().casefold():
            return []
        made.extend(calls)
    return made
