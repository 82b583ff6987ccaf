"""Open Library and Google Books against a local server answering as their APIs document.

The answers follow the documented shapes: Open Library's Books API (`/api/books?bibkeys=
ISBN:...&format=json&jscmd=data`, `{}` for an unknown ISBN) and Search API (`/search.json`,
`{"numFound": n, "docs": [...]}`); Google Books' volumes API (`{"kind": "books#volumes",
"totalItems": n, "items": [...]}`, no `items` when nothing matches, `{"error": {...}}` with
429 when the quota is spent). Errors, empty answers and an HTML page stand in for outages.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from lectern.adapters.providers.google_books import GoogleBooksProvider
from lectern.adapters.providers.http import PoliteJsonClient
from lectern.adapters.providers.openlibrary import OpenLibraryProvider
from lectern.application.catalog_queries import find_book
from lectern.bootstrap import Services, bootstrap
from lectern.errors import InvalidQueryError, ProviderError, UnknownSourceError
from lectern.settings import Settings
from tests.e2e.test_cli import lectern

HUNGER_GAMES_OL = {
    "url": "https://openlibrary.org/books/OL23118544M/The_Hunger_Games",
    "key": "/books/OL23118544M",
    "title": "The Hunger Games",
    "authors": [
        {
            "url": "https://openlibrary.org/authors/OL1394359A/Suzanne_Collins",
            "name": "Suzanne Collins",
        }
    ],
    "number_of_pages": 374,
    "pagination": "374 p. ;",
    "identifiers": {
        "isbn_10": ["0439023483"],
        "isbn_13": ["9780439023481"],
        "openlibrary": ["OL23118544M"],
        "goodreads": ["2767052"],
    },
    "publishers": [{"name": "Scholastic Press"}],
    "publish_date": "2008",
    "subjects": [
        {"name": "Reality television programs", "url": "https://openlibrary.org/subjects/x"},
        {"name": "Survival", "url": "https://openlibrary.org/subjects/survival"},
        {"name": "Large type books", "url": "https://openlibrary.org/subjects/large_type_books"},
    ],
    "cover": {"medium": "https://covers.openlibrary.org/b/id/12646537-M.jpg"},
}
SEARCH_OL = {
    "numFound": 2,
    "start": 0,
    "numFoundExact": True,
    "docs": [
        {
            "key": "/works/OL5735363W",
            "title": "The Hunger Games",
            "author_name": ["Suzanne Collins"],
            "first_publish_year": 2008,
            "isbn": ["9780439023481", "0439023483", "9781407132082"],
            "language": ["eng"],
            "subject": ["Survival", "Dystopias"],
            "number_of_pages_median": 384,
            "cover_i": 12646537,
            "id_goodreads": ["2767052"],
        },
        {
            "key": "/works/OL17930368W",
            "title": "Station Eleven",
            "author_name": ["Emily St. John Mandel"],
            "first_publish_year": 2014,
            "isbn": ["9780385353304"],
            "language": ["eng"],
            "subject": ["Pandemics", "Actors", "Fiction"],
            "number_of_pages_median": 333,
        },
        {"key": "/works/OL1W"},
    ],
    "q": "dystopia",
    "offset": None,
}
VOLUME_GB = {
    "kind": "books#volumes",
    "totalItems": 1,
    "items": [
        {
            "kind": "books#volume",
            "id": "hlb_sM1AN0gC",
            "volumeInfo": {
                "title": "Gilead",
                "subtitle": "A Novel",
                "authors": ["Marilynne Robinson"],
                "publisher": "Farrar, Straus and Giroux",
                "publishedDate": "2004-11-04",
                "description": "<p>A preacher writes to his son.</p>",
                "industryIdentifiers": [
                    {"type": "ISBN_13", "identifier": "9780002005883"},
                    {"type": "ISBN_10", "identifier": "0002005883"},
                ],
                "pageCount": 0,
                "categories": ["Fiction / Literary"],
                "language": "en",
                "imageLinks": {"thumbnail": "http://books.google.com/books/content?id=hlb"},
            },
        },
        {
            "kind": "books#volume",
            "id": "fuzzy",
            "volumeInfo": {
                "title": "Gilead Study Guide",
                "industryIdentifiers": [{"type": "ISBN_13", "identifier": "9781111111113"}],
            },
        },
    ],
}
EMPTY_GB = {"kind": "books#volumes", "totalItems": 0}
QUOTA_GB = {
    "error": {
        "code": 429,
        "message": "Quota exceeded for quota metric 'Queries' of service 'books.googleapis.com'",
        "errors": [
            {"message": "Quota exceeded", "domain": "usageLimits", "reason": "rateLimitExceeded"}
        ],
        "status": "RESOURCE_EXHAUSTED",
    }
}
BAD_GB = {
    "error": {
        "code": 400,
        "message": "Invalid value at 'max_results'",
        "status": "INVALID_ARGUMENT",
    }
}

Answer = tuple[int, str, bytes]


def _json(status: int, body: object) -> Answer:
    return status, "application/json; charset=UTF-8", json.dumps(body).encode()


@dataclass
class Server:
    url: str
    requests: list[tuple[str, dict[str, list[str]]]] = field(default_factory=list)
    flaky: int = 0
    """Answer 503 to this many requests first."""


def _route(server: Server, path: str, query: dict[str, list[str]]) -> Answer:
    if server.flaky > 0:
        server.flaky -= 1
        return 503, "text/html", b"<html><body>Service Unavailable</body></html>"
    q = query.get("q", [""])[0]
    if path == "/ol/api/books":
        key = query.get("bibkeys", [""])[0]
        return _json(200, {key: HUNGER_GAMES_OL} if key == "ISBN:9780439023481" else {})
    if path == "/ol/search.json":
        if q == "down":
            return 500, "text/html", b"<html>Internal Server Error</html>"
        if q == "html":
            return 200, "text/html", b"<!doctype html><title>Open Library</title>"
        if q == "nothing":
            return _json(200, {"numFound": 0, "start": 0, "docs": []})
        return _json(200, SEARCH_OL)
    if path == "/gb/volumes":
        if q == "quota":
            return _json(429, QUOTA_GB)
        if q == "bad":
            return _json(400, BAD_GB)
        if q in ("isbn:9780002005883", "gilead"):
            return _json(200, VOLUME_GB)
        return _json(200, EMPTY_GB)
    return 404, "application/json", b'{"error": "notfound"}'


@pytest.fixture
def server() -> Iterator[Server]:
    state = Server("")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            del format, args

        def do_GET(self) -> None:  # noqa: N802
            parts = urlsplit(self.path)
            query = parse_qs(parts.query)
            state.requests.append((parts.path, query))
            status, content_type, body = _route(state, parts.path, query)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield state
    httpd.shutdown()
    httpd.server_close()


def _client(server: Server, prefix: str, **kw: object) -> PoliteJsonClient:
    options: dict[str, object] = {"min_interval": 0.0, "attempts": 3, "timeout": 5.0, **kw}
    return PoliteJsonClient(
        server.url + prefix,
        name=prefix.strip("/"),
        sleep=lambda _: None,
        **options,  # type: ignore[arg-type]
    )


def test_open_library_by_isbn_is_normalised_like_a_source(server: Server) -> None:
    provider = OpenLibraryProvider(_client(server, "/ol"))
    (record,) = provider.by_isbn("978-0-439-02348-1")
    assert record.source == "openlibrary" and record.source_id == "OL23118544M"
    assert record.title == "The Hunger Games" and record.authors == ("Suzanne Collins",)
    assert (record.isbn13, record.isbn10, record.goodreads_id) == (
        "9780439023481",
        "0439023483",
        "2767052",
    )
    assert record.pages == 374 and record.published_year == 2008
    assert "reality television programs" in record.categories
    assert "large type books" not in record.categories  # a format, not a topic
    assert record.metadata["publisher"] == "Scholastic Press"
    assert provider.by_isbn("0000000000") == []  # the documented `{}`
    assert server.requests[0][1]["jscmd"] == ["data"]


def test_open_library_search_keeps_one_isbn_per_work(server: Server) -> None:
    records = OpenLibraryProvider(_client(server, "/ol")).search("dystopia", 5)
    assert [r.source_id for r in records] == ["OL5735363W", "OL17930368W"]  # no title: skipped
    hunger = records[0]
    assert hunger.isbn13 == "9780439023481" and hunger.extra_isbn13s == ()
    assert hunger.language == "en" and hunger.pages == 384
    assert hunger.metadata["cover_url"] == "https://covers.openlibrary.org/b/id/12646537-M.jpg"
    assert OpenLibraryProvider(_client(server, "/ol")).search("nothing", 5) == []
    assert server.requests[0][1]["limit"] == ["5"]


def test_google_books_by_isbn_drops_fuzzy_matches_and_impossible_pages(server: Server) -> None:
    provider = GoogleBooksProvider(_client(server, "/gb"), api_key="k3y")
    (record,) = provider.by_isbn("9780002005883")
    assert record.source == "google-books" and record.source_id == "hlb_sM1AN0gC"
    assert record.subtitle == "A Novel" and record.description == "A preacher writes to his son."
    assert record.pages is None and "pages_zero" in record.dropped
    assert record.published_year == 2004 and record.language == "en"
    assert record.categories == ("fiction", "literary")
    assert server.requests[0][1]["key"] == ["k3y"] and server.requests[0][1]["q"] == [
        "isbn:9780002005883"
    ]
    assert provider.by_isbn("9999999999994") == []  # totalItems 0, no items
    assert [r.title for r in provider.search("gilead", 10)] == ["Gilead", "Gilead Study Guide"]


def test_transient_errors_are_retried_and_then_reported(server: Server) -> None:
    server.flaky = 2
    assert OpenLibraryProvider(_client(server, "/ol")).by_isbn("9780439023481")
    assert len(server.requests) == 3  # two 503s, then the answer
    with pytest.raises(ProviderError, match=r"failed after 3 attempts: HTTP 500"):
        OpenLibraryProvider(_client(server, "/ol")).search("down", 5)
    with pytest.raises(ProviderError, match="Quota exceeded"):
        GoogleBooksProvider(_client(server, "/gb")).search("quota", 5)


def test_other_errors_fail_at_once_with_what_the_provider_said(server: Server) -> None:
    before = len(server.requests)
    with pytest.raises(ProviderError, match=r"HTTP 400 Invalid value at 'max_results'"):
        GoogleBooksProvider(_client(server, "/gb")).search("bad", 5)
    assert len(server.requests) == before + 1  # no retry for a 400
    with pytest.raises(ProviderError, match="did not answer JSON"):
        OpenLibraryProvider(_client(server, "/ol")).search("html", 5)


class _FakeTime:
    """A clock that moves only when the client sleeps or the test says so.

    The server's arrival times wobble by scheduling on a loaded machine (CI saw a 0.188 s
    gap for a 0.2 s interval), so the spacing is read from the client's own clock.
    """

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_requests_are_spaced_by_the_polite_interval(server: Server) -> None:
    fake = _FakeTime()
    client = PoliteJsonClient(
        server.url + "/ol",
        name="openlibrary",
        min_interval=0.2,
        sleep=fake.sleep,
        clock=fake.clock,
    )
    provider = OpenLibraryProvider(client)
    for _ in range(3):
        provider.by_isbn("9780439023481")
    assert len(server.requests) == 3
    assert fake.sleeps == [pytest.approx(0.2), pytest.approx(0.2)]
    fake.now += 0.15  # part of the interval already passed: only the rest is waited
    provider.by_isbn("9780439023481")
    assert fake.sleeps[-1] == pytest.approx(0.05)
    fake.now += 5.0  # a request long after the last one does not wait at all
    provider.by_isbn("9780439023481")
    assert len(fake.sleeps) == 3 and len(server.requests) == 5


def _services(server: Server, tiny_mirror: Path, tmp_path: Path) -> Services:
    settings = Settings(
        data_dir=tmp_path / "var",
        data_mirror=tiny_mirror,
        openlibrary_url=server.url + "/ol",
        google_books_url=server.url + "/gb",
        provider_min_interval=0.0,
    )
    return bootstrap(settings)


def test_provider_records_merge_into_the_catalog_with_provenance(
    server: Server, tiny_mirror: Path, tmp_path: Path
) -> None:
    services = _services(server, tiny_mirror, tmp_path)
    services.ingestion().ingest()
    report = services.provider_ingestion().ingest(
        "openlibrary", isbns=["9780439023481", "0000000000"], query="dystopia", limit=5
    )
    assert report.fetched == 3 and report.new_records == 3 and report.not_found == ["0000000000"]
    assert report.ingest is not None and report.ingest.rows_read["openlibrary"] == 3
    catalog = services.catalog
    hunger = find_book(catalog, "9780439023481").entry
    sources = {s.source for s in hunger.sources}
    assert {"goodbooks-10k", "7k-books", "goodreads-openlibrary", "openlibrary"} <= sources
    assert ("categories", "openlibrary") in {(p.field, p.source) for p in hunger.provenance}
    assert "reality television programs" in hunger.book.categories
    assert hunger.book.pages == 374  # the richest record keeps its count
    station = find_book(catalog, "9780385353304").entry.book  # a book the sources lack
    assert station.title == "Station Eleven" and station.source == "openlibrary"
    # A later ingest of the sources alone keeps what the provider brought.
    fresh = _services(server, tiny_mirror, tmp_path)
    again = fresh.ingestion().ingest()
    assert again.rows_read["openlibrary"] == 3 and again.updated == 0
    assert find_book(fresh.catalog, "9780385353304")


def test_provider_ingest_refuses_what_it_cannot_do(
    server: Server, tiny_mirror: Path, tmp_path: Path
) -> None:
    ingestion = _services(server, tiny_mirror, tmp_path).provider_ingestion()
    with pytest.raises(UnknownSourceError, match="known providers: openlibrary, google-books"):
        ingestion.ingest("amazon", query="x")
    with pytest.raises(InvalidQueryError, match="--isbn or a --query"):
        ingestion.ingest("openlibrary")
    with pytest.raises(InvalidQueryError, match="not a valid ISBN"):
        ingestion.ingest("openlibrary", isbns=["12345"])
    assert server.requests == []


def test_lectern_ingest_provider_from_the_command_line(server: Server, tiny_mirror: Path) -> None:
    env = {"LECTERN_OPENLIBRARY_URL": server.url + "/ol", "LECTERN_PROVIDER_MIN_INTERVAL": "0"}
    mirror = ("--mirror", str(tiny_mirror))
    result = lectern(
        "ingest", *mirror, "--provider", "openlibrary", "--isbn", "9780439023481", env=env
    )
    assert result.returncode == 0, result.stderr
    assert "openlibrary: asked ISBN 9780439023481; 1 records fetched, 1 new" in result.stdout
    shown = lectern("catalog", "show", "9780439023481", "--json", env=env)
    sources = {s["source"] for s in json.loads(shown.stdout)["sources"]}
    assert "openlibrary" in sources
    alone = lectern("ingest", *mirror, "--isbn", "9780439023481", env=env)
    assert alone.returncode == 2 and "need --provider" in alone.stderr
    down = lectern("ingest", *mirror, "--provider", "openlibrary", "--query", "down", env=env)
    assert down.returncode == 1 and "failed after 3 attempts" in down.stderr
    assert "Traceback" not in down.stderr
