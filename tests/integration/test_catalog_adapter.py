"""The SQLAlchemy catalog on real SQLite (WAL) and real PostgreSQL."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.catalog.tables import metadata
from lectern.application.ingestion import IngestionService
from lectern.bootstrap import default_sources
from lectern.domain.search import SearchFilters
from tests.fakes import FakeCatalog, FakeFetcher


def _ingest(catalog: object, mirror: Path) -> None:
    IngestionService(catalog, FakeFetcher(mirror), default_sources(), batch_size=3).ingest()  # type: ignore[arg-type]


@pytest.fixture
def catalog(catalog_url: str, tiny_mirror: Path) -> SqlAlchemyBookCatalog:
    store = SqlAlchemyBookCatalog.from_url(catalog_url)
    _ingest(store, tiny_mirror)
    yield store  # type: ignore[misc]
    store.close()


def test_round_trip_equals_the_in_memory_fake(
    catalog: SqlAlchemyBookCatalog, tiny_mirror: Path
) -> None:
    fake = FakeCatalog()
    _ingest(fake, tiny_mirror)
    assert catalog.content_hashes() == fake.content_hashes()
    for book_id in fake.entries:
        assert catalog.get_entry(book_id) == fake.get_entry(book_id)


def test_lookup_by_any_isbn_form(catalog: SqlAlchemyBookCatalog) -> None:
    by13 = catalog.get_by_isbn("9780439023481")
    assert by13 is not None and by13.title == "The Hunger Games"
    by10 = catalog.get_by_isbn("0-439-02348-3")
    assert by10 is not None and by10.id == by13.id
    assert catalog.get_by_isbn("9780439023480") is None
    assert catalog.get_by_isbn("'; drop table books; --") is None
    assert catalog.get(uuid.uuid4()) is None


def test_get_many_keeps_order_and_skips_unknown(catalog: SqlAlchemyBookCatalog) -> None:
    ids = sorted(catalog.content_hashes(), key=str)
    wanted = [ids[3], uuid.uuid4(), ids[0]]
    assert [b.id for b in catalog.get_many(wanted)] == [ids[3], ids[0]]


def test_iter_batches_visits_every_book_once(catalog: SqlAlchemyBookCatalog) -> None:
    seen = [b.id for batch in catalog.iter_batches(size=4) for b in batch]
    assert len(seen) == len(set(seen)) == 11
    with pytest.raises(ValueError, match="positive"):
        next(catalog.iter_batches(size=0))


def test_filters(catalog: SqlAlchemyBookCatalog) -> None:
    spanish = catalog.ids_matching(SearchFilters(language="es"))
    assert [b.title for b in catalog.get_many(list(spanish))] == ["Cien años de soledad"]
    old = catalog.ids_matching(SearchFilters(max_year=1930))
    assert {b.title for b in catalog.get_many(list(old))} == {"The Great Gatsby"}
    fantasy_2000s = catalog.ids_matching(SearchFilters(category="Fantasy", min_year=1990))
    titles = {b.title for b in catalog.get_many(list(fantasy_2000s))}
    assert titles == {"The Hunger Games", "Harry Potter and the Sorcerer's Stone"}
    assert catalog.ids_matching(SearchFilters(category="no such category")) == set()
    assert len(catalog.ids_matching(SearchFilters())) == 11


def test_facets_and_counts(catalog: SqlAlchemyBookCatalog) -> None:
    facets = catalog.facets(top_categories=3)
    languages = {c.name: c.count for c in facets.languages}
    assert languages == {"en": 3, "de": 2, "es": 1, "fr": 1}
    assert len(facets.top_categories) == 3
    assert facets.min_year == 1925 and facets.max_year == 2008
    assert (1920, 1) in facets.year_histogram
    counts = catalog.counts()
    assert counts.books == 11
    assert counts.with_description == 4
    assert counts.by_source == {"7k-books": 4, "goodbooks-10k": 5, "goodreads-openlibrary": 5}


def test_rewriting_a_book_replaces_its_rows(
    catalog: SqlAlchemyBookCatalog, tiny_mirror: Path
) -> None:
    before = catalog.counts()
    _ingest(catalog, tiny_mirror)
    from lectern.application.ports import StoredEntry

    entry = catalog.get_entry(catalog.get_by_isbn("9780439023481").id)  # type: ignore[union-attr]
    assert entry is not None
    catalog.write_batch([StoredEntry(entry, "changed")])
    assert catalog.counts() == before
    assert catalog.get_entry(entry.book.id) == entry


def test_migrations_match_the_table_definitions(catalog_url: str) -> None:
    store = SqlAlchemyBookCatalog.from_url(catalog_url)
    with store.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), metadata)
    store.close()
    assert diff == []


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    store = SqlAlchemyBookCatalog.from_url(f"sqlite:///{tmp_path / 'c.db'}")
    with store.engine.connect() as connection:
        assert connection.execute(sa.text("pragma journal_mode")).scalar() == "wal"
        assert connection.execute(sa.text("pragma foreign_keys")).scalar() == 1
    store.close()
