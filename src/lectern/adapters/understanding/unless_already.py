"""A change asked on the condition that it is not already so.

"if The Road isn't already on Summer, add it", "if i dont already have a list called beach
reads can u make one", "add Dune to TBR if it's not there already": the reader does not know
the state and asks for the change only where it is still to make. The condition is what the
tool checks itself (a book already on a list, a list's name taken, is refused and said so),
and the approval shows the change before it is made, so the request is the change. Read
whole, the condition's words were the book ("it" unresolved) or the whole message was asked
back.

`unless_already` says the change plainly: a leading condition that a book is not on a list
(or that the reader has no list so named) gives "it" / "one" in the request after it its book,
its list or its name; a trailing "if it isn't there already" is dropped. Only a condition of
absence before an adding or a making is read: "if Dune is on Summer, remove it" and "if you
have time, add it" are left to the other readings.
"""

from __future__ import annotations

import re

_NOT = r"(?:is\s*n['’]?t|is\s+not|isnt|aren['’]?t|are\s+not|['’]s\s+not|['’]re\s+not)"
_HAVE_NOT = (
    r"(?:don['’]?t|dont|do\s+not|haven['’]?t|havent|have\s+not|['’]ve\s+not)\s+(?:already\s+)?"
    r"(?:have|got|made)?"
)
_ALREADY = r"(?:already|yet|still|there|in\s+there|on\s+there|on\s+it|in\s+it)"
_BOOK_ABSENT = re.compile(
    rf"^(?P<book>.+?)\s+{_NOT}\s+(?:(?:already|yet)\s+)?(?:on|in)\s+(?:my\s+|the\s+)?"
    rf"(?P<list>.+?)(?:\s+list)?(?:\s+{_ALREADY})*$",
    re.I,
)
"""A condition that a book is not on a list ("The Road isn't already on Summer")."""
_LIST_ABSENT = re.compile(
    rf"^(?:i|we)\s+{_HAVE_NOT}\s+(?:(?:already|yet)\s+)?(?:a|any|one|the)?\s*(?:reading\s+)?"
    r"list\s+(?:called|named|for)\s+(?P<name>.+?)(?:\s+(?:already|yet))*$",
    re.I,
)
"""A condition that the reader has no list so named ("i dont already have a list called X")."""
_IF = re.compile(r"^\s*(?:(?:ok(?:ay)?|so|hi|hey|and)[\s,]+)*(?:only\s+)?if\s+", re.I)
_ADDING = r"(?:add|put|pop|stick|throw|chuck)"
_MAKING = r"(?:make|create|start|set\s+up)"
_REQUEST = re.compile(
    r"(?:\s*,\s*(?:then\s+)?|\s+then\s+|\s+)"
    r"(?P<request>(?:(?:please|pls|can|could|would|will|you|u|just|kindly|go\s+ahead\s+and)\s+)*"
    rf"(?P<verb>{_ADDING}|{_MAKING})\b.*)$",
    re.I,
)
"""Where the request after the condition starts: at a comma, "then", or its own words."""
_TRAILING = re.compile(
    r"\s*,?\s*(?:(?:but\s+)?only\s+)?(?P<word>if|unless)\s+(?P<condition>(?:it|that|the\s+book|"
    r"the\s+list|one|they|i|we|there)\b[^,.;!?]{0,60}?)\s*(?=[,.;!?]|please\b|pls\b|thanks\b|$)",
    re.I,
)
"""A condition after the request ("add it if it isn't there already", "... unless it's
already on there")."""
_ADDING_OR_MAKING = re.compile(
    rf"^\s*(?:(?:please|pls|can|could|would|will|you|u|just|kindly)\s+)*(?:{_ADDING}|{_MAKING})\b",
    re.I,
)
_THERE = re.compile(
    r"\b(?:there|on\s+(?:it|the\s+list|my\s+list|that\s+list)|in\s+(?:it|there)|on|exists?|"
    r"have\s+(?:one|it|a\s+list)|got\s+(?:one|it))\b",
    re.I,
)
"""A condition of being on a list, or existing: what the tool checks itself."""
_NEGATED = re.compile(r"n['’]?t\b|\bnot\b|\bdont\b|\bno\b", re.I)


def _request_for_book(request: str, book: str, listed: str) -> str:
    request = re.sub(r"\b(?:it|that|this)\b", book, request, count=1, flags=re.I)
    request = re.sub(
        r"\b(?:(?:to|on|onto|in|into)\s+)?(?:there|that\s+list)\b|\b(?:to|on|onto|in|into)\s+it\b",
        f"to {listed}",
        request,
        flags=re.I,
    )
    if not re.search(r"\b(?:to|on|onto|in|into)\b", request.split(book, 1)[-1], re.I):
        request = f"{request.rstrip(' .!?')} to {listed}"
    return request


def _condition_first(said: str) -> str | None:
    """The request after "if <a book is not on a list / no list is so named>", said plainly."""
    opened = _IF.match(said)
    if opened is None:
        return None
    rest = said[opened.end() :]
    for split in _REQUEST.finditer(rest):
        condition = rest[: split.start()].strip(" ,")
        verb = split["verb"].casefold()
        book = _BOOK_ABSENT.match(condition)
        if book is not None and re.fullmatch(_ADDING, verb):
            return _request_for_book(split["request"], book["book"], book["list"])
        listed = _LIST_ABSENT.match(condition)
        if listed is not None and re.fullmatch(_MAKING, verb):
            return f"create a list called {listed['name'].strip(' ,')}"
    return None


def unless_already(text: str) -> str | None:
    """The change asked on a condition of absence, said plainly; None when there is none."""
    said = " ".join(text.split())
    if _IF.match(said):
        return _condition_first(said)
    trailing = _TRAILING.search(said)
    head = said[: trailing.start()] if trailing is not None else ""
    if (
        trailing is not None
        and trailing.start() > 0
        # only an adding or a making ("rate Dune 5 unless I already rated it" would overwrite)
        and _ADDING_OR_MAKING.match(head) is not None
        # whose condition is being there or existing ("if it isn't there already")
        and _THERE.search(trailing["condition"]) is not None
        and re.search(r"\b(?:already|yet)\b", trailing["condition"], re.I) is not None
        # "if it isn't there already" / "unless it's already there": both a condition of absence
        and bool(_NEGATED.search(trailing["condition"])) == (trailing["word"].casefold() == "if")
    ):
        plain = " ".join(f"{said[: trailing.start()]} {said[trailing.end() :]}".split())
        plain = re.sub(r"\s+([,.;!?])", r"\1", plain).strip(" ,")
        return plain if len(plain.split()) >= 2 else None
    return None
