"""POST /evaluate and GET /evaluate/runs[/{id}] with the real services over the tiny catalog."""

from __future__ import annotations

import json
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.e2e.test_evaluate_cli import NEGATIVE, QUERIES
from tests.e2e.test_http_api import _problem

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def client(
    indexed_data_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    root = tmp_path_factory.mktemp("http-evaluate")
    shutil.copytree(indexed_data_dir, root / "var")
    data = root / "data"
    data.mkdir()
    (data / "test_queries.json").write_text(json.dumps(QUERIES), encoding="utf-8")
    (data / "negative_tests.json").write_text(json.dumps(NEGATIVE), encoding="utf-8")
    services = bootstrap(Settings(data_dir=root / "var", api_keys="k1"), evaluation_data=data)
    from lectern.application.evaluation.datasets import load_queries
    from lectern.application.evaluation.labelling import build_judgments

    judgments = build_judgments(
        services.search(), services.catalog, load_queries(data), None, version="t"
    )
    (data / "relevance_judgments.json").write_text(json.dumps(judgments), encoding="utf-8")
    with TestClient(create_app(services), headers={"X-API-Key": "k1"}) as test_client:
        yield test_client
        services.evaluation().close()


def _wait(client: TestClient, url: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        response = client.get(url)
        if response.status_code == 200:
            body: dict[str, Any] = response.json()
            return body
        assert response.status_code == 202 and response.json()["status"] == "running"
        time.sleep(0.2)
    raise AssertionError(f"{url} did not finish")


def test_start_poll_and_list_a_run(client: TestClient) -> None:
    started = client.post("/evaluate", json={"disable": ["mmr"], "judge_repeats": 2})
    assert started.status_code == 202, started.text
    body = started.json()
    assert body["status"] == "running" and started.headers["location"] == body["status_url"]
    assert uuid.UUID(body["run_id"]).version == 7
    finished = _wait(client, body["status_url"])
    assert finished["status"] == "finished" and finished["error"] is None
    artifact = finished["artifact"]
    assert artifact["run_id"] == body["run_id"] and artifact["config"]["label"] == "full -mmr"
    assert artifact["config"]["judge_repeats"] == 2
    assert artifact["aggregate"]["queries"] == 3
    runs = client.get("/evaluate/runs").json()
    assert runs[0]["run_id"] == body["run_id"] and runs[0]["negative_total"] == 3


def test_one_run_at_a_time(client: TestClient) -> None:
    first = client.post("/evaluate", json={})
    assert first.status_code == 202
    second = client.post("/evaluate", json={})
    if second.status_code == 202:  # the first one already finished: both are fine
        _wait(client, second.json()["status_url"])
    else:
        assert "still in progress" in _problem(second, 409)["detail"]
    _wait(client, first.json()["status_url"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"disable": ["rerank"]}, "disable.0"),
        ({"config": "fast"}, "config"),
        ({"judge_repeats": 11}, "judge_repeats"),
        ({"limit": 0}, "limit"),
        ({"force_strategy": "random"}, "force_strategy"),
        ({"unknown": 1}, "unknown"),
    ],
)
def test_bad_bodies_are_422_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    problem = _problem(client.post("/evaluate", json=body), 422)
    assert any(e["field"] == field for e in problem["errors"]), problem


def test_unknown_runs_are_404_and_keys_are_required(client: TestClient) -> None:
    assert (
        "no evaluation run"
        in _problem(client.get(f"/evaluate/runs/{uuid.UUID(int=3)}"), 404)["detail"]
    )
    assert "not a run id" in _problem(client.get("/evaluate/runs/not-a-uuid"), 404)["detail"]
    _problem(client.get("/evaluate/runs/..%2F..%2Fsecrets"), 404)  # no route: no file read
    _problem(client.get("/evaluate/runs", headers={"X-API-Key": "wrong"}), 401)
