"""`lectern evaluate`: the judged query set run, and every evaluation registered as a command.

The run itself is the group's callback here; each other evaluation is a function in its own
module (`evaluate_runs.py`, `evaluate_ablation.py`, ...), registered below in the order
`--help` lists them. A new evaluation: a module with one function, and one line below.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from lectern.entrypoints.cli.common import _fail, _guarded, _progress_bar, _services, out
from lectern.entrypoints.cli.evaluate_ablation import ablation
from lectern.entrypoints.cli.evaluate_answering import evaluate_answering
from lectern.entrypoints.cli.evaluate_exclusions import exclusions
from lectern.entrypoints.cli.evaluate_fallback import fallback
from lectern.entrypoints.cli.evaluate_label import label
from lectern.entrypoints.cli.evaluate_options import (
    ConfigOption,
    DataOption,
    DisableOption,
    JudgeRepeats,
    LimitOption,
    StrategyOption,
    make_run_config,
)
from lectern.entrypoints.cli.evaluate_pages import pages
from lectern.entrypoints.cli.evaluate_runs import compare, print_artifact, runs, show
from lectern.entrypoints.cli.evaluate_understanding import evaluate_understanding

evaluate_app = typer.Typer(
    help="Measure search and explanations on the judged query set (docs/evaluation.md).",
)


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
        run_config = make_run_config(
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
            print_artifact(stored.artifact, stored.path)

    _guarded(run)


evaluate_app.command("runs")(runs)
evaluate_app.command("show")(show)
evaluate_app.command("compare")(compare)
evaluate_app.command("ablation")(ablation)
evaluate_app.command("exclusions")(exclusions)
evaluate_app.command("label")(label)
evaluate_app.command("fallback")(fallback)
evaluate_app.command("pages")(pages)


evaluate_app.command("understanding")(evaluate_understanding)


@evaluate_app.command("shelves")
def shelves(
    split: Annotated[
        str, typer.Option("--split", help="dev, test or all (both, side by side).")
    ] = "all",
    tags: Annotated[
        Path | None,
        typer.Option(
            "--tags",
            help="The goodbooks-10k-tags folder (default: LECTERN_DATA_MIRROR/goodbooks-10k-tags).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """The reader-shelf benchmark: default search beside plain BM25 and plain dense."""
    from lectern.application.evaluation import shelves as bench

    if split not in ("dev", "test", "all"):
        _fail(f"--split must be dev, test or all, not {split!r}")

    def run() -> None:
        services = _services({})
        folder = tags
        if folder is None:
            mirror = services.settings.data_mirror
            if mirror is None:
                _fail("name the goodbooks-10k-tags folder with --tags (no LECTERN_DATA_MIRROR)")
            folder = Path(str(mirror)) / "goodbooks-10k-tags"
        retriever = services.retriever()
        group_of = retriever.lexical.group_of
        found = bench.catalog_works(services.catalog.iter_batches(), group_of)
        queries = bench.build_queries(bench.read_shelves(folder), found.works.get, found.words_of)
        methods = {
            **bench.baseline_rankers(retriever),
            "default": bench.search_ranker(services.search(), services.understanding()),
        }
        with _progress_bar() as progress:
            scores = bench.run(queries, methods, group_of, progress=progress)
        shown = [s for s in scores if split == "all" or s.split == split]
        if as_json:
            rows = [
                {
                    "method": s.method,
                    "split": s.split,
                    "queries": s.queries,
                    "ndcg@10": round(s.ndcg_at_10, 4),
                    "recall@100": round(s.recall_at_100, 4),
                    "mrr@10": round(s.mrr_at_10, 4),
                }
                for s in shown
            ]
            sys.stdout.write(json.dumps(rows, indent=1) + "\n")
            return
        table = Table(title=f"Shelf benchmark ({len(queries)} reader shelves, seed {bench.SEED})")
        for column in ("method", "split", "queries", "nDCG@10", "Recall@100", "MRR@10"):
            table.add_column(column)
        for s in shown:
            table.add_row(
                s.method,
                s.split,
                str(s.queries),
                f"{s.ndcg_at_10:.4f}",
                f"{s.recall_at_100:.4f}",
                f"{s.mrr_at_10:.4f}",
            )
        out.print(table)

    _guarded(run)


evaluate_app.command("answering")(evaluate_answering)
