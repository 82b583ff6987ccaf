"""`lectern workspace demo` over real KEV and ATT&CK records, then the assistant on it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog
from typer.testing import CliRunner

from lectern.application.workspace.demo import DEMO_ATTACK, DEMO_KEV
from lectern.entrypoints.cli.main import app
from tests.collection_wiring import SHARED

THREAT = SHARED / "threat"


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    if not (THREAT / "cisa-kev").is_dir():
        pytest.skip(f"the shared threat data is not at {THREAT}")
    monkeypatch.setenv("LECTERN_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("COLUMNS", "200")
    saved = structlog.get_config()
    yield CliRunner()
    structlog.configure(**saved)


def _subsets(root: Path) -> tuple[Path, Path]:
    """The demo's KEV records and ATT&CK techniques, with the files the mapping joins."""
    kev = root / "kev"
    kev.mkdir()
    catalog = json.loads((THREAT / "cisa-kev/known_exploited_vulnerabilities.json").read_text())
    catalog["vulnerabilities"] = [v for v in catalog["vulnerabilities"] if v["cveID"] in DEMO_KEV]
    (kev / "known_exploited_vulnerabilities.json").write_text(json.dumps(catalog))
    attack = root / "attack"
    attack.mkdir()
    for source in (THREAT / "mitre-attack").iterdir():
        if source.name != "enterprise-attack-pattern.jsonl":
            (attack / source.name).symlink_to(source)
    lines = (THREAT / "mitre-attack/enterprise-attack-pattern.jsonl").read_text().splitlines()
    wanted = [
        line + "\n" for line in lines if any(f'"external_id": "{t}"' in line for t in DEMO_ATTACK)
    ]
    (attack / "enterprise-attack-pattern.jsonl").write_text("".join(wanted))
    return kev / "known_exploited_vulnerabilities.json", attack


def test_the_demo_workspace_and_a_question_about_it(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With API keys the demo belongs to alice and bob (each signs in with a key).
    monkeypatch.setenv("LECTERN_API_KEYS", "alice:alice-demo-key,bob:bob-demo-key")
    kev, attack = _subsets(tmp_path)
    for name, path, mapping in (("kev", kev, "cisa-kev"), ("attack", attack, "mitre-attack")):
        added = runner.invoke(app, ["collections", "add", name, str(path), "--mapping", mapping])
        assert added.exit_code == 0, added.output
    made = runner.invoke(app, ["workspace", "demo"])
    assert made.exit_code == 0, made.output
    assert "Created Demo Security Team" in made.output and "alice (owner) and bob" in made.output
    assert "VPN gateway hardening" in made.output
    assert "/workspace with alice's API key" in made.output
    again = runner.invoke(app, ["workspace", "demo"])
    assert again.exit_code == 0 and "already has the demo organization" in again.output
    listed = runner.invoke(app, ["workspace", "projects", "--user", "bob"])
    assert "VPN gateway hardening" in listed.output and "Phishing awareness" in listed.output
    asked = runner.invoke(
        app, ["chat", "--user", "alice", "-m", "what is blocking the VPN project?"]
    )
    assert asked.exit_code == 0, asked.output
    assert "Waiting for the vendor maintenance window" in asked.output
    documents = runner.invoke(
        app, ["chat", "--user", "bob", "-m", "what documents does the VPN project have?"]
    )
    for label in (*DEMO_KEV, *DEMO_ATTACK):
        assert label in documents.output
    outsider = runner.invoke(app, ["workspace", "projects", "--user", "mallory"])
    assert "VPN" not in outsider.output


def test_without_attack_the_demo_links_the_kev_records_and_says_so(
    runner: CliRunner, tmp_path: Path
) -> None:
    """make demo leaves ATT&CK out; the demo still seeds, and names what it did not link."""
    kev, _ = _subsets(tmp_path)
    added = runner.invoke(app, ["collections", "add", "kev", str(kev), "--mapping", "cisa-kev"])
    assert added.exit_code == 0, added.output
    made = runner.invoke(app, ["workspace", "demo", "--owner", "alice"])
    assert made.exit_code == 0, made.output
    assert "No 'attack' collection" in made.output and "make collections-extra" in made.output
    documents = runner.invoke(
        app, ["chat", "--user", "alice", "-m", "what documents does the VPN project have?"]
    )
    for label in DEMO_KEV:
        assert label in documents.output
    for label in DEMO_ATTACK:
        assert label not in documents.output


def test_the_demo_needs_its_collections(runner: CliRunner) -> None:
    result = runner.invoke(app, ["workspace", "demo"])
    assert result.exit_code == 1
    assert "make demo-collections" in result.output


def test_without_api_keys_the_demo_belongs_to_the_local_user(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web pages' user without keys is the local user: the demo must be theirs."""
    monkeypatch.delenv("LECTERN_API_KEYS", raising=False)
    monkeypatch.delenv("API_KEY", raising=False)
    kev, attack = _subsets(tmp_path)
    for name, path, mapping in (("kev", kev, "cisa-kev"), ("attack", attack, "mitre-attack")):
        added = runner.invoke(app, ["collections", "add", name, str(path), "--mapping", mapping])
        assert added.exit_code == 0, added.output
    made = runner.invoke(app, ["workspace", "demo"])
    assert made.exit_code == 0, made.output
    assert "local (owner) and bob (member)" in made.output
    mine = runner.invoke(app, ["workspace", "projects"])  # --user defaults to the local user
    assert "VPN gateway hardening" in mine.output and "Phishing awareness" in mine.output
    asked = runner.invoke(app, ["chat", "-m", "what is blocking the VPN project?"])
    assert "Waiting for the vendor maintenance window" in asked.output
    alice = runner.invoke(app, ["workspace", "projects", "--user", "alice"])
    assert "VPN" not in alice.output
