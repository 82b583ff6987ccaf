"""Page counts: a whole number of pages a printed book can have, or a reason it is not."""

from __future__ import annotations

import re

MAX_PAGES = 10_000
"""No printed book in any of the sources has more; larger values are typing or join errors."""

_NUMBER = re.compile(r"\d{1,9}(?:\.0+)?")


def parse_pages(raw: str | None) -> tuple[int | None, str | None]:
    """(pages, None), (None, None) when empty, or (None, reason) when impossible.

    Reasons: `pages_not_a_number` ("n/a", "12.5", "-3"), `pages_zero` (0: the sources'
    way of saying unknown), `pages_over_limit` (more than MAX_PAGES).
    """
    if raw is None or not raw.strip():
        return None, None
    text = raw.strip()
    if not _NUMBER.fullmatch(text):
        return None, "pages_not_a_number"
    pages = int(float(text))
    if pages == 0:
        return None, "pages_zero"
    if pages > MAX_PAGES:
        return None, "pages_over_limit"
    return pages, None
