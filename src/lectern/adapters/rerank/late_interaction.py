"""Late-interaction reranking: MaxSim over the MiniLM token vectors the embedder computes.

ColBERT's scoring (Khattab and Zaharia, 2020) without ColBERT's training: each query token
takes its best cosine against the passage's tokens, and the passage scores the mean. The
token vectors are the ONNX model's last hidden state before mean pooling; a passage's are
computed when it is first reranked and kept in a bounded cache.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from lectern.domain.retrieval import RerankCandidate, ScoredId

CACHE_PASSAGES = 2_048
"""Passages whose token vectors are kept (about 0.1 MB each as float32)."""


class TokenVectorModel(Protocol):
    """An embedder that exposes its unit token vectors (`OnnxMiniLMEmbedder`)."""

    def token_vectors(self, texts: Sequence[str]) -> list[npt.NDArray[np.float32]]:
        """(tokens, dimension) unit vectors per text."""
        ...


class MaxSimReranker:
    """Scores each candidate by MaxSim between the query's and its token vectors."""

    name = "late-interaction"

    def __init__(self, model: TokenVectorModel, cache_size: int = CACHE_PASSAGES) -> None:
        """Token vectors of passages are cached by (id, text)."""
        self.model = model
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, str], npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()

    def rerank(self, query: str, candidates: Sequence[RerankCandidate]) -> list[ScoredId]:
        """Candidates by MaxSim, best first (ties keep the given order)."""
        if not candidates:
            return []
        query_tokens = self.model.token_vectors([query])[0]
        passages = self._passage_vectors(candidates)
        scores = [maxsim(query_tokens, p) for p in passages]
        order = sorted(range(len(candidates)), key=lambda i: (-scores[i], i))
        return [ScoredId(candidates[i].id, scores[i]) for i in order]

    def _passage_vectors(
        self, candidates: Sequence[RerankCandidate]
    ) -> list[npt.NDArray[np.float32]]:
        keys = [(c.id, c.text) for c in candidates]
        with self._lock:
            known = {k: self._cache[k] for k in keys if k in self._cache}
            for key in known:
                self._cache.move_to_end(key)
        missing = [k for k in dict.fromkeys(keys) if k not in known]
        if missing:
            computed = self.model.token_vectors([text for _, text in missing])
            with self._lock:
                for key, vectors in zip(missing, computed, strict=True):
                    known[key] = vectors
                    self._cache[key] = vectors
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return [known[k] for k in keys]


def maxsim(query: npt.NDArray[np.float32], passage: npt.NDArray[np.float32]) -> float:
    """Mean over query tokens of the best cosine with any passage token (0 when empty)."""
    if query.size == 0 or passage.size == 0:
        return 0.0
    return float((query @ passage.T).max(axis=1).mean())
