"""The last request again with one value put right: "sorry I meant Emma, not Persuasion".

Found on dev15: after "add Persuasion to my TBR", "sorry I meant Northanger Abbey, not
Persuasion" was read alone (a catalog correction, or a question); after "rename my Work list
to Commute", "sorry I meant the Gym list, not Work" listed the lists. The reader names the
value they said and the one they meant, so the request is their last message with the one
put in place of the other, read again. Only a value their last message holds is replaced:
"I meant X, not Y" with no Y said before is left to the other rules.

"sorry I meant the other list" names no value: with two lists, the other one is the one the
last message did not name; with more, which one is asked, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lectern.adapters.understanding.layer import Clarification
from lectern.domain.assistant import Message, ToolCall

_LEAD = r"^(?:(?:sorry|oops|whoops|no|nope|wait|actually|ugh|my\s+bad|ah|oh)\b\W*)*"
_MEANT = re.compile(
    # "sorry I meant Northanger Abbey, not Persuasion", "I meant dinosaurs instead of dragons"
    _LEAD + r"(?:i\s+)?meant\s+(?P<new>.+?)\s*,?\s+(?:not|instead\s+of|rather\s+than)\s+"
    r"(?P<old>.+?)\W*$"
    # "not Work, I meant the Gym list", "not dragons but dinosaurs"
    r"|"
    + _LEAD
    + r"not\s+(?P<old2>.+?)\s*[,;]?\s+(?:(?:but\s+)?i\s+meant|but)\s+(?P<new2>.+?)\W*$",
    re.I,
)
"""A value said before put right: what was meant, and what was said instead."""
_NOT_THEN = re.compile(
    # "no sorry not Dune, Dune Messiah. i already read the first": the value put right
    # bare, after a comma; what follows its sentence is the reader's reason
    _LEAD + r"not\s+(?P<old>[^,;.!?]+?)\s*[,;:–—-]+\s*(?P<new>[^,;.!?]+?)\s*(?:[.!?;,]|$)",
    re.I,
)
_NO_VALUE = re.compile(
    r"\b(?:it|them|this|that|i|me|my|you|put|add|make|give|take|remove|rate|move|do|use|"
    r"want|need|read|is|was|are|not|no|yet|other|maybe|later|now|sure)\b|\?",
    re.I,
)
"""Words no bare value holds: with them, the words after the comma are a request or a remark."""
_OTHER = re.compile(
    _LEAD + r"(?:i\s+)?meant\s+(?:the\s+)?other\s+(?:list|one)\W*$",
    re.I,
)
""""sorry I meant the other list": the list the last message did not name."""
_BARE = re.compile(r"^(?:the|my|a|an)\s+|\s+(?:list|one)$", re.I)
"""Words around a value that are not the value ("the Gym list" is Gym)."""

Planner = Callable[[str, Sequence[Message]], list[ToolCall]]
"""The change calls a message (read with the talk before it) asks for, or []."""


def _bare(value: str) -> str:
    """`value` without a leading article or a trailing "list" ("the Gym list" -> "Gym")."""
    return _BARE.sub("", _BARE.sub("", value.strip())).strip()


def _said(value: str, text: str) -> re.Match[str] | None:
    """Where `value` stands in `text` as whole words, case aside."""
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.I) if value else None


def _redone(
    last: str, old: str, new: str, before: Sequence[Message], plan: Planner
) -> list[ToolCall]:
    """The calls of `last` with `old` put as `new`, or [] when `last` never said `old`."""
    found = _said(old, last)
    if found is None or not new:
        return []
    return plan(last[: found.start()] + new + last[found.end() :], before)


def put_right(text: str) -> bool:
    """Whether `text` opens by putting a value of the last request right.

    "not Dune, Dune Messiah. i already read the first": the reader's reason after it is no
    report of a change, so the redone request is asked for.
    """
    bare = _NOT_THEN.match(text.strip())
    return bare is not None and _value(bare["new"])


def _value(words: str) -> bool:
    """Whether the words after "not X," are a bare value, not a request or a remark."""
    return len(words.split()) <= 6 and not _NO_VALUE.search(words)


def meant_instead(
    text: str, history: Sequence[Message], lists: Sequence[str], plan: Planner
) -> list[ToolCall] | Clarification:
    """The reader's last request again with the value they meant, a question, or []."""
    last = max((i for i, m in enumerate(history) if m.role == "user"), default=-1)
    if last < 0:
        return []
    said, before = history[last].content, history[:last]
    found = _MEANT.match(text.strip())
    if found is not None:
        old = _bare(found.group("old") or found.group("old2"))
        new = _bare(found.group("new") or found.group("new2"))
        return _redone(said, old, new, before, plan)
    bare = _NOT_THEN.match(text.strip())
    if bare is not None and _value(bare["new"]):
        return _redone(said, _bare(bare["old"]), _bare(bare["new"]), before, plan)
    if _OTHER.match(text.strip()) is None:
        return []
    named = [name for name in lists if _said(name, said)]
    if len(named) != 1:
        return []
    others = [name for name in lists if name != named[0]]
    if len(others) == 1:
        return _redone(said, named[0], others[0], before, plan)
    if not others:
        return []
    return Clarification(
        f"Which list did you mean instead of {named[0]}: {', '.join(others)}?",
        tuple(others),
    )
