"""ISBN-10 and ISBN-13: validation, repair of lost leading zeros, conversion, query parsing."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IsbnResult:
    """A validated ISBN, or the reason the input was dropped."""

    value: str | None
    reason: str | None = None
    repaired: bool = False
    """True when lost leading zeros were put back."""


_ISBN_JUNK = re.compile(r"[\s\-‐‑‒–—.]")


def _isbn10_check_digit(first9: str) -> str:
    total = sum((10 - i) * int(d) for i, d in enumerate(first9))
    check = (11 - total % 11) % 11
    return "X" if check == 10 else str(check)


def _isbn13_check_digit(first12: str) -> str:
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(first12))
    return str((10 - total % 10) % 10)


def normalize_isbn10(raw: str | None) -> IsbnResult:
    """Validate an ISBN-10, restoring leading zeros a spreadsheet dropped."""
    if raw is None or not raw.strip():
        return IsbnResult(None, None)
    text = _ISBN_JUNK.sub("", raw.strip()).upper()
    if text.endswith(".0") or not re.fullmatch(r"\d{1,9}[\dX]", text):
        return IsbnResult(None, "isbn10_malformed")
    repaired = False
    if len(text) < 10:
        # CSV tools read ISBNs as numbers and drop leading zeros; more than three
        # lost zeros never happens for a real ISBN-10 (group 0 publishers are >= 2 digits).
        if len(text) < 7:
            return IsbnResult(None, "isbn10_too_short")
        text = text.rjust(10, "0")
        repaired = True
    if "X" in text[:9]:
        return IsbnResult(None, "isbn10_malformed")
    if _isbn10_check_digit(text[:9]) != text[9]:
        return IsbnResult(None, "isbn10_bad_check_digit")
    return IsbnResult(text, None, repaired)


def normalize_isbn13(raw: str | None) -> IsbnResult:
    """Validate an ISBN-13 (978/979 prefix and check digit)."""
    if raw is None or not raw.strip():
        return IsbnResult(None, None)
    text = _ISBN_JUNK.sub("", raw.strip())
    if re.fullmatch(r"\d+(\.\d+)?[eE]\+?\d+", text):
        return IsbnResult(None, "isbn13_float_lost_digits")
    if not text.isdigit():
        return IsbnResult(None, "isbn13_malformed")
    if len(text) != 13:
        return IsbnResult(None, "isbn13_wrong_length")
    if not text.startswith(("978", "979")):
        return IsbnResult(None, "isbn13_bad_prefix")
    if _isbn13_check_digit(text[:12]) != text[12]:
        return IsbnResult(None, "isbn13_bad_check_digit")
    return IsbnResult(text)


def isbn10_to_isbn13(isbn10: str) -> str:
    """The ISBN-13 of a valid ISBN-10 (978 prefix, recomputed check digit)."""
    first12 = "978" + isbn10[:9]
    return first12 + _isbn13_check_digit(first12)


def isbn13_to_isbn10(isbn13: str) -> str | None:
    """The ISBN-10 of a 978-prefixed ISBN-13; None for 979 (they have no ISBN-10)."""
    if not isbn13.startswith("978"):
        return None
    first9 = isbn13[3:12]
    return first9 + _isbn10_check_digit(first9)


def parse_isbn_query(text: str) -> tuple[str, str] | None:
    """Read a user's ISBN (any punctuation) as ("isbn10"|"isbn13", value), or None."""
    compact = _ISBN_JUNK.sub("", text.strip()).upper()
    if len(compact) == 13:
        result = normalize_isbn13(compact)
        return ("isbn13", result.value) if result.value else None
    if 7 <= len(compact) <= 10:
        result = normalize_isbn10(compact)
        return ("isbn10", result.value) if result.value else None
    return None
