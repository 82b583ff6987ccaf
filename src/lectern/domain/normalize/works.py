"""Titles and work keys: series split off, the keys that merge works and group editions."""

from __future__ import annotations

import re

from lectern.domain.normalize.authors import author_surname
from lectern.domain.normalize.text import collapse_whitespace, fold

_SERIES = re.compile(r"\s*\(([^()]*?),?\s*#\s*([\d.\-–]+)\)\s*$")
_SERIES_NO_NUMBER = re.compile(r"\s*\(([^()]*?),?\s*#\s*\)\s*$")


def split_series(title: str) -> tuple[str, str | None, str | None]:
    """Split "Title (Series, #1)" or "Title (Series  #1)" into (title, series, number)."""
    match = _SERIES.search(title)
    if match:
        series = collapse_whitespace(match.group(1)).rstrip(",") or None
        return collapse_whitespace(title[: match.start()]), series, match.group(2)
    match = _SERIES_NO_NUMBER.search(title)
    if match:
        return (
            collapse_whitespace(title[: match.start()]),
            collapse_whitespace(match.group(1)),
            None,
        )
    return collapse_whitespace(title), None, None


def work_key(title: str, first_author: str | None) -> str | None:
    """Normalised title + first-author surname: the last-resort key for merging works."""
    surname = author_surname(first_author) if first_author else None
    main_title = fold(split_series(title)[0].replace("&", " and "))
    main_title = re.sub(r"^(the|a|an) ", "", main_title)
    if not surname or not main_title:
        return None
    return f"{main_title}|{surname}"


_EDITION_SUFFIX = re.compile(
    r"(\s+(trilogy|quartet|series|saga|box(ed)?\s*set|boxset|collection|omnibus"
    r"|((special|anniversary|deluxe|illustrated|collector s|collectors)\s+)?edition"
    r"|books?(\s+\d+)+))+$"
)
"""What a box set or special edition adds to a work's title ("The Hunger Games Trilogy Boxset")."""


def edition_group(title: str, first_author: str | None) -> str:
    """A loose work key for keeping editions out of one result list.

    Looser than the merge key (`work_key`): the title is cut at the first ':' or '(' so that
    "The Hunger Games: Special Edition" groups with "The Hunger Games", and a trailing
    "Trilogy Boxset" or "Books 1-7" is dropped so box sets group with their first work. Used only to
    de-duplicate results, where a false match costs one hidden duplicate, never a book.
    """
    main = re.split(r"\s*[:(\[]", split_series(title)[0], maxsplit=1)[0]
    folded = re.sub(r"^(the|a|an) ", "", fold(main.replace("&", " and ")))
    folded = _EDITION_SUFFIX.sub("", folded) or folded
    surname = author_surname(first_author) if first_author else None
    return f"{folded}|{surname or ''}"
