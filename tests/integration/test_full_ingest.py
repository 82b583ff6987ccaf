"""All of ../shared/data/books into a temporary catalog (SQLite, or --database postgres), twice."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.sources.fetch import MirrorSourceFetcher
from lectern.application.catalog_queries import find_book
from lectern.application.ingestion import IngestionService, IngestReport
from lectern.bootstrap import default_sources
from tests.conftest import catalog_url_for, on_postgres
from tests.integration.conftest import FullIngest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ingested(
    shared_books: Path, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> tuple[SqlAlchemyBookCatalog, IngestReport, IngestReport]:
    """The first ingest into an empty catalog, and a second one over it."""
    folder = tmp_path_factory.mktemp("full")
    if on_postgres():
        # The PostgreSQL run ingests into its own schema: the first ingest is the point.
        catalog = SqlAlchemyBookCatalog.from_url(catalog_url_for(folder / "catalog.db"))
        service = IngestionService(catalog, MirrorSourceFetcher(shared_books), default_sources())
        first = service.ingest()
        return catalog, first, service.ingest()
    # On SQLite the run's shared full ingest is that first ingest (tests/integration/conftest.py);
    # the second runs over a copy of it.
    full: FullIngest = request.getfixturevalue("full_ingest")
    shutil.copy(full.catalog, folder / "catalog.db")
    catalog = SqlAlchemyBookCatalog.from_url(catalog_url_for(folder / "catalog.db"))
    service = IngestionService(catalog, MirrorSourceFetcher(shared_books), default_sources())
    return catalog, full.report, service.ingest()


def test_the_whole_catalog_is_there(
    ingested: tuple[SqlAlchemyBookCatalog, IngestReport, IngestReport],
) -> None:
    catalog, first, _ = ingested
    counts = catalog.counts()
    assert counts.books >= 18_000
    assert counts.with_description >= 6_000
    assert counts.with_category >= 9_500
    languages = {c.name for c in catalog.facets().languages}
    assert {"en", "es", "de", "fr"} <= languages
    assert first.read == 30_529
    assert first.inserted == counts.books
    assert sum(first.rejected.values()) == 0
    assert first.dropped_values["isbn13_float_lost_digits"] > 0


def test_a_second_ingest_changes_nothing(
    ingested: tuple[SqlAlchemyBookCatalog, IngestReport, IngestReport],
) -> None:
    _, first, second = ingested
    assert (second.inserted, second.updated) == (0, 0)
    assert second.unchanged == first.books


def test_hunger_games_with_provenance(
    ingested: tuple[SqlAlchemyBookCatalog, IngestReport, IngestReport],
) -> None:
    catalog, _, _ = ingested
    view = find_book(catalog, "9780439023481")
    book = view.entry.book
    assert book.title == "The Hunger Games"
    assert book.authors[0] == "Suzanne Collins"
    assert book.published_year == 2008
    assert {"title", "authors", "categories"} <= {p.field for p in view.entry.provenance}
    assert view.entry.sources[0].source == "goodbooks-10k"


def test_a_real_book_merged_from_all_three_sources(
    ingested: tuple[SqlAlchemyBookCatalog, IngestReport, IngestReport],
) -> None:
    catalog, _, _ = ingested
    view = find_book(catalog, "9780451524935")  # 1984, goodbooks + 7k-books + goodreads
    sources = {ref.source for ref in view.entry.sources}
    assert sources == {"goodbooks-10k", "7k-books", "goodreads-openlibrary"}
    book = view.entry.book
    assert book.title == "1984"
    assert book.published_year == 1949
    assert book.description
    assert ("description", "7k-books") in {(p.field, p.source) for p in view.entry.provenance}
    # Every edition ISBN of the merged records finds the same book.
    for key in view.entry.identifiers:
        if key.startswith("isbn13:"):
            assert catalog.get_by_isbn(key.split(":")[1]).id == book.id  # type: ignore[union-attr]
