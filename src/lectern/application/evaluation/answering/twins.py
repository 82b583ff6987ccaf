"""Perturbed twins: each unanswerable twin beside its answerable original, per passage split."""

from __future__ import annotations

from collections.abc import Sequence

from lectern.application.evaluation.answering.replies import (
    ClapnqCase,
    ReplyRecord,
    best_threshold,
    decision_figures,
    reply_figures,
)
from lectern.application.evaluation.perturbed import PerturbedCase
from lectern.domain.books import JSONValue


def perturbed_cases(
    cases: Sequence[ClapnqCase], twins: Sequence[PerturbedCase]
) -> tuple[list[ClapnqCase], dict[str, str]]:
    """Each twin (unanswerable) beside its original (answerable), and their passage splits."""
    by_id = {c.id: c for c in cases}
    chosen: list[ClapnqCase] = []
    splits: dict[str, str] = {}
    for twin in twins:
        original = by_id.get(twin.original_id)
        if original is None:
            continue
        chosen.append(original)
        chosen.append(ClapnqCase(twin.id, twin.question, False, "", ()))
        splits[original.id] = splits[twin.id] = twin.split
    return chosen, splits


def threshold_baseline(
    records: Sequence[ReplyRecord], tune_split: str, splits: Sequence[str]
) -> dict[str, JSONValue]:
    """The BM25 top-score threshold tuned on `tune_split`, applied to each split."""
    tune = [r for r in records if r.split == tune_split]
    threshold, _ = best_threshold([r.top_lexical for r in tune], [r.answerable for r in tune])
    report: dict[str, JSONValue] = {"tuned_on": tune_split, "threshold": round(threshold, 4)}
    for split in splits:
        subset = [r for r in records if r.split == split]
        predicted = [r.top_lexical is not None and r.top_lexical >= threshold for r in subset]
        figures = decision_figures(predicted, [r.answerable for r in subset])
        report[split] = figures["balanced_accuracy"]
    return report


def perturbed_figures(records: Sequence[ReplyRecord]) -> dict[str, JSONValue]:
    """Reply figures of the twins and their originals per passage split, and the baseline."""
    splits = ("train", "dev", "test")
    figures: dict[str, JSONValue] = {
        split: reply_figures([r for r in records if r.split == split])
        for split in splits
        if any(r.split == split for r in records)
    }
    figures["bm25_baseline"] = threshold_baseline(records, "train", splits)
    return figures
