"""Ports: the Protocols that application services depend on and adapters implement."""

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


class ProgressReporter(Protocol):
    """Receives progress of long work; the CLI draws bars, tests count calls."""

    def start(self, task: str, total: int | None) -> None:
        """A new stage begins; total is None when unknown."""
        ...

    def advance(self, amount: int = 1) -> None:
        """Some units of the current stage are done."""
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
        """Ids of the books that satisfy every filter set."""
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

    def write_batch(self, entries: Sequence[StoredEntry]) -> None:
        """Insert or replace these entries in one transaction."""
        ...
