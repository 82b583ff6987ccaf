"""The book catalog: its database, sources, providers, ingestion and indexes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lectern import __version__
from lectern.adapters.catalog.provider_records import SqlAlchemyProviderRecords
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.providers.google_books import GoogleBooksProvider
from lectern.adapters.providers.http import PoliteJsonClient
from lectern.adapters.providers.openlibrary import OpenLibraryProvider
from lectern.adapters.sources.fetch import HttpSourceFetcher, MirrorSourceFetcher
from lectern.adapters.sources.goodbooks import GoodbooksSource
from lectern.adapters.sources.goodreads_openlibrary import GoodreadsOpenLibrarySource
from lectern.adapters.sources.seven_k import SevenKBooksSource
from lectern.application.indexing import IndexingService
from lectern.application.ingestion import IngestionService
from lectern.application.ports import (
    BookCatalog,
    BookSource,
    Embedder,
    ExternalBooksProvider,
    ProgressReporter,
    ProviderRecordStore,
    SourceFetcher,
)
from lectern.application.providers import (
    InMemoryProviderRecords,
    ProviderIngestion,
    StoredProviderSource,
)
from lectern.bootstrap.base import Wiring
from lectern.bootstrap.indexes import SearchIndexes, search_indexes
from lectern.settings import Settings


def default_sources() -> list[BookSource]:
    """The catalog's sources, in merge priority order."""
    return [GoodbooksSource(), SevenKBooksSource(), GoodreadsOpenLibrarySource()]


PROVIDERS = ("openlibrary", "google-books")
"""The external providers `lectern ingest --provider` knows, in merge priority order."""


def make_providers(settings: Settings) -> dict[str, ExternalBooksProvider]:
    """The providers over their configured URLs, with timeouts, retries and a rate limit."""

    def client(url: str, name: str) -> PoliteJsonClient:
        return PoliteJsonClient(
            url,
            name=name,
            timeout=settings.provider_timeout,
            attempts=settings.provider_attempts,
            min_interval=settings.provider_min_interval,
            user_agent=f"lectern/{__version__} (book catalog; python-httpx)",
        )

    key = settings.google_books_api_key
    providers: list[ExternalBooksProvider] = [
        OpenLibraryProvider(client(settings.openlibrary_url, "openlibrary")),
        GoogleBooksProvider(
            client(settings.google_books_url, "google-books"),
            api_key=key.get_secret_value() if key is not None else None,
        ),
    ]
    return {p.name: p for p in providers}


def make_fetcher(settings: Settings, progress: ProgressReporter | None = None) -> SourceFetcher:
    """A mirror reader when LECTERN_DATA_MIRROR is set, else the checked downloader."""
    if settings.data_mirror is not None:
        return MirrorSourceFetcher(settings.data_mirror)
    return HttpSourceFetcher(
        settings.data_dir / "sources", base_url=settings.source_base_url, progress=progress
    )


class CatalogWiring(Wiring):
    """The catalog, its sources and ingestion, its indexes and their embedder."""

    @property
    def catalog(self) -> BookCatalog:
        """The book catalog: LECTERN_CATALOG_URL's database (SQLite in data_dir by default)."""
        if self.overrides.catalog is not None:
            return self.overrides.catalog
        return self._once("catalog", self._sql_catalog)

    def _sql_catalog(self) -> SqlAlchemyBookCatalog:
        return SqlAlchemyBookCatalog.from_url(self.settings.resolved_catalog_url)

    def _assistant_engine(self) -> Any:
        """The assistant's tables live in the catalog database of LECTERN_CATALOG_URL."""
        return self._once("catalog", self._sql_catalog).engine

    @property
    def sources(self) -> Sequence[BookSource]:
        """The catalog's sources in merge priority order; the providers' stored records last."""
        if self.overrides.sources is not None:
            return list(self.overrides.sources)
        stored = [StoredProviderSource(name, self.provider_records()) for name in PROVIDERS]
        return [*default_sources(), *stored]

    def provider_records(self) -> ProviderRecordStore:
        """Records fetched from providers: the catalog database unless another store is given."""
        if self.overrides.provider_records is not None:
            return self.overrides.provider_records
        if self.overrides.catalog is not None:  # a caller's own catalog: nothing of ours
            return self._once("provider_records", InMemoryProviderRecords)
        return self._once(
            "provider_records",
            lambda: SqlAlchemyProviderRecords(self._once("catalog", self._sql_catalog).engine),
        )

    def providers(self) -> dict[str, ExternalBooksProvider]:
        """Open Library and Google Books, each with its polite HTTP client."""
        return self._once("providers", lambda: make_providers(self.settings))

    def provider_ingestion(self, progress: ProgressReporter | None = None) -> ProviderIngestion:
        """Fetch from a provider, keep the records, merge them into the catalog."""
        return ProviderIngestion(
            self.providers(), self.provider_records(), lambda: self.ingestion(progress)
        )

    def ingestion(self, progress: ProgressReporter | None = None) -> IngestionService:
        """An ingestion service reading the mirror if set, else downloading."""
        fetcher = self.overrides.fetcher or make_fetcher(self.settings, progress)
        return IngestionService(
            self.catalog,
            fetcher,
            self.sources,
            batch_size=self.settings.ingest_batch_size,
            progress=progress,
        )

    def catalog_indexes(self) -> SearchIndexes:
        """The catalog's indexes on the configured engine (one instance: one embedder)."""
        return self._once(
            "catalog_indexes",
            lambda: search_indexes(self.settings, self.settings.index_dir / "catalog"),
        )

    def indexing(self) -> IndexingService:
        """Builds the catalog's indexes."""
        return IndexingService(self.catalog, self.catalog_indexes())

    def embedder(self) -> Embedder:
        """The configured embedder (the override, else the catalog indexes' model)."""
        return self.overrides.embedder or self.catalog_indexes().embedder()
