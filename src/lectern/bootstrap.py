"""The one place that wires adapters into services."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.sources.fetch import HttpSourceFetcher, MirrorSourceFetcher
from lectern.adapters.sources.goodbooks import GoodbooksSource
from lectern.adapters.sources.goodreads_openlibrary import GoodreadsOpenLibrarySource
from lectern.adapters.sources.seven_k import SevenKBooksSource
from lectern.application.ingestion import IngestionService
from lectern.application.ports import BookCatalog, BookSource, ProgressReporter, SourceFetcher
from lectern.settings import Settings


def default_sources() -> list[BookSource]:
    """The catalog's sources, in merge priority order."""
    return [GoodbooksSource(), SevenKBooksSource(), GoodreadsOpenLibrarySource()]


@dataclass
class Services:
    """Everything the entry points use, built from one Settings."""

    settings: Settings
    catalog: BookCatalog
    sources: Sequence[BookSource]
    fetcher: SourceFetcher | None = None

    def ingestion(self, progress: ProgressReporter | None = None) -> IngestionService:
        """An ingestion service reading the mirror if set, else downloading."""
        fetcher = self.fetcher or make_fetcher(self.settings, progress)
        return IngestionService(
            self.catalog,
            fetcher,
            self.sources,
            batch_size=self.settings.ingest_batch_size,
            progress=progress,
        )


def make_fetcher(settings: Settings, progress: ProgressReporter | None = None) -> SourceFetcher:
    """A mirror reader when LECTERN_DATA_MIRROR is set, else the checked downloader."""
    if settings.data_mirror is not None:
        return MirrorSourceFetcher(settings.data_mirror)
    return HttpSourceFetcher(
        settings.data_dir / "sources", base_url=settings.source_base_url, progress=progress
    )


def bootstrap(
    settings: Settings,
    *,
    catalog: BookCatalog | None = None,
    sources: Sequence[BookSource] | None = None,
    fetcher: SourceFetcher | None = None,
) -> Services:
    """Build the services; tests pass fakes or in-memory adapters as overrides."""
    return Services(
        settings=settings,
        catalog=catalog or SqlAlchemyBookCatalog.from_url(settings.resolved_catalog_url),
        sources=list(sources) if sources is not None else default_sources(),
        fetcher=fetcher,
    )
