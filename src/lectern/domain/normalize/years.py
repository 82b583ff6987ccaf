"""Publication years from the many forms sources write them in."""

from __future__ import annotations

import re

_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


def parse_year(raw: str | None, *, latest: int = 2030) -> int | None:
    """A publication year from "2008.0", "2006-09", "Nov 01, 2003" or "-750"."""
    if raw is None:
        return None
    text = raw.strip()
    if not text:
        return None
    number = re.fullmatch(r"(-?\d{1,4})(\.0+)?", text)
    if number:
        year = int(number.group(1))
        return year if -3000 <= year <= latest and year != 0 else None
    match = _YEAR.search(text)
    if match:
        year = int(match.group(1))
        return year if year <= latest else None
    return None
