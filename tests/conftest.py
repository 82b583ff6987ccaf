"""Shared fixtures: the real data mirror, a tiny hand-made mirror, server checks."""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("LECTERN_SHARED_DATA", ROOT.parent / "shared" / "data"))
"""The shared data sets (`../shared/data` beside the clone; LECTERN_SHARED_DATA elsewhere, as
for the benchmarks, e.g. from a git worktree)."""
SHARED_BOOKS = Path(os.environ.get("LECTERN_TEST_BOOKS", SHARED_DATA / "books"))
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
POSTGRES_SERVER = os.environ.get(
    "LECTERN_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432"
)
"""The PostgreSQL server (no database name) that `--database postgres` runs the suite on."""


ENGINES = ("embedded", "qdrant")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--engine",
        choices=ENGINES,
        default="embedded",
        help="retrieval engine for the tests that build indexes: qdrant runs them on "
        "qdrant-client's local mode (LECTERN_ENGINE=qdrant, a folder in the test's data dir)",
    )
    parser.addoption(
        "--database",
        choices=["sqlite", "postgres"],
        default=os.environ.get("LECTERN_TEST_DATABASE", "sqlite"),
        help="where the catalog, collections, actions and workspace live in the tests: SQLite "
        "files (default) or a fresh schema per test in one PostgreSQL database per session",
    )


class _PostgresSuite:
    """One database for the session; a schema per catalog path, so each test starts empty."""

    def __init__(self) -> None:
        import sqlalchemy as sa

        self._sa = sa
        self.database = f"lectern_suite_{uuid.uuid4().hex[:10]}"
        self._admin = sa.create_engine(f"{POSTGRES_SERVER}/postgres", isolation_level="AUTOCOMMIT")
        with self._admin.connect() as connection:
            connection.execute(sa.text(f'create database "{self.database}"'))
        self._suite = sa.create_engine(
            f"{POSTGRES_SERVER}/{self.database}", isolation_level="AUTOCOMMIT"
        )
        self._schemas: set[str] = set()

    def url_for(self, path: Path) -> str:
        """The same path always gives the same schema (a 'restart' reopens its data).

        A SQLite catalog already at `path` (a data directory a session fixture built, then
        copied for a test) is copied into the new schema by `lectern migrate`'s own copy, so
        the test runs on PostgreSQL with the same rows.
        """
        schema = "t_" + hashlib.sha256(str(path).encode()).hexdigest()[:20]
        url = f"{POSTGRES_SERVER}/{self.database}?options=-csearch_path%3D{schema}"
        if schema not in self._schemas:
            with self._suite.connect() as connection:
                connection.execute(self._sa.text(f'create schema if not exists "{schema}"'))
            self._schemas.add(schema)
            if path.is_file():
                from lectern.adapters.catalog.copy import copy_catalog

                source, target = (
                    self._sa.create_engine(f"sqlite:///{path}"),
                    self._sa.create_engine(url),
                )
                copy_catalog(source, target)
                source.dispose()
                target.dispose()
        return url

    def close(self) -> None:
        sa = self._sa
        self._suite.dispose()
        with self._admin.connect() as connection:
            connection.execute(
                sa.text(
                    "select pg_terminate_backend(pid) from pg_stat_activity where datname = :n"
                ),
                {"n": self.database},
            )
            connection.execute(sa.text(f'drop database if exists "{self.database}"'))
        self._admin.dispose()


_POSTGRES_SUITE: list[_PostgresSuite] = []


def _threads_per_worker() -> int | None:
    """Under xdist, this machine's cores split between the workers (None outside xdist).

    Each worker's ONNX Runtime and OpenMP would otherwise start a thread per core, and two
    workers on two cores would run four busy threads: the same split `lectern serve
    --workers` makes.
    """
    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")
    if not workers:
        return None
    return max(1, (os.cpu_count() or 1) // int(workers))


def pytest_configure(config: pytest.Config) -> None:
    if (threads := _threads_per_worker()) is not None:
        os.environ.setdefault("OMP_NUM_THREADS", str(threads))  # before numpy and FAISS load
    # Session fixtures (an indexed data dir shared by a module) are built before the
    # per-test environment: they must see the engine too.
    if config.getoption("--engine") != "embedded":
        os.environ["LECTERN_ENGINE"] = config.getoption("--engine")
    if config.getoption("--database") == "postgres":
        import sqlalchemy as sa

        # Tests written for SQLite leave pooled connections to the garbage collector, which
        # closes them; psycopg warns when it does. The warning is about test hygiene, not
        # about the database, so the PostgreSQL run lets it pass.
        for pattern in (
            "ignore:.*was deleted while still open:ResourceWarning",
            "ignore::pytest.PytestUnraisableExceptionWarning",
        ):
            config.addinivalue_line("filterwarnings", pattern)

        try:
            _POSTGRES_SUITE.append(_PostgresSuite())
        except sa.exc.OperationalError as error:
            raise pytest.UsageError(
                f"--database postgres: PostgreSQL is not reachable at {POSTGRES_SERVER} "
                f"({error.orig})"
            ) from error


def pytest_unconfigure(config: pytest.Config) -> None:  # noqa: ARG001 - pytest's signature
    if _POSTGRES_SUITE:
        import gc
        import warnings

        # The last engines left to the garbage collector go now; pytest reports such
        # leftovers once more at exit, outside any test, where the filters above do not apply.
        gc.collect()
        warnings.filterwarnings("ignore", category=pytest.PytestUnraisableExceptionWarning)
    while _POSTGRES_SUITE:
        _POSTGRES_SUITE.pop().close()


def _longest_files_first(items: list[pytest.Item]) -> None:
    """Order whole files: those holding tests marked slow first, then fewest tests first.

    With `--dist loadfile --no-loadscope-reorder` xdist hands files out in this order, one
    to each worker as it runs short of work: the long files start at once and the short
    ones fill the end, so both workers finish together. A file of one to four tests is
    mostly a real server, CLI or model run (the killed ingests and approvals, the ClapNQ
    harness, the workspace demo: 15 to 80 s each), a file of dozens mostly quick unit
    tests. (xdist's own order, most tests first, left the SIGKILLed ingests and approvals
    for last: one worker ran them alone for minutes.) Within a file the order is kept.
    """
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def weight(tests: list[pytest.Item]) -> tuple[bool, int]:
        return (not any(t.get_closest_marker("slow") for t in tests), len(tests))

    items[:] = [item for tests in sorted(files.values(), key=weight) for item in tests]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the files for the workers; refuse two tests with one node id.

    xdist's file scheduling keys its work by node id: two tests with one id would run as one.
    """
    _longest_files_first(items)
    seen = Counter(item.nodeid for item in items)
    shared = sorted(nodeid for nodeid, count in seen.items() if count > 1)
    if shared:
        raise pytest.UsageError(f"tests share a node id (xdist runs them as one): {shared[:5]}")


def catalog_url_for(path: Path) -> str:
    """The catalog URL a test should use for a catalog file at `path`.

    SQLite by default; with `--database postgres` (or LECTERN_TEST_DATABASE=postgres), a
    fresh PostgreSQL schema named after the path, so the same tests prove both databases.
    """
    if _POSTGRES_SUITE:
        return _POSTGRES_SUITE[0].url_for(path)
    return f"sqlite:///{path}"


def on_postgres() -> bool:
    """True when this run keeps the catalog on PostgreSQL (`--database postgres`)."""
    return bool(_POSTGRES_SUITE)


GOODBOOKS_HEADER = [
    "book_id",
    "goodreads_book_id",
    "best_book_id",
    "work_id",
    "books_count",
    "isbn",
    "isbn13",
    "authors",
    "original_publication_year",
    "original_title",
    "title",
    "language_code",
    "average_rating",
    "ratings_count",
    "work_ratings_count",
    "work_text_reviews_count",
    "ratings_1",
    "ratings_2",
    "ratings_3",
    "ratings_4",
    "ratings_5",
    "image_url",
    "small_image_url",
]
ENRICHED_HEADER = [*GOODBOOKS_HEADER, "dbpedia_resource", "genres", "book_series"]
SEVEN_K_HEADER = [
    "isbn13",
    "isbn10",
    "title",
    "subtitle",
    "authors",
    "categories",
    "thumbnail",
    "description",
    "published_year",
    "average_rating",
    "num_pages",
    "ratings_count",
]
GR_HEADER = [
    "bookID",
    "title",
    "authors",
    "average_rating",
    "isbn",
    "isbn13",
    "language_code",
    "# num_pages",
    "ratings_count",
    "text_reviews_count",
    "subjects",
    "cover_url",
    "publisher",
    "publish_date",
]

HUNGER_GAMES_DESCRIPTION = (
    "<p>In the ruins of a place once known as North America lies the nation of Panem.</p>"
    "<p>Sixteen-year-old Katniss Everdeen regards it as a death sentence when she steps "
    "forward to take her sister&#39;s place in the Games.</p>"
)


def _goodbooks_row(
    book_id: int, goodreads_id: str, isbn: str, authors: str, year: str, title: str, language: str
) -> dict[str, str]:
    row = dict.fromkeys(GOODBOOKS_HEADER, "")
    row.update(
        book_id=str(book_id),
        goodreads_book_id=goodreads_id,
        best_book_id=goodreads_id,
        work_id=str(1000 + book_id),
        isbn=isbn,
        isbn13="9.78043902348e+12",
        authors=authors,
        original_publication_year=year,
        original_title=title.split(" (")[0],
        title=title,
        language_code=language,
        average_rating="4.3",
        ratings_count="1000",
        image_url=f"https://images.example/{goodreads_id}.jpg",
    )
    return row


def write_csv(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)


def build_tiny_mirror(root: Path) -> Path:
    """A mirror in the three real formats: 6 goodbooks rows, 4 7k rows, 5 gr rows.

    The Hunger Games is in all three sources (same goodreads id and ISBN); goodbooks
    loses the ISBN's leading zero as the real file does.
    """
    goodbooks = [
        _goodbooks_row(
            1,
            "2767052",
            "439023483",
            "Suzanne Collins",
            "2008.0",
            "The Hunger Games (The Hunger Games, #1)",
            "eng",
        ),
        _goodbooks_row(
            2,
            "3",
            "439554934",
            "J.K. Rowling, Mary GrandPré (Illustrator)",
            "1997.0",
            "Harry Potter and the Sorcerer's Stone (Harry Potter, #1)",
            "en-US",
        ),
        _goodbooks_row(
            3, "5107", "", "Gabriel García Márquez", "1967.0", "Cien años de soledad", "spa"
        ),
        _goodbooks_row(
            4,
            "11",
            "123456788",
            "Douglas Adams",
            "1979.0",
            "The Hitchhiker's Guide to the Galaxy",
            "en-GB",
        ),
        _goodbooks_row(5, "999", "316015849", "", "", "", "eng"),  # no title: rejected
        _goodbooks_row(
            6, "4671", "743273567", "F. Scott Fitzgerald", "1925.0", "The Great Gatsby", "ger"
        ),
    ]
    write_csv(root / "goodbooks-10k/books.csv", GOODBOOKS_HEADER, goodbooks)
    enriched = [
        {**row, "genres": genres, "book_series": series}
        for row, genres, series in zip(
            goodbooks,
            ["Adventure novel,Science fiction", "Fantasy novel", "", "", "", "Novel"],
            ["The Hunger Games", "Harry Potter", "", "", "", ""],
            strict=True,
        )
    ]
    write_csv(root / "goodbooks-10k-tags/books_enriched.csv", ENRICHED_HEADER, enriched)
    tags = [
        ("1", "to-read"),
        ("2", "dystopian"),
        ("3", "young-adult"),
        ("4", "fantasy"),
        ("5", "read-in-2015"),
        ("6", "favorites"),
        ("7", "classics"),
        ("8", "hunger-games"),
        ("9", "survival"),
    ]
    write_csv(
        root / "goodbooks-10k-tags/tags_reduced.csv",
        ["tag_id", "tag_name"],
        [{"tag_id": i, "tag_name": n} for i, n in tags],
    )
    links = []
    for goodreads_id in ("2767052", "3", "5107", "11", "4671"):
        for tag_id, count in (
            ("1", 900),
            ("2", 500),
            ("3", 400),
            ("4", 300),
            ("5", 200),
            ("6", 150),
            ("7", 120),
        ):
            links.append(
                {
                    "tag_id": tag_id,
                    "book_id": "0",
                    "goodreads_book_id": goodreads_id,
                    "count": str(count),
                }
            )
    # Two rare shelves (on fewer than 10 books): one names the book, one is a topic.
    for tag_id in ("8", "9"):
        links.append(
            {"tag_id": tag_id, "book_id": "0", "goodreads_book_id": "2767052", "count": "110"}
        )
    # Repeat the common shelves on filler ids so that they are common in the tiny mirror too.
    for filler in range(100, 110):
        for tag_id in ("2", "3", "4", "7"):
            links.append(
                {"tag_id": tag_id, "book_id": "0", "goodreads_book_id": str(filler), "count": "100"}
            )
    write_csv(
        root / "goodbooks-10k-tags/book_tags_reduced.csv",
        ["tag_id", "book_id", "goodreads_book_id", "count"],
        links,
    )

    seven_k = [
        {
            "isbn13": "9780439023481",
            "isbn10": "0439023483",
            "title": "The Hunger Games",
            "subtitle": "",
            "authors": "Suzanne Collins",
            "categories": "Juvenile Fiction",
            "description": HUNGER_GAMES_DESCRIPTION,
            "published_year": "2010",
            "num_pages": "374",
        },
        {
            "isbn13": "9780002005883",
            "isbn10": "0002005883",
            "title": "Gilead",
            "subtitle": "A Novel",
            "authors": "Marilynne Robinson",
            "categories": "Fiction",
            "description": "A NOVEL THAT READERS and critics have been eagerly anticipating.",
            "published_year": "2004",
            "num_pages": "247",
        },
        {
            "isbn13": "9780000000000",
            "isbn10": "",
            "title": "Bad Check Digit",
            "subtitle": "",
            "authors": "Nobody Known",
            "categories": "Fiction",
            "description": "An ISBN that fails its check digit.",
            "published_year": "2001",
        },
        {
            "isbn13": "9780261102385",
            "isbn10": "0261102389",
            "title": "The Lord of the Rings",
            "subtitle": "",
            "authors": "J. R. R. Tolkien;Alan Lee (Illustrator)",
            "categories": "Fiction",
            "description": "One ring to rule them all.",
            "published_year": "1991",
            "num_pages": "1216",
        },
    ]
    write_csv(
        root / "7k-books/books.csv",
        SEVEN_K_HEADER,
        [{**dict.fromkeys(SEVEN_K_HEADER, ""), **row} for row in seven_k],
    )

    gr = [
        {
            "bookID": "2767052",
            "title": "The Hunger Games (The Hunger Games  #1)",
            "authors": "Suzanne Collins",
            "isbn": "0439023483",
            "isbn13": "9780439023481",
            "language_code": "eng",
            "subjects": "['Dystopias', 'Large type books', 'nyt:x=1']",
            "publish_date": "Sep 14, 2008",
            "publisher": "Scholastic",
            "# num_pages": "387",
        },
        {
            "bookID": "5107",
            "title": "Cien años de soledad",
            "authors": "Gabriel García Márquez",
            "isbn": "",
            "isbn13": "",
            "language_code": "spa",
            "subjects": "None",
            "publish_date": "2003",
        },
        {
            "bookID": "700",
            "title": "Huis clos",
            "authors": "Jean-Paul Sartre-Carol Cosman",
            "isbn": "2070368068",
            "isbn13": "9782070368068",
            "language_code": "fre",
            "subjects": "['Drama', 'Existentialism']",
            "publish_date": "1972",
            "# num_pages": "0",
        },
        {
            "bookID": "701",
            "title": "Das Parfum",
            "authors": "Patrick Süskind",
            "isbn": "3257228007",
            "isbn13": "9783257228007",
            "language_code": "ger",
            "subjects": "[broken",
            "publish_date": "1994-01",
            "# num_pages": "12000",
        },
        {
            "bookID": "702",
            "title": "Ancient Hymns",
            "authors": "Homer",
            "isbn": "12",
            "isbn13": "97800000",
            "language_code": "grc",
            "subjects": "[]",
            "publish_date": "",
        },
    ]
    write_csv(
        root / "goodreads-openlibrary/books.csv",
        GR_HEADER,
        [{**dict.fromkeys(GR_HEADER, ""), **row} for row in gr],
    )
    return root


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary folder of this run that every xdist worker of the run shares.

    Under xdist each worker's temporary root is `<run's root>/popen-gwN`, so the run's root
    is their parent; without xdist it is this process's own root (never pytest's folder
    above it, which other runs on the machine share).
    """
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]
) -> Path:
    """`build(folder)` once per run: the first worker to ask builds it, the others wait.

    What is built is read-only for the tests: a test (or a worker's session fixture) that
    writes copies it first. A build that failed is retried by the next worker that asks.
    """
    shared = run_folder(tmp_path_factory)
    folder = shared / name
    with FileLock(str(shared / f"{name}.lock")):
        if not (folder / ".built").is_file():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            build(folder)
            (folder / ".built").touch()
    return folder


@pytest.fixture
def tiny_mirror(tmp_path: Path) -> Path:
    return build_tiny_mirror(tmp_path / "mirror")


@pytest.fixture(scope="session")
def shared_books() -> Path:
    if not (SHARED_BOOKS / "goodbooks-10k" / "books.csv").is_file():
        if IN_CI:
            pytest.fail(f"the shared data sets are missing at {SHARED_BOOKS}")
        pytest.skip(f"the shared data sets are not at {SHARED_BOOKS}")
    return SHARED_BOOKS


_TEST_DATA_VARIABLES = {"LECTERN_TEST_BOOKS", "LECTERN_SHARED_DATA"}


def isolate_lectern_env(monkeypatch: pytest.MonkeyPatch, data_dir: Path, engine: str) -> None:
    """The environment a test's commands run in: none of the developer's LECTERN_* variables,
    the data directory `data_dir`, and `--engine`'s engine.

    `_isolated_env` gives every test this; a module fixture that runs commands once for its
    tests (under `pytest.MonkeyPatch.context()`) gives it to them too.
    """
    for name in list(os.environ):
        if name.startswith("LECTERN_") and name not in _TEST_DATA_VARIABLES:
            monkeypatch.delenv(name)
    monkeypatch.setenv("LECTERN_DATA_DIR", str(data_dir))
    # Upload jobs run on the serving process's threads in tests: a worker process would be
    # spawned (seconds) per test, and it cannot see what a test patched in this process
    # (the PostgreSQL schema per data dir below). tests/integration/test_upload_processes.py
    # runs the default, worker processes.
    monkeypatch.setenv("LECTERN_UPLOAD_RUNNER", "thread")
    if (threads := _threads_per_worker()) is not None:
        monkeypatch.setenv("LECTERN_EMBED_THREADS", str(threads))
    if engine != "embedded":
        monkeypatch.setenv("LECTERN_ENGINE", engine)


@pytest.fixture(autouse=True)
def _isolated_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[None]:
    """No test reads the developer's LECTERN_* variables or writes into ./var.

    With `--engine qdrant`, LECTERN_ENGINE=qdrant: every Settings built in the test (and the
    test helpers' own wiring) keeps its indexes in Qdrant local mode under its data dir.
    """
    engine = request.config.getoption("--engine")
    isolate_lectern_env(monkeypatch, tmp_path / "var", engine)
    if on_postgres():
        # Every data directory's default catalog becomes its own PostgreSQL schema, as each
        # has its own SQLite file otherwise. (A `lectern` subprocess does not see this: such
        # tests pass LECTERN_CATALOG_URL themselves.)
        from lectern.settings import Settings

        def resolved_catalog_url(settings: Settings) -> str:
            if settings.catalog_url:
                return settings.catalog_url
            return catalog_url_for((settings.data_dir / "catalog.db").resolve())

        monkeypatch.setattr(Settings, "resolved_catalog_url", property(resolved_catalog_url))
    yield
    if engine == "qdrant":
        from lectern.adapters.engines.qdrant_store import disconnect

        disconnect(under=str(tmp_path))  # local mode holds its folder open until closed


REDIS_URL = os.environ.get("LECTERN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def redis_url() -> str:
    """The machine's Redis server (a failure under CI when it is not there, a skip elsewhere)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        message = f"Redis is not reachable at {REDIS_URL} ({error})"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    finally:
        client.close()
    return REDIS_URL
