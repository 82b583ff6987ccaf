"""The options several `lectern evaluate` commands share, and the run configuration they make."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, cast

import typer

from lectern.domain.retrieval import Strategy

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


def make_run_config(
    config: str,
    disable: list[str] | None,
    force_strategy: str | None,
    judge_repeats: int,
    limit: int | None,
    mmr_lambda: float,
    negative_tests: bool = True,
) -> Any:
    """The `RunConfig` these options ask for (imported here: `--help` loads no evaluation)."""
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
