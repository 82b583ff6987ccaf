"""Ingestion: read every source, merge the same book across them, store what changed."""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from lectern.application.ports import (
    BookCatalog,
    BookSource,
    ProgressReporter,
    SourceFetcher,
    StoredEntry,
)
from lectern.domain.books import CatalogEntry, RejectedRow, SourceRecord
from lectern.domain.merge import merge_records
from lectern.domain.normalize import fold
from lectern.errors import SourceError, UnknownSourceError

MAX_REPORTED_ROWS = 10_000
"""Rejected rows kept in the report with file and line; counts are always complete."""


class _SilentProgress:
    def start(self, task: str, total: int | None) -> None:
        del task, total

    def advance(self, amount: int = 1) -> None:
        del amount


@dataclass
class IngestReport:
    """What one ingest read, merged, wrote and refused, and why."""

    sources: list[str] = field(default_factory=list)
    rows_read: Counter[str] = field(default_factory=Counter)
    """Rows read per source, rejected ones included."""
    records: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    """Rejected rows by reason."""
    rejected_rows: list[RejectedRow] = field(default_factory=list)
    dropped_values: Counter[str] = field(default_factory=Counter)
    """Values dropped from kept rows (invalid ISBNs, unmappable languages), by reason."""
    merged: int = 0
    links: dict[str, int] = field(default_factory=dict)
    books: int = 0
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    seconds: float = 0.0

    @property
    def read(self) -> int:
        """All rows read across sources."""
        return sum(self.rows_read.values())

    def to_json(self) -> dict[str, object]:
        """A JSON-ready form of the report."""
        # asdict() would rebuild each Counter from (key, value) pairs, so spell it out.
        return {
            "sources": list(self.sources),
            "read": self.read,
            "rows_read": dict(self.rows_read),
            "records": self.records,
            "rejected": dict(self.rejected),
            "rejected_rows": [asdict(row) for row in self.rejected_rows],
            "dropped_values": dict(self.dropped_values),
            "merged": self.merged,
            "links": dict(self.links),
            "books": self.books,
            "inserted": self.inserted,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "seconds": round(self.seconds, 3),
        }


def content_hash(entry: CatalogEntry) -> str:
    """A hash of everything stored for a book except where its rows were read."""
    book = entry.book
    payload = {
        "book": {
            **{k: v for k, v in asdict(book).items() if k not in {"id", "metadata"}},
            "id": str(book.id),
            "metadata": dict(book.metadata),
        },
        "identifiers": list(entry.identifiers),
        "provenance": [asdict(p) for p in entry.provenance],
        "sources": [(s.source, s.source_id) for s in entry.sources],
    }
    encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


class IngestionService:
    """Builds the catalog from its sources; running it twice changes nothing."""

    def __init__(
        self,
        catalog: BookCatalog,
        fetcher: SourceFetcher,
        sources: Sequence[BookSource],
        *,
        batch_size: int = 500,
        progress: ProgressReporter | None = None,
    ) -> None:
        """Sources are read in priority order: the first wins ties when merging."""
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.catalog = catalog
        self.fetcher = fetcher
        self.sources = list(sources)
        self.batch_size = batch_size
        self.progress: ProgressReporter = progress or _SilentProgress()

    def ingest(self, only: Sequence[str] | None = None) -> IngestReport:
        """Read, merge and store; each batch of books is written in one transaction."""
        started = time.perf_counter()
        chosen = self._choose(only)
        self._refuse_partial_rebuild(chosen)
        report = IngestReport(sources=[s.name for s in chosen])
        records = self._read(chosen, report)
        self.progress.start("merging", None)
        merged = merge_records(records, priority=[s.name for s in self.sources])
        report.records, report.merged = merged.records, merged.merged_records
        report.links = dict(merged.links)
        report.books = len(merged.entries)
        stored = self.catalog.content_hashes()
        changed: list[StoredEntry] = []
        for entry in merged.entries:
            digest = content_hash(entry)
            previous = stored.get(entry.book.id)
            if previous == digest:
                report.unchanged += 1
                continue
            if previous is None:
                report.inserted += 1
            else:
                report.updated += 1
            changed.append(StoredEntry(entry, digest))
        self.progress.start("writing", len(changed))
        for start in range(0, len(changed), self.batch_size):
            batch = changed[start : start + self.batch_size]
            self.catalog.write_batch(batch)
            self.progress.advance(len(batch))
        report.seconds = time.perf_counter() - started
        return report

    def _choose(self, only: Sequence[str] | None) -> list[BookSource]:
        if not only:
            return list(self.sources)
        known = {s.name: s for s in self.sources}
        unknown = [name for name in only if name not in known]
        if unknown:
            raise UnknownSourceError(
                f"unknown source {', '.join(unknown)!s}; known sources: {', '.join(known)}"
            )
        return [s for s in self.sources if s.name in set(only)]

    def _refuse_partial_rebuild(self, chosen: Sequence[BookSource]) -> None:
        """Merging a subset would overwrite books whose fields came from other sources."""
        names = {s.name for s in chosen}
        others = sorted(set(self.catalog.counts().by_source) - names)
        if others:
            raise SourceError(
                f"the catalog holds books merged from {', '.join(others)}; ingesting only "
                f"{', '.join(sorted(names))} would drop their fields. Ingest every source, "
                "or point LECTERN_DATA_DIR at a new directory."
            )

    def _read(self, chosen: Sequence[BookSource], report: IngestReport) -> list[SourceRecord]:
        # Fetch everything first: a missing or corrupt file stops the run before any write.
        located = [(source, self.fetcher.fetch(source.files)) for source in chosen]
        records: list[SourceRecord] = []
        known_authors: set[str] = set()
        for source, paths in located:
            self.progress.start(f"reading {source.name}", None)
            start_count = len(records)
            try:
                for item in source.read(paths, frozenset(known_authors)):
                    report.rows_read[source.name] += 1
                    if isinstance(item, RejectedRow):
                        report.rejected[item.reason] += 1
                        if len(report.rejected_rows) < MAX_REPORTED_ROWS:
                            report.rejected_rows.append(item)
                        continue
                    records.append(item)
                    report.dropped_values.update(item.dropped)
                    self.progress.advance()
            except UnicodeError as error:
                raise SourceError(f"{source.name}: cannot decode a file: {error}") from error
            known_authors.update(
                fold(name) for record in records[start_count:] for name in record.authors
            )
        return records
