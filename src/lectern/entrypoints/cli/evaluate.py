"""`lectern evaluate`: run the judged query set, list and compare runs, ablate, label."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich.markup import escape
from rich.table import Table

from lectern.application.evaluation.aggregate import REPORTED_METRICS
from lectern.domain.books import JSONValue
from lectern.domain.retrieval import Strategy
from lectern.entrypoints.cli.common import _fail, _guarded, _progress_bar, _services, err, out
from lectern.entrypoints.cli.evaluate_shelves import evaluate_shelves
from lectern.entrypoints.cli.evaluate_understanding import evaluate_understanding

evaluate_app = typer.Typer(
    help="Measure search and explanations on the judged query set (docs/evaluation.md).",
)

DOC_START = "<!-- ablation:start -->"
DOC_END = "<!-- ablation:end -->"
RESULTS_START = "<!-- results:start -->"
RESULTS_END = "<!-- results:end -->"

ConfigOption = Annotated[
    str, typer.Option("--config", help="full (every component) or baseline (none).")
]
DisableOption = Annotated[
    list[str] | None,
    typer.Option(
        "--disable",
        help="Switch a component off: query_understanding, multi_query, grounding, mmr. "
        "Repeatable.",
    ),
]
StrategyOption = Annotated[
    str | None,
    typer.Option(
        "--force-strategy", help="Run every query with lexical_heavy, vector_heavy or balanced."
    ),
]
JudgeRepeats = Annotated[
    int, typer.Option("--judge-repeats", help="Grade each explanation n times (mean, spread).")
]
LimitOption = Annotated[
    int | None, typer.Option("--limit", help="Only the first n judged queries (a quick check).")
]
DataOption = Annotated[
    Path | None,
    typer.Option(
        "--data",
        help="A folder with test_queries.json, relevance_judgments.json and "
        "negative_tests.json (default: the packaged set).",
    ),
]


def _run_config(
    config: str,
    disable: list[str] | None,
    force_strategy: str | None,
    judge_repeats: int,
    limit: int | None,
    mmr_lambda: float,
    negative_tests: bool = True,
) -> Any:
    from lectern.application.evaluation.runner import RunConfig

    return RunConfig(
        config=config,
        mmr_lambda=mmr_lambda,
        negative_tests=negative_tests,
        disabled=tuple(dict.fromkeys(disable or [])),  # type: ignore[arg-type]
        force_strategy=cast(Strategy | None, force_strategy),
        judge_repeats=judge_repeats,
        limit=limit,
    )


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


def _print_artifact(artifact: Mapping[str, JSONValue], path: str | None) -> None:
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


@evaluate_app.callback(invoke_without_command=True)
def evaluate(
    ctx: typer.Context,
    config: ConfigOption = "full",
    disable: DisableOption = None,
    force_strategy: StrategyOption = None,
    judge_repeats: JudgeRepeats = 1,
    limit: LimitOption = None,
    data: DataOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the artifact as JSON.")] = False,
    negative: Annotated[
        bool,
        typer.Option(
            "--negative-tests/--no-negative-tests",
            help="Run the negative tests too (each is a search; slow with a local model).",
        ),
    ] = True,
) -> None:
    """Run the judged query set and write a run artifact (data_dir/evaluation/runs/)."""
    if ctx.invoked_subcommand is not None:
        return

    def run() -> None:
        services = _services({"evaluation_data": data})
        run_config = _run_config(
            config,
            disable,
            force_strategy,
            judge_repeats,
            limit,
            services.settings.mmr_lambda,
            negative,
        )
        with _progress_bar() as progress:
            stored = services.evaluation().run(run_config, progress=progress)
        if as_json:
            sys.stdout.write(json.dumps(stored.artifact, ensure_ascii=False, indent=1) + "\n")
        else:
            _print_artifact(stored.artifact, stored.path)

    _guarded(run)


@evaluate_app.command("runs")
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


@evaluate_app.command("show")
def show(
    run_id: Annotated[str, typer.Argument(help="A run id from `lectern evaluate runs`.")],
) -> None:
    """Print one stored run's metrics, targets and negative tests."""
    _guarded(lambda: _print_artifact(_services().evaluation().store.get(run_id), None))


@evaluate_app.command("compare")
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


@evaluate_app.command("ablation")
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
        base = _run_config("full", None, None, judge_repeats, limit, services.settings.mmr_lambda)
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


@evaluate_app.command("exclusions")
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


@evaluate_app.command("label")
def label(
    data: DataOption = None,
    version: Annotated[
        str, typer.Option("--version", help="The version to write into the judgments file.")
    ] = "",
) -> None:
    """Pool (top 20 of BM25, dense, hybrid) and grade by the queries' rules; keeps hand reviews."""
    from importlib import resources

    from lectern.application.evaluation.datasets import (
        DATA_PACKAGE,
        JUDGMENTS_FILE,
        load_judgments,
        load_queries,
    )
    from lectern.application.evaluation.labelling import build_judgments

    def run() -> None:
        services = _services()
        queries = load_queries(data)
        previous = load_judgments(data)
        target = (
            (data / JUDGMENTS_FILE)
            if data is not None
            else Path(str(resources.files(DATA_PACKAGE).joinpath(JUDGMENTS_FILE)))
        )
        with _progress_bar() as progress:
            content = build_judgments(
                services.search(),
                services.catalog,
                queries,
                previous,
                version=version or queries.version,
                progress=progress,
                understanding=services.understanding(),
            )
        target.write_text(
            json.dumps(content, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        judged = cast(Mapping[str, list[Mapping[str, Any]]], content["judgments"])
        pairs = sum(len(v) for v in judged.values())
        relevant = sum(1 for v in judged.values() for p in v if p["grade"] > 0)
        out.print(
            f"{pairs} pairs judged for {len(judged)} queries ({relevant} relevant) -> "
            f"{escape(str(target))}",
            highlight=False,
        )

    _guarded(run)


@evaluate_app.command("fallback")
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


@evaluate_app.command("pages")
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


evaluate_app.command("understanding")(evaluate_understanding)


evaluate_app.command("shelves")(evaluate_shelves)
