"""`lectern beir-eval`: retrieval quality on a public BEIR data set."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from lectern.application.evaluation.beir import METHODS
from lectern.bootstrap import beir_evaluation
from lectern.domain.retrieval import DEFAULT_STRATEGY
from lectern.entrypoints.cli.common import StrategyOption, _fail, _guarded, _progress_bar
from lectern.entrypoints.cli.render import print_beir_run
from lectern.observability import configure_logging
from lectern.settings import load_settings

beir_app = typer.Typer()

MethodChoice = Literal["bm25", "dense", "hybrid", "all"]


@beir_app.command("beir-eval")
def beir_eval(
    corpus: Annotated[Path, typer.Option(help="corpus.jsonl or corpus.jsonl.gz (BEIR format).")],
    queries: Annotated[Path, typer.Option(help="queries.jsonl.")],
    qrels: Annotated[Path, typer.Option(help="qrels.tsv: query-id, corpus-id, score.")],
    method: Annotated[
        MethodChoice, typer.Option(help="bm25, dense, hybrid, or all three.")
    ] = "all",
    strategy: StrategyOption = DEFAULT_STRATEGY,
    mmr: Annotated[
        float | None,
        typer.Option(help="Re-order the hybrid top 50 by MMR with this lambda in [0, 1]."),
    ] = None,
) -> None:
    """nDCG@10, Recall@100 and MRR@10 on a BEIR data set; the corpus index is cached."""

    def run() -> None:
        settings = load_settings()
        configure_logging(settings.log_level, settings.log_format)
        if mmr is not None and not 0.0 <= mmr <= 1.0:
            raise _fail(f"--mmr must be between 0 and 1, not {mmr}")
        evaluation = beir_evaluation(settings)
        loaded = evaluation.load(corpus, queries, qrels)
        with _progress_bar() as progress:
            result = evaluation.run(
                loaded,
                METHODS if method == "all" else (method,),
                strategy=strategy,
                mmr_lambda=mmr,
                progress=progress,
            )
        print_beir_run(result)

    _guarded(run)
