"""The checked downloader against a local HTTP server serving the real source files."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from lectern.adapters.sources.fetch import HttpSourceFetcher, sha256_of
from lectern.adapters.sources.registry import SEVEN_K_BOOKS
from lectern.errors import ChecksumMismatchError, SourceError


@dataclass
class ServerState:
    root: Path
    requests: list[tuple[str, str | None]] = field(default_factory=list)
    fail_first: int = 0
    corrupt: bool = False


def _handler(state: ServerState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            del format, args

        def do_GET(self) -> None:  # noqa: N802
            state.requests.append((self.path, self.headers.get("Range")))
            if state.fail_first > 0:
                state.fail_first -= 1
                self.send_error(503)
                return
            path = state.root / self.path.lstrip("/")
            if not path.is_file():
                self.send_error(404)
                return
            body = path.read_bytes()
            if state.corrupt:
                body = body.replace(b"a", b"e", 1)
            start = 0
            header = self.headers.get("Range")
            if header and header.startswith("bytes="):
                start = int(header[6:].split("-")[0])
                if start >= len(body):
                    self.send_response(416)
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            self.send_header("Content-Length", str(len(body) - start))
            self.end_headers()
            self.wfile.write(body[start:])

    return Handler


@pytest.fixture
def server(shared_books: Path) -> Iterator[tuple[str, ServerState]]:
    state = ServerState(shared_books)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", state
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_download_checks_the_pinned_checksum_and_reuses_the_file(
    server: tuple[str, ServerState], tmp_path: Path
) -> None:
    base, state = server
    fetcher = HttpSourceFetcher(tmp_path, base_url=base)
    paths = fetcher.fetch([SEVEN_K_BOOKS])
    target = paths[SEVEN_K_BOOKS.path]
    assert sha256_of(target) == SEVEN_K_BOOKS.sha256
    assert not target.with_name("books.csv.part").exists()
    assert len(state.requests) == 1
    fetcher.fetch([SEVEN_K_BOOKS])
    assert len(state.requests) == 1  # verified file on disk: no second download


def test_a_partial_download_is_resumed_with_a_range_request(
    server: tuple[str, ServerState], tmp_path: Path, shared_books: Path
) -> None:
    base, state = server
    original = (shared_books / SEVEN_K_BOOKS.path).read_bytes()
    partial = tmp_path / "7k-books" / "books.csv.part"
    partial.parent.mkdir(parents=True)
    partial.write_bytes(original[:100_000])
    paths = HttpSourceFetcher(tmp_path, base_url=base).fetch([SEVEN_K_BOOKS])
    assert state.requests == [("/7k-books/books.csv", "bytes=100000-")]
    assert paths[SEVEN_K_BOOKS.path].read_bytes() == original


def test_corrupt_content_is_discarded_and_reported(
    server: tuple[str, ServerState], tmp_path: Path
) -> None:
    base, state = server
    state.corrupt = True
    with pytest.raises(ChecksumMismatchError, match="expected 64a19afd3df7"):
        HttpSourceFetcher(tmp_path, base_url=base).fetch([SEVEN_K_BOOKS])
    assert not (tmp_path / SEVEN_K_BOOKS.path).exists()
    assert not (tmp_path / "7k-books" / "books.csv.part").exists()


def test_transient_errors_are_retried(server: tuple[str, ServerState], tmp_path: Path) -> None:
    base, state = server
    state.fail_first = 2
    paths = HttpSourceFetcher(tmp_path, base_url=base).fetch([SEVEN_K_BOOKS])
    assert sha256_of(paths[SEVEN_K_BOOKS.path]) == SEVEN_K_BOOKS.sha256
    assert len(state.requests) == 3


def test_a_missing_file_is_a_clear_error(server: tuple[str, ServerState], tmp_path: Path) -> None:
    base, state = server
    state.root = tmp_path / "empty"
    with pytest.raises(SourceError, match="cannot download 7k-books/books.csv"):
        HttpSourceFetcher(tmp_path / "out", base_url=base).fetch([SEVEN_K_BOOKS])


def test_an_unreachable_host_is_a_clear_error(tmp_path: Path) -> None:
    fetcher = HttpSourceFetcher(tmp_path, base_url="http://127.0.0.1:9", attempts=1, timeout=2)
    with pytest.raises(SourceError, match="cannot download"):
        fetcher.fetch([SEVEN_K_BOOKS])


def test_default_urls_are_the_pinned_upstream_commits() -> None:
    fetcher = HttpSourceFetcher(Path("unused"))
    url = fetcher.url_for(SEVEN_K_BOOKS)
    assert url.startswith("https://raw.githubusercontent.com/tharu280/")
    assert "7bcb62839c01bf1e47121c52c84ed0e31fb3db87" in url
