"""A real `lectern ingest` killed with SIGKILL mid-way leaves a consistent catalog."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from tests.integration.conftest import FullIngest

pytestmark = pytest.mark.slow


def _ingest_command(mirror: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "lectern",
        "ingest",
        "--mirror",
        str(mirror),
        "--batch-size",
        "100",
    ]


@pytest.fixture(scope="module")
def clean_catalog(full_ingest: FullIngest) -> Path:
    """One uninterrupted ingest (the run's shared one): what both killed runs must end up equal
    to. Its batches are of the default size, the killed runs' of 100: the content is the
    same either way."""
    return full_ingest.catalog


def _book_count(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(database, timeout=1) as connection:
            return int(connection.execute("select count(*) from books").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_kill_then_rerun_completes_to_the_same_catalog(
    shared_books: Path, tmp_path: Path, clean_catalog: Path
) -> None:
    env = {**os.environ, "LECTERN_DATA_DIR": str(tmp_path / "killed")}
    database = tmp_path / "killed" / "catalog.db"
    process = subprocess.Popen(
        _ingest_command(shared_books), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 300  # a loaded machine starts the process slowly
    while _book_count(database) < 1_000 and time.monotonic() < deadline:
        assert process.poll() is None, "ingest finished before it could be killed"
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    partial = _book_count(database)
    assert 1_000 <= partial < 18_000

    with sqlite3.connect(database) as connection:
        assert connection.execute("pragma integrity_check").fetchone()[0] == "ok"
        # Transactions are per batch: no book lacks the rows written beside it.
        orphans = connection.execute(
            "select count(*) from books b where not exists "
            "(select 1 from book_sources s where s.book_id = b.id)"
        ).fetchone()[0]
        assert orphans == 0
        assert connection.execute("select count(*) from books").fetchone()[0] % 100 == 0

    rerun = subprocess.run(
        _ingest_command(shared_books), env=env, capture_output=True, text=True, check=False
    )
    assert rerun.returncode == 0, rerun.stderr

    resumed = SqlAlchemyBookCatalog.from_url(f"sqlite:///{database}")
    reference = SqlAlchemyBookCatalog.from_url(f"sqlite:///{clean_catalog}")
    assert resumed.content_hashes() == reference.content_hashes()
    resumed.close()
    reference.close()


def _postgres_counts(url: str) -> tuple[int, int]:
    """(books, books without a source row) in the catalog at `url`; (0, 0) before migration."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            books = connection.execute(sa.text("select count(*) from books")).scalar_one()
            orphans = connection.execute(
                sa.text(
                    "select count(*) from books b where not exists "
                    "(select 1 from book_sources s where s.book_id = b.id)"
                )
            ).scalar_one()
            return int(books), int(orphans)
    except sa.exc.ProgrammingError:
        return 0, 0  # the tables are not there yet
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_kill_on_postgresql_keeps_whole_batches_and_a_rerun_completes(
    shared_books: Path, tmp_path: Path, postgres_url: str, clean_catalog: Path
) -> None:
    env = {
        **os.environ,
        "LECTERN_DATA_DIR": str(tmp_path / "pg"),
        "LECTERN_CATALOG_URL": postgres_url,
    }
    process = subprocess.Popen(
        _ingest_command(shared_books), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 300
    while _postgres_counts(postgres_url)[0] < 1_000 and time.monotonic() < deadline:
        assert process.poll() is None, "ingest finished before it could be killed"
        time.sleep(0.1)
    process.send_signal(signal.SIGKILL)
    process.wait()
    # The server rolls back the killed session's open transaction once it notices the
    # connection is gone; a moment later only committed batches remain.
    time.sleep(1)
    partial, orphans = _postgres_counts(postgres_url)
    assert 1_000 <= partial < 18_000
    assert orphans == 0
    assert partial % 100 == 0  # whole batches of --batch-size 100, never a part of one

    rerun = subprocess.run(
        _ingest_command(shared_books), env=env, capture_output=True, text=True, check=False
    )
    assert rerun.returncode == 0, rerun.stderr

    resumed = SqlAlchemyBookCatalog.from_url(postgres_url)
    reference = SqlAlchemyBookCatalog.from_url(f"sqlite:///{clean_catalog}")
    # The same books with the same content on both databases: the re-run finished the job.
    assert len(resumed.content_hashes()) == len(reference.content_hashes()) > partial
    assert resumed.content_hashes() == reference.content_hashes()
    resumed.close()
    reference.close()
