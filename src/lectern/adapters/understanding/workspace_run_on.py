"""A comment whose words run on after the task's name, with nothing between them.

"comment on the check point patch two of four gateways done": typed in a hurry, the task is
named by the first words after "comment on" and what to write follows without a colon or a
"saying". The task is the longest run of leading words that are all one stored task's; what
follows is the comment when it says something of its own (two words or more, no second
request).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lectern.adapters.understanding.mentions import covered, resolve

_LEAD = re.compile(
    r"^(?:(?:add|post|leave|write|put|drop)\s+(?:a\s+)?(?:comment|note)\s+(?:to|on)|"
    r"comment\s+on|note\s+on)\s+(?:the\s+)?(?P<rest>[^:\"“'‘]+?)\W*$",
    re.I,
)
_NOT_WORDS = re.compile(
    r"^(?:and|then|also|but|plus|please|to|with|asking|telling|saying|that|is|are|was|as|for|"
    r"about|if|or)\b",
    re.I,
)
"""What begins a second request or a clause the comment patterns read, not a comment."""
_JOINS = re.compile(r"\b(?:and|then|also|but|plus|please)\b", re.I)
_TASK_WORD = re.compile(r"^(?:task|ticket|one|item)$", re.I)


@dataclass(frozen=True, slots=True)
class RunOnComment:
    """The task a run-on comment names and the words to write on it."""

    task: str
    content: str


def run_on_comment(text: str, tasks: list[str]) -> RunOnComment | None:
    """The task and the comment of "comment on <task> <words>", or None when it is not one."""
    said = _LEAD.match(text)
    if said is None or "?" in text:
        return None
    words = said.group("rest").split()
    for end in range(len(words) - 2, 0, -1):
        named = " ".join(words[:end])
        if _JOINS.search(named):
            continue  # "comment on the runbook and close it": a second request follows
        task = resolve(named, tasks).name
        if task is None or covered(named, task) < 1.0:
            continue
        rest = words[end + 1 :] if _TASK_WORD.match(words[end]) else words[end:]
        if len(rest) < 2 or _NOT_WORDS.match(rest[0]) or covered(" ".join(rest), task) == 1.0:
            return None
        return RunOnComment(task, " ".join(rest))
    return None
