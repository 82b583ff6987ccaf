"""One answering run's artifact: every figure, the acceptance targets and the records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import cast

from lectern.application.evaluation.answering.replies import (
    ReplyRecord,
    bm25_baseline,
    relevance_sweep,
    reply_figures,
    transfer_figures,
)
from lectern.application.evaluation.answering.research import (
    ResearchRecord,
    research_figures,
)
from lectern.application.evaluation.answering.twins import perturbed_figures
from lectern.application.evaluation.conversations import (
    TurnRecord,
    thread_figures,
    thread_records_json,
)
from lectern.domain.books import JSONValue

TARGETS = {
    "balanced_accuracy": 0.75,
    "gold_sentence_hit": 0.70,
    "citations_valid": 1.0,
    "latency_p95_ms": 200.0,
}
"""The issue's acceptance figures for the offline defaults (latency: at most)."""


def targets_met(figures: Mapping[str, JSONValue]) -> dict[str, JSONValue]:
    """Each acceptance target, the value reached and whether it is met."""
    report: dict[str, JSONValue] = {}
    for name, target in TARGETS.items():
        value = figures.get(name)
        met = isinstance(value, int | float) and (
            value <= target if name == "latency_p95_ms" else value >= target
        )
        report[name] = {"target": target, "value": value, "met": bool(met)}
    return report


def records_json(records: Sequence[ReplyRecord | ResearchRecord]) -> list[JSONValue]:
    """Records as JSON for the artifact."""
    return [cast(JSONValue, asdict(r)) for r in records]


def answering_artifact(
    records: Sequence[ReplyRecord],
    research: Sequence[ResearchRecord],
    *,
    run_id: str,
    started_at: str,
    git_commit: str,
    config: Mapping[str, JSONValue],
    research_version: str = "",
    sweep: Sequence[ReplyRecord] | None = None,
    support: Sequence[ReplyRecord] | None = None,
    perturbed: Sequence[ReplyRecord] | None = None,
    threads: Sequence[TurnRecord] | None = None,
) -> dict[str, JSONValue]:
    """One run's artifact: reply figures, baseline, sweep, research figures, targets, records.

    Reply figures per half and in all; the BM25 baseline from the same run; the relevance
    sweep when a run without a floor (`sweep`) is given.
    """
    figures: dict[str, dict[str, JSONValue]] = {
        "all": reply_figures(records),
        "tune": reply_figures([r for r in records if r.split == "tune"]),
        "held_out": reply_figures([r for r in records if r.split == "held_out"]),
    }
    artifact: dict[str, JSONValue] = {
        "run_id": run_id,
        "kind": "answering",
        "started_at": started_at,
        "git_commit": git_commit,
        "config": dict(config),
        "replies": cast(JSONValue, figures),
        "bm25_baseline": bm25_baseline(records),
        "targets": {split: targets_met(figures[split]) for split in ("all", "held_out")},
        "research": {"questions_version": research_version, **research_figures(research)},
        "records": records_json(records),
        "research_records": records_json(research),
    }
    if sweep is not None:
        artifact["relevance_sweep"] = relevance_sweep(sweep)
    if support is not None:
        artifact["transfer"] = transfer_figures(support)
        artifact["transfer_records"] = records_json(support)
    if perturbed is not None:
        artifact["perturbed"] = perturbed_figures(perturbed)
        artifact["perturbed_records"] = records_json(perturbed)
    if threads is not None:
        by_set = {
            "clapnq": [r for r in threads if r.case.startswith("clapnq")],
            "fastapi": [r for r in threads if not r.case.startswith("clapnq")],
        }
        artifact["conversations"] = {
            name: thread_figures(subset) for name, subset in by_set.items() if subset
        }
        artifact["conversation_records"] = thread_records_json(threads)
    return artifact
