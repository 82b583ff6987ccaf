"""The task a request points at ("mark that task done") when the sentence before names it.

"Check Point gateways are all patched! mark that task done": "that task" is the one the
telling sentence names, and the request is read with its name in place of the pointer.
Only when the telling names exactly one stored task and the request names none.

A request may also be led by its task as a heading ("drill: give it to alice, due nov 20,
and ..."): read whole, the heading is no part of any change and "it" points at nothing, so
later details fell away. When the words before the first colon are all a stored task's, the
request is the rest with its first "it" as that task.
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


def task_led(text: str, tasks: list[str]) -> str:
    """The request after a task's heading with its "it" as that task; else as said."""
    found = _LEAD.match(text)
    if found is None or not tasks:
        return text
    said = found.group("t")
    task = resolve(said, tasks).name
    if task is None or covered(said, task) < 1.0:
        return text
    rest = found.group("rest")
    # the first "it" outside quotes (a quoted comment's "it" is the comment's)
    hidden = _QUOTED.sub(lambda quoted: "\0" * len(quoted.group()), rest)
    pointer = _POINTER.search(hidden)
    joint = re.search(r"[,;]|\s(?:and|then)\s", hidden)
    if pointer is None or (joint is not None and joint.start() < pointer.start()):
        # "on the Check Point task: set the priority to urgent, assign it to me": a first
        # part with no "it" of its own is read with the heading as it was said
        return text
    return f"{rest[: pointer.start()]}{task}{rest[pointer.end() :]}"
