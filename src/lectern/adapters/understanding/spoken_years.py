"""A year said in words, read as its digits.

People dictate or spell out years ("it came out in nineteen forty three", "says eighteen
oh five", "two thousand and three"): a correction's year read only from digits misses them,
and the correction is asked back though its value was said. Only the shapes years are spoken
in are read: a century's two words and the two-digit rest ("nineteen forty-three",
"nineteen oh five", "nineteen hundred"), or "two thousand (and) N".
"""

from __future__ import annotations

import re

from lectern.domain.evidence import SMALL_NUMBERS, TENS

_UNITS = {w: n for w, n in SMALL_NUMBERS.items() if 1 <= n <= 9}
_TEENS = {w: n for w, n in SMALL_NUMBERS.items() if 10 <= n <= 19}
_CENTURY = {w: n for w, n in _TEENS.items() if n >= 11}
_UNIT = "|".join(_UNITS)
_REST = (
    rf"(?P<tens>{'|'.join(TENS)})(?:[\s-]+(?P<unit>{_UNIT}))?\b|"
    rf"(?P<teen>{'|'.join(_TEENS)})\b|"
    rf"(?:oh|o|zero)[\s-]+(?P<oh>{_UNIT})\b|"
    r"(?P<hundred>hundred)\b"
)
_SPOKEN_YEAR = re.compile(
    rf"\b(?P<century>{'|'.join(_CENTURY)}|twenty)[\s-]+(?:{_REST})|"
    rf"\btwo\s+thousand(?:\s+and)?(?:[\s-]+(?:(?P<t_tens>{'|'.join(TENS)})"
    rf"(?:[\s-]+(?P<t_unit>{_UNIT}))?|(?P<t_teen>{'|'.join(_TEENS)})|(?P<t_one>{_UNIT})))?\b",
    re.I,
)


def _year(found: re.Match[str]) -> str:
    """The digits of one spoken year."""
    words = {k: (v or "").casefold() for k, v in found.groupdict().items()}
    if words["century"]:
        century = _CENTURY.get(words["century"], 20) * 100
        if words["hundred"]:
            return str(century)
        rest = (
            TENS.get(words["tens"], 0) + _UNITS.get(words["unit"], 0)
            or _TEENS.get(words["teen"], 0)
            or _UNITS.get(words["oh"], 0)
        )
        return str(century + rest)
    rest = (
        TENS.get(words["t_tens"], 0) + _UNITS.get(words["t_unit"], 0)
        or _TEENS.get(words["t_teen"], 0)
        or _UNITS.get(words["t_one"], 0)
    )
    return str(2000 + rest)


_DIGIT_YEAR = re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})\b")


def with_spoken_years(text: str) -> str:
    """The message with each year said in words written in digits.

    A message that writes a year in digits writes its years so: its words are left alone
    ("Nineteen Eighty-Four says 1950, it was 1949" names a book by its words).
    """
    if _DIGIT_YEAR.search(text):
        return text
    return _SPOKEN_YEAR.sub(_year, text)
