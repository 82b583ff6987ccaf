"""Things pointed at in what the last reply showed, read before the list rules.

A list by its place, "the other list", and a pointing aside said before a request that
names its book anyway.

After "show me my lists" the reply shows the reader's lists in order, so "rename the second
one to Someday" means the second list shown. After one of two lists was shown, "no, the
OTHER list" asks for the same look at the other one. "not that one, the first one, remove
dracula" points back (the aside) and then asks in full: the request is read on its own, as
long as the aside's place holds the book it names. Where what was shown does not settle the
pointing, the message is left as it was said (and asked about downstream), never guessed.

With no lists shown, a list said by its place is the list at that place among the reader's
lists as every view shows them, oldest first (the names block's order): "Kindred goes on
the second list", "take The Hobbit off the first", "my first list", "the last one, call it
Done". "One" and a bare place are a list only where the slot is a list's: after on / to /
off / from / in, or beside a verb only lists take (rename, call it, bin, delete) while no
books are in view ("remove the second one" after a list's books were shown is its second
book, `referents.py`). "The other list" is the one of two the message (or the list in view)
does not name. A place past the last list, or the other of three, is asked, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lectern.adapters.understanding.layer import Clarification, which_of
from lectern.adapters.understanding.referents import (
    PLACE_WORD,
    PLACES,
    list_in_view,
    shown_list,
)
from lectern.domain.assistant import Message

_LISTS_SHOWN = re.compile(r"^You have \d+ reading lists?:\s*(?P<names>.+?)\s*$", re.M)
_LIST_ENTRY = re.compile(r"\s*(?P<name>.+?)\s+\(\d+\s+books?\)\s*(?:,|$)")
_PLACE = PLACE_WORD
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


_BY_PLACE = rf"(?P<nth>{_PLACE})"
_PLACED_LIST = re.compile(
    rf"\b(?P<det>the|that|my|our)\s+{_BY_PLACE}\s+(?:reading\s+)?(?:list|shelf)\b(?!\s+of\b)",
    re.I,
)
"""A list said by its place and the word list ("the second list", "my first list")."""
_PLACED_AFTER = re.compile(
    r"\b(?P<to>on|onto|to|into|in|off|from|out\s+of)\s+(?P<det>the|that|my)\s+"
    rf"{_BY_PLACE}(?P<one>\s+one)?(?=\s*(?:[,.;:!?)]|$|\s+(?:again|please|pls|too|instead|then|"
    r"and|now|as\s+well)\b))",
    re.I,
)
"""A list said by its place after the preposition of a list ("take X off the first")."""
_PLACED_ONE = re.compile(rf"\b(?P<det>the|that)\s+{_BY_PLACE}\s+one\b", re.I)
_LIST_ONLY_VERB = re.compile(
    r"\b(?:re-?name|re-?label|re-?title|call\s+(?:it|that|this)|name\s+it|delete|bin|scrap|"
    r"ditch|trash|get\s+rid\s+of|can\s+go)\b",
    re.I,
)
"""Verbs a list takes and a book on it does not: "the Nth one" beside them is a list."""
_ONE_IS_A_BOOK = re.compile(
    r"\b(?:finish(?:ed|ing)?|(?:re)?read(?:ing)?|lov(?:e|ed|ing)|lik(?:e|ed)|enjoy(?:ed)?|"
    r"hat(?:e|ed)|start(?:ed)?|devour(?:ed)?|abandon(?:ed)?|rat(?:e|ed))\s+"
    rf"(?:the|that)\s+(?:{_PLACE})\s+one\b|"
    rf"\b(?:the|that)\s+(?:{_PLACE})\s+one\s+(?:of|in|from)\b",
    re.I,
)
""""The Nth one" said as a book: what was read of it, or one of a series ("I finished the first
one", "the first one of the trilogy")."""
_TO_A_LIST = r"\b(?:on|onto|to|into|in|off|from|out\s+of)\s+(?:my\s+|the\s+)?"
_OTHER_LIST = re.compile(
    r"\b(?P<det>the|that|my)\s+other\s+(?:reading\s+)?(?:list|shelf)\b|"
    r"\b(?P<to>on|onto|to|into|in|off|from|out\s+of)\s+(?P<det2>the|that|my)\s+other(?:\s+one)?"
    r"(?=\s*(?:[,.;:!?)]|$|\s+(?:again|please|pls|too|instead|then|and|now|as\s+well)\b))",
    re.I,
)
"""A list said as the other one ("put it on the other list", "take X off the other one")."""
_LISTS_SPOKEN = re.compile(rf"\blists?\b|\b(?:{_PLACE})\s+one\b", re.I)
"""A message that speaks of lists: a bare place ("off the first") may then be one."""
_BOOKS_CITED = re.compile(r"book:[0-9a-f-]{36}#")


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


def _one_is_a_book(text: str, lists: Sequence[str]) -> bool:
    """Whether the message says "the Nth one" is a book, not a list.

    Read ("I finished the first one"), one of a series ("the first one of the trilogy"), or
    moved to or from a list it names ("loved the first one, can go on Summer").
    """
    return _ONE_IS_A_BOOK.search(text) is not None or any(
        re.search(rf"{_TO_A_LIST}{re.escape(n)}(?!\w)", text, re.I) for n in lists
    )


def _stored_at(text: str, history: Sequence[Message], lists: Sequence[str]) -> str | Clarification:
    """`text` with the lists it says by their place named, in the reader's (oldest-first) order."""
    books_in_view = shown_list(history) is not None or _BOOKS_CITED.search(_last_reply(history))
    forms = [_PLACED_LIST, _PLACED_AFTER]
    if not books_in_view and _LIST_ONLY_VERB.search(text) and not _one_is_a_book(text, lists):
        forms.append(_PLACED_ONE)  # "the last one, call it Done": only a list is renamed
    past: list[str] = []

    lists_spoken = _LISTS_SPOKEN.search(text) is not None or any(
        re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.I) for n in lists
    )

    def named(found: re.Match[str]) -> str:
        if "one" in found.re.groupindex and not found.group("one") and not lists_spoken:
            return found.group()  # "I loved it from the first.": no list spoken of
        listed = _at(lists, found.group("nth"))
        if listed is None:
            past.append(found.group())
            return found.group()
        to = found.groupdict().get("to")
        return f"{to + ' ' if to else ''}{found.group('det')} {listed} list"

    for form in forms:
        text = form.sub(named, text)
    other = _OTHER_LIST.search(text)
    if other is not None and not past:
        named_here = [n for n in lists if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text, re.I)]
        beside = named_here or [n for n in [list_in_view(history)] if n]
        left = [n for n in lists if n not in beside]
        if len(beside) != 1 or len(left) != 1:
            # "the other one" of three lists, or beside none: which is asked, never guessed
            return which_of("list", left or lists)
        to = other.group("to")
        det = other.group("det") or other.group("det2")
        said = f"{to + ' ' if to else ''}{det} {left[0]} list"
        text = f"{text[: other.start()]}{said}{text[other.end() :]}"
    if past:
        return Clarification(
            f"You have {len(lists)} reading list{'s' if len(lists) != 1 else ''}"
            + (": " + ", ".join(f"'{n}'" for n in lists) if lists else "")
            + ". Which one do you mean?",
            tuple(lists[:3]),
        )
    return text


def with_places_named(
    text: str, history: Sequence[Message], lists: Sequence[str]
) -> str | Clarification:
    """The message with what it points at in the last reply named, or a question."""
    shown_lists = lists_shown(history)
    if shown_lists:
        # "rename the second one to Someday": the list at that place among those shown
        return _LIST_AT.sub(lambda m: _at(shown_lists, m.group("nth")) or m.group(), text)
    text_or_asked = (
        _stored_at(text, history, lists) if lists and not _OTHER_ONLY.match(text.strip()) else text
    )
    if isinstance(text_or_asked, Clarification):
        return text_or_asked
    text = text_or_asked
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
