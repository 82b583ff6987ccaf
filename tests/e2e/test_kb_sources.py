"""Support-bot sources end to end: web pages from a local HTTP server (started here; no
internet) and a team folder, synced by `lectern kb sync`, answered by `lectern kb reply` with
`kb:<url>` and `team:` sources and a Links section. Conditional refreshes (ETag and
Last-Modified), and hostile input: an unreachable host, a PDF, a page over the size cap, a
404, traversal and symbolic links in team names."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import structlog
from typer.testing import CliRunner

from lectern.adapters.kb_web import HttpxWebPageFetcher
from lectern.bootstrap import Services, bootstrap
from lectern.domain.kb_sources import WebPage
from lectern.entrypoints.cli import answering as answering_cli
from lectern.entrypoints.cli.main import app as cli_app
from lectern.settings import Settings
from tests.collection_wiring import collection_service

RATE_LIMITS = """<!doctype html><html><head><title>Rate limits</title></head><body>
<nav><a href="/">Home</a> | <a href="/docs">Docs</a> | Sign in to comment</nav>
<main><h1>Rate limits</h1>
<p>Every client may make 300 requests a minute by default. Over the limit the API answers
429 Too Many Requests with a Retry-After header.</p></main>
<footer>Copyright 2026 Example Corp. Cookie settings.</footer></body></html>"""
API_KEYS = """<html><head><title>API keys</title></head><body><article><h1>API keys</h1>
<p>Send your key in the X-API-Key header. Keys map to users.</p></article></body></html>"""
TEAM_NOTE = """# Deploying

Restart the service with systemctl restart lectern after a configuration change. The
health check answers 503 until the indexes are loaded.
"""


class Site:
    """What the server serves and what it saw (request headers by path)."""

    def __init__(self) -> None:
        self.pages: dict[str, tuple[str, bytes, dict[str, str]]] = {
            "/docs/rate-limits": (
                "text/html; charset=utf-8",
                RATE_LIMITS.encode(),
                {"ETag": '"v1"'},
            ),
            "/docs/api-keys": (
                "text/html",
                API_KEYS.encode(),
                {"Last-Modified": "Mon, 02 Nov 2026 10:00:00 GMT"},
            ),
            "/docs/manual.pdf": ("application/pdf", b"%PDF-1.7 not a page", {}),
            "/docs/huge": (
                "text/html",
                b"<html><body><main>" + b"<p>word</p>" * 30_000 + b"</main></body></html>",
                {},
            ),
        }
        self.seen: list[tuple[str, dict[str, str]]] = []


def _handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server API
            site.seen.append((self.path, dict(self.headers)))
            page = site.pages.get(self.path)
            if page is None:
                self.send_error(404)
                return
            kind, body, validators = page
            etag = validators.get("ETag")
            modified = validators.get("Last-Modified")
            if (etag and self.headers.get("If-None-Match") == etag) or (
                modified and self.headers.get("If-Modified-Since") == modified
            ):
                self.send_response(304)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            for name, value in validators.items():
                self.send_header(name, value)
            if self.path != "/docs/huge":  # the huge page streams without a length
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            del format, args

    return Handler


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[Site, str]]:
    served = Site()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(served))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield served, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_conditional_refresh_and_hostile_pages(site: tuple[Site, str]) -> None:
    served, base = site
    fetcher = HttpxWebPageFetcher(max_bytes=100_000, timeout=2.0)
    first = fetcher.fetch(f"{base}/docs/rate-limits", None)
    assert first.outcome == "fetched" and first.page is not None
    assert "300 requests a minute" in first.page.text
    assert "Cookie settings" not in first.page.text and "Sign in" not in first.page.text
    assert first.page.title == "Rate limits" and first.page.etag == '"v1"'
    again = fetcher.fetch(f"{base}/docs/rate-limits", first.page)
    assert again.outcome == "not_modified" and again.page == first.page
    assert served.seen[-1][1].get("If-None-Match") == '"v1"'
    keys = fetcher.fetch(f"{base}/docs/api-keys", None)
    assert keys.page is not None and keys.page.last_modified
    assert fetcher.fetch(f"{base}/docs/api-keys", keys.page).outcome == "not_modified"
    assert served.seen[-1][1].get("If-Modified-Since") == keys.page.last_modified
    stored = WebPage(f"{base}/docs/manual.pdf", "old", "the old copy")
    pdf = fetcher.fetch(f"{base}/docs/manual.pdf", stored)
    assert pdf.outcome == "failed" and "not HTML (application/pdf)" in pdf.reason
    assert pdf.page == stored  # a failed refresh keeps the stored copy
    huge = fetcher.fetch(f"{base}/docs/huge", None)
    assert huge.outcome == "failed" and "cap" in huge.reason and huge.page is None
    missing = fetcher.fetch(f"{base}/docs/gone", None)
    assert missing.outcome == "failed" and missing.reason == "HTTP 404"
    down = fetcher.fetch(f"http://127.0.0.1:{_closed_port()}/", None)
    assert down.outcome == "failed" and "ConnectError" in down.reason
    fetcher.close()


@pytest.fixture
def sources(tmp_path: Path, site: tuple[Site, str]) -> Path:
    _, base = site
    folder = tmp_path / "sources"
    (folder / "team" / "ops").mkdir(parents=True)
    (folder / "team" / "ops" / "deploy.md").write_text(TEAM_NOTE, encoding="utf-8")
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\nThe root password is hunter2.\n", encoding="utf-8")
    (folder / "team" / "leak.md").symlink_to(secret)
    (folder / "sources.txt").write_text(
        "\n".join(
            [
                "# web pages, then team topics",
                f"kb:{base}/docs/rate-limits",
                f"kb:{base}/docs/api-keys",
                f"kb:{base}/docs/manual.pdf",
                f"kb:{base}/docs/huge",
                f"kb:http://127.0.0.1:{_closed_port()}/down",
                "team:ops/deploy.md",
                "team:leak.md",
                "team:../secret.md",
            ]
        ),
        encoding="utf-8",
    )
    return folder


def _services(data_dir: Path, sources: Path) -> Services:
    settings = Settings(
        data_dir=data_dir,
        ai_kb_collection="support",
        ai_min_relevance=0.15,
        # The answer check's relevance signal is calibrated on the packaged MiniLM's cosines;
        # these hashed vectors score 0.22 for an exact match (tests/integration/
        # test_fastapi_answers.py covers the check with the real model).
        ai_answer_check=False,
        kb_sources_dir=sources,
        kb_max_page_bytes=100_000,
        kb_fetch_timeout_seconds=2.0,
    )
    return bootstrap(settings, collections=collection_service(data_dir))


@pytest.fixture
def runner(tmp_path: Path, sources: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    monkeypatch.setenv("COLUMNS", "200")
    services = _services(tmp_path / "var", sources)
    monkeypatch.setattr(answering_cli, "_services", lambda: services)
    saved = structlog.get_config()
    yield CliRunner()
    structlog.configure(**saved)


def test_a_kb_from_web_pages_and_a_team_folder_answers_with_links(
    runner: CliRunner, site: tuple[Site, str]
) -> None:
    _, base = site
    synced = runner.invoke(cli_app, ["kb", "sync"])
    assert synced.exit_code == 0, synced.output
    assert f"kb:{base}/docs/rate-limits fetched" in synced.output
    assert "manual.pdf failed: not HTML" in synced.output
    assert "huge failed: larger than the 100,000-byte cap" in synced.output
    assert "/down failed: ConnectError" in synced.output
    assert "team:ops/deploy.md staged" in synced.output
    assert "symbolic link" in synced.output and "'../secret.md'" in synced.output
    web = runner.invoke(cli_app, ["kb", "reply", "Why do I get 429 Too Many Requests?", "--json"])
    assert web.exit_code == 0, web.output
    body = json.loads(web.stdout[web.stdout.index("{") :])
    assert body["should_reply"] is True, body
    assert body["citations"][0]["source_id"] == f"kb:{base}/docs/rate-limits"
    assert body["reply_text"].endswith(f"Links:\n- {base}/docs/rate-limits")
    team = runner.invoke(
        cli_app,
        ["kb", "reply", "How do I restart the service after a configuration change?", "--json"],
    )
    answer = json.loads(team.stdout[team.stdout.index("{") :])
    assert answer["should_reply"] is True, answer
    assert answer["citations"][0]["source_id"] == "team:ops/deploy.md"
    leaked = runner.invoke(cli_app, ["kb", "reply", "What is the root password?", "--json"])
    assert "hunter2" not in leaked.stdout
    resynced = runner.invoke(cli_app, ["kb", "sync"])
    assert f"kb:{base}/docs/rate-limits not_modified" in resynced.output
    assert f"kb:{base}/docs/api-keys not_modified" in resynced.output


def test_sync_without_a_sources_folder_says_which_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(data_dir=tmp_path, ai_kb_collection="support")
    services = bootstrap(settings, collections=collection_service(tmp_path))
    monkeypatch.setattr(answering_cli, "_services", lambda: services)
    result = CliRunner().invoke(cli_app, ["kb", "sync"])
    assert result.exit_code != 0 and "kb.sources_dir" in result.output
    missing = CliRunner().invoke(cli_app, ["kb", "sync", "--sources-dir", str(tmp_path / "nope")])
    assert missing.exit_code != 0 and "does not exist" in missing.output
