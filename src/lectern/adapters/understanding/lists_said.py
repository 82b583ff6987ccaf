"""Which list a book request names: among the reader's lists, or one they lack.

Found trying it by hand (session 20): a reader whose one list is Summer said "could you put
Song of Achilles on my TBR?" and the book was proposed for Summer (the one list stood in for
any list named); and "remove the road from my tbr i read it already", from a reader with
lists TBR and Read, took whichever of the two their lists listed first ("read" is their verb).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.layer import Clarification

_TO_LIST = r"\b(?:to|on|onto|into|in|from|off|of)\s+(?:(?:my|the|our)\s+)?"
"""The words before the list a request puts a book on or takes it from."""
_LIST_SAID = re.compile(
    r"\b(?:to|on|onto|into|in)\s+(?:(?:my|the|our)\s+)?"
    r"(?P<name>[A-Za-z][\w'’-]*(?:\s+(?!(?:list|please|pls|thanks|thx)\b)[\w'’-]+)?)"
    r"(?:\s+(?:reading\s+)?list)?\s*(?:please|pls|thanks|thx)?\W*$",
    re.I,
)
"""The list a request ends on ("... on my TBR", "to Favourites list please")."""
_NO_LIST_NAME = re.compile(
    r"(?:(?:my|the|a|one|reading|book|books|it|this|that|them|there|here|list|lists)\s*)+",
    re.I,
)
"""Words that name no list of their own ("add it to my list", "on the reading list")."""


def stored_lists_said(text: str, lists: Sequence[str]) -> list[str]:
    """The reader's lists the message names; of several, those after the request's preposition."""
    said = [n for n in lists if re.search(rf"\b{re.escape(n)}\b", text, re.I)]
    if len(said) > 1:
        said = [n for n in said if re.search(rf"{_TO_LIST}{re.escape(n)}\b", text, re.I)] or said
    return said


def unstored_list_asked(text: str, only: str) -> Clarification | None:
    """The question when a reader whose one list is `only` names another, else None.

    "add Dune to my list", "pop it on there": no list named, so `only` is meant (None).
    """
    unstored = _LIST_SAID.search(text)
    if unstored is None or _NO_LIST_NAME.fullmatch(unstored.group("name")):
        return None
    said = unstored.group("name")
    return Clarification(
        f"You have no list called {said!r}. Should I use '{only}', or create '{said}' first?",
        (f"Add it to {only}", f"Create a list called {said}"),
    )
