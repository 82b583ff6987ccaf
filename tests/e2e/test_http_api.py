"""The HTTP API with real services (SQLite, bm25s, FAISS, ONNX) over the tiny catalog."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.collection_wiring import on_qdrant

pytestmark = pytest.mark.slow
HUNGER_GAMES = "9780439023481"


def _client(data_dir: Path, **settings: Any) -> TestClient:
    return TestClient(create_app(bootstrap(Settings(data_dir=data_dir, **settings))))


@pytest.fixture(scope="module")
def client(indexed_data_dir: Path) -> Iterator[TestClient]:
    with _client(indexed_data_dir) as test_client:
        yield test_client


def _problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["title"] and body["request_id"]
    assert "Traceback" not in response.text
    return body


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/health").json() == {"status": "ok", "version": "0.1.0"}
    ready = client.get("/health/ready").json()
    assert ready["status"] == "ok"
    components = ready["components"]
    assert components["catalog"]["count"] == 11
    assert components["vector_index"]["version"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert components["llm"]["version"] == "extractive-v1"


def test_search_with_explanations(client: TestClient) -> None:
    response = client.post(
        "/search",
        json={"text": "dystopian survival games", "max_results": 3, "use_explanations": True},
        headers={"X-Request-ID": "abc-123"},
    )
    assert response.status_code == 200, response.text
    assert response.headers["x-request-id"] == "abc-123"
    body = response.json()
    top = body["results"][0]
    assert top["book"]["isbn13"] == HUNGER_GAMES and top["rank"] == 1
    assert top["lexical_rank"] and top["vector_rank"] and not body["degraded"]
    explanation = top["explanation"]
    assert explanation["grounded"] and explanation["citations"]
    for citation in explanation["citations"]:
        field = top["book"][citation["field"]]
        text = ", ".join(field) if isinstance(field, list) else field
        assert citation["snippet"].casefold() in " ".join(text.split()).casefold()
    timings = body["timings"]
    assert timings["retrieval_ms"] > 0 and timings["explanation_ms"] is not None


def test_filters_books_similar_and_facets(client: TestClient) -> None:
    spanish = client.post("/search", json={"text": "novela", "filters": {"language": "es"}})
    assert all(r["book"]["language"] == "es" for r in spanish.json()["results"])
    book = client.get("/books/0-439-02348-3").json()
    assert book["title"] == "The Hunger Games" and book["isbn13"] == HUNGER_GAMES
    similar = client.get(f"/books/{book['id']}/similar", params={"k": 3}).json()
    assert similar["results"] and all(r["book"]["id"] != book["id"] for r in similar["results"])
    facets = client.get("/facets").json()
    assert {"value": "en", "count": 3} in facets["languages"] and facets["categories"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"text": ""}, "text"),
        ({"text": "x", "max_results": 0}, "max_results"),
        ({"text": "x", "max_results": 101}, "max_results"),
        ({"text": "x", "mmr_lambda": 2}, "mmr_lambda"),
        ({"text": "x", "strategy": "random"}, "strategy"),
        ({"text": "x", "filters": {"min_year": "soon"}}, "filters.min_year"),
        ({"text": "x", "filters": {"max_pages": 0}}, "filters.max_pages"),
        ({"text": "x", "filters": {"min_pages": 10_001}}, "filters.min_pages"),
        ({"text": "x", "filters": {"exclude_authors": "King"}}, "filters.exclude_authors"),
        ({"text": "x", "filters": {"exclude_titles": [""]}}, "filters.exclude_titles.0"),
        ({"text": "x", "surprise": 1}, "surprise"),
        ({}, "text"),
    ],
)
def test_invalid_bodies_name_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    problem = _problem(client.post("/search", json=body), 422)
    assert field in problem["detail"] and any(e["field"] == field for e in problem["errors"])


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"text": "   \u0000 "}, "empty"),
        ({"text": "x", "filters": {"min_year": 2010, "max_year": 2000}}, "after max_year"),
        ({"text": "x", "filters": {"category": "no such topic"}}, "unknown category"),
        ({"text": "x", "filters": {"language": "klingon"}}, "unknown language"),
        ({"text": "x", "filters": {"min_pages": 400, "max_pages": 300}}, "more than max_pages"),
        (
            {"text": "x", "filters": {"category": "fantasy", "exclude_categories": ["Fantasy"]}},
            "asked for and excluded",
        ),
        (
            {"text": "x", "filters": {"category": "young adult", "exclude_youth": True}},
            "young readers",
        ),
    ],
)
def test_domain_errors_are_problems(client: TestClient, body: dict[str, Any], needle: str) -> None:
    assert needle in _problem(client.post("/search", json=body), 422)["detail"]


def test_malformed_and_hostile_requests(client: TestClient) -> None:
    _problem(
        client.post("/search", content=b"{not json", headers={"content-type": "application/json"}),
        422,
    )
    _problem(
        client.post(
            "/search", content=b"\xff\xfe\x00", headers={"content-type": "application/json"}
        ),
        400,
    )
    _problem(client.post("/search", json=["a list"]), 422)
    _problem(client.post("/search", json={"text": "x" * 200_000}), 413)
    _problem(client.get("/books/'; drop table books; --"), 404)
    _problem(client.get("/books/9780306406157"), 404)
    _problem(client.get("/books/9780306406157/similar"), 404)
    _problem(client.get(f"/books/{HUNGER_GAMES}/similar", params={"k": 0}), 422)
    _problem(client.get("/nowhere"), 404)
    _problem(client.delete("/search"), 405)
    long_query = client.post("/search", json={"text": "hunger games " * 700})
    assert long_query.status_code == 200  # 9,100 characters: accepted, cut to 1,000


def test_metrics_count_requests(client: TestClient) -> None:
    client.get("/health")
    text = client.get("/metrics").text
    assert (
        'lectern_http_request_duration_seconds_bucket{le="0.1",method="GET",route="/health"' in text
    )
    assert "lectern_llm_calls_total" in text


def test_api_keys(indexed_data_dir: Path) -> None:
    with _client(indexed_data_dir, api_keys="k1,k2") as client:
        assert client.get("/health").status_code == 200
        assert client.get("/health/ready").status_code == 200
        problem = _problem(client.post("/search", json={"text": "hunger"}), 401)
        assert "X-API-Key" in problem["detail"]
        _problem(client.get("/facets", headers={"X-API-Key": "wrong"}), 401)
        _problem(client.get("/metrics"), 401)
        ok = client.post("/search", json={"text": "hunger"}, headers={"X-API-Key": "k2"})
        assert ok.status_code == 200
        assert client.get("/").status_code == 200  # the page itself is public


def test_rate_limits(indexed_data_dir: Path) -> None:
    with _client(indexed_data_dir, rate_limit="3/minute") as client:
        codes = [client.get("/facets").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        limited = client.get("/facets")
        _problem(limited, 429)
        assert int(limited.headers["Retry-After"]) > 0
        assert client.get("/health").status_code == 200  # never limited


def test_not_ready_without_indexes(tmp_path: Path, indexed_data_dir: Path) -> None:
    data = tmp_path / "var"
    shutil.copytree(indexed_data_dir, data, ignore=shutil.ignore_patterns("index", "qdrant"))
    with _client(data) as client:
        ready = client.get("/health/ready")
        assert ready.status_code == 503 and ready.json()["status"] == "down"
        problem = _problem(client.post("/search", json={"text": "hunger"}), 503)
        assert "lectern index" in problem["detail"]
        assert client.get("/books/0439023483").status_code == 200  # the catalog still answers


def test_degraded_without_vectors(tmp_path: Path, indexed_data_dir: Path) -> None:
    if on_qdrant():
        pytest.skip("removes the FAISS folder; Qdrant's refusal is in test_qdrant_engine.py")
    data = tmp_path / "var"
    shutil.copytree(indexed_data_dir, data)
    shutil.rmtree(data / "index" / "catalog" / "vectors")
    with _client(data) as client:
        body = client.post("/search", json={"text": "hunger games"}).json()
        assert body["degraded"] and "lectern index" in body["degraded_reason"]
        assert (
            client.get("/health/ready").json()["components"]["vector_index"]["status"] == "degraded"
        )


def test_cors(indexed_data_dir: Path) -> None:
    with _client(indexed_data_dir, cors_origins="https://books.example") as client:
        preflight = client.options(
            "/search",
            headers={
                "Origin": "https://books.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
            },
        )
        assert preflight.headers["access-control-allow-origin"] == "https://books.example"
        other = client.get("/facets", headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_search_understands_the_words_and_can_ignore_parts(client: TestClient) -> None:
    body = {"text": "dystopian novels in English published after 2000", "understand": True}
    response = client.post("/search", json=body)
    assert response.status_code == 200, response.text
    plan = response.json()["plan"]
    assert plan["source"] == "rules-v2"
    assert plan["filters"] == {
        "language": "en",
        "min_year": 2001,
        "max_year": None,
        "min_pages": None,
        "max_pages": None,
        "exclude_categories": [],
        "exclude_authors": [],
        "exclude_titles": [],
        "exclude_youth": False,
    }
    assert plan["exclusions"] == []
    spans = {r["kind"]: r["text"] for r in plan["recognised"]}
    assert spans["language"] == "in English" and spans["years"] == "published after 2000"
    results = response.json()["results"]
    assert results and all(r["book"]["year"] > 2000 for r in results)
    ignored = client.post("/search", json={**body, "ignore": ["years"]}).json()
    assert ignored["plan"]["filters"]["min_year"] is None
    assert any("removed by the reader" in n for n in ignored["plan"]["notes"])
    assert client.post("/search", json={"text": "dystopian"}).json()["plan"] is None


def test_understanding_refuses_unknown_parts_to_ignore(client: TestClient) -> None:
    problem = _problem(
        client.post("/search", json={"text": "x", "understand": True, "ignore": ["mood"]}), 422
    )
    assert any(e["field"] == "ignore.0" for e in problem["errors"])


def test_search_takes_its_mmr_lambda_from_settings(indexed_data_dir: Path) -> None:
    body = {"text": "dystopian survival games", "max_results": 3}
    with _client(indexed_data_dir, mmr_lambda=0.35) as client:
        default = client.post("/search", json=body).json()
        given = client.post("/search", json={**body, "mmr_lambda": 0.9}).json()
        fused = client.post("/search", json={**body, "mmr_lambda": None}).json()
    assert default["mmr_lambda"] == 0.35
    assert given["mmr_lambda"] == 0.9
    assert fused["mmr_lambda"] is None


def test_pages_and_exclusions_over_http(client: TestClient) -> None:
    book = client.get("/books/0-439-02348-3").json()
    assert book["pages"] == 374
    facets = client.get("/facets").json()
    assert [300, 1] in facets["page_histogram"] and [1000, 1] in facets["page_histogram"]

    def search(**filters: Any) -> list[dict[str, Any]]:
        body = {"text": "the novel of a ring games", "filters": filters, "max_results": 20}
        response = client.post("/search", json=body)
        assert response.status_code == 200, response.text
        return [r["book"] for r in response.json()["results"]]

    everything = search()
    assert {"The Hunger Games", "The Lord of the Rings"} <= {b["title"] for b in everything}
    short = search(max_pages=400)
    assert all(b["pages"] is None or b["pages"] <= 400 for b in short)
    assert "The Lord of the Rings" not in {b["title"] for b in short}  # known: 1216 pages
    known = [b["pages"] is not None for b in short]
    assert known == sorted(known, reverse=True)  # known to fit first, unknown after
    assert all(
        "Suzanne Collins" not in b["authors"] for b in search(exclude_authors=["suzanne collins"])
    )
    assert all("young adult" not in b["categories"] for b in search(exclude_youth=True))
    assert all("Hunger" not in b["title"] for b in search(exclude_titles=["The Hunger Games"]))


def test_the_plan_shows_exclusions_and_the_reader_can_remove_them(client: TestClient) -> None:
    body = {
        "text": "dystopia for adults, not by Suzanne Collins, under 400 pages",
        "understand": True,
    }
    plan = client.post("/search", json=body).json()["plan"]
    assert plan["filters"]["exclude_youth"] and plan["filters"]["max_pages"] == 400
    assert plan["filters"]["exclude_authors"] == ["Suzanne Collins"]
    scopes = {(e["scope"], e["label"]) for e in plan["exclusions"]}
    assert scopes == {("audience", "young readers"), ("author", "Suzanne Collins")}
    kinds = {r["kind"] for r in plan["recognised"]}
    assert {"audience", "exclude", "pages"} <= kinds
    removed = client.post(
        "/search", json={**body, "ignore": ["not:Suzanne Collins", "pages"]}
    ).json()["plan"]
    assert removed["filters"]["exclude_authors"] == [] and removed["filters"]["max_pages"] is None
    assert removed["filters"]["exclude_youth"]
    assert any("not: Suzanne Collins" in n for n in removed["notes"])
    problem = _problem(client.post("/search", json={**body, "ignore": ["not:"]}), 422)
    assert any(e["field"] == "ignore.0" for e in problem["errors"])
