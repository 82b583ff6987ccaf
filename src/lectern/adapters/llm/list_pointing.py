"""A later part's list said by pointing: "add X to it", "put it on there", "take Emma off".

In a message of several parts, or just after a list was shown, the list a part means may be
said as "it", "there" or not at all; `on_the_list` writes the list's name in, so the list
rules read the part as if it had been named.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.book_patterns import ADD_VERB

_LIST_VERB_IT = re.compile(
    r"^(?P<verb>rename|delete|bin|scrap|trash|ditch|nuke|axe)\s+it\b(?!\s+(?:from|off|out)\b)",
    re.I,
)
_TO_IT = re.compile(
    r"\b(to|onto|into|on|in|from|off|out\s+of)\s+(?:it|there|that\s+(?:one|list))\b"
    # "put it there": the place a list is, said without its preposition
    r"|\b(?<!from\s)(?<!off\s)(?P<there>there)\b",
    re.I,
)
"""A later part's list said by pointing ("add X to it", "put it on there", "put it there")."""
_THE_LIST = re.compile(r"\b(?:the|that|this)\s+list\b(?!\s+(?:called|named|titled)\b)", re.I)
_ENTRY = re.compile(rf"^(?:(?:then|so|ok(?:ay)?|right|and)\W+)*(?:{ADD_VERB})\b", re.I)
_PARTICLE = re.compile(r"\s+(?:on|in)(?=(?:\s+(?:then|please|pls|now|too|as\s+well))*\W*$)", re.I)
"""A put's place left as a bare particle ("bung it on"): the list in view is the place."""
_DESTINATION = re.compile(r"\b(?:to|onto|into|on|in)\s+\S", re.I)
_TAKING = re.compile(r"^(?:remove|take|drop|pull|get|yank)\b", re.I)
_SOURCE = re.compile(r"\b(?:from|off|out\s+of)\s+\S", re.I)
_A_LIST = re.compile(r"\blists?\b", re.I)
_NO_OBJECT = re.compile(
    r"^(?P<verb>(?:please\s+)?(?:remove|take|drop|pull|add|put|pop|stick|save))\s+"
    r"(?=(?:from|off|out\s+of|to|onto|into|on)\s)",
    re.I,
)
"""A later part's verb with its book unsaid ("..., 5 stars and remove from Reading now")."""


def on_the_list(part: str, listed: str | None) -> str:
    """A later part's list said as "it" ("add X to it"), or left unsaid ("add X"), named."""
    # Only a part that goes on to name no list of its own: "take it off To read" keeps its.
    if not listed:
        return part
    # "show me Summer and then rename it to Beach": a list's own verb makes "it" the list.
    part = _LIST_VERB_IT.sub(lambda m: f"{m.group('verb')} the {listed} list", part)
    part = _TO_IT.sub(lambda m: f"{m.group(1) or 'on'} the {listed} list", part)
    # "..., then show me the list": the list the message just used, said as "the list".
    part = _THE_LIST.sub(f"the {listed} list", part)
    bare = _PARTICLE.sub("", part)
    if _ENTRY.match(bare) and not _DESTINATION.search(bare):
        particle = "on" if bare != part else "to"  # "bung it on": on the list in view
        part = f"{bare} {particle} the {listed} list"
    elif _TAKING.match(part) and not _SOURCE.search(part) and not _A_LIST.search(part):
        # "add X to Summer, take Emma off": off the list just named.
        part = re.sub(r"\s+(?:off|out)\W*$", "", part) + f" off the {listed} list"
    return part


def with_the_book(part: str) -> str:
    """A later part whose book is unsaid, with "it" (the book an earlier part named) in.

    "I finished it, 5 stars and please remove from Reading now": the removal is of that book.
    """
    return _NO_OBJECT.sub(lambda m: f"{m.group('verb')} it ", part)
