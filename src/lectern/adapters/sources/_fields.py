"""Field helpers shared by the source format readers."""

from __future__ import annotations

from lectern.domain.books import JSONValue
from lectern.domain.normalize import (
    isbn10_to_isbn13,
    normalize_isbn10,
    normalize_isbn13,
    normalize_language,
    parse_pages,
)


def isbn_pair(
    raw10: str | None, raw13: str | None, dropped: list[str]
) -> tuple[str | None, str | None]:
    """Validated (isbn10, isbn13); invalid ones are dropped with a reason appended."""
    isbn10 = normalize_isbn10(raw10)
    if isbn10.reason:
        dropped.append(isbn10.reason)
    isbn13 = normalize_isbn13(raw13)
    if isbn13.reason:
        dropped.append(isbn13.reason)
    value13 = isbn13.value
    if isbn10.value:
        derived = isbn10_to_isbn13(isbn10.value)
        if value13 and value13 != derived:
            dropped.append("isbn10_isbn13_disagree")
        value13 = value13 or derived
    return isbn10.value, value13


def language(raw: str | None, dropped: list[str], metadata: dict[str, JSONValue]) -> str | None:
    """ISO 639-1 code; an unmappable code is kept in metadata as `language_raw`."""
    code, reason = normalize_language(raw)
    if reason and raw:
        dropped.append(reason)
        metadata["language_raw"] = raw.strip()
    return code


def pages(raw: str | None, dropped: list[str]) -> int | None:
    """A possible page count; an impossible one (0, over 10,000) is dropped with a reason."""
    value, reason = parse_pages(raw)
    if reason:
        dropped.append(reason)
    return value


def number(raw: str | None) -> int | float | None:
    """An int or float from a CSV cell, or None when it is empty or not a number."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")):
        return None
    return int(value) if value.is_integer() and "." not in text else value


def put(metadata: dict[str, JSONValue], key: str, value: JSONValue) -> None:
    """Store a metadata value unless it is empty."""
    if value is None or value == "" or value == [] or value == {}:
        return
    metadata[key] = value
