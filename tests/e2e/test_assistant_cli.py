"""`lectern chat` and `lectern actions` on the tiny catalog, through the real adapters."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog
import typer
from typer.testing import CliRunner

from lectern.entrypoints.cli.assistant import register


@pytest.fixture(autouse=True)
def data_dir(
    indexed_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    target = tmp_path / "var"
    shutil.copytree(indexed_data_dir, target)
    monkeypatch.setenv("LECTERN_DATA_DIR", str(target))
    yield target
    # The commands bound structlog to the runner's stderr, which is closed now.
    structlog.reset_defaults()


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Lectern."""

    register(app)
    return app


def test_chat_proposes_and_actions_approve_by_id() -> None:
    runner = CliRunner()
    app = _app()
    proposed = runner.invoke(app, ["chat", "-m", "create a list called Summer", "--json"])
    assert proposed.exit_code == 0, proposed.output
    reply = json.loads(proposed.stdout)
    (action,) = reply["actions"]
    assert action["status"] == "pending" and action["tool"] == "create_list"
    assert action["diff"][0] == {"field": "name", "old": None, "new": "Summer"}

    listed = runner.invoke(app, ["actions", "list", "--json"])
    assert [a["id"] for a in json.loads(listed.stdout)] == [action["id"]]

    other = runner.invoke(app, ["actions", "approve", action["id"], "--user", "bob"])
    assert other.exit_code == 1 and "no action" in other.output

    approved = runner.invoke(app, ["actions", "approve", action["id"], "--json"])
    assert approved.exit_code == 0, approved.output
    assert json.loads(approved.stdout)["text"].startswith("Done: Create the reading list")

    again = runner.invoke(app, ["actions", "approve", action["id"]])
    assert again.exit_code == 2 and "already executed" in again.output

    lists = runner.invoke(app, ["chat", "-m", "what lists do I have?", "--json"])
    assert "Summer (0 books)" in json.loads(lists.stdout)["text"]


def test_chat_answers_with_citations() -> None:
    runner = CliRunner()
    result = runner.invoke(_app(), ["chat", "-m", "who wrote The Hunger Games?", "--json"])
    assert result.exit_code == 0, result.output
    reply = json.loads(result.stdout)
    assert reply["citations"][0]["snippet"] == "Suzanne Collins"
    assert reply["grounding_flags"] == []


def test_actions_list_shows_a_corrections_review(monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    app = _app()
    proposed = runner.invoke(
        app, ["chat", "-m", "the year of The Hunger Games is wrong, it should be 2009", "--json"]
    )
    assert proposed.exit_code == 0, proposed.output
    (action,) = json.loads(proposed.stdout)["actions"]
    assert action["tool"] == "propose_correction"
    review = action["review"]
    # The tiny catalog's books come from CSV rows, which are not kept whole: none is read back.
    assert review["status"] == "done" and review["records"] == 0 and review["not_read"]
    listed = runner.invoke(app, ["actions", "list"], terminal_width=200)
    assert listed.exit_code == 0, listed.output
    assert f"review of action {action['id']}" in listed.stdout
    assert "Automatic review of this correction" in listed.stdout
    assert "published_year: no stored source record states it" in listed.stdout

    monkeypatch.setenv("LECTERN_REVIEW_CORRECTIONS", "false")
    again = runner.invoke(
        app, ["chat", "-m", "the year of The Hunger Games is wrong, it should be 2010", "--json"]
    )
    (plain,) = json.loads(again.stdout)["actions"]
    assert plain["review"] is None
