"""`lectern evaluate pages`: evidence pages found in a PDF collection, per question type."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from lectern.entrypoints.cli.common import _guarded, _services, out


def pages(
    collection: Annotated[str, typer.Option("--collection", help="A PDF collection's name.")],
    questions: Annotated[
        Path,
        typer.Option(
            "--questions", help="JSON lines with question, question_type and evidence pages."
        ),
    ],
    speed: Annotated[
        bool,
        typer.Option("--speed/--no-speed", help="Read the sources again to time ingest."),
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Evidence pages found: hit@1, hit@5 and MRR per question type, search vs BM25 vs dense."""
    from lectern.application.evaluation.pages import PageEvaluation, load_page_questions

    def run() -> None:
        service = _services().collections()
        evaluation = PageEvaluation(service)
        report = evaluation.run(collection, load_page_questions(questions))
        if speed:
            report["ingest"] = evaluation.ingest_speed(collection)
        if as_json:
            sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=1) + "\n")
            return
        _print_pages_report(report)

    _guarded(run)


def _print_pages_report(report: Mapping[str, Any]) -> None:
    table = Table(
        title=f"Evidence pages in {escape(str(report['collection']))}", title_justify="left"
    )
    for column in ("type", "n", "method", "hit@1", "hit@5", "MRR"):
        table.add_column(column, justify="left" if column in ("type", "method") else "right")
    for kind, figures in report["summary"].items():
        for method, f in figures.items():
            table.add_row(
                escape(kind),
                str(f["n"]),
                method,
                f"{f['hit1']:.3f}",
                f"{f['hit5']:.3f} ({f['hits5']})",
                f"{f['mrr']:.3f}",
            )
    out.print(table)
    for row in report["questions"]:
        if not 1 <= row["search"] <= 5:
            out.print(
                f"miss {escape(row['id'])} ({row['kind']}): wanted "
                f"{escape(', '.join(row['wanted']))}; got {escape(', '.join(row['top']))}",
                highlight=False,
            )
    ingest = report.get("ingest")
    if ingest:
        out.print(
            f"ingest (read + split, no index): {ingest['pages']} pages, {ingest['passages']} "
            f"passages in {ingest['seconds']} s = {ingest['pages_per_second']} pages/s",
            highlight=False,
        )
