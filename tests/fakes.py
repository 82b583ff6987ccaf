"""In-memory fakes of Lectern's ports, exposing state tests can assert on."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lectern.application.ports import SourceFile, StoredEntry
from lectern.domain.books import (
    Book,
    CatalogCounts,
    CatalogEntry,
    CategoryCount,
    Facets,
)
from lectern.domain.normalize import parse_isbn_query
from lectern.domain.search import SearchFilters


class FakeCatalog:
    """A BookCatalog in a dict; `writes` records each batch written."""

    def __init__(self) -> None:
        self.entries: dict[uuid.UUID, StoredEntry] = {}
        self.writes: list[list[uuid.UUID]] = []
        self.fail_on_write: int | None = None
        """Raise on this (1-based) write_batch call, to simulate a crash mid-ingest."""

    def get(self, book_id: uuid.UUID) -> Book | None:
        stored = self.entries.get(book_id)
        return stored.entry.book if stored else None

    def get_by_isbn(self, isbn: str) -> Book | None:
        parsed = parse_isbn_query(isbn)
        if parsed is None:
            return None
        key = f"{parsed[0]}:{parsed[1]}"
        for stored in self.entries.values():
            if key in stored.entry.identifiers:
                return stored.entry.book
        return None

    def get_many(self, book_ids: Sequence[uuid.UUID]) -> list[Book]:
        return [self.entries[i].entry.book for i in book_ids if i in self.entries]

    def get_entry(self, book_id: uuid.UUID) -> CatalogEntry | None:
        stored = self.entries.get(book_id)
        return stored.entry if stored else None

    def iter_batches(self, size: int = 1000) -> Iterator[list[Book]]:
        ids = sorted(self.entries, key=str)
        for start in range(0, len(ids), size):
            yield self.get_many(ids[start : start + size])

    def ids_matching(self, filters: SearchFilters) -> set[uuid.UUID]:
        found = set()
        for book_id, stored in self.entries.items():
            book = stored.entry.book
            if filters.language and book.language != filters.language:
                continue
            if filters.category and filters.category not in book.categories:
                continue
            year = book.published_year
            if filters.min_year is not None and (year is None or year < filters.min_year):
                continue
            if filters.max_year is not None and (year is None or year > filters.max_year):
                continue
            found.add(book_id)
        return found

    def facets(self, top_categories: int = 30) -> Facets:
        books = [s.entry.book for s in self.entries.values()]
        languages: dict[str, int] = {}
        categories: dict[str, int] = {}
        for book in books:
            if book.language:
                languages[book.language] = languages.get(book.language, 0) + 1
            for name in book.categories:
                categories[name] = categories.get(name, 0) + 1
        years = [b.published_year for b in books if b.published_year is not None]
        return Facets(
            languages=tuple(CategoryCount(k, v) for k, v in sorted(languages.items())),
            top_categories=tuple(
                CategoryCount(k, v)
                for k, v in sorted(categories.items(), key=lambda x: -x[1])[:top_categories]
            ),
            year_histogram=(),
            min_year=min(years, default=None),
            max_year=max(years, default=None),
        )

    def counts(self) -> CatalogCounts:
        books = [s.entry.book for s in self.entries.values()]
        by_source: dict[str, int] = {}
        for stored in self.entries.values():
            for name in {ref.source for ref in stored.entry.sources}:
                by_source[name] = by_source.get(name, 0) + 1
        return CatalogCounts(
            books=len(books),
            with_description=sum(1 for b in books if b.description),
            with_category=sum(1 for b in books if b.categories),
            with_isbn13=sum(1 for b in books if b.isbn13),
            with_language=sum(1 for b in books if b.language),
            with_year=sum(1 for b in books if b.published_year is not None),
            authors=len({a for b in books for a in b.authors}),
            categories=len({c for b in books for c in b.categories}),
            by_source=by_source,
        )

    def content_hashes(self) -> dict[uuid.UUID, str]:
        return {k: v.content_hash for k, v in self.entries.items()}

    def write_batch(self, entries: Sequence[StoredEntry]) -> None:
        if self.fail_on_write is not None and len(self.writes) + 1 == self.fail_on_write:
            raise RuntimeError("simulated crash while writing a batch")
        for stored in entries:
            self.entries[stored.entry.book.id] = stored
        self.writes.append([s.entry.book.id for s in entries])


@dataclass
class FakeFetcher:
    """Serves files from a local folder and records what was asked for."""

    root: Path
    requested: list[str] = field(default_factory=list)

    def fetch(self, files: Sequence[SourceFile]) -> dict[str, Path]:
        self.requested.extend(f.path for f in files)
        return {f.path: self.root / f.path for f in files}


@dataclass
class RecordingProgress:
    """Remembers every stage and how far it advanced."""

    stages: list[str] = field(default_factory=list)
    advanced: dict[str, int] = field(default_factory=dict)

    def start(self, task: str, total: int | None) -> None:
        del total
        self.stages.append(task)
        self.advanced.setdefault(task, 0)

    def advance(self, amount: int = 1) -> None:
        if self.stages:
            self.advanced[self.stages[-1]] += amount
