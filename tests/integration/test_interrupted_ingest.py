"""A real `lectern ingest` killed with SIGKILL mid-write leaves a consistent catalog.

Each test freezes the ingest (SIGSTOP) until it is caught inside a batch's open write
transaction, reads what is committed, then kills it: the kill lands mid-write by
construction, not by luck of timing, and afterwards exactly the committed batches remain.

The ingest reads a slice of the shared books (the first rows of each source's book file,
about 4,900 books with cross-source merges): on PostgreSQL each batch's deletes scan the
growing child tables (the CI server never analyses them, autovacuum is off), so the whole
mirror took 150 to 230 s, the longest test of the run, for the same proof.
"""

from __future__ import annotations

import csv
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
import sqlalchemy as sa

from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.sources.fetch import MirrorSourceFetcher
from lectern.application.ingestion import IngestionService
from lectern.bootstrap import default_sources

pytestmark = pytest.mark.slow

BATCH = 100
ROWS_PER_SOURCE = 2_000
"""Rows kept of each source's book file: about 4,900 books, 50 batches of BATCH."""
BOOK_FILES = ("goodbooks-10k/books.csv", "7k-books/books.csv", "goodreads-openlibrary/books.csv")
COMMITTED_BEFORE_KILL = 10 * BATCH


def _ingest_command(mirror: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "lectern",
        "ingest",
        "--mirror",
        str(mirror),
        "--batch-size",
        str(BATCH),
    ]


def slice_mirror(source: Path, target: Path, rows: int) -> Path:
    """A copy of the mirror whose book files keep their header and first `rows` records.

    The records are cut as they are in the file (quoted line breaks included), so the
    readers see the real rows; the shelf and genre files, joined by id, are copied whole.
    """
    for path in sorted(source.rglob("*.csv")):
        relative = path.relative_to(source)
        copy = target / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        if relative.as_posix() not in BOOK_FILES:
            shutil.copyfile(path, copy)
            continue
        with path.open(newline="", encoding="utf-8") as handle:
            lines = handle.readlines()
        reader = csv.reader(iter(lines))
        for _ in range(rows + 1):  # the header, then the records
            next(reader)
        with copy.open("w", newline="", encoding="utf-8") as handle:
            handle.writelines(lines[: reader.line_num])
    return target


@pytest.fixture(scope="module")
def books_slice(shared_books: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return slice_mirror(shared_books, tmp_path_factory.mktemp("books-slice"), ROWS_PER_SOURCE)


@pytest.fixture(scope="module")
def clean_catalog(books_slice: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One uninterrupted ingest of the slice: what both killed runs must end up equal to.

    Its batches are of the default size, the killed runs' of BATCH: the content is the same
    either way.
    """
    path = tmp_path_factory.mktemp("clean") / "catalog.db"
    catalog = SqlAlchemyBookCatalog.from_url(f"sqlite:///{path}")
    report = IngestionService(catalog, MirrorSourceFetcher(books_slice), default_sources()).ingest()
    catalog.close()
    # Enough batches that the kill lands with some committed and most still to write.
    assert report.books > 4 * COMMITTED_BEFORE_KILL
    assert report.merged > 0  # books merged across sources are in the slice too
    return path


def _freeze_inside_a_write(
    process: subprocess.Popen[bytes],
    committed: Callable[[], int],
    writing: Callable[[], bool],
) -> int:
    """Stop the ingest once COMMITTED_BEFORE_KILL books are committed and it is mid-write.

    Returns the books committed while it is stopped: a stopped client commits nothing.
    """
    deadline = time.monotonic() + 300  # a loaded machine starts the process slowly
    while time.monotonic() < deadline:
        assert process.poll() is None, "ingest finished before it could be killed"
        if committed() >= COMMITTED_BEFORE_KILL:
            process.send_signal(signal.SIGSTOP)
            _, status = os.waitpid(process.pid, os.WUNTRACED)
            assert os.WIFSTOPPED(status), "ingest finished before it could be killed"
            if writing():
                return committed()
            process.send_signal(signal.SIGCONT)
        time.sleep(0.02)
    pytest.fail("the ingest was never caught inside a write transaction")


def _kill(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()


def _book_count(database: Path) -> int:
    if not database.exists():
        return 0
    try:
        with closing(sqlite3.connect(database, timeout=1)) as connection:
            return int(connection.execute("select count(*) from books").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _sqlite_write_open(database: Path) -> bool:
    """True while another connection holds the database's write lock (a write transaction)."""
    with closing(sqlite3.connect(database, timeout=0, isolation_level=None)) as connection:
        try:
            connection.execute("begin immediate")
        except sqlite3.OperationalError as error:
            assert "locked" in str(error), error
            return True
        connection.execute("rollback")
        return False


def test_kill_then_rerun_completes_to_the_same_catalog(
    books_slice: Path, tmp_path: Path, clean_catalog: Path
) -> None:
    env = {**os.environ, "LECTERN_DATA_DIR": str(tmp_path / "killed")}
    database = tmp_path / "killed" / "catalog.db"
    process = subprocess.Popen(
        _ingest_command(books_slice), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        committed = _freeze_inside_a_write(
            process, lambda: _book_count(database), lambda: _sqlite_write_open(database)
        )
    finally:
        _kill(process)
    partial = _book_count(database)
    # The open batch is gone, no part of it kept; only a kill inside its commit, once the
    # commit frame is in the WAL, keeps it whole.
    assert partial in (committed, committed + BATCH)
    assert partial >= COMMITTED_BEFORE_KILL

    with closing(sqlite3.connect(database)) as connection:
        assert connection.execute("pragma integrity_check").fetchone()[0] == "ok"
        # Transactions are per batch: no book lacks the rows written beside it.
        orphans = connection.execute(
            "select count(*) from books b where not exists "
            "(select 1 from book_sources s where s.book_id = b.id)"
        ).fetchone()[0]
        assert orphans == 0
        assert partial % BATCH == 0

    rerun = subprocess.run(
        _ingest_command(books_slice), env=env, capture_output=True, text=True, check=False
    )
    assert rerun.returncode == 0, rerun.stderr

    resumed = SqlAlchemyBookCatalog.from_url(f"sqlite:///{database}")
    reference = SqlAlchemyBookCatalog.from_url(f"sqlite:///{clean_catalog}")
    assert len(resumed.content_hashes()) == len(reference.content_hashes()) > partial
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


def _other_sessions(url: str, *, writing: bool) -> int:
    """Sessions on this database besides the asking one.

    With `writing`, only those waiting on their client inside a transaction that has written
    (PostgreSQL gives a transaction an id at its first write): with the client stopped,
    nothing can commit that transaction.
    """
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return int(
                connection.execute(
                    sa.text(
                        "select count(*) from pg_stat_activity where datname = current_database()"
                        " and pid <> pg_backend_pid()"
                        + (
                            " and state = 'idle in transaction' and backend_xid is not null"
                            if writing
                            else ""
                        )
                    )
                ).scalar_one()
            )
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_kill_on_postgresql_keeps_whole_batches_and_a_rerun_completes(
    books_slice: Path, tmp_path: Path, postgres_url: str, clean_catalog: Path
) -> None:
    env = {
        **os.environ,
        "LECTERN_DATA_DIR": str(tmp_path / "pg"),
        "LECTERN_CATALOG_URL": postgres_url,
    }
    process = subprocess.Popen(
        _ingest_command(books_slice), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        committed = _freeze_inside_a_write(
            process,
            lambda: _postgres_counts(postgres_url)[0],
            lambda: _other_sessions(postgres_url, writing=True) > 0,
        )
    finally:
        _kill(process)
    # The server rolls back the killed session's open transaction once it notices the
    # connection is gone: then only committed batches remain.
    deadline = time.monotonic() + 60
    while _other_sessions(postgres_url, writing=False) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _other_sessions(postgres_url, writing=False) == 0, "the killed session lingers"
    partial, orphans = _postgres_counts(postgres_url)
    assert partial == committed  # the batch it was writing was rolled back, no part kept
    assert partial >= COMMITTED_BEFORE_KILL
    assert orphans == 0
    assert partial % BATCH == 0  # whole batches of --batch-size, never a part of one

    rerun = subprocess.run(
        _ingest_command(books_slice), env=env, capture_output=True, text=True, check=False
    )
    assert rerun.returncode == 0, rerun.stderr

    resumed = SqlAlchemyBookCatalog.from_url(postgres_url)
    reference = SqlAlchemyBookCatalog.from_url(f"sqlite:///{clean_catalog}")
    # The same books with the same content on both databases: the re-run finished the job.
    assert len(resumed.content_hashes()) == len(reference.content_hashes()) > partial
    assert resumed.content_hashes() == reference.content_hashes()
    resumed.close()
    reference.close()
