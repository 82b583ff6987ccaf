"""`lectern evaluate ablation`: full, full without each component, each forced strategy."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from lectern.entrypoints.cli.common import _fail, _guarded, _progress_bar, _services, out
from lectern.entrypoints.cli.evaluate_options import (
    DataOption,
    JudgeRepeats,
    LimitOption,
    make_run_config,
)

DOC_START = "<!-- ablation:start -->"
DOC_END = "<!-- ablation:end -->"
RESULTS_START = "<!-- results:start -->"
RESULTS_END = "<!-- results:end -->"


def ablation(
    judge_repeats: JudgeRepeats = 1,
    limit: LimitOption = None,
    data: DataOption = None,
    write_doc: Annotated[
        Path | None,
        typer.Option(
            "--write-doc",
            help=f"Replace the table between {DOC_START} and {DOC_END} in this Markdown file.",
        ),
    ] = None,
) -> None:
    """Full, full without each component, and each forced strategy: one table."""
    from lectern.application.evaluation.service import ablation_table, results_table

    def run() -> None:
        if write_doc is not None:
            _check_doc(write_doc)
        services = _services({"evaluation_data": data})
        base = make_run_config(
            "full", None, None, judge_repeats, limit, services.settings.mmr_lambda
        )
        with _progress_bar() as progress:
            stored = services.evaluation().ablation(base, progress=progress)
        table = ablation_table([s.artifact for s in stored])
        runs_line = "Runs: " + ", ".join(f"`{s.run_id}`" for s in stored) + "\n"
        sys.stdout.write(table + "\n" + runs_line)
        if write_doc is not None:
            _write_doc(write_doc, table + "\n" + runs_line, DOC_START, DOC_END)
            _write_doc(write_doc, results_table(stored[0].artifact), RESULTS_START, RESULTS_END)
            out.print(f"updated {escape(str(write_doc))}", highlight=False)

    _guarded(run)


def _check_doc(path: Path) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise _fail(f"cannot read {path}: {error}") from None
    if DOC_START not in text or DOC_END not in text:
        raise _fail(f"{path} has no {DOC_START} ... {DOC_END} markers to replace")


def _write_doc(path: Path, table: str, start: str, end: str) -> None:
    """Replace what lies between the markers (nothing happens when they are absent)."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    path.write_text(pattern.sub(lambda _: f"{start}\n{table}{end}", text), encoding="utf-8")
