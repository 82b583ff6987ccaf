"""What the provider adapters share: a JSON answer's values normalised into a SourceRecord."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lectern.domain.books import JSONValue, SourceRecord
from lectern.domain.normalize import (
    clean_text,
    is_topical_subject,
    isbn10_to_isbn13,
    merge_categories,
    normalize_isbn10,
    normalize_isbn13,
    normalize_language,
    parse_pages,
    parse_year,
)

MAX_SUBJECTS = 20
"""As for the Open Library subjects of goodreads-openlibrary: the first ones are topical."""


def strings(value: Any) -> list[str]:
    """The non-empty strings of a JSON list (anything else: none)."""
    if not isinstance(value, list):
        return []
    return [v.strip() for v in value if isinstance(v, str) and v.strip()]


def mapping(value: Any) -> dict[str, Any]:
    """A JSON object, or an empty one for anything else."""
    return value if isinstance(value, dict) else {}


def first(values: list[str]) -> str | None:
    """The first of the strings, if any."""
    return values[0] if values else None


def scalar(value: Any) -> str | int | float | None:
    """A JSON string or number as it is; anything else: None."""
    return value if isinstance(value, str | int | float) and not isinstance(value, bool) else None


def text(value: Any) -> str | None:
    """A JSON string, cleaned; Open Library's {"type": "/type/text", "value": ...} too."""
    if isinstance(value, dict):
        value = value.get("value")
    return clean_text(value) if isinstance(value, str) else None


def record(
    *,
    source: str,
    source_id: str,
    url: str,
    title: Any,
    subtitle: Any = None,
    authors: Iterable[str] = (),
    description: Any = None,
    language: Any = None,
    subjects: Iterable[str] = (),
    year: Any = None,
    pages: Any = None,
    isbns: Iterable[str] = (),
    goodreads_id: Any = None,
    metadata: dict[str, JSONValue] | None = None,
) -> SourceRecord | None:
    """A normalised record, or None when the answer has no title (nothing to merge)."""
    name = text(title)
    if not name:
        return None
    dropped: list[str] = []
    isbn10, isbn13 = _isbns(isbns, dropped)
    page_count, reason = parse_pages(str(pages)) if pages is not None else (None, None)
    if reason:
        dropped.append(reason)
    code = None
    if isinstance(language, str) and language.strip():
        code, reason = normalize_language(language)
        if reason:
            dropped.append(reason)
    topical = [s for s in subjects if is_topical_subject(s)][:MAX_SUBJECTS]
    goodreads = str(goodreads_id).strip() if goodreads_id is not None else ""
    return SourceRecord(
        source=source,
        source_id=source_id,
        title=name,
        file=url,
        subtitle=text(subtitle),
        authors=tuple(dict.fromkeys(a for a in (clean_text(x) for x in authors) if a)),
        description=text(description),
        language=code,
        categories=merge_categories(topical),
        published_year=parse_year(str(year)) if year is not None else None,
        pages=page_count,
        isbn10=isbn10,
        isbn13=isbn13,
        goodreads_id=goodreads if goodreads.isdigit() else None,
        metadata={k: v for k, v in (metadata or {}).items() if v not in (None, "", [], {})},
        dropped=tuple(dropped),
    )


def _isbns(values: Iterable[str], dropped: list[str]) -> tuple[str | None, str | None]:
    """The first valid ISBN-10 and ISBN-13 (an ISBN-13 derived from the ISBN-10 if none)."""
    isbn10 = isbn13 = None
    for raw in values:
        digits = raw.replace("-", "").strip()
        if len(digits) == 13 and isbn13 is None:
            result = normalize_isbn13(digits)
            isbn13 = result.value
            if result.reason:
                dropped.append(result.reason)
        elif len(digits) == 10 and isbn10 is None:
            result = normalize_isbn10(digits)
            isbn10 = result.value
            if result.reason:
                dropped.append(result.reason)
    if isbn13 is None and isbn10 is not None:
        isbn13 = isbn10_to_isbn13(isbn10)
    return isbn10, isbn13
