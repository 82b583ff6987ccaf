from __future__ import annotations

import pickle
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa

from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from lectern.adapters.sources.fetch import MirrorSourceFetcher
from lectern.adapters.understanding.intent_examples import EXAMPLES
from lectern.adapters.understanding.intents import packaged_classifier
from lectern.adapters.understanding.layer import Understanding
from lectern.application.ingestion import IngestionService, IngestReport
from lectern.bootstrap import default_sources
from tests.conftest import IN_CI, built_once, catalog_url_for

POSTGRES_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def _postgres_or_skip() -> sa.Engine:
    engine = sa.create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(sa.text("select 1"))
    except sa.exc.OperationalError as error:
        engine.dispose()
        message = f"PostgreSQL is not reachable at 127.0.0.1:5432 ({error.orig})"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return engine


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty database on the local PostgreSQL server, dropped afterwards."""
    admin = _postgres_or_skip()
    name = f"lectern_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(sa.text(f'create database "{name}"'))
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(
                sa.text(
                    "select pg_terminate_backend(pid) from pg_stat_activity where datname = :n"
                ),
                {"n": name},
            )
            connection.execute(sa.text(f'drop database if exists "{name}"'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def catalog_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return catalog_url_for(tmp_path / "catalog.db")
    return str(request.getfixturevalue("postgres_url"))


@dataclass(frozen=True)
class FullIngest:
    """All of the shared books ingested into an empty SQLite catalog, and that ingest's report."""

    catalog: Path
    """The catalog file: read it, or copy it before writing."""
    report: IngestReport


@pytest.fixture(scope="session")
def full_ingest(shared_books: Path, tmp_path_factory: pytest.TempPathFactory) -> FullIngest:
    """One full ingest per run, shared by the tests that need the whole catalog.

    The first xdist worker that asks ingests (about 45 s on 2 cores); the others wait for it.
    """

    def build(folder: Path) -> None:
        catalog = SqlAlchemyBookCatalog.from_url(f"sqlite:///{folder / 'catalog.db'}")
        service = IngestionService(catalog, MirrorSourceFetcher(shared_books), default_sources())
        report = service.ingest()
        catalog.close()  # the WAL goes back into the file: a copy of it is whole
        (folder / "report.pickle").write_bytes(pickle.dumps(report))

    folder = built_once(tmp_path_factory, "full-ingest", build)
    report = pickle.loads((folder / "report.pickle").read_bytes())  # noqa: S301 - our own file
    return FullIngest(folder / "catalog.db", report)


@pytest.fixture(scope="module")
def layer(tmp_path_factory: pytest.TempPathFactory) -> Understanding:
    """The understanding layer over the packaged MiniLM, its example vectors cached per module."""
    cache = tmp_path_factory.mktemp("understanding")
    return Understanding(packaged_classifier(OnnxMiniLMEmbedder(threads=1), EXAMPLES, cache))
