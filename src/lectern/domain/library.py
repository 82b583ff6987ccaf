"""What readers keep: reading lists, ratings and proposed catalog corrections.

Each belongs to one user; nobody sees or changes another user's. The checks here are the
ones every entry point and every action tool share.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from lectern.domain.books import JSONValue
from lectern.errors import InvalidQueryError

MAX_LIST_NAME_CHARS = 80
MAX_NOTE_CHARS = 500
MAX_REVIEW_CHARS = 1_000
MAX_LIST_BOOKS = 500
CorrectableField = Literal["language", "published_year", "authors", "categories"]
CORRECTABLE_FIELDS: tuple[CorrectableField, ...] = (
    "language",
    "published_year",
    "authors",
    "categories",
)
CorrectionStatus = Literal["pending", "applied", "rejected"]
"""`pending`: a non-editor's correction waiting for a catalog editor; `applied` is in the
catalog; `rejected` was turned down by an editor and changed nothing."""


@dataclass(frozen=True, slots=True)
class ListEntry:
    """A book on a reading list, with the reader's note."""

    book_id: str
    note: str | None
    added_at: datetime


@dataclass(frozen=True, slots=True)
class ReadingList:
    """A named list of books that one user keeps."""

    id: str
    user: str
    name: str
    created_at: datetime
    entries: tuple[ListEntry, ...] = ()

    def contains(self, book_id: str) -> bool:
        """True when the book is on the list."""
        return any(e.book_id == book_id for e in self.entries)

    def entry(self, book_id: str) -> ListEntry | None:
        """The book's entry, or None."""
        return next((e for e in self.entries if e.book_id == book_id), None)


@dataclass(frozen=True, slots=True)
class Rating:
    """One user's 1-5 stars for a book, with a short review."""

    user: str
    book_id: str
    stars: int
    review: str | None
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class CatalogCorrection:
    """A user's correction of book fields: old and new value of each."""

    id: str
    user: str
    book_id: str
    changes: tuple[tuple[str, JSONValue, JSONValue], ...]
    """(field, old value, new value) for each corrected field."""
    status: CorrectionStatus
    created_at: datetime


def clean_list_name(name: str) -> str:
    """A list name with whitespace collapsed; refuse empty or overlong names."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidQueryError("a reading list needs a name")
    if len(cleaned) > MAX_LIST_NAME_CHARS:
        raise InvalidQueryError(f"a list name has at most {MAX_LIST_NAME_CHARS} characters")
    return cleaned


def same_list_name(a: str, b: str) -> bool:
    """List names compare case- and spacing-insensitively ("Autumn" is "autumn ")."""
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def clean_note(note: str | None, limit: int = MAX_NOTE_CHARS) -> str | None:
    """A note or review with whitespace collapsed; None when empty; refuse overlong text."""
    if note is None:
        return None
    cleaned = " ".join(note.split())
    if len(cleaned) > limit:
        raise InvalidQueryError(f"a note or review has at most {limit} characters")
    return cleaned or None


def check_stars(stars: int) -> int:
    """Stars are whole numbers from 1 to 5."""
    if isinstance(stars, bool) or not isinstance(stars, int) or not 1 <= stars <= 5:
        raise InvalidQueryError(f"a rating is 1 to 5 stars, not {stars!r}")
    return stars
