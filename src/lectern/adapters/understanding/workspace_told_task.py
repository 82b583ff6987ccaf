"""The task a request points at ("mark that task done") when the sentence before names it.

"Check Point gateways are all patched! mark that task done": "that task" is the one the
telling sentence names, and the request is read with its name in place of the pointer.
Only when the telling names exactly one stored task and the request names none.

A request may also be led by its task as a heading ("drill: give it to alice, due nov 20,
and ..."): read whole, the heading is no part of any change and "it" points at nothing, so
later details fell away. When the words before the first colon are all a stored task's, the
request is the rest with its first "it" as that task; a rest clipped to a verb or a field
alone ("runbook: unassign. nobody on it for now.", "check point patch: due friday.") is that
change of the task.

A report that names one task, then asks for it to be noted ("fyi HR approved the week of the
16th for the drill, pls note that on the task"), is a comment on that task with the report
as its words: "the task" and "that" point back at what was told.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import covered, find_in, resolve
from lectern.adapters.understanding.request_sentence import Request

_POINTER = re.compile(
    r"\b(?:(?:that|this|the\s+same)\s+(?:task|one)|the\s+task|it)\b(?!['’]s)",
    re.I,
)
"""A task pointed at, not named: "that task", "this one", "the task", "it" (not "it's")."""
_STATUS = re.compile(r"\b(?:in[\s-]+(?:review|progress)|to[\s-]?do|done)\b", re.I)
_QUOTED = re.compile(r"[\"“][^\"”]*[\"”]|(?<!\w)['‘][^'’]+['’](?!\w)")
_WORDS_TO_WRITE = re.compile(
    r"\b(?:comment|note|say|saying|reply|message)\b(?:(?!\b(?:on|to)\b).)*?"
    r"(?:\bthat\b|\bsaying\b|:)(?P<words>.*)$",
    re.I,
)
"""A comment's words ("drop a note that all four gateways are patched"): what to write, no
task named; the words before them may still name one ("a note on the hunt that ...")."""


def told_task_named(told: Request, tasks: list[str]) -> Request:
    """The request with its pointer replaced by the task the telling names; else as told."""
    unquoted = _QUOTED.sub(" ", told.request)  # a quoted comment or resolution names nothing
    written = _WORDS_TO_WRITE.search(unquoted)
    if written is not None:
        unquoted = unquoted[: written.start("words")]
    # "set the task to in review": a status, not the task "Review NetScaler session tokens"
    unquoted = _STATUS.sub(" ", unquoted)
    if not tasks or find_in(unquoted, tasks).name is not None:
        return told
    found = find_in(told.circumstances, tasks)
    pointer = _POINTER.search(told.request)
    if found.name is None or pointer is None:
        return told
    request = f"{told.request[: pointer.start()]}{found.name}{told.request[pointer.end() :]}"
    return told._replace(request=request)


_LEAD = re.compile(
    r"^\s*(?:(?:re|about|on|for)\s*:?\s+)?(?:the\s+)?(?P<t>[^:,.;!?\"“'‘]{2,60}?)"
    r"(?:\s+task)?\s*:\s*(?P<rest>\S.*)$",
    re.I | re.S,
)


_CLIPPED = re.compile(
    r"^(?:(?P<verb>unassign|close|complete|start)|(?P<due>due\s+\S[^,;.!?]*)|"
    r"(?P<level>low|medium|high|urgent|critical)(?:\s+priority)?|"
    r"(?P<state>in[\s-]+progress|in[\s-]+review|to[\s-]?do|done)|"
    r"(?:assign(?:ed)?\s+to|->|→)\s*(?P<who>me|[a-z][\w.-]*))"
    r"(?:\s*,?\s*(?:please|pls|thanks))?\s*(?P<after>(?:[.;!]\s*.*)?)$",
    re.I | re.S,
)
"""A heading's rest clipped to one change: a verb, a due day, a level, a state, a person."""


def _clipped(rest: str, task: str) -> str | None:
    """The change a clipped rest makes to the heading's task, or None when it is not one."""
    found = _CLIPPED.match(rest.strip())
    if found is None:
        return None
    after = found.group("after").strip()
    if found.group("verb"):
        change = f"{found.group('verb')} {task}"
    elif found.group("due"):
        change = f"set {task} {found.group('due').strip()}"
    elif found.group("level"):
        change = f"set {task} to {found.group('level')} priority"
    elif found.group("state") and found.group("state").casefold() == "done":
        change = f"mark {task} done"
    elif found.group("state"):
        change = f"set {task} to {found.group('state')}"
    else:
        change = f"assign {task} to {found.group('who')}"
    return f"{change}{after[:1]} {after[1:].strip()}".strip() if after else change


_NOTE_THAT = re.compile(
    r"^(?:(?:fyi|btw|heads\s+up|update)\b[\s:,.!-]*)?(?P<report>[^?]{8,}?)[\s,;.!–—-]+"
    r"(?:(?:so\s+|and\s+)?(?:pls|please|can\s+you|could\s+you|would\s+you)\s+)+"
    r"(?:note|log|record|add|put|jot|write)\s+(?:that|this|it)(?:\s+down)?\s+(?:on|to|in|under)\s+"
    r"(?:the\s+task|that\s+task|it|there)(?:\s*,?\s*(?:please|pls|thanks))?\W*$",
    re.I | re.S,
)
"""'<report>, pls note that on the task': a comment on the task the report names."""


def noted_on_task(text: str, tasks: list[str]) -> str:
    """A report asked to be noted on the task it names, as a comment; else as said."""
    found = _NOTE_THAT.match(text.strip())
    if found is None or not tasks:
        return text
    report = found.group("report").strip(" ,;.")
    task = find_in(_QUOTED.sub(" ", report), tasks).name
    if task is None:
        return text
    return f"comment on {task}: {report}"


def task_led(text: str, tasks: list[str]) -> str:
    """The request after a task's heading with its "it" as that task; else as said."""
    noted = noted_on_task(text, tasks)
    if noted != text:
        return noted
    found = _LEAD.match(text)
    if found is None or not tasks:
        return text
    said = found.group("t")
    task = resolve(said, tasks).name
    if task is None or covered(said, task) < 1.0:
        return text
    rest = found.group("rest")
    clipped = _clipped(rest, task)
    if clipped is not None:
        return clipped
    # the first "it" outside quotes (a quoted comment's "it" is the comment's)
    hidden = _QUOTED.sub(lambda quoted: "\0" * len(quoted.group()), rest)
    pointer = _POINTER.search(hidden)
    joint = re.search(r"[,;]|\s(?:and|then)\s", hidden)
    if pointer is None or (joint is not None and joint.start() < pointer.start()):
        # "on the Check Point task: set the priority to urgent, assign it to me": a first
        # part with no "it" of its own is read with the heading as it was said
        return text
    return f"{rest[: pointer.start()]}{task}{rest[pointer.end() :]}"
