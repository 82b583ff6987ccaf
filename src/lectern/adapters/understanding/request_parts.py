"""A message of two or three independent requests, cut where one request ends.

"any blockers on the vpn project? also remind me who's on the team", "what's on the
runbook? and set it to in review while you're at it", "First list the open blockers, then
list the documents ...": a question, or a request joined by "also", "and also", "then",
"plus", "oh and" or "while you're at it", or a new sentence, ends where the next request
starts. Each part is then read alone by the caller, which keeps the split only when every
part reads as a request (`ByMeaning._requests_in_parts`).

The cut is made only where the words after it start like a request (a verb, a question
word, "any", "can you", "remind me"): "can the drill be due friday? HR needs more time"
and "anything on hold? projects i mean" stay one request. Never inside quoted text, nor
after the words of a comment have begun ("comment that X, then Y" or "note: X. also Y"
keep their words), and a bare "and" is no cut here: "Pride and Prejudice" and a list
called "Sci-Fi and Fantasy" stay whole (two changes joined by "and" are read by
`workspace_parts.py`).
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.compound import AT_IT, LOOKUP_VERB
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB
from lectern.adapters.understanding.workspace_patterns import IT

_AT_IT = rf"(?:{AT_IT.pattern})"
_CUT = re.compile(
    # "...? also ...", "...? and set it ...", "...? oh and ...": a question, then more words
    r"(?<=\?)\s+(?:(?:(?:oh\s+)?and(?:\s+(?:then|also))?|also|plus|then|oh(?:\s+(?:and|also))?)"
    r"\s*,?\s+)?"
    rf"{_AT_IT}?|"
    # "..., and while you're at it what ...", "..., also ...", ", then ...", ". also ..."
    r"\s*[,;.!]?\s+(?:(?:oh\s+)?and\s+(?:then|also)|also|plus|oh\s+and|then|and)\s*"
    rf"{_AT_IT}|"
    r"\s*[,;.!]?\s+(?:(?:oh\s+)?and\s+(?:then|also)|also|plus|oh\s+and|then)\s*,?\s+"
    rf"{_AT_IT}?|"
    # "Show me the blockers. Who is on the team?": a sentence's end
    r"(?<=[.!])\s+",
    re.I,
)
"""Where a request may end and another start."""

_REQUEST_START = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+|please\s+|pls\s+|now\s+|also\s+|and\s+)*"
    rf"(?:{CHANGE_VERB}|{LOOKUP_VERB}|remind|how|any|anything|get|"
    r"where|when|whose|who['’]s|what['’]s)\b",
    re.I,
)
"""How a request starts: a verb of a change or a look-up, a question word, "any". Not "is it
...": "which projects can I see? is it just the vpn one" asks the first question again."""

QUOTED = re.compile(r"(?<!\w)[\"“‘'][^\"“”‘’']+[\"”’'](?!\w)")
"""A quoted span (a title or a comment): no cut inside it."""
WORDS_BEGIN = re.compile(
    r"\b(?:comment|note|say|saying|says|write|reply|message|description|resolution|"
    r"explain(?:ing)?)\b[^.?!]*?(?:\bthat\b|:)|:\s*\S",
    re.I,
)
"""Where the words of a comment (or a description) begin: no cut after it."""


def said_from(text: str) -> int:
    """Where the words of a comment (or a description) begin in `text`, else its length.

    After its "that" or its colon: "comment on it that it is ready" begins at "it is".
    """
    words = WORDS_BEGIN.search(text)
    return words.end() if words else len(text)


_SAYING = re.compile(
    r"\b(?:comment|note|block(?:er|ed|ing)?|impediment|reason)\b[^.?!]*?\b(?:saying|says|said|"
    r"because|since|as)\b",
    re.I,
)
"""A blocker's or a comment's words begun without "that" or a colon ("a blocker saying ...")."""
_SET_TO = re.compile(r"\b(?:description|title|resolution|rename)\b[^.?!:]*?\bto\b", re.I)
"""New words after "to" ("set the description of the hunt to X", "rename the hunt to X")."""


def words_begin(text: str) -> int:
    """Where a comment's or a blocker's own words begin, else the message's length."""
    saying = _SAYING.search(text)
    return min(said_from(text), saying.end() if saying else len(text))


def in_the_request(text: str, start: int) -> bool:
    """Whether `start` stands in the request's own words: before the words said, unquoted.

    "comment on the hunt: the first item is outdated": "the first item" is the comment's.
    """
    set_to = _SET_TO.search(text)
    if start >= min(words_begin(text), set_to.end() if set_to else len(text)):
        return False
    return not any(q.start() <= start < q.end() for q in QUOTED.finditer(text))


_FIRST = re.compile(r"^(?:first(?:ly)?|to\s+start|ok(?:ay)?|so)\s*,?\s+", re.I)
"""A lead that only orders the requests ("First list the open blockers, then ...")."""
_TRAILING = re.compile(rf"{_AT_IT}$|[\s,]+(?:too|as\s+well)\W*$", re.I)
"""A part's closing "while you're at it" or "too": no part of what it asks."""


_POINTER = re.compile(rf"\b{IT.pattern.removeprefix('^').removesuffix('$')}\b", re.I)
"""A word pointing back at a task ("it", "that one", "the task"), the words of `IT`."""


def points_back(part: str) -> bool:
    """Whether a part says "it" (or "that one", "the task"), and so takes an earlier task.

    "what's on the runbook? also tell bob" never says which task bob is to hear of, so "tell
    bob" is read alone (and the message whole when it asks which).
    """
    return bool(_POINTER.search(part))


def request_parts(text: str) -> list[str]:
    """The two or three requests a message holds, in order, or [] when it is one."""
    text = text.strip()
    quoted = [m.span() for m in QUOTED.finditer(text)]
    words = WORDS_BEGIN.search(text)
    end = words.start() if words else len(text)
    pieces: list[str] = []
    start = 0
    for cut in _CUT.finditer(text):
        if cut.start() >= end or cut.start() <= start:
            continue
        if any(a < cut.start() < b for a, b in quoted):
            continue
        if not _REQUEST_START.match(text[cut.end() :]):
            continue
        pieces.append(text[start : cut.start()])
        start = cut.end()
    pieces.append(text[start:])
    pieces = [_TRAILING.sub("", _FIRST.sub("", p.strip())).strip(" ,;") for p in pieces]
    if not 2 <= len(pieces) <= 3 or not all(_REQUEST_START.match(p) for p in pieces):
        return []
    return pieces
