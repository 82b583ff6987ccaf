"""A new list's name (or a change's own words) that runs on into the next request: asked.

"rename Summer to Beach Bag and ad Jaws to it": the two requests are cut (`compound.clauses`)
and each read alone; when the second reads as nothing the message was read whole, and the
name swallowed the request ("Beach Bag and ad Jaws to it"). A name holding a joint and then a
request of the book surface ("and", ",", ";", "then", before one of its verbs and more words)
is no name: what was meant is asked. "Salt and Pepper" or "Read and Rate" (no request after
the joint, or a lone word) stay names.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.compound import clauses
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.workspace_parts import swallowed
from lectern.domain.assistant import ToolCall

_NAMED = {"create_list": "name", "rename_list": "new_name"}
_UNDECIDED = re.compile(
    r"\b(?:what|how)\s+to\s+(?:call|name|title)\s+(?:it|them|the\s+(?:new\s+)?(?:one|list))\b"
    r"|\bno\s+name\s+(?:for\s+it\s+)?yet\b",
    re.I,
)
"""A name the reader has not chosen ("not sure what to call it yet")."""
_HESITANT = re.compile(
    r"\b(?:called|named|titled|call\s+it|name\s+it|to|as|into)\s+"
    r"(?P<first>[\"“'‘]?[^\"“”'‘’,]+?[\"”'’]?)\s*,?\s+or\s+(?:maybe|perhaps|possibly|even)\s+"
    r"(?P<second>[\"“'‘]?[^\"“”'‘’,.!?]+?[\"”'’]?)(?:\s*,?\s*(?:i\s+(?:guess|think)|idk|dunno))?"
    r"\W*$",
    re.I,
)
"""A name said with another in doubt ("rename Summer to 'Beach' or maybe 'Pool'"): which is
asked, never both run together."""


def name_undecided(calls: list[ToolCall], said: str) -> Clarification | None:
    """The question when a list is named though the reader said they have no name for it.

    "could you make me a new one? Not sure what to call it yet, but": whichever matcher read
    it, the words after "call it" ("yet, but") had become the list's name.
    """
    named = next((c for c in calls if c.name in _NAMED), None)
    if named is None:
        return None
    doubt = _HESITANT.search(said)
    if doubt is not None:
        names = [doubt[side].strip(" \"“”'‘’") for side in ("first", "second")]
        return Clarification(
            f"Which name should the list have: '{names[0]}' or '{names[1]}'?",
            tuple(f"Call it '{n}'" for n in names),
        )
    if not _UNDECIDED.search(said):
        return None
    if named.name == "create_list":
        return Clarification("What should the new list be called?", ())
    return Clarification("What should the list be called instead?", ())


def name_runs_on(calls: list[ToolCall]) -> Clarification | None:
    """The question when a new list name holds a later request, else None."""
    for call in calls:
        slot = _NAMED.get(call.name)
        value = call.arguments.get(slot) if slot else None
        if not isinstance(value, str):
            continue
        parts = clauses(value)
        if len(parts) < 2 or any(len(p.split()) < 2 for p in parts[1:]):
            continue
        name, rest = parts[0], "; ".join(parts[1:])
        return Clarification(
            f"Should the list be called '{name}'? I couldn't read the rest "
            f"('{rest}') as a request of its own: could you say it again on its own?",
            (f"Call it '{name}'",),
        )
    return None


def words_run_on(calls: list[ToolCall], said: str) -> Clarification | None:
    """The question when a change's own words (a comment, a resolution) hold a later request.

    "resolve the vendor blocker and move the patch to in progress", read whole by meaning,
    resolved the blocker with the words "blocker and move the patch to in progress" and never
    moved the patch: the words are asked for, never proposed with the request inside them.
    """
    later = swallowed(calls, said)
    if later is None:
        return None
    return Clarification(
        f"I read '{later}' as a request of its own, not as part of the words to record. "
        "Could you send each change on its own, with the words to record after a colon?",
        (),
    )
