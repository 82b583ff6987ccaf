"""What a list holds, told rather than asked: "this is on my Spooky list by mistake".

People say where a book is before they ask for something ("this is on my Spooky list by
mistake, please take it off", "Coraline's in my Horror list but it shouldn't be, remove
it"). The telling asks for nothing: it neither puts the book on the list (it is there) nor
deletes the list; it names the list a later "take it off" means. A book said not to be
wanted there ("I don't want X on Travel anymore") is not to be added either.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.book_patterns import ADD_VERB, DELETE_VERB
from lectern.adapters.understanding.mentions import Names, find_in

_ON_A_LIST = re.compile(
    r"\b(?:is|are|was|were|['’]s|['’]re|been)\s+(?:already\s+|still\s+)?(?:on|in)\s+"
    r"(?:my|the|our|your)\b(?=.*\blist\b)",
    re.I,
)
"""A book said to be on a list already ("... is on my Spooky list", "it's in the X list")."""
_PUTS = re.compile(rf"\b(?:{ADD_VERB}|want|like|need|keep|move)\b", re.I)
"""Words that ask for a book to be (or stay) somewhere: "it's in my cart, add it to X"."""
_THE_LIST_ITSELF = re.compile(
    rf"\b{DELETE_VERB}\s+(?:the|my|that|this|whole|entire)\s+(?:\w+\s+){{0,3}}list\b", re.I
)
"""A list named as what goes ("delete the whole Spooky list")."""


_UNWANTED = re.compile(
    r"\b(?:(?:don['’]?t|do\s+not|no\s+longer|never)\s+(?:want|need)|"
    r"(?:doesn['’]?t|does\s+not|shouldn['’]?t|should\s+not|isn['’]?t\s+meant\s+to)\s+"
    r"(?:belong|be|go|sit|stay))\b.*\b(?:on|in)\b",
    re.I,
)
"""A book not wanted where it is ("I don't want X on Travel anymore", "X shouldn't be in Y")."""


def unwanted_on_a_list(text: str) -> bool:
    """Whether the message says a book is not wanted on a list: never a request to add it."""
    return _UNWANTED.search(text) is not None


def tells_a_list_holds(text: str) -> bool:
    """Whether the message says a book is on a list, and asks to put nothing anywhere."""
    return _ON_A_LIST.search(text) is not None and _PUTS.search(text) is None


def entry_not_list(text: str) -> bool:
    """Whether a removal in a message that tells what a list holds is of the entry.

    "it's on my Spooky list by mistake, can you remove it": "it" is the book, not the list.
    """
    return tells_a_list_holds(text) and _THE_LIST_ITSELF.search(text) is None


def list_told(text: str, names: Names) -> str | None:
    """The reader's list a telling part names ("this is on my Spooky list"), or None."""
    if not tells_a_list_holds(text) or "?" in text:
        return None
    return find_in(text, names.of("list")).name
