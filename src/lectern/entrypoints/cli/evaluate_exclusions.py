"""`lectern evaluate exclusions`: the exclusion dev set's violation and on-topic rates."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, cast

import typer
from rich.markup import escape
from rich.table import Table

from lectern.domain.books import JSONValue
from lectern.entrypoints.cli.common import _guarded, _services, out


def exclusions(
    data: Annotated[
        Path | None,
        typer.Option(
            "--data", help="A folder with exclusion_requests.json (default: the packaged set)."
        ),
    ] = None,
    understand: Annotated[
        bool,
        typer.Option(
            "--understand/--no-understand",
            help="Plan each request with the configured query understanding (as readers do).",
        ),
    ] = True,
    explain: Annotated[
        bool, typer.Option("--explain/--no-explain", help="Check the explanations too.")
    ] = True,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the whole report as JSON.")
    ] = False,
) -> None:
    """The exclusion dev set: violation rate, on-topic rate and requests with 5+ results."""
    from lectern.application.evaluation.constraints import (
        load_exclusion_requests,
        run_exclusion_requests,
    )
    from lectern.application.understanding import plan_query

    def run() -> None:
        services = _services()
        dataset = load_exclusion_requests(data)
        search = services.search()
        planner = services.understanding() if understand else None
        report = run_exclusion_requests(
            dataset,
            lambda query, plan: search.search(query, plan=plan).results,
            lambda text: plan_query(planner, text) if planner is not None else None,
            explain=explain,
        )
        if as_json:
            sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=2) + "\n")
            return
        _print_exclusions(report)

    _guarded(run)


def _print_exclusions(report: Mapping[str, JSONValue]) -> None:
    table = Table(title=f"Exclusion dev set {report['version']} ({report['requests']} requests)")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_column("target")
    for name, target in (
        ("violation_rate", "<= 0.02"),
        ("on_topic_rate", ">= 0.80"),
        ("with_min_results", ">= 0.90"),
        ("misleading_citations", "0"),
        ("requests_with_violation", ""),
        ("latency_p95_ms", ""),
    ):
        table.add_row(name, str(report[name]), target)
    out.print(table)
    for request in cast(list[Mapping[str, JSONValue]], report["per_request"]):
        for problem in cast(list[Mapping[str, JSONValue]], request["problems"]):
            reasons = cast(list[str], problem["violations"]) + cast(
                list[str], problem["misleading_citations"]
            )
            out.print(
                f"  {escape(str(request['id']))} #{problem['rank']} "
                f"{escape(str(problem['title']))}: {escape('; '.join(reasons))}",
                highlight=False,
            )
