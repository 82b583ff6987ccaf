"""Rate limits and API keys: bucketed by who the caller really is, shared through Redis."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings

pytestmark = pytest.mark.slow
BODY = {"text": "dystopian survival games", "max_results": 1}


def _client(data_dir: Path, **settings: Any) -> TestClient:
    return TestClient(create_app(bootstrap(Settings(data_dir=data_dir, **settings))))


def _statuses(client: TestClient, keys: list[str | None], path: str = "/search") -> list[int]:
    statuses = []
    for key in keys:
        headers = {"X-API-Key": key} if key is not None else {}
        statuses.append(client.post(path, json=BODY, headers=headers).status_code)
    return statuses


def _made_up(n: int) -> list[str | None]:
    return [f"guess-{uuid.uuid4().hex}" for _ in range(n)]


def test_rotating_made_up_keys_share_the_address_limit_without_keys(
    indexed_data_dir: Path,
) -> None:
    with _client(indexed_data_dir, rate_limit="5/minute") as client:
        statuses = _statuses(client, _made_up(10))
    assert statuses[:5] == [200] * 5
    assert statuses[5:] == [429] * 5


def test_rotating_wrong_keys_are_limited_when_keys_are_configured(indexed_data_dir: Path) -> None:
    with _client(indexed_data_dir, rate_limit="5/minute", api_keys="alice:right-key") as client:
        statuses = _statuses(client, _made_up(10))
        refused = client.post("/search", json=BODY, headers={"X-API-Key": "another-guess"})
    assert statuses[:5] == [401] * 5
    assert statuses[5:] == [429] * 5
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.headers["content-type"] == "application/problem+json"


def test_failed_authentications_have_their_own_tighter_limit(indexed_data_dir: Path) -> None:
    with _client(
        indexed_data_dir,
        rate_limit="100/minute",
        auth_failure_limit="3/minute",
        api_keys="alice:right-key",
    ) as client:
        statuses = _statuses(client, _made_up(5))
        good = client.post("/search", json=BODY, headers={"X-API-Key": "right-key"})
    assert statuses == [401, 401, 401, 429, 429]
    assert "failed authentications" in client.post("/search", json=BODY).json()["detail"]
    # The key's owner is counted apart from the address the guesses came from.
    assert good.status_code == 200


def test_a_valid_key_has_its_own_bucket_and_names_its_user(indexed_data_dir: Path) -> None:
    with _client(
        indexed_data_dir, rate_limit="3/minute", api_keys="alice:key-a,bob:key-b"
    ) as client:
        alice = _statuses(client, ["key-a"] * 4)
        bob = _statuses(client, ["key-b"] * 3)
    assert alice == [200, 200, 200, 429]
    assert bob == [200, 200, 200]


def test_health_is_never_limited_or_locked(indexed_data_dir: Path) -> None:
    with _client(indexed_data_dir, rate_limit="1/minute", api_keys="k") as client:
        assert all(client.get("/health").status_code == 200 for _ in range(5))


@pytest.mark.redis
def test_two_workers_with_redis_storage_share_one_limit(
    indexed_data_dir: Path, redis_url: str
) -> None:
    # Two apps stand for two worker processes: each has its own limiter and connection;
    # only the Redis storage is shared. A fresh user per run keeps reruns independent.
    user, key = f"u{uuid.uuid4().hex[:12]}", uuid.uuid4().hex
    settings = {"rate_limit": "5/minute", "api_keys": f"{user}:{key}"}
    with (
        _client(indexed_data_dir, rate_limit_storage=redis_url, **settings) as first,
        _client(indexed_data_dir, rate_limit_storage=redis_url, **settings) as second,
    ):
        statuses = [
            (first if i % 2 == 0 else second)
            .post("/search", json=BODY, headers={"X-API-Key": key})
            .status_code
            for i in range(8)
        ]
    assert statuses == [200] * 5 + [429] * 3


def test_two_workers_with_memory_storage_count_apart(indexed_data_dir: Path) -> None:
    # What LECTERN_RATE_LIMIT_STORAGE=redis:// is for: per-process memory doubles the limit.
    with (
        _client(indexed_data_dir, rate_limit="2/minute") as first,
        _client(indexed_data_dir, rate_limit="2/minute") as second,
    ):
        statuses = _statuses(first, [None, None]) + _statuses(second, [None, None])
    assert statuses == [200] * 4


def test_unreachable_limit_storage_fails_closed(indexed_data_dir: Path) -> None:
    with _client(indexed_data_dir, rate_limit_storage="redis://127.0.0.1:1/0") as client:
        response = client.post("/search", json=BODY)
    assert response.status_code == 503
    assert "rate limit store" in response.json()["detail"]
