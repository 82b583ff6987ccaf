"""The installed `lectern` command, run as a user runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest
import structlog
from typer.testing import CliRunner

LECTERN = shutil.which("lectern", path=str(Path(sys.executable).parent)) or "lectern"


@dataclass(frozen=True)
class Ran:
    """What a `lectern` command gave: its exit status and both streams."""

    returncode: int
    stdout: str
    stderr: str


def _let_go_of_qdrant(env: dict[str, str] | None) -> None:
    if os.environ.get("LECTERN_ENGINE") == "qdrant" or (env or {}).get("LECTERN_ENGINE"):
        from lectern.adapters.engines.qdrant_store import disconnect

        # Local mode lets one client hold a folder: the test's own lets go before the command.
        data_dir = (env or {}).get("LECTERN_DATA_DIR") or os.environ["LECTERN_DATA_DIR"]
        disconnect(under=str(Path(data_dir).resolve()))


def lectern(*args: str, env: dict[str, str] | None = None) -> Ran:
    """`lectern ARGS` as a user runs it, in this process (typer's CliRunner).

    The same Typer app, arguments, environment, streams and exit code as the console script,
    without a new interpreter importing numpy, FAISS and ONNX Runtime for every command. An
    exception that escapes the command is written to stderr as its traceback, as the console
    script prints it, so the tests that look for one still see it. `lectern_process` runs the
    installed script itself (the few smoke tests that prove it).
    """
    from lectern.entrypoints.cli.main import app

    _let_go_of_qdrant(env)
    saved = structlog.get_config()  # the commands point structlog at the runner's stderr
    try:
        result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", **(env or {})})
    finally:
        structlog.configure(**saved)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(result.exception))
    return Ran(result.exit_code, result.stdout, stderr)


def lectern_process(*args: str, env: dict[str, str] | None = None) -> Ran:
    """The installed `lectern` console script in its own process."""
    _let_go_of_qdrant(env)
    done = subprocess.run(
        [LECTERN, *args],
        env={**os.environ, "COLUMNS": "200", **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def _one_line_error(result: Ran, needle: str) -> None:
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    assert lines[-1] == errors[0]  # progress bars may come before it, nothing after
    assert needle in errors[0]
    assert "Traceback" not in result.stderr


def test_ingest_stats_show_and_idempotence(tiny_mirror: Path, tmp_path: Path) -> None:
    first = lectern_process("ingest", "--mirror", str(tiny_mirror))
    assert first.returncode == 0, first.stderr
    assert "inserted" in first.stdout and "rejected: missing_title" in first.stdout
    assert "goodbooks-10k/books.csv:6: missing_title" in first.stdout
    reports = list((tmp_path / "var" / "reports").glob("ingest-*.json"))
    assert len(reports) == 1
    saved = json.loads(reports[0].read_text(encoding="utf-8"))
    assert saved["inserted"] == 11 and saved["rejected_rows"][0]["line"] == 6

    second = lectern("ingest", "--mirror", str(tiny_mirror))
    assert second.returncode == 0, second.stderr
    saved = json.loads(sorted((tmp_path / "var" / "reports").glob("ingest-*.json"))[-1].read_text())
    assert (saved["inserted"], saved["updated"], saved["unchanged"]) == (0, 0, 11)

    stats = lectern("catalog", "stats", "--json")
    assert stats.returncode == 0, stats.stderr
    numbers = json.loads(stats.stdout)
    assert numbers["books"] == 11
    assert numbers["languages"] == {"en": 3, "de": 2, "es": 1, "fr": 1}

    human = lectern("catalog", "stats")
    assert "books" in human.stdout and "Languages: en 3" in human.stdout

    show = lectern("catalog", "show", "9780439023481")
    assert show.returncode == 0, show.stderr
    assert "The Hunger Games" in show.stdout
    assert "goodbooks-10k:2767052" in show.stdout and "7k-books:9780439023481" in show.stdout

    as_json = json.loads(lectern("catalog", "show", "0439023483", "--json").stdout)
    assert as_json["book"]["title"] == "The Hunger Games"
    assert {p["source"] for p in as_json["provenance"]} >= {"goodbooks-10k", "7k-books"}
    by_id = lectern("catalog", "show", as_json["book"]["id"])
    assert by_id.returncode == 0 and "The Hunger Games" in by_id.stdout


def test_the_mirror_can_come_from_the_environment(tiny_mirror: Path) -> None:
    result = lectern("ingest", env={"LECTERN_DATA_MIRROR": str(tiny_mirror)})
    assert result.returncode == 0, result.stderr


def test_stats_of_an_empty_catalog_says_what_to_do() -> None:
    result = lectern("catalog", "stats")
    assert result.returncode == 0
    assert "lectern ingest" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("catalog", "show", "9780439023480"), "neither a valid ISBN"),
        (("catalog", "show", "9780306406157"), "no book in the catalog"),
        (("catalog", "show", "'; drop table books; --"), "neither a valid ISBN"),
        (("ingest", "--mirror", "/definitely/not/here"), "LECTERN_DATA_MIRROR"),
    ],
)
def test_bad_arguments_get_one_line_errors(args: tuple[str, ...], needle: str) -> None:
    _one_line_error(lectern(*args), needle)


def test_unknown_source_exits_non_zero(tiny_mirror: Path) -> None:
    _one_line_error(
        lectern("ingest", "--mirror", str(tiny_mirror), "--source", "nope"), "unknown source nope"
    )


def test_unreadable_file_exits_non_zero(tiny_mirror: Path) -> None:
    target = tiny_mirror / "7k-books" / "books.csv"
    target.unlink()
    target.mkdir()
    _one_line_error(lectern("ingest", "--mirror", str(tiny_mirror)), "missing from the data mirror")


def test_a_file_in_the_wrong_format_exits_non_zero(tiny_mirror: Path) -> None:
    (tiny_mirror / "goodreads-openlibrary" / "books.csv").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    _one_line_error(lectern("ingest", "--mirror", str(tiny_mirror)), "missing column")


def test_bad_setting_names_the_variable() -> None:
    _one_line_error(
        lectern_process("catalog", "stats", env={"LECTERN_LOG_LEVEL": "loud"}),
        "LECTERN_LOG_LEVEL",
    )


def test_out_of_range_option_is_a_usage_error(tiny_mirror: Path) -> None:
    result = lectern("ingest", "--mirror", str(tiny_mirror), "--batch-size", "0")
    assert result.returncode == 2
    assert "batch-size" in result.stderr


def test_version_and_help() -> None:
    assert lectern_process("--version").stdout.strip() == "0.1.0"
    help_text = lectern("--help").stdout
    assert "ingest" in help_text and "catalog" in help_text
