"""`lectern evaluate runs`, `show` and `compare`: the stored run artifacts."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Annotated, cast

import typer
from rich.markup import escape
from rich.table import Table

from lectern.application.evaluation.aggregate import REPORTED_METRICS
from lectern.domain.books import JSONValue
from lectern.entrypoints.cli.common import _guarded, _services, err, out


def _value(aggregate: Mapping[str, JSONValue], name: str) -> str:
    value = aggregate.get(name)
    if isinstance(value, dict):
        interval = value.get("ci95")
        mean = value.get("mean")
        if isinstance(mean, int | float) and isinstance(interval, list):
            low, high = (float(cast(float, x)) for x in interval)
            return f"{mean:.4f}  [{low:.4f}, {high:.4f}]"
        return str(mean)
    if isinstance(value, float):
        return f"{value:.4f}"
    return "n/a" if value is None else str(value)


def print_artifact(artifact: Mapping[str, JSONValue], path: str | None) -> None:
    """A run's metrics, judge, targets, negative tests and failures, as tables."""
    aggregate = cast(Mapping[str, JSONValue], artifact["aggregate"])
    config = cast(Mapping[str, JSONValue], artifact["config"])
    judge = cast(Mapping[str, JSONValue], artifact["judge"])
    table = Table(title=f"Run {artifact['run_id']} ({escape(str(config['label']))})")
    table.add_column("metric")
    table.add_column("mean  [95% bootstrap CI]")
    for name in REPORTED_METRICS:
        table.add_row(name, _value(aggregate, name))
    for dimension, values in cast(Mapping[str, JSONValue], aggregate.get("judge") or {}).items():
        stats = cast(Mapping[str, JSONValue], values)
        table.add_row(f"judge {dimension} (1-5)", f"{stats['mean']} (spread {stats['spread']})")
    out.print(table)
    out.print(f"judge: {escape(str(judge['note']))} ({escape(str(judge['model']))})")
    targets = Table(title="Targets")
    for column in ("target", "value", "met"):
        targets.add_column(column)
    for name, report in cast(Mapping[str, JSONValue], artifact["targets"]).items():
        entry = cast(Mapping[str, JSONValue], report)
        met = entry["met"]
        targets.add_row(
            f"{name} {entry['target']}",
            "n/a" if entry["value"] is None else f"{entry['value']}",
            "not measured" if met is None else ("[green]yes[/]" if met else "[red]no[/]"),
        )
    out.print(targets)
    negative = cast(list[Mapping[str, JSONValue]], artifact.get("negative_tests") or [])
    if negative:
        tests = Table(title="Negative tests")
        for column in ("id", "kind", "expected", "observed", "passed"):
            tests.add_column(column, overflow="fold")
        for test in negative:
            tests.add_row(
                escape(str(test["id"])),
                escape(str(test["kind"])),
                escape(str(test["expected"])),
                escape(str(test["observed"])),
                "[green]pass[/]" if test["passed"] else "[red]FAIL[/]",
            )
        out.print(tests)
    failures = cast(list[Mapping[str, JSONValue]], artifact.get("failures") or [])
    for failure in failures:
        query_id, error = escape(str(failure["query_id"])), escape(str(failure["error"]))
        err.print(f"[red]query {query_id} failed:[/] {error}")
    if path:
        out.print(f"artifact: {escape(path)}", highlight=False)


def runs(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List stored runs, newest first."""

    def run() -> None:
        summaries = _services().evaluation().store.list()
        if as_json:
            sys.stdout.write(json.dumps(summaries, indent=1) + "\n")
            return
        if not summaries:
            out.print("No evaluation runs yet: `lectern evaluate --config full` makes one.")
            return
        table = Table(title="Evaluation runs")
        for column in (
            "run id",
            "started",
            "config",
            "queries",
            "nDCG@10",
            "Recall@100",
            "MRR@10",
            "cit. precision",
            "p95 ms",
            "negative",
        ):
            table.add_column(column, overflow="fold")
        for summary in summaries:
            metrics = cast(Mapping[str, JSONValue], summary["metrics"])

            def cell(name: str, metrics: Mapping[str, JSONValue] = metrics) -> str:
                value = metrics.get(name)
                return "n/a" if value is None else f"{float(cast(float, value)):.3f}"

            table.add_row(
                str(summary["run_id"]),
                str(summary["started_at"])[:19],
                escape(str(summary["label"])),
                str(summary["queries"]),
                cell("ndcg_at_10"),
                cell("recall_at_100"),
                cell("mrr_at_10"),
                cell("citation_precision"),
                cell("latency_p95_ms"),
                f"{summary['negative_passed']}/{summary['negative_total']}",
            )
        out.print(table)

    _guarded(run)


def show(
    run_id: Annotated[str, typer.Argument(help="A run id from `lectern evaluate runs`.")],
) -> None:
    """Print one stored run's metrics, targets and negative tests."""
    _guarded(lambda: print_artifact(_services().evaluation().store.get(run_id), None))


def compare(
    run_a: Annotated[str, typer.Argument(help="The reference run.")],
    run_b: Annotated[str, typer.Argument(help="The run compared with it.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Per-metric deltas (B - A) on shared queries, with paired randomisation p-values."""

    def run() -> None:
        rows = _services().evaluation().compare(run_a, run_b)
        if as_json:
            sys.stdout.write(json.dumps(rows, indent=1) + "\n")
            return
        table = Table(title=f"B - A   (A = {run_a}, B = {run_b})")
        for column in ("metric", "queries", "A", "B", "delta", "p (paired)"):
            table.add_column(column)
        for row in rows:
            p_value = row["p_value"]
            significant = isinstance(p_value, float) and p_value < 0.05
            table.add_row(
                str(row["metric"]),
                "-" if row["queries"] is None else str(row["queries"]),
                f"{row['a']}",
                f"{row['b']}",
                f"{float(cast(float, row['delta'])):+.4f}",
                "-" if p_value is None else f"{p_value:.4f}" + (" *" if significant else ""),
            )
        out.print(table)
        out.print("* p < 0.05 (two-sided sign-flip randomisation test over queries)")

    _guarded(run)
