"""Ports of the book catalog: sources, fetchers, providers and the catalog store."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from lectern.domain.books import (
    Book,
    CatalogCounts,
    CatalogEntry,
    Facets,
    RejectedRow,
    SourceRecord,
)
from lectern.domain.search import SearchFilters


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file a source needs: where it lives in a mirror, upstream, and its sha256."""

    path: str
    """Path relative to the mirror root, e.g. `7k-books/books.csv`."""
    url: str
    sha256: str


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """A catalog entry ready to write, with the hash that says whether it changed."""

    entry: CatalogEntry
    content_hash: str


class BookSource(Protocol):
    """A reader of one source format that yields normalised records or rejections."""

    @property
    def name(self) -> str:
        """The source's name, as used in provenance and on the command line."""
        ...

    @property
    def files(self) -> tuple[SourceFile, ...]:
        """The files this source reads."""
        ...

    def read(
        self, paths: Mapping[str, Path], known_authors: frozenset[str]
    ) -> Iterator[SourceRecord | RejectedRow]:
        """Read the source's files (relative path -> local path), row by row."""
        ...


class SourceFetcher(Protocol):
    """Makes a source's files available locally: from a mirror or by download."""

    def fetch(self, files: Sequence[SourceFile]) -> dict[str, Path]:
        """Return a local path for each file, keyed by its relative path."""
        ...


class ExternalBooksProvider(Protocol):
    """A public books API (Open Library, Google Books) read as normalised source records."""

    @property
    def name(self) -> str:
        """The provider's source name, as provenance and `lectern ingest --provider` say it."""
        ...

    def by_isbn(self, isbn: str) -> list[SourceRecord]:
        """The provider's records of this ISBN (none when it has none)."""
        ...

    def search(self, query: str, limit: int) -> list[SourceRecord]:
        """At most `limit` records for a free-text query, best first."""
        ...


class ProviderRecordStore(Protocol):
    """The records fetched from providers, kept so every later ingest merges them again."""

    def save(self, records: Sequence[SourceRecord]) -> int:
        """Insert or replace records by (source, source_id); returns how many were new."""
        ...

    def records(self, source: str) -> list[SourceRecord]:
        """Every stored record of one provider, in source id order."""
        ...


class BookCatalog(Protocol):
    """The store of merged books."""

    def get(self, book_id: uuid.UUID) -> Book | None:
        """The book with this id, or None."""
        ...

    def get_by_isbn(self, isbn: str) -> Book | None:
        """The book holding this valid ISBN-10 or ISBN-13 (of any of its editions)."""
        ...

    def get_many(self, book_ids: Sequence[uuid.UUID]) -> list[Book]:
        """Books in the order of the ids given; unknown ids are skipped."""
        ...

    def get_entry(self, book_id: uuid.UUID) -> CatalogEntry | None:
        """The book with its identifiers, field provenance and source records."""
        ...

    def iter_batches(self, size: int = 1000) -> Iterator[list[Book]]:
        """Every book, in id order, in lists of at most `size`."""
        ...

    def ids_matching(self, filters: SearchFilters) -> set[uuid.UUID]:
        """Ids of the books that satisfy every filter set (unknown page counts pass)."""
        ...

    def facets(self, top_categories: int = 30) -> Facets:
        """Languages, the most common categories and a decade histogram."""
        ...

    def counts(self) -> CatalogCounts:
        """Headline numbers."""
        ...

    def content_hashes(self) -> dict[uuid.UUID, str]:
        """The stored content hash of every book, to decide what changed."""
        ...

    def book_facts(self) -> list[BookFacts]:
        """Language, year, categories, pages, authors, title and series of every book.

        What search filters on in memory.
        """
        ...

    def book_names(self) -> list[BookNames]:
        """Title, authors, categories and popularity of every book (one query, no blurbs)."""
        ...

    def write_batch(self, entries: Sequence[StoredEntry]) -> None:
        """Insert or replace these entries in one transaction."""
        ...


@dataclass(frozen=True, slots=True)
class BookFacts:
    """What search needs to filter and group a book without loading it."""

    id: str
    language: str | None
    published_year: int | None
    categories: frozenset[str]
    pages: int | None = None
    authors: tuple[str, ...] = ()
    title: str = ""
    series: str | None = None
    popularity: int = 0
    """Ratings count when a source gives one, else 0 (orders a shelf's books past the pool)."""
    series_number: str | None = None
    """The book's number in `series` as the source gives it ("2", "1-3"), when it does."""


@dataclass(frozen=True, slots=True)
class BookNames:
    """What query understanding needs of a book: its names, shelves and popularity."""

    id: str
    title: str
    authors: tuple[str, ...]
    categories: tuple[str, ...]
    popularity: int
    """Ratings count when a source gives one, else 0 (picks the known edition of a title)."""
