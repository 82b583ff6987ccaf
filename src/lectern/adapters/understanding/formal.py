"""Formal words for a list's changes, said as the everyday ones the rules read.

Writers of a formal register say "place upon it", "and to place", "in that order": "I should
like to create a list called Russians and to place upon it The Brothers Karamazov and Anna
Karenina, in that order." The list was made and the books lost ("upon it The Brothers
Karamazov" was no book). "place" a book on a list is "put", "upon" is "on", an infinitive
repeated after "and" is the verb alone, and an order the books are said in ("in that order")
is the order they are added in anyway, so no part of the last title.
"""

from __future__ import annotations

import re

_UPON = re.compile(r"\bupon\s+(?=(?:it|them|this|that|my|the|our|her|his|their)\b)", re.I)
_PLACE = re.compile(
    r"\b(?:place|lay)\s+(?=(?:on|onto|in|into)\s+(?:it|them|this|that|my|the|our)\b|"
    r"[^.;!?]+?\s+(?:on|onto|in|into|upon)\s+(?:it|them|my|the|our|this|that)\b)",
    re.I,
)
_AND_TO = re.compile(
    r"\band\s+(?:then\s+)?to\s+(?=(?:put|place|add|include|rate|give|remove|take|move)\b)", re.I
)
_IN_ORDER = re.compile(
    r"\s*,?\s*(?:(?:in|and\s+in)\s+(?:that|this|the\s+same)\s+order|in\s+order)\s*(?=[.!?]*\s*$)",
    re.I,
)


_ON_IT_FIRST = re.compile(
    r"\b(?P<verb>put|add)\s+(?P<where>(?:on|onto|to)\s+it)\s+(?P<books>[A-Z][^.;!?]*?)\s*(?=[.;!?]|$)"
)
"""The list said before the books ("put on it The Brothers Karamazov and ..."): the books
come first in the order the rules read."""


def plain_words(text: str) -> str:
    """`text` with the formal words of a list's change said as the everyday ones."""
    text = _UPON.sub("on ", text)
    text = _PLACE.sub("put ", text)
    text = _AND_TO.sub("and ", text)
    text = _IN_ORDER.sub("", text)
    return _ON_IT_FIRST.sub(r"\g<verb> \g<books> \g<where>", text)
