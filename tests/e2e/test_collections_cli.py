"""`lectern collections ...` (the sub-app the lead registers), with the real embedder."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog
from typer.testing import CliRunner

from lectern.entrypoints.cli.collections import collections_app
from tests.collection_wiring import SHARED


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    monkeypatch.setenv("LECTERN_DATA_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("COLUMNS", "200")
    # The commands point structlog at the runner's stderr, closed after each invoke.
    saved = structlog.get_config()
    yield CliRunner()
    structlog.configure(**saved)


def test_add_list_show_search_cite_remove(runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "rfc"
    folder.mkdir()
    shutil.copy(SHARED / "guidance/rfc/rfc2119.txt", folder)
    shutil.copy(SHARED / "guidance/rfc/rfc2119.json", folder)
    (folder / "broken.md").write_bytes(b"\x00\x01\x02" * 40)
    added = runner.invoke(collections_app, ["add", "rfc", str(folder)])
    assert added.exit_code == 0, added.output
    assert "skipped broken.md: binary content" in added.output
    assert "documents in the collection" in added.output
    again = runner.invoke(collections_app, ["add", "rfc", str(folder), "--json"])
    report = json.loads(again.stdout[again.stdout.index("{") :])
    assert (report["changed"], report["unchanged"], report["embedded"]) == (False, 1, 0)
    listed = runner.invoke(collections_app, ["list"])
    assert "rfc" in listed.output and "format, folder" in listed.output
    shown = runner.invoke(collections_app, ["show", "rfc"])
    assert "RFC 2119" in shown.output
    found = runner.invoke(
        collections_app, ["search", "rfc", "MUST NOT absolute prohibition", "--json"]
    )
    assert found.exit_code == 0, found.output
    body = json.loads(found.stdout[found.stdout.index("{") :])
    passage = body["results"][0]["passages"][0]
    assert passage["label"].startswith("[RFC 2119 p.")
    cited = runner.invoke(
        collections_app, ["cite", passage["label"], "--snippet", passage["snippet"]]
    )
    assert cited.exit_code == 0, cited.output
    assert "Key words for use in RFCs" in cited.output
    wrong = runner.invoke(
        collections_app, ["cite", passage["label"], "--snippet", "not on this page at all"]
    )
    assert wrong.exit_code == 1
    missing = runner.invoke(collections_app, ["cite", "[RFC 9999 p.1]"])
    assert missing.exit_code == 1 and "no document is cited as 'RFC 9999'" in missing.output
    document_id = body["results"][0]["document"]["id"]
    similar = runner.invoke(collections_app, ["similar", "rfc", document_id])
    assert similar.exit_code == 0 and "No passage matches." in similar.output  # only one
    removed = runner.invoke(collections_app, ["remove", "rfc", "--yes"])
    assert removed.exit_code == 0
    assert "No collections yet" in runner.invoke(collections_app, ["list"]).output


def test_errors_are_one_line(runner: CliRunner, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(collections_app, ["add", "kb", str(empty)])
    assert result.exit_code == 1
    assert "nothing to add" in result.output and "Traceback" not in result.output
    unknown = runner.invoke(collections_app, ["add", "kb", str(empty), "--mapping", "nope"])
    assert unknown.exit_code == 1 and "cisa-kev" in unknown.output
