"""Every response carries the security headers; unknown Host names are refused; a chunked
body over its limit is a 413 for the caller, the access log and the metrics alike."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings

pytestmark = pytest.mark.slow
HEADERS = ("content-security-policy", "x-content-type-options", "x-frame-options")


def _client(data_dir: Path, base_url: str = "http://testserver", **settings: Any) -> TestClient:
    return TestClient(
        create_app(bootstrap(Settings(data_dir=data_dir, **settings))), base_url=base_url
    )


@pytest.fixture(scope="module")
def client(indexed_data_dir: Path) -> Iterator[TestClient]:
    with _client(indexed_data_dir) as test_client:
        yield test_client


def _chunks(size: int, piece: int = 8_192) -> Iterator[bytes]:
    """A body without Content-Length (sent chunked), `size` bytes in all."""
    sent = 0
    while sent < size:
        chunk = b" " * min(piece, size - sent)
        sent += len(chunk)
        yield chunk


def _count(client: TestClient, route: str, status: int) -> float:
    prefix = (
        f'lectern_http_request_duration_seconds_count{{method="POST",route="{route}",'
        f'status="{status}"}} '
    )
    for line in client.get("/metrics").text.splitlines():
        if line.startswith(prefix):
            return float(line.removeprefix(prefix))
    return 0.0


@pytest.mark.parametrize(
    "method,path,expected",
    [
        ("GET", "/", 200),
        ("GET", "/workspace", 200),
        ("GET", "/static/app.js", 200),
        ("GET", "/health", 200),
        ("GET", "/nowhere", 404),
        ("POST", "/search", 422),
    ],
)
def test_every_response_carries_the_security_headers(
    client: TestClient, method: str, path: str, expected: int
) -> None:
    response = client.request(method, path, json={} if method == "POST" else None)
    assert response.status_code == expected
    policy = response.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_refusals_by_the_middleware_carry_them_too(client: TestClient) -> None:
    too_large = client.post("/search", content=b"x" * 70_000)
    assert too_large.status_code == 413
    assert all(name in too_large.headers for name in HEADERS)


def test_an_unknown_host_is_refused_and_configured_names_are_answered(
    indexed_data_dir: Path,
) -> None:
    with _client(indexed_data_dir, base_url="http://rebound.attacker.example") as rebound:
        refused = rebound.get("/lists")
        assert refused.status_code == 400
        assert all(name in refused.headers for name in HEADERS)
    for name in ("http://127.0.0.1:8000", "http://localhost", "http://[::1]:8000"):
        with _client(indexed_data_dir, base_url=name) as local:
            assert local.get("/health").status_code == 200, name
    with _client(
        indexed_data_dir,
        base_url="http://books.example.org",
        allowed_hosts="books.example.org,127.0.0.1",
    ) as named:
        assert named.get("/health").status_code == 200
    with _client(indexed_data_dir, base_url="http://anything.example", allowed_hosts="*") as any_:
        assert any_.get("/health").status_code == 200


def test_mcp_follows_the_allowed_hosts_unless_set_apart() -> None:
    settings = Settings(allowed_hosts="books.example.org,::1")
    assert settings.mcp_allowed_host_list == ["books.example.org:*", "[::1]:*"]
    assert Settings().mcp_allowed_host_list == ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    assert Settings(mcp_allowed_hosts="*").mcp_allowed_host_list == []


def test_a_chunked_body_over_the_limit_is_413_and_counted_as_413(client: TestClient) -> None:
    before_413 = _count(client, "/search", 413)
    before_500 = _count(client, "/search", 500)
    response = client.post(
        "/search", content=_chunks(200_000), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/problem+json"
    assert _count(client, "/search", 413) == before_413 + 1
    assert _count(client, "/search", 500) == before_500


def test_a_chunked_json_body_just_over_64_kib_is_413_not_400(client: TestClient) -> None:
    body = b'{"text": "' + b"a" * 65_600 + b'"}'
    response = client.post(
        "/search",
        content=iter([body[:30_000], body[30_000:]]),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413, response.text


def test_the_api_docs_load_everything_from_this_server(client: TestClient) -> None:
    # FastAPI's default /docs loads Swagger UI from a CDN: blank without network.
    page = client.get("/docs")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    assert "https://" not in page.text and "cdn" not in page.headers["content-security-policy"]
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        served = client.get(f"/static/swagger-ui/{asset}")
        assert served.status_code == 200 and len(served.content) > 10_000, asset
        assert f"/static/swagger-ui/{asset}" in page.text
    assert client.get("/openapi.json").json()["openapi"].startswith("3.1")
