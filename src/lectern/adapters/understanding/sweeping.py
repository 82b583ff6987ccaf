"""A change asked of everything at once ("delete everything", "clear out my lists"): asked back.

The book tools change one list, one entry or one rating at a time, each after its owner
approves it, and none empties a shelf. A request that sweeps over all of the reader's lists,
books or ratings names none of them, so any one reading of it is a guess at the reader's
most destructive wish: one question back names what can be done, with the reader's own lists
as the replies to pick. A request naming a list is not swept ("delete everything on Misc"
names it; the list rules read it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.layer import Clarification

_VERB = (
    r"(?:delete|remove|clear|wipe|empty|erase|purge|nuke|scrap|trash|bin|ditch|reset|"
    r"clean|get\s+rid\s+of|throw\s+(?:away|out)|do\s+away\s+with)"
)
_EVERYTHING = (
    r"(?:everything|every\s*thing|it\s+all|the\s+(?:whole\s+)?lot|the\s+whole\s+thing|"
    r"all\s+of\s+(?:it|them|my\s+\w+)|all\s+(?:my|the|of\s+the)?\s*(?:reading\s+)?"
    r"(?:lists?|books|stuff|ratings|entries|shelves)|all|"
    r"(?:my|the)\s+(?:reading\s+)?(?:lists|ratings|shelves)|every\s+(?:list|book|rating))"
)
SWEEP = re.compile(
    rf"\b{_VERB}(?:\s+(?:out|up|off|away))?\s+{_EVERYTHING}(?:\s+(?:out|up|off|away))?\b"
    rf"(?!\s+(?:from|on|in|off)\b)",
    re.I,
)
"""A clearing verb over everything, or over the reader's lists or ratings as a whole."""
AFRESH = re.compile(
    r"\b(?:start\s+(?:afresh|over|again\s+from\s+scratch|from\s+scratch)|clean\s+slate|"
    r"fresh\s+start|from\s+zero)\b",
    re.I,
)
"""Starting over: said beside a sweep, the reader means all of it."""

QUESTION = (
    "That would change everything at once, and I change one thing at a time, each after you "
    "approve it. What should I start with: a list to delete, a book to take off a list, or "
    "a rating?"
)


ALL_ON = re.compile(
    rf"\b{_VERB}(?:\s+(?:out|off))?\s+(?:everything|every\s*thing|all\s+of\s+(?:it|them)|"
    r"every\s+(?:single\s+)?book|all(?:\s+of)?(?:\s+(?:the|my))?(?:\s+[\w'’-]+){0,2}?\s+books)"
    r"\s+(?:from|off|on|in|out\s+of)\b",
    re.I,
)
"""Everything (or all the books of a kind) taken off a list: "remove everything from Summer"."""


def sweeping_change(text: str, lists: Sequence[str]) -> Clarification | None:
    """The question for a change asked of everything at once, or None.

    A list named: only when everything on it is to go ("remove everything from Summer",
    "empty Summer"), asked as which book first; otherwise the list rules read it. None when
    no clearing verb runs over everything ("what's everything on my lists?" asks to see).
    """
    said = text.casefold()
    named = [n for n in lists if n.strip() and re.search(rf"\b{re.escape(n.casefold())}\b", said)]
    if named:
        emptied = re.search(
            rf"\b(?:empty|clear|wipe)(?:\s+out)?\s+(?:my\s+|the\s+)?"
            rf"{re.escape(named[0].casefold())}\b(?!\s+(?:list\s+)?(?:from|of|off)\b)",
            said,
        )
        if ALL_ON.search(text) is None and emptied is None:
            return None
        return Clarification(
            f"I take books off a list one at a time, each after you approve it: which book "
            f"should I take off '{named[0]}' first?",
            (f"Show me {named[0]}",),
        )
    if SWEEP.search(text) is None and not _afresh_swept(text):
        return None
    offered = tuple(f"Delete the list '{n}'" for n in list(dict.fromkeys(lists))[:3])
    return Clarification(QUESTION, offered)


def _afresh_swept(text: str) -> bool:
    """Whether a clearing verb comes beside starting over ("clear it out and start afresh")."""
    return bool(AFRESH.search(text)) and bool(re.search(rf"\b{_VERB}\b", text, re.I))
