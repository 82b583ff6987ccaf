"""`lectern evaluate fallback`: how often the search fallback fires, and how often it helps."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Annotated, Any, cast

import typer
from rich.markup import escape
from rich.table import Table

from lectern.domain.books import JSONValue
from lectern.entrypoints.cli.common import _fail, _guarded, _progress_bar, _services, out
from lectern.entrypoints.cli.evaluate_options import DataOption, LimitOption


def fallback(
    limit: LimitOption = None,
    data: DataOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    split: Annotated[
        str | None,
        typer.Option(
            "--split",
            help="Only the queries tagged so (dev or test): the trigger set "
            "(src/lectern/evaluation/fallback_triggers) is split by tag.",
        ),
    ] = None,
) -> None:
    """The search fallback: trigger rate, tool calls, success, latency.

    On the judged queries (ordinary searches: how often it fires) by default; `--data` the
    trigger set for how often it helps when the plan left something to fix.
    """
    from dataclasses import replace

    from lectern.application.evaluation.datasets import load_dataset

    def run() -> None:
        services = _services({"evaluation_data": data})
        dataset = load_dataset(data)
        if split is not None:
            dataset = replace(dataset, queries=tuple(q for q in dataset.queries if split in q.tags))
            if not dataset.queries:
                _fail(f"no query is tagged {split!r}")
        with _progress_bar() as progress:
            report = services.fallback_evaluation().run(dataset, limit=limit, progress=progress)
        if as_json:
            sys.stdout.write(json.dumps(report, ensure_ascii=False, indent=1) + "\n")
            return
        _print_fallback_report(report)

    _guarded(run)


def _print_fallback_report(report: Mapping[str, JSONValue]) -> None:
    queries = cast(list[Mapping[str, Any]], report["queries"])
    table = Table(title=f"Triggered queries ({escape(str(report['model']))})", title_justify="left")
    for column in ("query", "reasons", "calls", "nDCG@10 first", "fallback", "+ms"):
        table.add_column(column, justify="left" if column in ("query", "reasons") else "right")
    for record in queries:
        if not record["triggered"]:
            continue
        first, final = record.get("first") or {}, record.get("fallback") or {}
        table.add_row(
            escape(str(record["query_id"])),
            escape(", ".join(record["reasons"])),
            str(record.get("tool_calls", "-")),
            f"{first.get('ndcg', 0):.3f}",
            f"{final.get('ndcg', 0):.3f}" + (" [green]better[/]" if record.get("success") else ""),
            f"{record.get('added_latency_ms', 0):.0f}",
        )
    out.print(table)
    cases = [r for r in queries if r.get("outcome", "better") != "better"]
    if cases:
        outcomes = Table(
            title="Right outcome (fired or not): 'X is not in the catalog' / which one?",
            title_justify="left",
        )
        for column in ("query", "outcome", "fired", "said", "right"):
            outcomes.add_column(column)
        for record in cases:
            said = (
                f"not in the catalog: {record['not_in_catalog']}"
                if record.get("not_in_catalog")
                else ""
            )
            if record.get("readings"):
                said += ("; " if said else "") + "which one? " + "; ".join(record["readings"])
            outcomes.add_row(
                escape(str(record["query_id"])),
                escape(str(record["outcome"])),
                "yes" if record["triggered"] else "no",
                escape(said or "-"),
                "[green]yes[/]" if record["outcome_right"] else "[red]no[/]",
            )
        out.print(outcomes)
    targets = Table(title="Targets (the specification's)", title_justify="left")
    for column in ("figure", "target", "value", "met"):
        targets.add_column(column)
    for target in cast(list[Mapping[str, Any]], report["targets"]):
        targets.add_row(
            escape(str(target["name"])),
            escape(str(target["target"])),
            f"{target['value']:g}",
            "[green]met[/]" if target["met"] else "[red]not met[/]",
        )
    out.print(targets)
    out.print(escape(str(report["definition"])), highlight=False)
