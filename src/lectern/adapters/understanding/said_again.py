"""A year or a grade taken back and said again bare: the one settled on replaces the first.

"Moby-Dick's year is wrong, should be 1850 — no sorry, 1851, I always mix that up" and
"rate Dune 3 stars, no sorry, 4" say a value, take it back, and say only the new value. The
value said again is of the same kind as the one just before the take-back (a year for a
year, a grade for a grade), so it replaces that one and the rest of the message is read as
written ("..., I always mix that up. Can you correct it?"). A value of another kind after
the take-back ("rate Dune 4, no wait, add it to Summer") is not this: `self_corrected` and
`retracted` read those.
"""

from __future__ import annotations

import re

_SOFT = r"no|nope|nah|hmm+|um+|uh+|erm*|oh|ah|sorry|oops|whoops"
_STRONG = (
    r"wait|actually|i\s+mean|or\s+rather|rather|make\s+(?:that|it)|scratch\s+that|hang\s+on|"
    r"hold\s+on|correction|my\s+bad|i\s+meant|it['’]?s|it\s+is|it\s+was|should\s+be"
)
_TAKE_BACK = re.compile(
    rf"(?:[,;…!?–—]+|\.+|\s-+)\s*(?:(?:{_SOFT}|{_STRONG})\b[\s,.…!:;–—-]*)+",
    re.I,
)
"""Punctuation, then words that take back what was just said ("— no sorry,", ", no wait,")."""
_NEEDS_TAKE_BACK = re.compile(rf"\b(?:{_SOFT}|wait|actually|i\s+mean|i\s+meant|rather)\b", re.I)
"""Words that take back; "it's 1851" alone after a comma restates, it takes nothing back."""

_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_YEAR_BEFORE = re.compile(rf"\b(?P<value>{_YEAR})\s*$")
_YEAR_AGAIN = re.compile(rf"^(?:in\s+)?(?P<value>{_YEAR})\b(?=\s*(?:$|[,;.!?–—)]|\s-+\s))")

_COUNT = r"(?:[1-5]|one|two|three|four|five)"
_GRADE_BEFORE = re.compile(
    rf"(?<![\w./])(?:an?\s+)?(?P<value>{_COUNT})(?:\s*(?:stars?|/\s*5|out\s+of\s+(?:5|five)))?"
    r"\s*$",
    re.I,
)
_GRADE_AGAIN = re.compile(
    rf"^(?:an?\s+)?(?P<value>{_COUNT})(?:\s*(?:stars?|/\s*5|out\s+of\s+(?:5|five)))?"
    r"(?!\s*(?:\.\s*5|and\s+a\s+half|books?|lists?)\b)(?=\s*(?:$|[,;.!?–—)]|\s-+\s))",
    re.I,
)
_RATES = re.compile(r"\b(?:rate|rating|give|gave|stars?|deserves?|gets?|grade|score)\b", re.I)
"""A grade before a take-back is a rating's only where the message speaks of one."""


def said_again(text: str) -> str:
    """`text` with a year or grade taken back replaced by the one said after it, else `text`."""
    for taken_back in _TAKE_BACK.finditer(text):
        if not _NEEDS_TAKE_BACK.search(taken_back.group(0)):
            continue
        before, after = text[: taken_back.start()], text[taken_back.end() :]
        for first, again, needs in (
            (_YEAR_BEFORE, _YEAR_AGAIN, None),
            (_GRADE_BEFORE, _GRADE_AGAIN, _RATES),
        ):
            said = first.search(before)
            new = again.match(after)
            if said is None or new is None or (needs and not needs.search(before)):
                continue
            head = before[: said.start("value")]
            tail = before[said.end("value") :] + after[new.end() :]
            return said_again(f"{head}{new['value']}{tail}")
    return text
