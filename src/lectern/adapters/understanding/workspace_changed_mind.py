"""A workspace request changed mid-message: only the change settled on is proposed.

"give that to bob, actually no, leave the owner and just set it to high priority" takes the
assignment back; proposing it beside the priority is a wrong action. The take-back words and
the split are the book side's (`retractions`, compound.py), with the workspace's verbs; what
is left undone ("leave the owner and ...") is dropped, and "it" in the request said after
means what the taken-back part meant: the task it named, else the task "that" pointed at.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.compound import retractions
from lectern.adapters.understanding.mentions import find_in
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB

_KEPT = re.compile(
    r"^(?:keep|leave)\s+(?:[^,]+?)\s*(?:,\s*(?:and\s+|but\s+)?|\s+(?:and|but)\s+)"
    rf"(?:(?:just|instead|only|then)\s+)*(?={CHANGE_VERB}\b)",
    re.I,
)
"""What the first change leaves as it is, before the change made instead ("leave the owner
and just ...", "keep bob on it but ...")."""
_VERBS = rf"{CHANGE_VERB}|keep"
"""The verbs a request starts with, before and after the take-back ("keep" only after)."""
_ONLY_TAKING_BACK = re.compile(
    r"^(?:[\s,.…!:;–—-]|\b(?:no|nope|nah|wait|actually|sorry|ok(?:ay)?|so|then|and|right|"
    r"instead|just|fine|please|scratch\s+that|on\s+second\s+thoughts?|hang\s+on|hold\s+on|"
    r"never\s*mind(?:\s+that)?|i\s+mean|rather)\b)*$",
    re.I,
)
"""Between the request taken back and the one said after: only words that take back."""
_INSTEAD = re.compile(r"[\s,]+instead\W*$", re.I)
_POINTER = re.compile(r"\b(?:it|that|this|them)\b", re.I)
_IT = re.compile(r"\bit\b", re.I)


def changed_mind(text: str, tasks: Sequence[str]) -> str:
    """The request a message settles on after taking back a change, else `text`.

    A request said after the take-back that points back ("set it to high") is read only
    when the taken-back part named a task (its name replaces "it") or pointed at one itself
    ("give that to bob": the same task); otherwise "it" would lose its task and the message
    is read whole.
    """
    for before, between, settled in retractions(text, _VERBS):
        if not _ONLY_TAKING_BACK.match(between):
            continue  # "to bob, no wait, to me, and set it ...": a value said again first
        settled = _INSTEAD.sub("", _KEPT.sub("", settled)).strip(" ,.")
        if not settled:
            continue
        if not _POINTER.search(settled):
            return settled
        named = find_in(before, tasks).name
        if named is not None:
            return _IT.sub(named, settled, count=1)
        if _POINTER.search(before):
            return settled
    return text
