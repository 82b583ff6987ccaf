"""IR metrics on plain rankings, with trec_eval's definitions.

`ranking` is a list of document ids, best first; `qrels` maps document id to a graded
relevance (0 = not relevant). nDCG uses linear gain (rel / log2(rank + 1)) as
trec_eval's `ndcg_cut` and BEIR do.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence


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
