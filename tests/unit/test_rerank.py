"""Reranking after fusion, and the BM25 switch: orders, scores, failures, the adapters."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest

from lectern.adapters.rerank.late_interaction import MaxSimReranker, maxsim
from lectern.adapters.rerank.llm_listwise import LlmListwiseReranker
from lectern.application.hybrid_retrieval import HybridRetriever, SearchConfig
from lectern.application.rerank import rerank_head
from lectern.domain.retrieval import FusedHit, RerankCandidate, ScoredId, reorder_hits
from lectern.errors import LLMError
from tests.fakes import FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

HITS = [FusedHit("a", 0.9), FusedHit("b", 0.6), FusedHit("c", 0.5), FusedHit("d", 0.1)]
TEXTS = {"a": "apples", "b": "bananas", "c": "cherries and bananas", "d": "dates"}


def _texts(ids: Sequence[str]) -> dict[str, str]:
    return {i: TEXTS[i] for i in ids}


class Reverse:
    name = "reverse"

    def __init__(self) -> None:
        self.seen: list[list[RerankCandidate]] = []

    def rerank(self, query: str, candidates: Sequence[RerankCandidate]) -> list[ScoredId]:
        del query
        self.seen.append(list(candidates))
        return [ScoredId(c.id, float(n)) for n, c in enumerate(reversed(candidates))]


class Broken:
    name = "broken"

    def rerank(self, query: str, candidates: Sequence[RerankCandidate]) -> list[ScoredId]:
        del query, candidates
        raise RuntimeError("model unreachable")


def test_the_head_is_reordered_and_keeps_the_fused_score_scale() -> None:
    reverse = Reverse()
    result = rerank_head(reverse, "q", HITS, _texts, depth=3)
    assert [h.id for h in result.hits] == ["c", "b", "a", "d"]
    assert [h.score for h in result.hits] == [0.9, 0.6, 0.5, 0.1]
    assert [c.text for c in reverse.seen[0]] == ["apples", "bananas", "cherries and bananas"]
    assert result.failure is None


def test_a_failing_reranker_keeps_the_fused_order() -> None:
    result = rerank_head(Broken(), "q", HITS, _texts)
    assert [h.id for h in result.hits] == ["a", "b", "c", "d"]
    assert result.failure is not None and "model unreachable" in result.failure


def test_no_reranker_changes_nothing() -> None:
    assert rerank_head(None, "q", HITS, _texts).hits == HITS


def test_an_order_that_names_few_or_unknown_ids_keeps_the_rest_in_fused_order() -> None:
    assert [h.id for h in reorder_hits(HITS, ["d", "zz", "d", "b"])] == ["d", "b", "a", "c"]


class Tokens:
    """One unit vector per distinct word: MaxSim then counts shared words."""

    def __init__(self) -> None:
        self.vocabulary: dict[str, int] = {}
        self.calls: list[list[str]] = []

    def token_vectors(self, texts: Sequence[str]) -> list[npt.NDArray[np.float32]]:
        self.calls.append(list(texts))
        out = []
        for text in texts:
            rows = []
            for word in text.split():
                index = self.vocabulary.setdefault(word, len(self.vocabulary))
                row = np.zeros(64, dtype=np.float32)
                row[index] = 1.0
                rows.append(row)
            out.append(np.array(rows, dtype=np.float32).reshape(-1, 64))
        return out


def test_late_interaction_scores_by_maxsim_and_caches_passages() -> None:
    tokens = Tokens()
    reranker = MaxSimReranker(tokens)
    candidates = [RerankCandidate(i, TEXTS[i]) for i in "abc"]
    first = reranker.rerank("cherries bananas", candidates)
    assert [s.id for s in first] == ["c", "b", "a"]
    assert [s.score for s in first] == [1.0, 0.5, 0.0]
    reranker.rerank("apples", candidates)
    assert tokens.calls[-1] == ["apples"]  # the passages' vectors came from the cache
    assert maxsim(np.zeros((0, 64), np.float32), np.ones((2, 64), np.float32)) == 0.0


class Ranking:
    model_id = "fake-llm"

    def __init__(self, order: list[int] | Exception) -> None:
        self.order = order
        self.prompts: list[dict[str, str]] = []

    def complete(self, prompt_id, variables, schema, *, run_id=None):  # type: ignore[no-untyped-def]
        del run_id
        assert prompt_id == "rerank_listwise"
        self.prompts.append(dict(variables))
        if isinstance(self.order, Exception):
            raise self.order
        return schema(order=self.order)


def test_llm_listwise_takes_the_models_order_and_completes_it() -> None:
    llm = Ranking([3, 9, 3, 1])
    reranker = LlmListwiseReranker(llm)  # type: ignore[arg-type]
    order = reranker.rerank("q", [RerankCandidate(i, TEXTS[i]) for i in "abcd"])
    assert [s.id for s in order] == ["c", "a", "b", "d"]
    assert "[3] cherries and bananas" in llm.prompts[0]["passages"]
    with pytest.raises(LLMError, match="ranked none"):
        LlmListwiseReranker(Ranking([42])).rerank("q", [RerankCandidate("a", "x")])  # type: ignore[arg-type]
    failing = LlmListwiseReranker(Ranking(LLMError("down")))  # type: ignore[arg-type]
    assert rerank_head(failing, "q", HITS, _texts).failure is not None


def _retriever(embedder: FakeEmbedder, lexical_enabled: bool) -> HybridRetriever:
    texts = {"1": "dragon city", "2": "cozy village mystery", "3": "dark city thief"}
    vectors = FakeVectorIndex(FakeEmbedder(embedder.vocabulary), texts)
    return HybridRetriever(
        FakeLexicalIndex(texts),
        vectors,
        embedder,
        SearchConfig(fusion="convex", lexical_enabled=lexical_enabled),
    )


def test_with_bm25_off_only_vectors_rank_and_nothing_is_degraded() -> None:
    embedder = FakeEmbedder(["dragon", "city", "cozy", "village", "mystery", "dark", "thief"])
    retrieval = _retriever(embedder, lexical_enabled=False).retrieve(["dark city"])
    assert all(set(h.ranks) == {"vector"} for h in retrieval.hits)
    assert not retrieval.degraded and retrieval.hits[0].id == "3"


def test_with_bm25_off_and_no_vectors_bm25_answers_and_says_so() -> None:
    broken = FakeEmbedder(["dark", "city"], fail=True)
    retrieval = _retriever(broken, lexical_enabled=False).retrieve(["dark city"])
    assert retrieval.degraded and "vector side failed" in (retrieval.degraded_reason or "")
    assert retrieval.hits and all(set(h.ranks) == {"lexical"} for h in retrieval.hits)
    alone = HybridRetriever(
        FakeLexicalIndex({"1": "dark city"}), None, None, SearchConfig(lexical_enabled=False)
    ).retrieve(["dark city"])
    assert alone.degraded and "BM25 is switched off" in (alone.degraded_reason or "")
    assert [h.id for h in alone.hits] == ["1"]
