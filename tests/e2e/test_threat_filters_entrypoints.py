"""source_type and severity at every entry point of the research chain: POST /research,
`lectern research`, the assistant's research and search_threats tools (MCP shares them),
over KEV, ATT&CK and RustSec records (hashed vectors)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from lectern.application.assistant.tools import ToolContext
from lectern.application.collections import CollectionService
from lectern.bootstrap import Services, bootstrap
from lectern.entrypoints.cli import answering as answering_cli
from lectern.entrypoints.cli.main import app as cli_app
from lectern.entrypoints.http.app import create_app
from lectern.errors import ToolError
from lectern.settings import Settings
from tests.answering_world import threat_sources
from tests.collection_wiring import SHARED, collection_service

KEY = {"X-API-Key": "reader-key"}
RUSTSEC_FILES = (
    "RUSTSEC-2022-0051",  # critical, memory-corruption, 2022
    "RUSTSEC-2023-0090",  # critical, memory-corruption, 2023
    "RUSTSEC-2020-0105",  # high, memory-corruption, 2020
    "RUSTSEC-2022-0089",  # crypto-failure
)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> CollectionService:
    root = tmp_path_factory.mktemp("threat-filters")
    collections = collection_service(root / "var")
    kev, attack = threat_sources(root)
    collections.add("threats", kev, mapping="cisa-kev")
    collections.add("threats", attack, mapping="mitre-attack")
    rustsec = root / "rustsec"
    for advisory in RUSTSEC_FILES:
        (source,) = (SHARED / "threat/rustsec").glob(f"crates/*/{advisory}.md")
        target = rustsec / "crates" / source.parent.name
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)
    collections.add("threats", rustsec, mapping="rustsec")
    return collections


def _services(service: CollectionService, data_dir: Path) -> Services:
    settings = Settings(
        data_dir=data_dir,
        api_keys="reader:reader-key",
        ai_research_collection="threats",
        ai_min_relevance=0.15,
    )
    return bootstrap(settings, collections=service)


def test_http_filters_and_cited_sources(service: CollectionService, tmp_path: Path) -> None:
    client = TestClient(create_app(_services(service, tmp_path), load_indexes=False))
    body = client.post(
        "/research",
        json={"question": "memory corruption", "source_type": ["rustsec"], "severity": 9},
        headers=KEY,
    ).json()
    cited = {c["source_id"] for c in body["citations"]}
    assert cited and cited <= {"RUSTSEC-2022-0051", "RUSTSEC-2023-0090"}
    assert set(body["cited_sources"]) == cited
    assert body["metadata"]["filters"] == ["source_type=rustsec", "cvss_score>=9"]
    assert all(r["item_id"].startswith("RUSTSEC-") for r in body["recommendations"])
    kev = client.post(
        "/research", json={"question": "remote code execution", "source_type": ["kev"]}, headers=KEY
    ).json()
    assert kev["citations"] and all(c["source_id"].startswith("CVE-") for c in kev["citations"])
    for payload, message in (
        ({"question": "x", "source_type": ["nvd"]}, "source_type"),
        ({"question": "x", "source_type": "kev"}, "source_type"),
        ({"question": "x", "severity": "severe"}, "unknown severity 'severe'"),
        ({"question": "x", "severity": 11}, "between 0 and 10"),
        ({"question": "x", "severity": ["high"]}, "severity"),
    ):
        refused = client.post("/research", json=payload, headers=KEY)
        assert refused.status_code == 422, (payload, refused.text)
        assert refused.headers["content-type"] == "application/problem+json"
        assert message in refused.text, refused.text


@pytest.fixture
def runner(
    service: CollectionService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[CliRunner]:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr(answering_cli, "_services", lambda: _services(service, tmp_path / "cli"))
    saved = structlog.get_config()
    yield CliRunner()
    structlog.configure(**saved)


def test_cli_filters_from_options_and_from_the_question(runner: CliRunner) -> None:
    found = runner.invoke(
        cli_app,
        ["research", "critical Rust advisories about memory corruption since 2022", "--json"],
    )
    assert found.exit_code == 0, found.output
    body = json.loads(found.stdout[found.stdout.index("{") :])
    assert body["cited_sources"] and set(body["cited_sources"]) <= {
        "RUSTSEC-2022-0051",
        "RUSTSEC-2023-0090",
    }
    assert "category=memory-corruption" in body["metadata"]["filters"]
    assert body["metadata"]["understood"]
    literal = runner.invoke(
        cli_app,
        ["research", "critical Rust advisories", "--no-understand", "--source-type", "attack"],
    )
    assert literal.exit_code == 0, literal.output
    assert "filters: source_type=attack" in literal.output
    assert "[T" in literal.output and "RUSTSEC-" not in literal.output  # nor recommended
    for options, message in (
        (["--source-type", "nvd"], "unknown source_type 'nvd'"),
        (["--severity", "severe"], "unknown severity 'severe'"),
        (["--severity", "-3"], "between 0 and 10"),
    ):
        refused = runner.invoke(cli_app, ["research", "memory", *options])
        assert refused.exit_code == 1 and message in refused.output, refused.output


def test_assistant_tools_take_the_filters(service: CollectionService, tmp_path: Path) -> None:
    services = _services(service, tmp_path)
    registry = services.tool_registry()
    context = ToolContext("ana", "c1", services.clock())
    research = registry.get("research")
    search = registry.get("search_threats")
    assert research is not None and search is not None
    answer: Any = research.run(
        research.parse({"question": "memory corruption", "severity": "critical"}), context
    )
    assert answer.data["cited_sources"]
    assert set(answer.data["cited_sources"]) <= {"RUSTSEC-2022-0051", "RUSTSEC-2023-0090"}
    found: Any = search.run(
        search.parse({"query": "memory", "source_type": ["rustsec"], "severity": "high"}), context
    )
    assert [r["id"] for r in found.data["results"]] == ["RUSTSEC-2020-0105"]
    with pytest.raises(ToolError, match="unknown severity"):
        search.run(search.parse({"query": "memory", "severity": "severe"}), context)
    with pytest.raises(Exception, match="source_type"):
        search.parse({"query": "memory", "source_type": ["nvd"]})
