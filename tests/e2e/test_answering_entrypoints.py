"""POST /kb/reply, POST /research, `lectern kb reply|index`, `lectern research`, and the
assistant's answering tools, over real collections (hashed vectors)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from lectern.application.assistant.answering_tools import THREAT_TOOLS, anthropic_tool
from lectern.application.assistant.tools import ToolContext
from lectern.application.collections import CollectionService
from lectern.bootstrap import Services, bootstrap
from lectern.entrypoints.cli import answering as answering_cli
from lectern.entrypoints.cli.main import app as cli_app
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.answering_world import kb_sources, threat_sources
from tests.collection_wiring import collection_service

KEY = {"X-API-Key": "reader-key"}


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> CollectionService:
    root = tmp_path_factory.mktemp("answering-e2e")
    collections = collection_service(root / "var")
    docs, faq, mapping = kb_sources(root)
    collections.add("kb", docs)
    collections.add("kb", faq, mapping=str(mapping))
    kev, attack = threat_sources(root)
    collections.add("threats", kev, mapping="cisa-kev")
    collections.add("threats", attack, mapping="mitre-attack")
    return collections


def _services(service: CollectionService, data_dir: Path, **settings: Any) -> Services:
    values: dict[str, Any] = {"ai_min_relevance": 0.15, **settings}
    return bootstrap(Settings(data_dir=data_dir, **values), collections=service)


@pytest.fixture
def client(service: CollectionService, tmp_path: Path) -> TestClient:
    services = _services(service, tmp_path, api_keys="reader:reader-key", ai_kb_collection="kb")
    return TestClient(create_app(services, load_indexes=False))


def test_kb_reply_answers_a_question_with_citations(client: TestClient) -> None:
    response = client.post(
        "/kb/reply", json={"question": "Why do I get 429 Too Many Requests?"}, headers=KEY
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["should_reply"] is True
    assert body["citations"][0]["source_id"] == "kb:https://docs.example.org/faq/rate-limits"
    assert body["reply_text"].endswith("Links:\n- https://docs.example.org/faq/rate-limits")
    assert body["decision_path"][-1] == "should_reply:true" and body["model"] == "rules"
    metrics = client.get("/metrics", headers=KEY).text
    assert 'lectern_ai_requests_total{outcome="success"} 1.0' in metrics
    assert 'lectern_ai_gate_total{decision="question"} 1.0' in metrics


def test_kb_reply_stays_silent_on_small_talk(client: TestClient) -> None:
    conversation = {
        "messages": [
            {"author": "ana", "text": "How do I declare optional query parameters?"},
            {"author": "bob", "text": "thanks!", "time": "2026-01-05T10:00:00+00:00"},
        ]
    }
    body = client.post(
        "/kb/reply", json={"collection": "kb", "conversation": conversation}, headers=KEY
    ).json()
    assert body["should_reply"] is False and body["gate"] == "chit_chat"
    assert body["reply_text"] == "" and body["citations"] == []


@pytest.mark.parametrize(
    ("payload", "status"),
    [
        ({"question": "How?", "conversation": {"messages": [{"author": "a", "text": "b"}]}}, 422),
        ({}, 422),
        ({"question": "How do I restart?", "collection": "nope"}, 404),
        ({"question": "How?", "unknown": 1}, 422),
        ({"conversation": {"messages": [{"author": "a", "text": "x" * 8_001}]}}, 422),
        ({"conversation": {"messages": [{"author": "a", "text": "hi"}] * 201}}, 422),
        ({"conversation": {"messages": [{"author": "a", "text": "hi", "time": "soon"}]}}, 422),
    ],
)
def test_kb_reply_refuses_bad_requests(
    client: TestClient, payload: dict[str, Any], status: int
) -> None:
    response = client.post("/kb/reply", json=payload, headers=KEY)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"


def test_research_over_http(client: TestClient) -> None:
    response = client.post(
        "/research",
        json={"question": "Log4j JNDI remote code execution", "collection": "threats"},
        headers=KEY,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["citations"][0]["source_id"] == "CVE-2021-44228"
    assert body["metadata"]["chunks_retrieved"] > 0 and body["flags"] == []
    compared = client.post(
        "/research",
        json={"collection": "threats", "template": "compare", "item_ids": ["T1003.001", "T1486"]},
        headers=KEY,
    ).json()
    assert set(compared["sections"]) == {"patterns", "differences", "connections", "assessment"}
    bad = client.post(
        "/research",
        json={"question": "x", "collection": "threats", "template": "poem"},
        headers=KEY,
    )
    assert bad.status_code == 422
    missing = client.post(
        "/research",
        json={"collection": "threats", "template": "summarize", "item_ids": ["CVE-1999-1"]},
        headers=KEY,
    )
    assert missing.status_code == 404


# --- the command line ----------------------------------------------------------------------


@pytest.fixture
def runner(
    service: CollectionService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[CliRunner]:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(
        answering_cli, "_services", lambda: _services(service, tmp_path / "cli-var")
    )
    saved = structlog.get_config()
    yield CliRunner()
    structlog.configure(**saved)


def test_kb_reply_on_the_command_line(runner: CliRunner) -> None:
    answered = runner.invoke(
        cli_app,
        [
            "kb",
            "reply",
            "How do I restart the service after a configuration change?",
            "--collection",
            "kb",
        ],
    )
    assert answered.exit_code == 0, answered.output
    assert "[team:deploy-notes.md]" in answered.output
    assert "gate:question -> select:" in answered.output
    conversation = {"messages": [{"author": "ana", "text": "hi"}, {"author": "ana", "text": "ok"}]}
    silent = runner.invoke(
        cli_app, ["kb", "reply", "--collection", "kb", "--json"], input=json.dumps(conversation)
    )
    assert silent.exit_code == 0, silent.output
    result = json.loads(silent.stdout[silent.stdout.index("{") :])
    assert result["should_reply"] is False and result["gate"] == "chit_chat"
    broken = runner.invoke(cli_app, ["kb", "reply", "--collection", "kb"], input="not json")
    assert broken.exit_code == 1 and "cannot read the conversation" in broken.output
    nameless = runner.invoke(cli_app, ["kb", "reply", "How?"])
    assert nameless.exit_code == 1 and "--collection" in nameless.output


def test_kb_index_on_the_command_line(runner: CliRunner) -> None:
    built = runner.invoke(cli_app, ["kb", "index", "--collection", "kb"])
    assert built.exit_code == 0, built.output
    assert "5 sources indexed for kb" in built.output
    assert "team:deploy-notes.md: Deploying Lectern." in built.output


def test_misses_are_refused_for_the_measured_research_set(runner: CliRunner) -> None:
    # Refused before anything runs: the held-out questions are never printed.
    refused = runner.invoke(cli_app, ["evaluate", "answering", "--research-only", "--misses"])
    assert refused.exit_code == 2
    assert "held out" in refused.output and "dev3" in refused.output


def test_research_on_the_command_line(runner: CliRunner) -> None:
    found = runner.invoke(
        cli_app,
        [
            "research",
            "",
            "--collection",
            "threats",
            "--template",
            "summarize",
            "--item",
            "CVE-2021-44228",
            "--json",
        ],
    )
    assert found.exit_code == 0, found.output
    body = json.loads(found.stdout[found.stdout.index("{") :])
    assert body["sections"]["affected_systems"] == ["Apache", "Log4j2"]
    shown = runner.invoke(
        cli_app, ["research", "credential dumping from LSASS memory", "--collection", "threats"]
    )
    assert shown.exit_code == 0, shown.output
    assert "[T1003.001]" in shown.output and "mitigation:" in shown.output
    wrong = runner.invoke(
        cli_app, ["research", "x", "--collection", "threats", "--template", "poem"]
    )
    assert wrong.exit_code == 1 and "unknown template" in wrong.output


# --- the assistant's tools ------------------------------------------------------------------


def test_the_answering_tools_are_registered_only_when_configured(
    service: CollectionService, tmp_path: Path
) -> None:
    plain = _services(service, tmp_path / "a").tool_registry()
    assert not {"ask_knowledge_base", "research", *THREAT_TOOLS} & set(plain.names)
    services = _services(
        service, tmp_path / "b", ai_kb_collection="kb", ai_research_collection="threats"
    )
    registry = services.tool_registry()
    assert {"ask_knowledge_base", "research", *THREAT_TOOLS} <= set(registry.names)
    context = ToolContext("ana", "c1", services.clock())
    asked = registry.get("ask_knowledge_base")
    assert asked is not None
    output = asked.run(asked.parse({"question": "Why do I get 429 errors?"}), context)  # type: ignore[union-attr]
    assert output.data["should_reply"] is True  # type: ignore[index,call-overload]
    assert "kb:https://docs.example.org/faq/rate-limits" in output.evidence
    search = registry.get("search_threats")
    assert search is not None
    found = search.run(search.parse({"query": "Log4j JNDI"}), context)  # type: ignore[union-attr]
    assert found.data["results"][0]["id"] == "CVE-2021-44228"  # type: ignore[index,call-overload]
    advisory = registry.get("get_advisory")
    assert advisory is not None
    item = advisory.run(advisory.parse({"item_id": "T1003.001"}), context)  # type: ignore[union-attr]
    assert item.data["title"] == "T1003.001: LSASS Memory"  # type: ignore[index,call-overload]
    related = registry.get("get_recommendations")
    assert related is not None
    linked = related.run(related.parse({"item_id": "T1003.001"}), context)  # type: ignore[union-attr]
    kinds = {r["kind"] for r in linked.data["related"]}  # type: ignore[index,union-attr]
    assert {"similar", "mitigation", "group"} <= kinds
    definitions = [anthropic_tool(spec) for spec in registry.specs(list(THREAT_TOOLS))]
    assert [d["name"] for d in definitions] == list(THREAT_TOOLS)
    assert definitions[0]["input_schema"]["required"] == ["query"]
    assert set(definitions[0]) == {"name", "description", "input_schema"}
