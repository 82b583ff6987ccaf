"""A change refused, then the change asked instead: only the instead is asked.

"don't mark the runbook done, it isn't - just move it to review" (dev19) proposed completing
the runbook: the rules read the first verb they knew, and the refusal ("don't") was lost. The
reader names what they do *not* want and then what they do; the refused change is never
proposed. The request said after the refusal is read alone, and its "it" means the task the
refused part named ("the runbook"); when the refused part only pointed ("don't give it to
bob, give it to alice"), "it" keeps pointing at what it pointed at before (the page's task,
or the task of the change the last reply proposed).

"the other one" names no task: after "give the hunt to bob", "and the other one to alice" had
handed the hunt (the task "it" meant) to alice. Which other task is asked, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.mentions import find_in
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB

_LEAD = (
    r"^(?:(?:wait|no|nope|nah|actually|sorry|oops|ok(?:ay)?|oh|hmm+|um+|hold\s+on|hang\s+on|"
    r"please|pls)\b[\s,.…!:;–—-]*)*"
)
"""Words that take back, before the refusal ("wait, no - don't ...")."""
REFUSAL = (
    r"(?:please\s+)?(?:do\s+not|don['’]?t|dont|pls\s+don['’]?t|no\s+need\s+to|"
    r"(?:you\s+)?(?:don['’]?t|do\s+not)\s+(?:need|have)\s+to|there['’]?s\s+no\s+need\s+to|"
    r"never\s+mind)"
)
"""Words that refuse the change after them ("don't", "do not", "no need to")."""
_JOINT = r"(?:\s*[,;.!–—]+\s*|\s+-+\s+|\s+but\s+)"
"""Where the refused change ends ("and" alone may join two refused changes: left whole)."""
_TOLD = r"(?:(?:it|that|this|he|she|they|we|i)\b(?:['’]\w+)?[^,;.!?–—]*?" + _JOINT + r")?"
"""A remark between the two ("it isn't", "it's not finished"): it tells, it asks nothing."""
_INSTEAD_LEAD = r"(?:(?:but|and|just|instead|rather|only|simply|please|pls|then)\b[\s,]*)*"
_REFUSED_THEN_INSTEAD = re.compile(
    _LEAD
    + REFUSAL
    + rf"\s+(?P<refused>{CHANGE_VERB}\b[^,;.!?–—]*?)"
    + _JOINT
    + _TOLD
    + _INSTEAD_LEAD
    + rf"(?P<instead>{CHANGE_VERB}\b.+?)[\s.!]*$",
    re.I | re.S,
)
"""A refused change, then the one asked instead, each starting with a change's verb."""
_CONDITION = re.compile(
    r"\b(?:once|when|whenever|after|if|unless|until|as\s+soon\s+as|in\s+case)\b", re.I
)
"""A condition on the instead: it is not asked for now."""
_STATUS_SAID = re.compile(r"\b(?:in|to|into|for|ready\s+for)\s+review\b", re.I)
"""A status said as words a task's title may hold ("move it to review")."""
_TRAILING_INSTEAD = re.compile(r"[\s,]+instead\W*$", re.I)
_POINTER = re.compile(r"\b(?:it|that|this)\b", re.I)
_IT = re.compile(r"\bit\b", re.I)


def instead_of_refused(text: str, tasks: Sequence[str]) -> str:
    """The change asked instead of a refused one, else `text`.

    The instead's "it" is the task the refused part named; a refused part that named none
    and did not point either leaves the instead's "it" without a task, so the message is
    left whole (the rules ask).
    """
    said = _REFUSED_THEN_INSTEAD.match(text.strip())
    if said is None:
        return text
    refused = said.group("refused")
    instead = _TRAILING_INSTEAD.sub("", said.group("instead")).strip(" ,.")
    condition = _CONDITION.search(instead)
    if condition is not None:
        # "don't close the hunt, close it once bob confirms": not now; said condition first,
        # the not-asked rules ask whether to make it
        asked = instead[: condition.start()].strip(" ,")
        return f"{instead[condition.start() :]}, {asked}"
    own = find_in(_STATUS_SAID.sub(" ", instead), tasks).name
    if not _POINTER.search(instead) or own is not None:
        # "don't mark the drill done, mark the runbook done and put it in review": its own
        return instead
    named = find_in(refused, tasks).name
    if named is not None:
        return _IT.sub(named, instead, count=1)
    if _POINTER.search(refused):
        return instead
    return text


_OTHER_ONE = re.compile(
    r"\b(?:the|that)\s+other\s+(?:one|task|ticket|item)\b|\bthe\s+other\b(?=\s+(?:to|as|for)\b)",
    re.I,
)
"""A task told apart from the one just named, with no word of its own."""


def other_one_unclear(text: str, tasks: Sequence[str]) -> Clarification | None:
    """A question when "the other one" is all the message says of its task."""
    if _OTHER_ONE.search(text) is None or find_in(text, tasks).name is not None:
        return None
    return Clarification(
        "Which task do you mean by the other one? Tell me its name.",
        tuple(f"that's {t}" for t in list(tasks)[:3]),
    )


_PROPOSED = re.compile(
    r"^\d+\.\s+[A-Z][\w ]*?\bthe\s+task\s+'(?P<task>[^'\n]+)'\s+\[action\s", re.M
)
"""A change the last reply proposed, with the task it is on ("1. Assign the task 'X' [action")."""


def proposed_task(reply: str, tasks: Sequence[str]) -> str | None:
    """The one task the changes a reply proposed are on, else None.

    A proposal is kept as text only (with its action's id, not the task's): "don't give it to
    bob, give it to alice" just after it means the task the proposal was about.
    """
    proposed = {m.group("task") for m in _PROPOSED.finditer(reply)}
    if len(proposed) != 1:
        return None
    [task] = proposed
    return task if task in tasks else None
