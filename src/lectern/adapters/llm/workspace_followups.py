"""Follow-ups that lean on the turn before: the last action again, or a task picked from a list.

"and the citrix one?" after a document was opened opens that one (a task's or a project's
details likewise), and "the other att&ck one" the one other of its family; "put the same
comment on the netscaler review" after a comment writes it there too, and "same for the
hunt" just after one does. The object said must be one stored
thing of the kind the last reply was about; anything else is left to the other rules. The
history holds replies, not calls: what was done is read from what the replies say.

"assign the low priority one to bob" just after a listing of tasks: the one task whose
listed details ("todo, low priority, assigned to bob") hold the words said; two that do are
asked about, and words no listed task's details hold are left as said. A place or a property
is read only where the request refers to a task, never inside the words a comment, a
description, a resolution or a title says ("comment on the patch: we are number 2 in the
vendor queue" keeps its words).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from lectern.adapters.llm.workspace_refs import Refs, _Unclear, task_words
from lectern.adapters.understanding.layer import which_of
from lectern.adapters.understanding.mentions import covered, find_in, resolve
from lectern.adapters.understanding.referents import PLACE_WORD, PLACES
from lectern.adapters.understanding.request_parts import in_the_request
from lectern.domain.assistant import Message, ToolCall

CallMaker = Callable[..., ToolCall]

_AND_THE = re.compile(
    r"^(?:(?P<lead>and|what\s+about|how\s+about|now)\s+)?"
    r"(?P<o>(?:the|that|our)\s+.+?|[A-Z]{1,4}-?\d[\w.-]*)"
    r"(?P<one>\s+one)?(?:\s+(?:too|as\s+well|please))*\s*(?P<asked>\?)?$",
    re.I,
)
"""Another object for the look-up just made ("and the citrix one?", "what about T1190?")."""

_SAME = re.compile(
    r"^(?:(?:please\s+)?(?:put|add|leave|post|write|make|give|set|apply|do|copy)\s+)?(?:the\s+)?same"
    r"(?:\s+(?P<what>comment|note|priority|due\s+date|deadline|status|owner|assignee|thing|"
    r"change))?\s+(?:on|to|for|with)\s+(?P<o>.+?)(?:\s+(?:too|as\s+well|please))*\W*$",
    re.I,
)
"""The last change again for another task ("put the same comment on the review")."""

_PICKED = re.compile(
    r"\b(?:(?:the|that)\s+(?P<said>(?:[\w'’-]+\s+){0,2}?[\w'’-]+)|(?P<owner>[a-z][\w.-]*['’]s))"
    r"\s+(?:one|task)\b",
    re.I,
)
"""A task named by a property a listing showed ("the low priority one")."""

_LISTED = re.compile(
    r"^\d+\.\s+(?P<title>.+?)\s+\((?P<details>[^()]*)\)\s+\[task:(?P<id>[^\]]+)\]", re.M
)
"""A task line of a listing reply: its title, its details, its id."""

_PLACED = re.compile(
    rf"\b(?:the\s+|that\s+)?(?P<nth>{PLACE_WORD})\s+(?:one|task|item|entry)\b|"
    r"\b(?:(?:task|item)\s+)?(?:number|no\.|#)\s*(?P<n>[1-9])\b(?!\s*(?:days?|weeks?|%))",
    re.I,
)
"""A listed task pointed at by its place ("the second one", "number 3", "the last task")."""


_COMMENTED = re.compile(
    r"Comment on the task '[^'\n]*'[^\n]*?\btext: null -> (?P<text>\"(?:[^\"\\]|\\.)*\")"
)
"""A comment a reply proposed (or made): its words, as the proposal quotes them."""

_SHOWN = {
    "document": re.compile(r"\[passage:document:(?P<id>[^\]]+)\]"),
    "task": re.compile(r"\[task:(?P<id>[^\]]+)\]"),
    "project": re.compile(r"\[project:(?P<id>[^\]]+)\]"),
}
_DETAILS = {
    "document": "get_document_details",
    "task": "get_task_details",
    "project": "get_project_details",
}


def _last_reply(history: Sequence[Message]) -> str:
    last = next((m for m in reversed(history) if m.role == "assistant"), None)
    return last.content if last is not None else ""


def _last_comment(history: Sequence[Message], *, last_turn: bool) -> str | None:
    """The words of the last comment a reply proposed (in the last turn only), or None."""
    for message in reversed(history):
        if message.role == "user" and last_turn:
            return None
        if message.role != "assistant":
            continue
        found = list(_COMMENTED.finditer(message.content))
        if found:
            said = json.loads(found[-1].group("text"))
            return said if isinstance(said, str) and said.strip() else None
    return None


_PROPOSED = re.compile(
    r"^\d+\.\s+(?P<verb>Complete|Assign|Reassign|Update)\s+the\s+task\s+'[^'\n]*'\s+"
    r"\[action\s+[^\]]+\]\s+(?P<diff>.+)$",
    re.M,
)
"""A task change a reply proposed: its verb and its diff (`field: old -> new; ...`)."""
_FIELD_CHANGE = re.compile(r"(?P<field>\w+): .+? -> (?P<new>\"(?:[^\"\\]|\\.)*\"|null)(?:;\s*|$)")
_REPEATABLE = {"status", "priority", "due_date"}
"""Fields a change made again keeps; a title or a description is the task's own."""


def _last_change(history: Sequence[Message]) -> tuple[str, dict[str, Any]] | None:
    """(tool, arguments but the task) of the one task change the last turn proposed, or None."""
    for message in reversed(history):
        if message.role == "user":
            return None
        proposed = list(_PROPOSED.finditer(message.content))
        if not proposed:
            continue
        if len(proposed) > 1:
            return None  # several changes: which one "the same" is, is not said
        verb, diff = proposed[0].group("verb"), proposed[0].group("diff")
        fields = {
            f.group("field"): json.loads(f.group("new")) for f in _FIELD_CHANGE.finditer(diff)
        }
        if verb == "Complete":
            return "complete_task", {}
        if verb in ("Assign", "Reassign") and isinstance(fields.get("assignee"), str):
            return "assign_task", {"assignee_id": fields["assignee"]}
        kept = {k: v for k, v in fields.items() if k in _REPEATABLE and isinstance(v, str)}
        if verb == "Update" and kept and set(fields) <= _REPEATABLE:
            return "update_task", kept
        return None
    return None


def _last_looked_at(history: Sequence[Message]) -> str | None:
    """The kind of the one thing the last reply showed the details of, or None."""
    reply = _last_reply(history)
    shown = [k for k, p in _SHOWN.items() if {m.group("id") for m in p.finditer(reply)}]
    if len(shown) != 1:
        return None
    kind = shown[0]
    return kind if len({m.group("id") for m in _SHOWN[kind].finditer(reply)}) == 1 else None


def _named(words: str, kind: str, refs: Refs) -> str | None:
    """The one stored name of `kind` all the words are (the word for the kind aside)."""
    said = re.sub(
        r"\s+(?:one|doc|document|record|advisory|task|project)$", "", task_words(words), flags=re.I
    )
    names = refs.names.of(kind)
    if not said or not names:
        return None
    found = resolve(said, names)
    name = found.name or find_in(said, names).name
    if name is None or covered(said, name.replace("-", " ")) < 1.0:
        return None
    return name


def repeated(text: str, history: Sequence[Message], refs: Refs, make: CallMaker) -> list[ToolCall]:
    """The last look-up or comment again with the object said instead, or []."""
    same = _SAME.match(text.strip())
    if same is not None:
        what = (same.group("what") or "").casefold()
        task = _named(same.group("o"), "task", refs)
        if task is None:
            return []
        if what in ("comment", "note", "thing", ""):
            # "the same comment" may be an older one; "same for X" is the last turn's
            content = _last_comment(history, last_turn=what not in ("comment", "note"))
            if content is not None:
                return [make("add_comment", task_id=task, content=content)]
        # "mark the runbook done" ... "same for the drill": the last turn's change, again
        change = None if what in ("comment", "note") else _last_change(history)
        return [make(change[0], task_id=task, **change[1])] if change is not None else []
    asked = _AND_THE.match(text.strip())
    if asked is not None and not (
        asked.group("lead") or asked.group("one") or asked.group("asked")
    ):
        asked = None  # "the hunt" alone is no follow-up; "(and) the citrix one?" is
    kind = _last_looked_at(history) if asked is not None else None
    if asked is None or kind is None:
        return []
    said = f"{asked.group('o')}{asked.group('one') or ''}"
    name = _named(said, kind, refs) or _the_other(said, kind, refs, _last_reply(history))
    if name is None:
        return []
    return [make(_DETAILS[kind], **{f"{kind}_id": name})]


_OTHER = re.compile(r"^(?:the\s+)?other(?:\s+(?P<family>.+?))?(?:\s+one)?$", re.I)
"""The other one of a kind ("the other att&ck one", "the other project")."""
_FAMILIES = (
    (re.compile(r"\b(?:att&?ck|attack|mitre|technique)", re.I), re.compile(r"^T\d{4}")),
    (re.compile(r"\b(?:cve|kev|vuln|advisory|exploited)", re.I), re.compile(r"^CVE-", re.I)),
)
"""Document families by the words for them, and how a family's titles begin."""


def _the_other(said: str, kind: str, refs: Refs, reply: str) -> str | None:
    """The one stored thing of `kind` (of the family said, or the shown one's) not shown last.

    "open the T1133 doc" ... "and the other att&ck one": of the ATT&CK techniques linked,
    the one the last reply did not show. Two or more such are none (left to the other rules).
    """
    other = _OTHER.match(said.strip())
    if other is None:
        return None
    names = refs.names.of(kind)
    shown = [n for n in names if n.casefold() in reply.casefold()]
    if len(shown) != 1:
        return None
    family_words = other.group("family") or ""
    begins = next((b for words, b in _FAMILIES if words.search(family_words)), None)
    if begins is None and kind == "document":
        begins = next((b for _, b in _FAMILIES if b.match(shown[0])), None)
    rest = [n for n in names if n != shown[0] and (begins is None or begins.match(n))]
    return rest[0] if len(rest) == 1 else None


def picked_from_listing(text: str, history: Sequence[Message]) -> str:
    """The message with "the low priority one" named by the listed task it picks, or as said.

    Asks (`_Unclear`) when the property fits more than one listed task.
    """
    last = next((m for m in reversed(history) if m.role == "assistant"), None)
    listed = list(_LISTED.finditer(last.content)) if last is not None else []
    if len(listed) < 2:
        return text
    # a place or a property stands where a task is referred to, never inside the words said
    # ("comment on the hunt: the first item on the checklist is outdated")
    placed = next((p for p in _PLACED.finditer(text) if in_the_request(text, p.start())), None)
    if placed is not None:
        # "what's the second one about?": the task at that place in the listing just shown
        nth = placed.group("nth")
        place = (
            len(listed)
            if nth and nth.casefold() == "last"
            else PLACES.get((nth or "").casefold(), int(placed.group("n") or 0))
        )
        if not 1 <= place <= len(listed):
            raise _Unclear(which_of("task", tuple(m.group("title") for m in listed)))
        title = listed[place - 1].group("title")
        return f"{text[: placed.start()]}the task {title}{text[placed.end() :]}"
    for picked in _PICKED.finditer(text):
        if not in_the_request(text, picked.start()):
            continue
        said = (picked.group("said") or picked.group("owner")).casefold()
        words = re.findall(r"[a-z0-9-]+", re.sub(r"['’]s\b", "", said))
        owner = re.fullmatch(r"(?P<who>[a-z][\w.-]*)['’]s", said)
        fits = [
            m
            for m in listed
            if (owner and f"assigned to {owner.group('who')}" in m.group("details").casefold())
            or (
                not owner
                and words
                and all(re.search(rf"\b{re.escape(w)}\b", m.group("details"), re.I) for w in words)
            )
        ]
        if len(fits) == 1:
            title = fits[0].group("title")
            return f"{text[: picked.start()]}the task {title}{text[picked.end() :]}"
        if len(fits) > 1:
            raise _Unclear(which_of("task", tuple(m.group("title") for m in fits)))
    return text
