"""Two runs side by side: per-metric means on their shared queries, with paired p-values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from lectern.application.evaluation.aggregate import QUERY_METRICS
from lectern.application.evaluation.artifact import aggregate_mean
from lectern.application.evaluation.metrics import mean, paired_randomization_test
from lectern.domain.books import JSONValue

RUN_METRICS = ("citation_precision", "citation_recall", "hallucination_rate")
"""Figures measured over a whole run, not per query: compared without a p-value."""


def per_query(artifact: Mapping[str, JSONValue], metric: str) -> dict[str, float]:
    """Query id -> value of one metric in one run."""
    values: dict[str, float] = {}
    for record in cast(list[dict[str, JSONValue]], artifact.get("queries", [])):
        metrics = cast(dict[str, float], record.get("metrics", {}))
        if metric in metrics:
            values[str(record["query_id"])] = float(metrics[metric])
    return values


def compare_runs(
    first: Mapping[str, JSONValue], second: Mapping[str, JSONValue]
) -> list[dict[str, JSONValue]]:
    """Per-metric means of both runs on their shared queries, delta and paired p-value."""
    rows: list[dict[str, JSONValue]] = []
    for metric in QUERY_METRICS:
        a, b = per_query(first, metric), per_query(second, metric)
        shared = sorted(set(a) & set(b))
        if not shared:
            continue
        left = [a[q] for q in shared]
        right = [b[q] for q in shared]
        rows.append(
            {
                "metric": metric,
                "queries": len(shared),
                "a": round(mean(left), 4),
                "b": round(mean(right), 4),
                "delta": round(mean(right) - mean(left), 4),
                "p_value": round(paired_randomization_test(left, right), 4),
            }
        )
    for metric in RUN_METRICS:
        a_value = aggregate_mean(first, metric)
        b_value = aggregate_mean(second, metric)
        if a_value is None or b_value is None:
            continue
        rows.append(
            {
                "metric": metric,
                "queries": None,
                "a": a_value,
                "b": b_value,
                "delta": round(b_value - a_value, 4),
                "p_value": None,
            }
        )
    return rows
