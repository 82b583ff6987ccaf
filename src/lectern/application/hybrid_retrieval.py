"""The retriever every corpus shares: BM25 and vector candidates, fused into one list.

It works on any passages (books, BEIR abstracts, collection passages); what books need on
top of it (filters, one edition per work, MMR) is `search.py`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence, Set
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from lectern.application.ports import (
    Embedder,
    LexicalIndex,
    Vector,
    VectorIndex,
)
from lectern.application.timing import elapsed_ms as _ms
from lectern.domain.retrieval import (
    DEFAULT_STRATEGY,
    FusedHit,
    FusionMethod,
    ScoredId,
    Strategy,
    convex_fusion,
    maximal_marginal_relevance,
    pool_sizes,
    reciprocal_rank_fusion,
)


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """Tunable knobs of retrieval; defaults follow DESIGN.md section 4."""

    rrf_k: int = 60
    fusion: FusionMethod = "rrf"
    weights: Mapping[str, float] = field(default_factory=lambda: {"lexical": 1.0, "vector": 1.0})
    """Per-method weights: RRF multipliers, or convex-combination weights."""
    candidate_pool: int = 100
    """Candidates per variation, split between methods by the strategy."""
    mmr_candidates: int = 50
    """How many fused candidates MMR chooses from."""
    lexical_enabled: bool = True
    """False: vector-only retrieval (BM25 still answers when the vector side cannot)."""
    shelf_weights: Mapping[str, float] | None = None
    """Weights for a request the plan read as naming catalog shelves (None: `weights`).

    A shelf's words are in its books' lexical text (readers' shelves are the categories),
    where the embedding of a short subject is blurrier, so such requests may lean on BM25."""
    lexical_tail: int = 0
    """BM25 candidates past the fused pool, appended after every fused one in BM25 order.

    They deepen the list (Recall@100, a second page) without entering fusion, so the fused
    scores, MMR and the first page stay what the pool alone gives."""


@dataclass(frozen=True, slots=True)
class Retrieval:
    """Fused candidates and how they were obtained."""

    hits: list[FusedHit]
    degraded: bool
    degraded_reason: str | None
    timings_ms: dict[str, float]


def _tail(
    hits: Sequence[FusedHit], tails: Mapping[str, Sequence[ScoredId]], depth: int
) -> list[FusedHit]:
    """Candidates only past the pool, below every fused hit, the first variation's first.

    `depth` is how many each ranking had in the pool: a tail's ranks continue from there.
    """
    seen = {h.id for h in hits}
    floor = min((h.score for h in hits), default=0.0)
    extra: list[FusedHit] = []
    for name, ranking in tails.items():
        for position, hit in enumerate(ranking, start=1):
            if hit.id not in seen:
                seen.add(hit.id)
                rank = {name: depth + position}
                extra.append(FusedHit(hit.id, floor, rank, {name: hit.score}))
    return extra


class HybridRetriever:
    """Lexical and vector candidates for each query variation, fused into one list."""

    def __init__(
        self,
        lexical: LexicalIndex,
        vector: VectorIndex | None,
        embedder: Embedder | None,
        config: SearchConfig | None = None,
        *,
        unavailable_reason: str | None = None,
    ) -> None:
        """Without a vector index or embedder the retriever answers from BM25 alone."""
        self.lexical = lexical
        self.vector = vector if embedder is not None else None
        self.embedder = embedder if vector is not None else None
        self.config = config or SearchConfig()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed")
        self.unavailable_reason = unavailable_reason or (
            None if self.vector is not None else "the vector index or embedder is not available"
        )

    def _embed(self, texts: Sequence[str]) -> tuple[list[Vector], float]:
        """Vectors of the texts, and the milliseconds it took."""
        assert self.embedder is not None
        start = time.perf_counter()
        vectors = self.embedder.embed(list(texts))
        return vectors, _ms(start)

    @property
    def has_vectors(self) -> bool:
        """True when the vector side can answer."""
        return self.vector is not None

    def retrieve(
        self,
        variations: Sequence[str],
        strategy: Strategy = DEFAULT_STRATEGY,
        allowed: Set[str] | None = None,
        *,
        pool: int | None = None,
        seeds: Sequence[str] = (),
        method_weights: Mapping[str, float] | None = None,
    ) -> Retrieval:
        """Fuse lexical and vector rankings of every variation (RRF across all of them).

        `seeds` are passage ids whose stored vectors are searched too ("books like X"):
        one more vector ranking each, fused with the rest. `method_weights` replace the
        configured fusion weights for this call.
        """
        chosen_weights = method_weights or self.config.weights
        lexical_k, vector_k = pool_sizes(strategy, pool or self.config.candidate_pool)
        if allowed is not None:
            # Filters act inside both indexes (masks), so every candidate is allowed: a pool
            # larger than the allowed books only costs a wider top-k.
            lexical_k, vector_k = (max(1, min(n, len(allowed))) for n in (lexical_k, vector_k))
        tail = self.config.lexical_tail
        if allowed is not None:
            tail = max(0, min(tail, len(allowed) - lexical_k))
        rankings: dict[str, list[ScoredId]] = {}
        timings = {"lexical_ms": 0.0, "embed_ms": 0.0, "vector_ms": 0.0}
        degraded_reason = self.unavailable_reason
        weights: dict[str, float] = {}
        # The embedder runs on its own thread (ONNX Runtime releases the GIL) while BM25
        # ranks on this one: the two costs overlap instead of adding up.
        embedding = self._executor.submit(self._embed, variations) if self.vector else None
        lexical_variations = variations if self.config.lexical_enabled or not self.vector else ()
        if not self.config.lexical_enabled and not self.vector:
            degraded_reason = f"BM25 is switched off but {degraded_reason}: answering from BM25"
        for number, text in enumerate(lexical_variations):
            suffix = "" if number == 0 else f":{number}"
            start = time.perf_counter()
            rankings[f"lexical{suffix}"] = self.lexical.search(text, lexical_k + tail, allowed)
            timings["lexical_ms"] += _ms(start)
            weights[f"lexical{suffix}"] = chosen_weights.get("lexical", 1.0)
        if embedding is not None and self.vector is not None:
            try:
                start = time.perf_counter()
                vectors, timings["embed_ms"] = embedding.result()
                timings["embed_wait_ms"] = _ms(start)
                start = time.perf_counter()
                for number, vector in enumerate(vectors):
                    suffix = "" if number == 0 else f":{number}"
                    rankings[f"vector{suffix}"] = self.vector.search(vector, vector_k, allowed)
                    weights[f"vector{suffix}"] = chosen_weights.get("vector", 1.0)
                for number, seed in enumerate(seeds):
                    stored = self.vector.vector_of(seed)
                    if stored is not None:
                        key = f"vector:like{number}"
                        rankings[key] = self.vector.search(stored, vector_k, allowed)
                        weights[key] = chosen_weights.get("vector", 1.0)
                timings["vector_ms"] = _ms(start)
            except Exception as error:  # noqa: BLE001 - any vector failure degrades to BM25
                degraded_reason = f"the vector side failed: {type(error).__name__}: {error}"
                rankings = {k: v for k, v in rankings.items() if not k.startswith("vector")}
                if not self.config.lexical_enabled:
                    for number, text in enumerate(variations):
                        suffix = "" if number == 0 else f":{number}"
                        rankings[f"lexical{suffix}"] = self.lexical.search(text, lexical_k, allowed)
                        weights[f"lexical{suffix}"] = chosen_weights.get("lexical", 1.0)
        start = time.perf_counter()
        lexical_names = [name for name in rankings if name.startswith("lexical")]
        tails = {name: rankings[name][lexical_k:] for name in lexical_names}
        rankings.update({name: rankings[name][:lexical_k] for name in lexical_names})
        if self.config.fusion == "convex":
            hits = convex_fusion(rankings, weights)
        else:
            hits = reciprocal_rank_fusion(rankings, k=self.config.rrf_k, weights=weights)
        hits += _tail(hits, tails, lexical_k)
        timings["fusion_ms"] = _ms(start)
        return Retrieval(hits, degraded_reason is not None, degraded_reason, timings)

    def degraded_reason_for(self, methods: Sequence[str]) -> str | None:
        """Why these methods cannot run as asked, or None when they can."""
        needs_vectors = any(m in {"dense", "hybrid"} for m in methods)
        return self.unavailable_reason if needs_vectors and not self.has_vectors else None

    def diversify(
        self, hits: Sequence[FusedHit], k: int, mmr_lambda: float | None
    ) -> list[FusedHit]:
        """The first k hits, re-ordered by MMR over the top candidates when lambda is set.

        Similarity is the cosine of the stored vectors; without vectors the order is kept.
        """
        if mmr_lambda is None or self.vector is None or len(hits) <= 1:
            return list(hits[:k])
        pool = hits[: max(k, self.config.mmr_candidates)]
        similarity = self.vector.similarities([h.id for h in pool])
        order = maximal_marginal_relevance([h.score for h in pool], similarity, mmr_lambda, k)
        return [pool[i] for i in order]

    def lexical_only(self, text: str, k: int) -> list[ScoredId]:
        """BM25 alone, for measuring it."""
        return self.lexical.search(text, k)

    def vector_only(self, text: str, k: int) -> list[ScoredId]:
        """Dense retrieval alone, for measuring it; empty without a vector side."""
        if self.vector is None or self.embedder is None:
            return []
        return self.vector.search(self.embedder.embed([text])[0], k)
