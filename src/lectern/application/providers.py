"""Books from external providers (Open Library, Google Books), merged like any other source.

A provider's records are normalised by its adapter, kept in a `ProviderRecordStore`, and
read back by `StoredProviderSource` on every ingest: they merge with the CSV sources'
records of the same book (ISBN-13, work key) with provenance per field, and a later full
ingest keeps them. The sources' own records win ties (providers come last in priority).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lectern.application.ingestion import IngestionService, IngestReport
from lectern.application.ports import (
    ExternalBooksProvider,
    ProviderRecordStore,
    SourceFile,
)
from lectern.domain.books import RejectedRow, SourceRecord, SourceRef
from lectern.domain.normalize import parse_isbn_query
from lectern.errors import InvalidQueryError, UnknownSourceError

MAX_PROVIDER_RESULTS = 40
"""Records one query may bring in: a search, not a crawl."""


class StoredProviderSource:
    """A `BookSource` over the records fetched from one provider (it reads no files)."""

    files: tuple[SourceFile, ...] = ()

    def __init__(self, name: str, store: ProviderRecordStore) -> None:
        """Read `name`'s records from the store."""
        self.name = name
        self.store = store

    def read(
        self, paths: Mapping[str, Path], known_authors: frozenset[str]
    ) -> Iterator[SourceRecord | RejectedRow]:
        """The stored records, as fetched and normalised."""
        del paths, known_authors
        yield from self.store.records(self.name)


class StoredRecordLookup:
    """`SourceRecordLookup` over the provider record store.

    Providers' records are kept whole; rows of the CSV sources are not (only their file and
    line), so a review reads back the providers' records and names the rest by reference.
    """

    def __init__(self, store: ProviderRecordStore) -> None:
        """Read from `store`."""
        self.store = store

    def records_of(self, refs: Sequence[SourceRef]) -> list[SourceRecord]:
        """The stored records among `refs`, in the refs' order."""
        wanted: dict[str, set[str]] = {}
        for ref in refs:
            wanted.setdefault(ref.source, set()).add(ref.source_id)
        found: dict[tuple[str, str], SourceRecord] = {}
        for source, ids in wanted.items():
            for record in self.store.records(source):
                if record.source_id in ids:
                    found[(source, record.source_id)] = record
        return [found[key] for key in ((r.source, r.source_id) for r in refs) if key in found]


class InMemoryProviderRecords:
    """A `ProviderRecordStore` in a dict: for a caller's own catalog (and tests)."""

    def __init__(self) -> None:
        """Empty."""
        self.stored: dict[tuple[str, str], SourceRecord] = {}

    def save(self, records: Sequence[SourceRecord]) -> int:
        """Insert or replace by (source, source_id); how many were new."""
        new = 0
        for record in records:
            key = (record.source, record.source_id)
            new += key not in self.stored
            self.stored[key] = record
        return new

    def records(self, source: str) -> list[SourceRecord]:
        """One provider's records, by source id."""
        return [r for (s, _), r in sorted(self.stored.items()) if s == source]


@dataclass
class ProviderReport:
    """What one provider ingest asked, fetched, kept, and what the merge did."""

    provider: str
    isbns: list[str] = field(default_factory=list)
    query: str | None = None
    fetched: int = 0
    new_records: int = 0
    not_found: list[str] = field(default_factory=list)
    """ISBNs the provider has no record of."""
    ingest: IngestReport | None = None

    def to_json(self) -> dict[str, object]:
        """A JSON-ready form of the report."""
        return {
            "provider": self.provider,
            "isbns": list(self.isbns),
            "query": self.query,
            "fetched": self.fetched,
            "new_records": self.new_records,
            "not_found": list(self.not_found),
            "ingest": self.ingest.to_json() if self.ingest else None,
        }


class ProviderIngestion:
    """Fetch from a provider, keep the records, and merge them into the catalog."""

    def __init__(
        self,
        providers: Mapping[str, ExternalBooksProvider],
        store: ProviderRecordStore,
        ingestion: Callable[[], IngestionService],
    ) -> None:
        """`ingestion` builds the full ingest (the sources and every provider's records)."""
        self.providers = dict(providers)
        self.store = store
        self.ingestion = ingestion

    def ingest(
        self,
        provider: str,
        *,
        isbns: Sequence[str] = (),
        query: str | None = None,
        limit: int = 10,
    ) -> ProviderReport:
        """Fetch by ISBN and/or by query, store what came back, then merge everything."""
        chosen = self.providers.get(provider)
        if chosen is None:
            raise UnknownSourceError(
                f"unknown provider {provider!r}; known providers: {', '.join(self.providers)}"
            )
        if not isbns and not (query and query.strip()):
            raise InvalidQueryError("give at least one --isbn or a --query to fetch")
        if not 1 <= limit <= MAX_PROVIDER_RESULTS:
            raise InvalidQueryError(
                f"the limit must be between 1 and {MAX_PROVIDER_RESULTS}, not {limit}"
            )
        bad = [i for i in isbns if parse_isbn_query(i) is None]
        if bad:
            raise InvalidQueryError(f"not a valid ISBN-10 or ISBN-13: {', '.join(bad)}")
        report = ProviderReport(provider, list(isbns), query)
        records: list[SourceRecord] = []
        for isbn in isbns:
            found = chosen.by_isbn(isbn)
            if not found:
                report.not_found.append(isbn)
            records.extend(found)
        if query and query.strip():
            records.extend(chosen.search(query.strip(), limit))
        report.fetched = len(records)
        report.new_records = self.store.save(records)
        report.ingest = self.ingestion().ingest()
        return report
