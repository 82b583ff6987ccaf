"""`lectern evaluate answering`: knowledge-base replies on ClapNQ and research citations.

Figures and their definitions: `application/evaluation/answering/`; the run is stored with
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
    with_perturbed: bool = True,
    with_threads: bool = True,
    research_set: str = "measured",
    research_only: bool = False,
    progress: RichProgress | None = None,
    build: Callable[[Settings], Services] | None = None,
) -> tuple[dict[str, JSONValue], str]:
    """ClapNQ replies and the research questions, stored with the other evaluation runs.

    With `tune`, the ClapNQ questions also run without a relevance floor (the sweep); with
    `research_only`, only the research questions run (no ClapNQ, twins, support or threads).
    """
    from lectern.application.evaluation.answering import (
        ReplyEvaluation,
        answering_artifact,
        load_clapnq,
        load_research_questions,
        load_support_questions,
        perturbed_cases,
        research_records,
    )
    from lectern.application.evaluation.perturbed import make_twins
    from lectern.bootstrap import bootstrap, git_commit, new_run_id

    make = build or bootstrap

    if research_only:
        tune, with_perturbed, with_threads, support_collection = False, False, False, None
    cases = [] if research_only else load_clapnq(clapnq)
    if limit:
        answerable = [c for c in cases if c.answerable][:limit]
        cases = answerable + [c for c in cases if not c.answerable][:limit]

    def replies(
        chosen: Settings,
        label: str,
        name: str = collection,
        questions: Any = None,
        splits: Any = None,
    ) -> list[Any]:
        asked = cases if questions is None else questions
        services = make(chosen)
        evaluation = ReplyEvaluation(services.kb_replier(), services.knowledge_bases(), name)
        if progress is None:
            return evaluation.run(asked, splits=splits)
        progress.start(label, len(asked))
        return evaluation.run(asked, lambda _: progress.advance(), splits=splits)

    started_at = datetime.now(UTC).isoformat()
    sweep = None
    if tune:
        free = settings.model_copy(update={"ai_min_relevance": 0.0, "ai_min_coverage": 0.0})
        sweep = replies(free, "ClapNQ without a floor")
    records = [] if research_only else replies(settings, "ClapNQ replies")
    perturbed = None
    if with_perturbed:
        twin_cases, twin_splits = perturbed_cases(load_clapnq(clapnq), make_twins(clapnq))
        perturbed = replies(settings, "perturbed twins", collection, twin_cases, twin_splits)
    support = None
    if support_collection:
        _, support_cases = load_support_questions()
        support = replies(settings, "support questions", support_collection, support_cases)
    threads = None
    if with_threads:
        from lectern.application.evaluation.conversations import (
            clapnq_conversations,
            load_fastapi_conversations,
            run_threads,
        )

        thread_cases = clapnq_conversations(clapnq, collection)
        if support_collection:
            thread_cases += load_fastapi_conversations(support_collection)
        thread_services = make(settings)
        if progress is not None:
            progress.start("conversations", sum(len(c.turns) for c in thread_cases))
        threads = run_threads(
            thread_services.kb_replier(),
            thread_cases,
            progress.advance if progress is not None else None,
        )
    services = make(settings)
    version, questions = load_research_questions(name=research_set)
    research = (
        research_records(services.research(), research_collection, questions)
        if research_collection
        else []
    )
    config: dict[str, JSONValue] = {
        "label": f"answering ({settings.llm})",
        "llm": settings.llm,
        "collection": collection,
        "research_collection": research_collection,
        "research_set": research_set,
        "research_only": research_only,
        "ai_min_relevance": settings.ai_min_relevance,
        "ai_min_coverage": settings.ai_min_coverage,
        "ai_max_sources": settings.ai_max_sources,
        "ai_max_answer_chars": settings.ai_max_answer_chars,
        "ai_enable_verification": settings.ai_enable_verification,
        "limit": limit,
        "support_collection": support_collection,
        "ai_answer_check": settings.ai_answer_check,
        "ai_answer_model": str(settings.ai_answer_model or "packaged"),
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
        perturbed=perturbed,
        threads=threads,
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
        str, typer.Option(help="The collection of KEV and ATT&CK records ('': no research).")
    ] = "threats",
    research_set: Annotated[
        str,
        typer.Option(
            help="The research questions: 'measured' (38, never tuned on), 'dev', 'dev2' or "
            "'dev3' (the citation rules' dev sets), or the path of a set file of the same schema."
        ),
    ] = "measured",
    research_only: Annotated[
        bool,
        typer.Option(help="Only the research questions (no ClapNQ, twins or conversations)."),
    ] = False,
    misses: Annotated[
        bool,
        typer.Option(
            help="Also print each research question not fully right (gold and cited records); "
            "dev sets only, never the measured set."
        ),
    ] = False,
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
    train_gate: Annotated[
        bool,
        typer.Option(
            "--train-gate",
            help="Train the answer check on ClapNQ and its perturbed twins and write its "
            "model file (then evaluate nothing).",
        ),
    ] = False,
    gate_model: Annotated[
        Path | None,
        typer.Option(help="With --train-gate: where to write the model (default: packaged)."),
    ] = None,
    gate_terse: Annotated[
        bool,
        typer.Option(
            help="With --train-gate: also train on each question asked as a terse request."
        ),
    ] = True,
    as_json: JsonOption = False,
) -> None:
    """Knowledge-base replies on ClapNQ and research citations, stored as a run."""
    if misses and research_set == "measured":
        raise typer.BadParameter(
            "the measured set is held out: its questions are not printed; use --research-set "
            "dev, dev2 or dev3",
            param_hint="--misses",
        )

    def run() -> None:
        services = _services()
        if train_gate:
            from lectern.bootstrap import packaged_answer_model, train_answer_gate

            target = gate_model or packaged_answer_model()
            with _progress_bar() as progress:
                trained = train_answer_gate(
                    services.settings,
                    clapnq,
                    collection,
                    target,
                    progress=progress,
                    terse=gate_terse,
                )
            out.print(json.dumps(trained["report"], indent=1), soft_wrap=True)
            err.print(f"answer check model written to {target}")
            return
        with _progress_bar() as progress:
            artifact, path = run_answering_evaluation(
                services.settings,
                clapnq,
                collection,
                research_collection,
                tune=tune,
                limit=limit,
                support_collection=support_collection,
                research_set=research_set,
                research_only=research_only,
                progress=progress,
            )
        if as_json:
            sys.stdout.write(json.dumps(artifact, indent=1) + "\n")
            return
        replies = cast(dict[str, dict[str, JSONValue]], artifact["replies"])
        for split in () if research_only else ("all", "held_out"):
            figures = replies[split]
            out.print(
                f"{split}: balanced accuracy {figures['balanced_accuracy']}, precision "
                f"{figures['precision']}, recall {figures['recall']}, gold sentence hit "
                f"{figures['gold_sentence_hit']}, token F1 {figures['token_f1']}, citations "
                f"valid {figures['citations_valid']}, p50/p95 {figures['latency_p50_ms']}/"
                f"{figures['latency_p95_ms']} ms; reflection {json.dumps(figures['reflection'])}"
            )
        if not research_only:
            out.print(f"BM25 baseline: {json.dumps(artifact['bm25_baseline'])}", soft_wrap=True)
        if "relevance_sweep" in artifact:
            out.print(f"relevance sweep: {json.dumps(artifact['relevance_sweep'])}", soft_wrap=True)
        out.print(f"research: {json.dumps(artifact['research'])}", soft_wrap=True)
        if misses:
            from lectern.application.evaluation.answering.research import (
                ResearchRecord,
                research_misses,
            )

            records = cast(list[dict[str, Any]], artifact["research_records"])
            for line in research_misses([ResearchRecord(**r) for r in records]):
                out.print(f"  {line}", soft_wrap=True)
        if "transfer" in artifact:
            out.print(f"transfer: {json.dumps(artifact['transfer'])}", soft_wrap=True)
        if "perturbed" in artifact:
            perturbed = cast(dict[str, dict[str, JSONValue]], artifact["perturbed"])
            for split in ("train", "dev", "test"):
                if split in perturbed:
                    figures = perturbed[split]
                    out.print(
                        f"perturbed {split}: balanced accuracy {figures['balanced_accuracy']}, "
                        f"precision {figures['precision']}, recall {figures['recall']}, "
                        f"gold sentence hit {figures['gold_sentence_hit']}, citations valid "
                        f"{figures['citations_valid']}"
                    )
            out.print(f"perturbed BM25 baseline: {json.dumps(perturbed['bm25_baseline'])}")
        if "conversations" in artifact:
            out.print(f"conversations: {json.dumps(artifact['conversations'])}", soft_wrap=True)
        err.print(f"run {artifact['run_id']} stored at {path}")

    _guarded(run)
