"""`lectern evaluate`: the judged query set run, and every evaluation registered as a command.

The run itself is the group's callback here; each other evaluation is a function in its own
module (`evaluate_runs.py`, `evaluate_ablation.py`, ...), registered below in the order
`--help` lists them. A new evaluation: a module with one function, and one line below.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from lectern.entrypoints.cli.common import _guarded, _progress_bar, _services
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
from lectern.entrypoints.cli.evaluate_shelves import evaluate_shelves
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

evaluate_app.command("shelves")(evaluate_shelves)

evaluate_app.command("answering")(evaluate_answering)
