"""Readiness names every server it depends on, with status and latency; 503 when one is down."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lectern.adapters.probes import http_ready_probe
from lectern.bootstrap import bootstrap, qdrant_readiness_url
from lectern.entrypoints.http.app import create_app
from lectern.entrypoints.http.probe import free_port
from lectern.settings import Settings


def _ready(data_dir: Path, **settings: Any) -> tuple[int, dict[str, Any]]:
    with TestClient(create_app(bootstrap(Settings(data_dir=data_dir, **settings)))) as client:
        response = client.get("/health/ready")
    return response.status_code, response.json()


def test_the_database_is_checked_with_its_latency(indexed_data_dir: Path) -> None:
    status, body = _ready(indexed_data_dir)
    assert status == 200 and body["status"] == "ok"
    database = body["components"]["database"]
    assert database["status"] == "ok" and database["required"] is True
    assert database["detail"] in {"sqlite", "postgresql"}
    assert 0 <= database["latency_ms"] < 2_000
    # Without Redis or Qdrant configured, readiness does not invent them.
    assert not {"redis", "rate_limit_storage", "qdrant"} & set(body["components"])


def test_a_redis_nobody_listens_on_makes_the_service_unready(indexed_data_dir: Path) -> None:
    closed = f"redis://127.0.0.1:{free_port()}/0"
    status, body = _ready(indexed_data_dir, redis_url=closed, rate_limit_storage=closed)
    assert status == 503 and body["status"] == "down"
    redis = body["components"]["redis"]
    assert redis["status"] == "down" and redis["required"] is True
    assert "ConnectionError" in redis["detail"]
    # The same URL for limits is one server, checked once.
    assert "rate_limit_storage" not in body["components"]
    # Everything else still reports: the page says which part is down, not just "down".
    assert body["components"]["database"]["status"] == "ok"
    assert body["components"]["lexical_index"]["status"] == "ok"


def test_limits_on_a_dead_redis_are_reported_apart(indexed_data_dir: Path) -> None:
    status, body = _ready(indexed_data_dir, rate_limit_storage=f"redis://127.0.0.1:{free_port()}/0")
    assert status == 503
    assert body["components"]["rate_limit_storage"]["status"] == "down"
    assert "redis" not in body["components"]


@pytest.mark.redis
def test_the_real_redis_is_ready_with_its_version(indexed_data_dir: Path, redis_url: str) -> None:
    status, body = _ready(indexed_data_dir, redis_url=redis_url, rate_limit_storage=redis_url)
    assert status == 200, body
    redis = body["components"]["redis"]
    assert redis["status"] == "ok" and redis["detail"].startswith("redis ")
    assert 0 <= redis["latency_ms"] < 2_000


class _Readyz(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200 if self.path == "/readyz" else 404)
        self.end_headers()
        self.wfile.write(b"all shards are ready")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def readyz_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Readyz)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_qdrant_is_probed_only_when_it_is_the_engine_and_a_server(readyz_server: str) -> None:
    def settings(**values: object) -> Settings:
        return Settings.model_validate(values)

    assert qdrant_readiness_url(Settings()) is None
    assert qdrant_readiness_url(settings(engine="embedded", qdrant_url=readyz_server)) is None
    assert qdrant_readiness_url(settings(engine="qdrant", qdrant_url=":memory:")) is None
    assert qdrant_readiness_url(settings(engine="qdrant", qdrant_url="/var/qdrant")) is None
    url = qdrant_readiness_url(settings(engine="qdrant", qdrant_url=readyz_server + "/"))
    assert url == f"{readyz_server}/readyz"
    assert http_ready_probe(url)() is None
    with pytest.raises(Exception, match="404"):
        http_ready_probe(f"{readyz_server}/nope")()
    with pytest.raises(Exception, match="onnect"):
        http_ready_probe(f"http://127.0.0.1:{free_port()}/readyz")()
