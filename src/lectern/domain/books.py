"""Books, their provenance, and the records sources give us."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

JSONScalar = str | int | float | bool | None
JSONValue = JSONScalar | list["JSONValue"] | dict[str, "JSONValue"]

ChunkField = Literal["title", "description", "categories", "authors"]
"""The fields of a book that citations may point at."""

CHUNK_FIELDS: tuple[ChunkField, ...] = ("title", "description", "categories", "authors")

BOOK_ID_NAMESPACE = uuid.UUID("6f1c1d0e-2b7a-5c4e-9a53-4c6563746572")
"""Namespace of the UUIDv5 book ids; never change it, or every id changes."""


def book_id_for(isbn13: str | None, source: str, source_id: str) -> uuid.UUID:
    """The stable id of a book: UUIDv5 of its ISBN-13, else of `source:source_id`."""
    key = f"isbn13:{isbn13}" if isbn13 else f"{source}:{source_id}"
    return uuid.uuid5(BOOK_ID_NAMESPACE, key)


@dataclass(frozen=True, slots=True)
class Book:
    """One book of the catalog, merged from every source that knows it."""

    id: uuid.UUID
    title: str
    subtitle: str | None = None
    authors: tuple[str, ...] = ()
    description: str | None = None
    language: str | None = None
    """ISO 639-1 code, or None when no source gave one we could map."""
    categories: tuple[str, ...] = ()
    published_year: int | None = None
    """Year of first publication when known; negative for BCE."""
    pages: int | None = None
    """Printed page count of the richest record that states one (1..10,000), else None."""
    isbn10: str | None = None
    isbn13: str | None = None
    source: str = ""
    """The source whose record is the book's primary record."""
    source_id: str = ""
    metadata: Mapping[str, JSONValue] = field(default_factory=dict)
    """Everything else: cover url, series, ratings, goodreads id, author roles."""

    def field_text(self, name: ChunkField) -> str:
        """The text of one citable field, as citations are checked against it."""
        if name == "title":
            return f"{self.title}: {self.subtitle}" if self.subtitle else self.title
        if name == "description":
            return self.description or ""
        if name == "categories":
            return ", ".join(self.categories)
        return ", ".join(self.authors)


@dataclass(frozen=True, slots=True)
class FieldProvenance:
    """Which source record gave a book's field its value."""

    field: str
    source: str
    source_id: str


@dataclass(frozen=True, slots=True)
class SourceRef:
    """One source record that was merged into a book, and where it was read."""

    source: str
    source_id: str
    file: str = ""
    line: int = 0


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """One row of one source, already normalised, before merging."""

    source: str
    source_id: str
    title: str
    file: str = ""
    line: int = 0
    subtitle: str | None = None
    authors: tuple[str, ...] = ()
    author_roles: Mapping[str, str] = field(default_factory=dict)
    description: str | None = None
    language: str | None = None
    categories: tuple[str, ...] = ()
    published_year: int | None = None
    pages: int | None = None
    isbn10: str | None = None
    isbn13: str | None = None
    extra_isbn13s: tuple[str, ...] = ()
    goodreads_id: str | None = None
    metadata: Mapping[str, JSONValue] = field(default_factory=dict)
    dropped: tuple[str, ...] = ()
    """Reasons for values dropped from this row (an invalid ISBN, say); the row is kept."""


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """A book with the identifiers and provenance the catalog keeps beside it."""

    book: Book
    identifiers: tuple[str, ...]
    """Lookup keys such as `isbn13:978...`, `isbn10:...`, `goodreads:123`."""
    provenance: tuple[FieldProvenance, ...]
    sources: tuple[SourceRef, ...]


@dataclass(frozen=True, slots=True)
class CategoryCount:
    """A category and how many books carry it."""

    name: str
    count: int


@dataclass(frozen=True, slots=True)
class Facets:
    """What the catalog holds, for filters: languages, categories, years."""

    languages: tuple[CategoryCount, ...]
    top_categories: tuple[CategoryCount, ...]
    year_histogram: tuple[tuple[int, int], ...]
    """(decade start, number of books) pairs in ascending order."""
    min_year: int | None
    max_year: int | None
    page_histogram: tuple[tuple[int, int], ...] = ()
    """(bucket start, number of books) pairs: 100-page buckets, the last one "1000 and more"."""


PAGE_BUCKET = 100
PAGE_BUCKETS_UP_TO = 1_000
"""Books of this many pages or more share the histogram's last bucket."""


def page_bucket(pages: int) -> int:
    """The start of the histogram bucket a page count falls in (0, 100, ..., 1000)."""
    return min(pages // PAGE_BUCKET * PAGE_BUCKET, PAGE_BUCKETS_UP_TO)


@dataclass(frozen=True, slots=True)
class CatalogCounts:
    """Headline numbers of the catalog."""

    books: int
    with_description: int
    with_category: int
    with_isbn13: int
    with_language: int
    with_year: int
    authors: int
    categories: int
    by_source: Mapping[str, int]
    """How many books each source contributed a record to."""
    with_pages: int = 0


@dataclass(frozen=True, slots=True)
class RejectedRow:
    """A source row that could not become a record, and where it is."""

    source: str
    file: str
    line: int
    reason: str
    detail: str = ""
