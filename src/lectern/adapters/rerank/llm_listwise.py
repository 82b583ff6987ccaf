"""Listwise reranking by the configured model (prompt `rerank-listwise-v1`).

The model sees the query and the numbered candidates (each cut to its first words) and
answers with the numbers best first (RankGPT's listwise form, Sun et al., 2023). Numbers it
leaves out keep their fused order after the ones it names; numbers that name no candidate
are ignored; an answer naming none is a failure (the caller then keeps the fused order).
"""

from __future__ import annotations

from collections.abc import Sequence

from lectern.adapters.llm.schemas import RankingLLM
from lectern.application.ports import LLMClient
from lectern.domain.retrieval import RerankCandidate, ScoredId
from lectern.errors import LLMError

PASSAGE_WORDS = 120
"""Each candidate is shown to the model cut to this many words."""


class LlmListwiseReranker:
    """Asks the configured model for the candidates' order."""

    name = "llm"

    def __init__(self, llm: LLMClient, passage_words: int = PASSAGE_WORDS) -> None:
        """The model comes from LECTERN_LLM."""
        self.llm = llm
        self.passage_words = passage_words

    def rerank(self, query: str, candidates: Sequence[RerankCandidate]) -> list[ScoredId]:
        """The model's order; scores fall from 1 by rank."""
        if not candidates:
            return []
        listing = "\n".join(
            f"[{number}] {' '.join(c.text.split()[: self.passage_words])}"
            for number, c in enumerate(candidates, start=1)
        )
        ranking = self.llm.complete(
            "rerank_listwise", {"query": query, "passages": listing}, RankingLLM
        )
        named = [n for n in dict.fromkeys(ranking.order) if 1 <= n <= len(candidates)]
        if not named:
            raise LLMError(f"{self.llm.model_id} ranked none of the {len(candidates)} passages")
        rest = [n for n in range(1, len(candidates) + 1) if n not in set(named)]
        order = [*named, *rest]
        return [ScoredId(candidates[n - 1].id, 1.0 / rank) for rank, n in enumerate(order, start=1)]
