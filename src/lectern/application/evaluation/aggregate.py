"""A run's figures over all its queries, and the specification's targets checked on them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Literal, cast

from lectern.application.evaluation.artifact import jsonable, mean_of
from lectern.application.evaluation.config import RunConfig
from lectern.application.evaluation.grounding import GroundingCheck, grounding_scores
from lectern.application.evaluation.metrics import (
    bootstrap_interval,
    catalog_coverage,
    mean,
    percentile,
    stdev,
)
from lectern.domain.books import JSONValue
from lectern.domain.evaluation import RUBRIC_DIMENSIONS

RANKING_METRICS = (
    "ndcg_at_10",
    "recall_at_100",
    "mrr_at_10",
    "precision_at_5",
    "precision_at_10",
    "average_precision",
    "ild_at_10",
)
QUERY_METRICS = (*RANKING_METRICS, "latency_ms")
"""Per-query metrics every run reports, averaged with bootstrap intervals."""
REPORTED_METRICS = (
    *RANKING_METRICS,
    "ild_at_10_without_mmr",
    "ild_gain_with_mmr",
    "catalog_coverage_at_10",
    "citation_precision",
    "citation_recall",
    "hallucination_rate",
    "latency_p50_ms",
    "latency_p95_ms",
    "exclusion_violation_rate",
    "exclusion_on_topic_rate",
    "exclusion_with_5_results",
    "exclusion_misleading_citations",
)
"""Every single-figure entry of an aggregate, in the order a summary shows them."""
TARGETS: dict[str, tuple[Literal[">=", ">", "<", "<="], float]] = {
    "ndcg_at_10": (">=", 0.50),
    "recall_at_100": (">=", 0.80),
    "mrr_at_10": (">=", 0.50),
    "precision_at_5": (">", 0.60),
    "ild_gain_with_mmr": (">=", 0.10),
    "citation_precision": (">=", 0.90),
    "hallucination_rate": ("<", 0.10),
    "latency_p95_ms": ("<=", 5_000.0),
    **{f"judge.{dimension}": (">", 4.0) for dimension in RUBRIC_DIMENSIONS},
    "exclusion_violation_rate": ("<=", 0.02),
    "exclusion_on_topic_rate": (">=", 0.80),
    "exclusion_with_5_results": (">=", 0.90),
}
"""The specification's targets, checked in every artifact (the exclusion ones: issue 13)."""


@dataclass(slots=True)
class QueryOutcome:
    """One judged query's record in the artifact, and what the aggregate needs beside it."""

    record: dict[str, JSONValue]
    checks: list[GroundingCheck] = field(default_factory=list)
    judge_scores: dict[str, list[float]] = field(default_factory=dict)
    """Rubric dimension -> the judge's mean grade of each explanation."""
    shown: list[str] = field(default_factory=list)
    """Ids of the books shown, for catalog coverage."""

    def metric(self, name: str) -> float | None:
        """One per-query metric, None when this query did not measure it."""
        metrics = cast(dict[str, float], self.record["metrics"])
        return float(metrics[name]) if name in metrics else None


def aggregate(
    outcomes: Sequence[QueryOutcome], config: RunConfig, catalog_books: int
) -> dict[str, JSONValue]:
    """Means with bootstrap intervals, latency percentiles, diversity, coverage, grounding."""
    summary: dict[str, JSONValue] = {"queries": len(outcomes)}
    for name in (*QUERY_METRICS, "ild_at_10_without_mmr"):
        values = [v for o in outcomes if (v := o.metric(name)) is not None]
        if not values:
            continue
        low, high = bootstrap_interval(values)
        summary[name] = {"mean": round(mean(values), 4), "ci95": [round(low, 4), round(high, 4)]}
    latencies = [float(cast(dict[str, float], o.record["metrics"])["latency_ms"]) for o in outcomes]
    summary["latency_p50_ms"] = round(percentile(latencies, 0.50), 2)
    summary["latency_p95_ms"] = round(percentile(latencies, 0.95), 2)
    with_mmr = mean_of(summary, "ild_at_10")
    without = mean_of(summary, "ild_at_10_without_mmr")
    summary["ild_gain_with_mmr"] = (
        round(with_mmr / without - 1.0, 4)
        if config.enabled("mmr") and with_mmr is not None and without
        else None
    )
    summary["catalog_coverage_at_10"] = round(
        catalog_coverage([o.shown for o in outcomes], catalog_books, config.k), 6
    )
    checks = [c for o in outcomes for c in o.checks]
    if not checks:
        summary["citation_precision"] = None
        summary["citation_recall"] = None
        summary["hallucination_rate"] = None
        return summary
    scores = grounding_scores(checks)
    summary["grounding"] = jsonable(asdict(scores))
    summary["citation_precision"] = round(scores.citation_precision, 4)
    summary["citation_recall"] = round(scores.citation_recall, 4)
    summary["hallucination_rate"] = round(scores.hallucination_rate, 4)
    judge: dict[str, JSONValue] = {}
    for dimension in RUBRIC_DIMENSIONS:
        values = [v for o in outcomes for v in o.judge_scores.get(dimension, [])]
        low, high = bootstrap_interval(values)
        judge[dimension] = {
            "mean": round(mean(values), 3),
            "spread": round(stdev(values), 3),
            "ci95": [round(low, 3), round(high, 3)],
        }
    summary["judge"] = judge
    return summary


def check_targets(aggregate: Mapping[str, JSONValue]) -> dict[str, JSONValue]:
    """Each target with the run's value and whether it is met (None: not measured)."""
    report: dict[str, JSONValue] = {}
    for name, (operator, bound) in TARGETS.items():
        section, _, figure = name.rpartition(".")
        inner = aggregate.get(section) if section else aggregate
        value = mean_of(cast(Mapping[str, JSONValue], inner or {}), figure)
        met: bool | None
        if value is None:
            met = None
        elif operator == ">=":
            met = value >= bound
        elif operator == ">":
            met = value > bound
        elif operator == "<":
            met = value < bound
        else:
            met = value <= bound
        report[name] = {"target": f"{operator} {bound}", "value": value, "met": met}
    return report
