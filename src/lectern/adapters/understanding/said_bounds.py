"""A search's bounds said in the reader's words, rewritten in the words the filter rules read.

The filter rules (`lexicon_data.YEAR_RULES`, `negation_data.PAGE_RULES`) read a bound by the
word before its number ("before 1950", "at most 300 pages"). People also put the direction
after the number ("from 1950 or before", "2010 or later", "1990 at the latest", "300 pages
max"), refuse the other side ("no later than 1950", "no less than 400 pages") and spell page
counts out ("three hundred pages"). Read by the word before alone, "from 1950 or before" was
a lower bound and "three hundred pages long" a long book: a confident answer to the opposite
of what was asked. Here each such shape is rewritten to the leading form, so one reading of
the direction serves every shape; the rewritten words are the filter's and leave the query.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lectern.adapters.understanding.spoken_years import with_spoken_years
from lectern.domain.evidence import SMALL_NUMBERS, TENS

_YEAR = r"(1[0-9]{3}|20[0-9]{2})"
_SAID_AS = r"(?:(?:published|written|released|came\s+out|from|in|of|dating\s+from)\s+)*"
_EARLIER = r"(?:before|earlier|older|prior|sooner)"
_LATER = r"(?:after|later|newer|more\s+recent|since|on(?:wards?)?|beyond)"

_YEAR_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), lead)
    for pattern, lead in (
        # the direction after the year: "from 1950 or before", "1990 and earlier"
        (rf"\b{_SAID_AS}{_YEAR}\s*,?\s*(?:or|and|&)\s+{_EARLIER}\b", "until"),
        (rf"\b{_SAID_AS}{_YEAR}\s*,?\s*(?:or|and|&)\s+{_LATER}\b", "since"),
        (rf"\b{_SAID_AS}{_YEAR}\s*,?\s*at\s+the\s+(?:latest|most)\b", "until"),
        (rf"\b{_SAID_AS}{_YEAR}\s*,?\s*at\s+the\s+earliest\b", "since"),
        # the other side refused: "no later than 1950", "not before 1900"
        (
            rf"\b(?:no|not)\s+(?:later|newer|more\s+recent)\s+than\s+{_SAID_AS}{_YEAR}\b|"
            rf"\bnot\s+(?:after|since|past)\s+{_YEAR}\b",
            "until",
        ),
        (
            rf"\b(?:no|not)\s+(?:earlier|older|sooner)\s+than\s+{_SAID_AS}{_YEAR}\b|"
            rf"\bnot\s+(?:before|prior\s+to)\s+{_YEAR}\b",
            "since",
        ),
    )
)
"""Year bounds whose direction is said after the year or by refusing the other side."""

_PAGES = r"(?:pages?|pp\.?|pgs?\.?)"
_COUNT = rf"(\d{{1,5}})\s*{_PAGES}"
_PAGE_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), lead)
    for pattern, lead in (
        # the direction after the count: "300 pages max", "400 pages at least"
        (
            rf"\b{_COUNT}\s*(?:long\s+)?,?\s*(?:max(?:imum)?|tops|at\s+(?:the\s+)?most|or\s+"
            r"(?:shorter|smaller|below|so\s+max))\b",
            "at most",
        ),
        (
            rf"\b{_COUNT}\s*(?:long\s+)?,?\s*(?:min(?:imum)?|at\s+(?:the\s+)?least|or\s+"
            r"(?:bigger|above|plus))\b",
            "at least",
        ),
        # the other side refused: "no less than 400 pages", "not under 200 pages"
        (
            rf"\b(?:no|not)\s+(?:less|fewer|shorter)\s+than\s+{_COUNT}|"
            rf"\bnot\s+(?:under|below)\s+{_COUNT}",
            "at least",
        ),
        (
            rf"\bno\s+(?:longer|more|bigger)\s+than\s+{_COUNT}|"
            rf"\bnot\s+(?:longer|more|bigger)\s+than\s+{_COUNT}",
            "at most",
        ),
    )
)
"""Page bounds whose direction is said after the count or by refusing the other side."""

_LONG_AFTER_COUNT = re.compile(rf"\b(\d{{1,5}}\s*{_PAGES})\s+(?:long|in\s+length)\b", re.I)
"""'300 pages long': 'long' measures the count here, it asks for no long book."""

_UNITS = {w: n for w, n in SMALL_NUMBERS.items() if 1 <= n <= 9}
_UNDER_HUNDRED = {w: n for w, n in SMALL_NUMBERS.items() if 1 <= n <= 19}
_UNIT = "|".join(_UNITS)
_TWO_DIGITS = (
    rf"(?:{'|'.join(TENS)})(?:[\s-]+(?:{_UNIT}))?|{'|'.join(sorted(_UNDER_HUNDRED, key=len)[::-1])}"
)
_SPELT_COUNT = re.compile(
    rf"\b(?P<words>(?:(?:a|one|{_UNIT})[\s-]+hundred(?:[\s-]+(?:and[\s-]+)?(?:{_TWO_DIGITS}))?"
    rf"|(?:a|one|{_UNIT})[\s-]+thousand|{_TWO_DIGITS}))(?=\s+{_PAGES})",
    re.I,
)
"""A page count spelt out ("three hundred pages", "a hundred and fifty pages", "ninety pages")."""


def _number(words: str) -> int:
    """The value of a count spelt out in the shapes `_SPELT_COUNT` reads."""
    total = 0
    current = 0
    for word in re.split(r"[\s-]+", words.casefold()):
        if word in ("a", "and"):
            current = current or (1 if word == "a" else 0)
        elif word == "hundred":
            current = (current or 1) * 100
        elif word == "thousand":
            total += (current or 1) * 1000
            current = 0
        elif word in TENS:
            current += TENS[word]
        else:
            current += SMALL_NUMBERS.get(word, 0)
    return total + current


def _said(found: re.Match[str]) -> str:
    """The one number a bound's match holds (each alternative captures its own)."""
    return next(g for g in found.groups() if g)


def _leading(lead: str, unit: str = "") -> Callable[[re.Match[str]], str]:
    """A replacement that says a bound's number after its leading word."""

    def said(found: re.Match[str]) -> str:
        return f"{lead} {_said(found)}{unit}"

    return said


def with_leading_bounds(query: str) -> str:
    """The query with its year and page bounds said in the leading form the rules read."""
    # A year said in words is read as one only inside a bound: "Nineteen Eighty-Four" alone
    # is a title.
    spoken = with_spoken_years(query)
    led = spoken
    for pattern, lead in _YEAR_RULES:
        led = pattern.sub(_leading(lead), led)
    text = led if led != spoken else query
    text = _SPELT_COUNT.sub(lambda m: str(_number(m.group("words"))), text)
    for pattern, lead in _PAGE_RULES:
        text = pattern.sub(_leading(lead, " pages"), text)
    return _LONG_AFTER_COUNT.sub(r"\1", text)
