"""Reranking after fusion: the head of the fused list re-ordered, failures degrade to fusion."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import structlog

from lectern.application.ports import Reranker
from lectern.application.timing import elapsed_ms
from lectern.domain.retrieval import DEFAULT_RERANK_DEPTH, FusedHit, RerankCandidate, reorder_hits

log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class Reranked:
    """Hits after reranking, how long it took, and why it did not happen when it did not."""

    hits: list[FusedHit]
    elapsed_ms: float
    failure: str | None = None


def rerank_head(
    reranker: Reranker | None,
    query: str,
    hits: Sequence[FusedHit],
    texts: Callable[[Sequence[str]], Mapping[str, str]],
    depth: int = DEFAULT_RERANK_DEPTH,
) -> Reranked:
    """The first `depth` hits in the reranker's order, then the rest as fused.

    `texts` gives the text of each candidate id. Any failure of the reranker keeps the fused
    order (logged, and said in `failure`): a search never fails because of a reranker.
    """
    if reranker is None or len(hits) < 2:
        return Reranked(list(hits), 0.0)
    started = time.perf_counter()
    head = list(hits[:depth])
    try:
        known = texts([h.id for h in head])
        candidates = [RerankCandidate(h.id, known[h.id]) for h in head if h.id in known]
        order = [s.id for s in reranker.rerank(query, candidates)]
    except Exception as error:  # noqa: BLE001 - any reranker failure degrades to fusion
        failure = f"{reranker.name} reranking failed: {type(error).__name__}: {error}"
        log.warning("rerank failed", reranker=reranker.name, error=str(error))
        return Reranked(list(hits), elapsed_ms(started), failure)
    return Reranked([*reorder_hits(head, order), *hits[depth:]], elapsed_ms(started))
