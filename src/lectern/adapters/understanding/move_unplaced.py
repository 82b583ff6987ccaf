"""A book to be moved with no list said for it to go to ("move dune", "shift Matilda pls").

Moving is between two of the reader's lists; a move that names neither end leaves the main
thing open, where the book should go. Read as a title ("move dune" is no book) or guessed,
it is a confident wrong answer; it is asked instead.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.layer import Clarification

_BARE_MOVE = re.compile(
    r"^(?:(?:please|pls|plz|can\s+you|could\s+you)\s+)*(?:move|shift|transfer|relocate)\s+"
    r"(?P<book>(?!(?:on|along|over|up|down|ahead|forward|back)\b)[^,;:!?]+?)"
    r"(?:\s+(?:somewhere(?:\s+else)?|elsewhere|too|as\s+well|please|pls|plz|for\s+me))*\W*$",
    re.I,
)
"""A move verb and its object, with no "to", "from", "onto", "off", "into" naming a list."""
_END_SAID = re.compile(r"\b(?:to|from|onto|into|off|out\s+of|in)\b", re.I)


def unplaced_move(text: str, lists: tuple[str, ...] | list[str]) -> Clarification | None:
    """The question to ask for a move that names no list, else None."""
    match = _BARE_MOVE.match(text.strip())
    if match is None or not lists or _END_SAID.search(match.group("book")):
        return None
    book = match.group("book").strip()
    return Clarification(
        f"Which list should I move {book} to, and off which list?",
        tuple(f"move {book} to {name}" for name in lists[:3]),
    )
