"""`lectern evaluate answering`: knowledge-base replies on ClapNQ and research citations.

Figures and their definitions: `application/evaluation/answering.py`; the run is stored with
the other evaluation runs (`lectern evaluate runs` lists it).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

from lectern.domain.books import JSONValue
from lectern.entrypoints.cli.common import (
    RichProgress,
    _guarded,
    _progress_bar,
    _services,
    err,
    out,
)
from lectern.settings import Settings

if TYPE_CHECKING:
    from lectern.bootstrap import Services

JsonOption = Annotated[bool, typer.Option("--json", help="Print the whole artifact as JSON.")]


def run_answering_evaluation(
    settings: Settings,
    clapnq: Path,
    collection: str,
    research_collection: str,
    *,
    tune: bool = False,
    limit: int | None = None,
    support_collection: str | None = None,
    progress: RichProgress | None = None,
    build: Callable[[Settings], Services] | None = None,
) -> tuple[dict[str, JSONValue], str]:
    """ClapNQ replies and the research questions, stored with the other evaluation runs.

    With `tune`, the ClapNQ questions also run without a relevance floor (the sweep).
    """
    from lectern.application.evaluation.answering import (
        ReplyEvaluation,
        answering_artifact,
        load_clapnq,
        load_research_questions,
        load_support_questions,
        research_records,
    )
    from lectern.bootstrap import bootstrap, git_commit, new_run_id

    make = build or bootstrap

    cases = load_clapnq(clapnq)
    if limit:
        answerable = [c for c in cases if c.answerable][:limit]
        cases = answerable + [c for c in cases if not c.answerable][:limit]

    def replies(
        chosen: Settings, label: str, name: str = collection, questions: Any = None
    ) -> list[Any]:
        asked = cases if questions is None else questions
        services = make(chosen)
        evaluation = ReplyEvaluation(services.kb_replier(), services.knowledge_bases(), name)
        if progress is None:
            return evaluation.run(asked)
        progress.start(label, len(asked))
        return evaluation.run(asked, lambda _: progress.advance())

    started_at = datetime.now(UTC).isoformat()
    sweep = None
    if tune:
        free = settings.model_copy(update={"ai_min_relevance": 0.0, "ai_min_coverage": 0.0})
        sweep = replies(free, "ClapNQ without a floor")
    records = replies(settings, "ClapNQ replies")
    support = None
    if support_collection:
        _, support_cases = load_support_questions()
        support = replies(settings, "support questions", support_collection, support_cases)
    services = make(settings)
    version, questions = load_research_questions()
    research = research_records(services.research(), research_collection, questions)
    config: dict[str, JSONValue] = {
        "label": f"answering ({settings.llm})",
        "llm": settings.llm,
        "collection": collection,
        "research_collection": research_collection,
        "ai_min_relevance": settings.ai_min_relevance,
        "ai_min_coverage": settings.ai_min_coverage,
        "ai_max_sources": settings.ai_max_sources,
        "ai_max_answer_chars": settings.ai_max_answer_chars,
        "ai_enable_verification": settings.ai_enable_verification,
        "limit": limit,
        "support_collection": support_collection,
    }
    artifact = answering_artifact(
        records,
        research,
        run_id=new_run_id(),
        started_at=started_at,
        git_commit=git_commit(),
        config=config,
        research_version=version,
        sweep=sweep,
        support=support,
    )
    return artifact, services.evaluation().store.save(artifact)


def evaluate_answering(
    clapnq: Annotated[
        Path, typer.Option(help="The ClapNQ dev folder (answerable and unanswerable files).")
    ] = Path("../shared/data/qa/clapnq-dev"),
    collection: Annotated[
        str, typer.Option(help="The collection of ClapNQ's passages (`clapnq` mapping).")
    ] = "clapnq",
    research_collection: Annotated[
        str, typer.Option(help="The collection of KEV and ATT&CK records.")
    ] = "threats",
    tune: Annotated[
        bool, typer.Option(help="Also run without a relevance floor and pick one on half.")
    ] = False,
    limit: Annotated[
        int | None, typer.Option(help="Only the first n questions of each ClapNQ file.")
    ] = None,
    support_collection: Annotated[
        str | None,
        typer.Option(help="Also the FastAPI support questions over this collection (transfer)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Knowledge-base replies on ClapNQ and research citations, stored as a run."""

    def run() -> None:
        services = _services()
        with _progress_bar() as progress:
            artifact, path = run_answering_evaluation(
                services.settings,
                clapnq,
                collection,
                research_collection,
                tune=tune,
                limit=limit,
                support_collection=support_collection,
                progress=progress,
            )
        if as_json:
            sys.stdout.write(json.dumps(artifact, indent=1) + "\n")
            return
        replies = cast(dict[str, dict[str, JSONValue]], artifact["replies"])
        for split in ("all", "held_out"):
            figures = replies[split]
            out.print(
                f"{split}: balanced accuracy {figures['balanced_accuracy']}, precision "
                f"{figures['precision']}, recall {figures['recall']}, gold sentence hit "
                f"{figures['gold_sentence_hit']}, token F1 {figures['token_f1']}, citations "
                f"valid {figures['citations_valid']}, p50/p95 {figures['latency_p50_ms']}/"
                f"{figures['latency_p95_ms']} ms; reflection {json.dumps(figures['reflection'])}"
            )
        out.print(f"BM25 baseline: {json.dumps(artifact['bm25_baseline'])}", soft_wrap=True)
        if "relevance_sweep" in artifact:
            out.print(f"relevance sweep: {json.dumps(artifact['relevance_sweep'])}", soft_wrap=True)
        out.print(f"research: {json.dumps(artifact['research'])}", soft_wrap=True)
        if "transfer" in artifact:
            out.print(f"transfer: {json.dumps(artifact['transfer'])}", soft_wrap=True)
        err.print(f"run {artifact['run_id']} stored at {path}")

    _guarded(run)
