"""The search fallback through HTTP and the CLI, over the tiny catalog and real indexes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.e2e.test_cli import lectern
from tests.e2e.test_evaluate_cli import NEGATIVE, QUERIES

pytestmark = pytest.mark.slow
EXPLORING = "surprise me with wizards and magic"


def _search(data_dir: Path, body: dict[str, Any], **settings: Any) -> dict[str, Any]:
    app = create_app(bootstrap(Settings(data_dir=data_dir, **settings)))
    with TestClient(app) as client:
        response = client.post("/search", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_http_fallback_is_opt_in_and_reports_what_the_agent_did(indexed_data_dir: Path) -> None:
    plain = _search(indexed_data_dir, {"text": EXPLORING, "max_results": 3})
    assert plain["fallback"] is None
    body = _search(indexed_data_dir, {"text": EXPLORING, "max_results": 3, "fallback": True})
    fallback = body["fallback"]
    assert fallback["triggered"] and fallback["reasons"] == ["exploration_request"]
    assert fallback["model"] == "rules:search-fallback-v3" and fallback["error"] is None
    assert 1 <= len(fallback["tool_calls"]) <= 3
    assert {c["name"] for c in fallback["tool_calls"]} <= {"search_catalog", "get_similar_books"}
    assert fallback["first_ids"] == [r["book"]["id"] for r in plain["results"]]
    assert body["timings"]["stages"]["fallback_ms"] == fallback["latency_ms"]
    assert [r["rank"] for r in body["results"]] == list(range(1, len(body["results"]) + 1))


def test_the_setting_turns_it_on_and_a_request_can_turn_it_off(indexed_data_dir: Path) -> None:
    on = _search(indexed_data_dir, {"text": EXPLORING, "max_results": 3}, search_fallback=True)
    assert on["fallback"]["triggered"]
    off = _search(
        indexed_data_dir,
        {"text": EXPLORING, "max_results": 3, "fallback": False},
        search_fallback=True,
    )
    assert off["fallback"] is None


def test_cli_search_prints_the_fallback(indexed_data_dir: Path) -> None:
    env = {"LECTERN_DATA_DIR": str(indexed_data_dir)}
    result = lectern("search", EXPLORING, "--k", "3", "--fallback", "--json", env=env)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    report = lines[0]["fallback"]
    assert report["reasons"] == ["exploration_request"] and report["error"] is None
    assert all("book_id" in line for line in lines[1:]) and 1 <= len(lines) - 1 <= 3
    table = lectern("search", EXPLORING, "--k", "3", "--fallback", env=env)
    assert "Fallback (rules:search-fallback-v3): exploration_request" in table.stdout


def test_evaluate_fallback_reports_the_four_figures(indexed_data_dir: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    queries = {
        **QUERIES,
        "queries": [
            *QUERIES["queries"],
            {
                "id": "wizard-history",
                "text": EXPLORING,
                "intent": "exploratory",
                "criteria": {
                    "facets": [{"name": "wizard", "any": ["wizard*", "magic*", "harry potter"]}]
                },
            },
        ],
    }
    (data / "test_queries.json").write_text(json.dumps(queries), encoding="utf-8")
    (data / "negative_tests.json").write_text(json.dumps(NEGATIVE), encoding="utf-8")
    env = {"LECTERN_DATA_DIR": str(indexed_data_dir)}
    labelled = lectern("evaluate", "label", "--data", str(data), env=env)
    assert labelled.returncode == 0, labelled.stderr
    result = lectern("evaluate", "fallback", "--data", str(data), "--json", env=env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["summary"]["queries"] == 4 and report["summary"]["triggered"] >= 1
    assert {t["name"] for t in report["targets"]} == {
        "tool_calls_per_answer",
        "trigger_rate",
        "success_rate",
        "added_latency_p95_ms",
    }
    triggered = [q for q in report["queries"] if q["triggered"]]
    assert all(0 < q["tool_calls"] <= 3 for q in triggered)
    table = lectern("evaluate", "fallback", "--data", str(data), env=env)
    assert "Targets (the specification's)" in table.stdout


ABSENT = "books like Project Hail Mary"
"""No source row holds this title, nor one within two slips of its spelling."""


def test_http_search_says_an_absent_like_x_is_not_in_the_catalog(indexed_data_dir: Path) -> None:
    for fallback in (False, True):
        body = _search(
            indexed_data_dir,
            {"text": ABSENT, "understand": True, "max_results": 3, "fallback": fallback},
        )
        notice = body["nothing_fits"]
        assert notice["title"] == "Project Hail Mary"
        assert notice["message"].startswith("'Project Hail Mary' is not in the catalog")
        assert "nearest" in notice["message"]
        assert body["results"]  # the nearest books, marked as such by the notice
    assert body["fallback"]["reasons"] == ["unresolved_like"]
    assert len(body["fallback"]["tool_calls"]) == 1


def test_http_search_offers_a_misspelt_like_x_and_does_not_call_it_missing(
    indexed_data_dir: Path,
) -> None:
    body = _search(indexed_data_dir, {"text": "books like The Hunger Gamez", "understand": True})
    assert body["nothing_fits"] is None or body["nothing_fits"]["title"] is None
    assert body["readings"] and body["readings"][0]["title"].startswith("The Hunger Games")
    assert body["readings"][0]["author"] == "Suzanne Collins"


def test_cli_search_says_an_absent_like_x_is_not_in_the_catalog(indexed_data_dir: Path) -> None:
    env = {"LECTERN_DATA_DIR": str(indexed_data_dir)}
    for extra in ((), ("--fallback",)):
        result = lectern("search", ABSENT, "--understand", "--k", "3", *extra, env=env)
        assert result.returncode == 0, result.stderr
        assert "'Project Hail Mary' is not in the catalog" in " ".join(result.stdout.split())
