"""IR metrics on plain rankings, with trec_eval's definitions.

`ranking` is a list of document ids, best first; `qrels` maps document id to a graded
relevance (0 = not relevant). nDCG uses linear gain (rel / log2(rank + 1)) as
trec_eval's `ndcg_cut` and BEIR do.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence

from lectern.domain.retrieval import intra_list_diversity

__all__ = [
    "average_precision",
    "bootstrap_interval",
    "catalog_coverage",
    "dcg_at_k",
    "intra_list_diversity",
    "mean",
    "ndcg_at_k",
    "paired_randomization_test",
    "percentile",
    "precision_at_k",
    "recall_at_k",
    "reciprocal_rank_at_k",
    "stdev",
]


def dcg_at_k(gains: Sequence[float], k: int) -> float:
    """Discounted cumulative gain of the first k gains."""
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains[:k]))


def ndcg_at_k(ranking: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """nDCG@k; 0 when the query has no relevant document."""
    ideal = dcg_at_k(sorted((r for r in qrels.values() if r > 0), reverse=True), k)
    if ideal == 0:
        return 0.0
    return dcg_at_k([max(qrels.get(d, 0), 0) for d in ranking], k) / ideal


def recall_at_k(ranking: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """Share of the relevant documents found in the first k."""
    relevant = {d for d, r in qrels.items() if r > 0}
    if not relevant:
        return 0.0
    return len(relevant.intersection(ranking[:k])) / len(relevant)


def precision_at_k(ranking: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """Share of the first k positions holding a relevant document (k in the denominator)."""
    if k <= 0:
        return 0.0
    return sum(1 for d in ranking[:k] if qrels.get(d, 0) > 0) / k


def reciprocal_rank_at_k(ranking: Sequence[str], qrels: Mapping[str, int], k: int) -> float:
    """1 / rank of the first relevant document within the first k, else 0."""
    for position, doc in enumerate(ranking[:k], start=1):
        if qrels.get(doc, 0) > 0:
            return 1.0 / position
    return 0.0


def average_precision(ranking: Sequence[str], qrels: Mapping[str, int]) -> float:
    """Mean of precision at each relevant document's rank, over all relevant documents."""
    relevant = {d for d, r in qrels.items() if r > 0}
    if not relevant:
        return 0.0
    hits = 0
    total = 0.0
    for position, doc in enumerate(ranking, start=1):
        if doc in relevant:
            hits += 1
            total += hits / position
    return total / len(relevant)


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean; 0 for no values."""
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def catalog_coverage(rankings: Iterable[Sequence[str]], catalog_size: int, k: int) -> float:
    """Share of the catalog that appears in at least one top-k list."""
    if catalog_size <= 0:
        return 0.0
    shown = {doc for ranking in rankings for doc in ranking[:k]}
    return len(shown) / catalog_size


def stdev(values: Sequence[float]) -> float:
    """Sample standard deviation; 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(sum((v - centre) ** 2 for v in values) / (len(values) - 1))


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with `share` (0..1) of all at or below it.

    0 for no values. Latency figures of runs and benches all come from here, so they agree.
    """
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"a percentile's share must be between 0 and 1, not {share}")
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def bootstrap_interval(
    values: Sequence[float], *, confidence: float = 0.95, samples: int = 2_000, seed: int = 7
) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean (seeded: runs repeat exactly)."""
    if not values:
        return (0.0, 0.0)
    rng = random.Random(seed)
    size = len(values)
    means = sorted(sum(rng.choices(values, k=size)) / size for _ in range(samples))
    tail = (1.0 - confidence) / 2
    # Bounds round outward (floor below, ceil above), so the interval never comes out
    # narrower than the interpolated one; `percentile` would move each bound one step in.
    low = means[int(tail * (samples - 1))]
    high = means[int(math.ceil((1.0 - tail) * (samples - 1)))]
    return (low, high)


def paired_randomization_test(
    a: Sequence[float], b: Sequence[float], *, samples: int = 10_000, seed: int = 7
) -> float:
    """Two-sided p-value that the mean of paired differences b - a is zero.

    Sign-flip randomisation (Fisher; Smucker et al., 2007 recommend it for IR): under the
    null each query's difference is as likely negative as positive. The +1 terms keep the
    estimate from claiming p = 0 after finitely many samples.
    """
    if len(a) != len(b):
        raise ValueError(f"paired test needs equal lengths, not {len(a)} and {len(b)}")
    differences = [y - x for x, y in zip(a, b, strict=True)]
    if not differences:
        return 1.0
    observed = abs(sum(differences))
    if observed == 0:
        return 1.0
    rng = random.Random(seed)
    extreme = 0
    for _ in range(samples):
        total = sum(d if rng.random() < 0.5 else -d for d in differences)
        if abs(total) >= observed - 1e-12:
            extreme += 1
    return (extreme + 1) / (samples + 1)
