"""A workspace message of several changes, each part read by a pattern or by meaning.

"put bob on the vpn hunt and make it urgent" is two changes. The workspace patterns split a
message only where every part is one of their own shapes; a part they do not know ("put bob
on ...") left the whole message to the meaning reader, which proposed the assignment and
silently dropped "make it urgent". Here each part is read on its own, first by the patterns
and then by meaning, with a later part's "it" meaning the task an earlier part changed. The
split stands only when every part is a change planned without a question; otherwise the
message is read whole, as before, so a joint inside a name ("Review and sign off") costs
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lectern.adapters.understanding.request_sentence import points_back
from lectern.adapters.understanding.workspace_frames import unframed_change
from lectern.adapters.understanding.workspace_gapping import gapped_people
from lectern.adapters.understanding.workspace_moot import moot_blocker
from lectern.adapters.understanding.workspace_shorthand import spelt_out
from lectern.domain.assistant import ToolCall

CHANGE_VERB = (
    r"(?:make|set|mark|move|push|bump|pull|assign|reassign|unassign|give|hand|put|add|create|"
    r"open|close|complete|finish|resolve|rename|comment|note|tell|let|change|update|raise|"
    r"lower|drop|flag|log|leave|reopen|start|wrap|take)"
)
"""The verbs a change starts with: where a joint may begin a second request."""
OWN_VERB = re.compile(
    r"\b(?:is|are|was|were|isn'?t|aren'?t|wasn'?t|has|have|had|hasn'?t|needs?|will|won'?t|"
    r"can|can'?t|should|shouldn'?t|must|might|stays?|remains?|comes?|waits?|looks?|seems?)\b"
    r"|\b\w+['’]s\s+(?:next|up|done|fine|ok|okay|blocked|waiting|stuck|still)\b",
    re.I,
)
"""A second part with a verb of its own is a sentence about its subject, never an object
sharing the first part's verb: in "close the drill and the hunt is next" the hunt is what
comes next, not a second task to close."""
_JOINT = re.compile(
    r"\s*(?:[,;]\s*(?:and\s+)?(?:then\s+)?(?:also\s+)?|\s+(?:and\s+then|then|and\s+also|and|&)\s+)"
    # "I take the hunt and I start it now": the reader saying a second thing they do
    r"(?:(?:can|could|would)\s+you\s+|i(?:['’]ll|\s+will)?\s+(?=start\b))?(?:please\s+|pls\s+)?"
    rf"(?={CHANGE_VERB}\b)",
    re.I,
)
TOO = re.compile(r"[\s,]+(?:too|as\s+well|also)\W*$", re.I)
"""A part's closing "too" / "as well" / "also": no part of what it asks."""

PartReader = Callable[[str, str | None], list[ToolCall] | None]
"""Reads one part, with the task "it" means (or None): its calls, or None when it cannot."""


_QUOTED = re.compile(r"(?<!\w)[\"“‘'][^\"“”‘’']+[\"”’'](?!\w)")
"""A quoted span (a title or a comment): a joint inside it is part of what is quoted."""


def parts(text: str) -> list[str]:
    """The requests a message joins before a verb of a change, or [] when it is one."""
    text = text.strip()
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    pieces: list[str] = []
    start = 0
    for joint in _JOINT.finditer(text):
        if any(a < joint.start() < b for a, b in quoted):
            continue
        pieces.append(text[start : joint.start()])
        start = joint.end()
    pieces.append(text[start:])
    pieces = [TOO.sub("", p).strip(" ,;.") for p in pieces]
    pieces = [p for p in pieces if p]
    return pieces if 2 <= len(pieces) <= 3 else []


def first_joint(text: str) -> int | None:
    """Where the first of a message's requests ends, when it joins others, else None.

    "resolve that blocker and move the patch to in progress" -> the index of " and move".
    """
    if not parts(text):
        return None
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    return next(
        (j.start() for j in _JOINT.finditer(text) if not any(a < j.start() < b for a, b in quoted)),
        None,
    )


_WORDS = ("resolution", "content", "text", "description", "comment", "note")
"""The arguments that hold the reader's own words (a resolution, a comment, a blocker)."""


_OWN_REQUEST = {
    "create_blocker": re.compile(r"\b(?:block(?:er|ing)|impediments?)\b", re.I),
    "resolve_blocker": re.compile(r"\b(?:block(?:er|ing)|impediments?)\b", re.I),
    "add_comment": re.compile(r"\b(?:comment|note)\b", re.I),
}
"""The word of a change's own kind: a part that says it asks for that change again."""
_CHANGE_NOUN = re.compile(
    r"^\W*change\s+(?:ticket|request|board|window|freeze|number|record|control|management|id)\b",
    re.I,
)
"""A change ticket, request or board (the change-management nouns): told, no request to change."""
_POINTED_ONLY = re.compile(
    r"^\W*(?:(?:and|so|then|now)\s+)?(?:please\s+|pls\s+|just\s+)?[a-z]+(?:\s+(?:out|up|off))?"
    r"\s+(?:it|this|that(?:\s+one)?)(?:\s+(?:please|pls|now|too))?\W*$",
    re.I,
)
"""A verb and a pointer alone ("please close it"): the request pointing back, no new object."""


def swallowed(calls: Sequence[ToolCall], text: str) -> str | None:
    """A later request of `text` that a change's own words hold whole, else None.

    "resolve that blocker and move the patch to in progress", read whole, resolved the
    blocker "blocker and move the patch to in progress": the words ran on into the next
    request (one `parts` cuts before a verb of a change), which is then never made.
    """
    pieces = parts(text)
    for later in pieces[1:]:
        said = " ".join(later.casefold().split())
        for call in calls:
            own = _OWN_REQUEST.get(call.name)
            if _CHANGE_NOUN.match(later) or (
                own is not None and (own.search(later) or _POINTED_ONLY.match(later))
            ):
                # "the hunt is blocked because SIEM is down, please add blocker": the request
                # itself, said after what it records, not a later one
                continue
            for key in _WORDS:
                value = call.arguments.get(key)
                if isinstance(value, str) and said in " ".join(value.casefold().split()):
                    return later
    return None


_POINTS = re.compile(r"\b(?:it|its|it['’]s|this|that\s+one|that\s+task)\b", re.I)
"""A part that points back ("give it to bob"): after a new task, at a task with no id yet."""


def changes_in_parts(
    text: str, read: PartReader, actions: frozenset[str], people: Sequence[str] = ()
) -> list[ToolCall]:
    """Every part's changes in the order asked, or [] when any part is not one.

    `read` is tried on each part with the task the previous parts named last as "it". A
    blocker told to be moot after the telling is resolved by it (`workspace_moot.py`). A verb
    said once for two of `people` ("put alice on X and bob on Y") is a part for each.
    """
    moot = moot_blocker(text)
    if moot is not None:
        # "bob finished the patching, so the vendor window blocker is moot now"
        head, resolving = moot
        told = (changes_in_parts(head, read, actions) or read(head, None) or []) if head else []
        named = [c.arguments.get("task_id") for c in told if c.arguments.get("task_id")]
        resolved = read(resolving, str(named[-1]) if named else None) or []
        both = told + resolved
        ok = (told or not head) and resolved and all(c.name in actions for c in both)
        return once_each(both) if ok else []
    found: list[ToolCall] = []
    task: str | None = None
    # "can we get the hunt moved to friday and bob put on it?": the changes as asked
    spelt = spelt_out(unframed_change(text))
    for part in parts(spelt) or gapped_people(spelt, people):
        if any(c.name == "create_task" for c in found) and _POINTS.search(part):
            # "add a task X and give it to bob": the new task has no id for "it" to mean
            # yet; the create-task reading takes the whole message. A part that names its
            # own task ("..., and put a blocker on the drill") stands.
            return []
        if found and points_back(part):
            # "the runbook is blocked on legal review, log it": "log it" records what was told,
            # it is no change of its own (read alone it had completed the runbook)
            return []
        calls = read(part, task)
        if not calls or any(c.name not in actions for c in calls):
            return []
        said = {(c.name, repr(sorted(c.arguments.items()))) for c in found}
        # "I've started on the hunt, set it to in progress": one change said twice.
        found += [c for c in calls if (c.name, repr(sorted(c.arguments.items()))) not in said]
        named = [c.arguments.get("task_id") for c in calls if c.arguments.get("task_id")]
        task = str(named[-1]) if named else task
    return once_each(found)


def once_each(calls: list[ToolCall]) -> list[ToolCall]:
    """The changes with one said twice proposed once, and a task's assignments as the last.

    "we wrapped up the drill, close it" is one completion; "take the drill off bob and give
    it to me" is one assignment (to the reader), not a removal and then an assignment.
    """
    kept: list[ToolCall] = []
    for call in calls:
        if any(c.name == call.name and dict(c.arguments) == dict(call.arguments) for c in kept):
            continue
        if call.name == "assign_task":
            task = call.arguments.get("task_id")
            kept = [
                c
                for c in kept
                if not (c.name == "assign_task" and c.arguments.get("task_id") == task)
            ]
        kept.append(call)
    return kept
