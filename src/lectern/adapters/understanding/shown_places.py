"""Things pointed at in what the last reply showed, read before the list rules.

A list by its place, "the other list", and a pointing aside said before a request that
names its book anyway.

After "show me my lists" the reply shows the reader's lists in order, so "rename the second
one to Someday" means the second list shown. After one of two lists was shown, "no, the
OTHER list" asks for the same look at the other one. "not that one, the first one, remove
dracula" points back (the aside) and then asks in full: the request is read on its own, as
long as the aside's place holds the book it names. Where what was shown does not settle the
pointing, the message is left as it was said (and asked about downstream), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.layer import Clarification, which_of
from lectern.adapters.understanding.referents import PLACES, shown_list
from lectern.domain.assistant import Message

_LISTS_SHOWN = re.compile(r"^You have \d+ reading lists?:\s*(?P<names>.+?)\s*$", re.M)
_LIST_ENTRY = re.compile(r"\s*(?P<name>.+?)\s+\(\d+\s+books?\)\s*(?:,|$)")
_PLACE = "|".join([*PLACES, "last"])
_LIST_AT = re.compile(rf"\b(?:the|that)\s+(?P<nth>{_PLACE})\s+(?:one|list)\b", re.I)
"""A list said by its place among those shown ("the second one", "the last list")."""
_OTHER_ONLY = re.compile(
    r"^(?:(?:ugh|no+|nope|nah|wrong|oops|sorry|not\s+that\s+one|i\s+meant)\W+)*"
    r"(?:the\s+)?other\s+(?:one|list)(?:\s+(?:please|pls|instead))?\W*$",
    re.I,
)
"""A message that only points at the other list ("ugh no, the OTHER list")."""
_ASIDE = re.compile(
    r"^(?:(?:no+|nope|wait|sorry|oops)\W+)*not\s+(?:that|this)\s+one\W*"
    rf"(?:(?:i\s+meant\s+|i\s+mean\s+)?(?:the\s+)?(?P<nth>{_PLACE})\s+one\W+)?"
    r"(?P<request>(?:remove|take|drop|delete|add|put|rate|move|show|open)\b.+)$",
    re.I,
)
"""A pointing aside before a request said in full ("not that one the first one, remove X")."""


def _last_reply(history: Sequence[Message]) -> str:
    return next((m.content for m in reversed(history) if m.role == "assistant"), "")


def lists_shown(history: Sequence[Message]) -> list[str]:
    """The reader's lists in the order the last reply showed them, or [] when it showed none."""
    found = _LISTS_SHOWN.search(_last_reply(history))
    if found is None:
        return []
    return [m.group("name") for m in _LIST_ENTRY.finditer(found.group("names"))]


def _at(rows: Sequence[str], nth: str) -> str | None:
    place = len(rows) if nth.casefold() == "last" else PLACES[nth.casefold()]
    return rows[place - 1] if 0 < place <= len(rows) else None


def with_places_named(
    text: str, history: Sequence[Message], lists: Sequence[str]
) -> str | Clarification:
    """The message with what it points at in the last reply named, or a question."""
    shown_lists = lists_shown(history)
    if shown_lists:
        # "rename the second one to Someday": the list at that place among those shown
        return _LIST_AT.sub(lambda m: _at(shown_lists, m.group("nth")) or m.group(), text)
    shown = shown_list(history)
    if shown is not None and _OTHER_ONLY.match(text.strip()):
        others = [name for name in lists if name.casefold() != shown[0].casefold()]
        if len(others) == 1:
            return f"what's in {others[0]}"
        return which_of("list", others, "show") if others else text
    aside = _ASIDE.match(text.strip())
    if aside is not None:
        request = aside.group("request")
        pointed = _at(shown[1], aside.group("nth")) if shown and aside.group("nth") else None
        if aside.group("nth") and (pointed is None or pointed.casefold() not in request.casefold()):
            return text  # the place said holds another book (or nothing): not settled here
        return request
    return text
