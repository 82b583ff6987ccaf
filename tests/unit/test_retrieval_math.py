import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lectern.application.evaluation.metrics import (
    average_precision,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank_at_k,
)
from lectern.domain.retrieval import (
    ScoredId,
    convex_fusion,
    intra_list_diversity,
    maximal_marginal_relevance,
    pool_sizes,
    reciprocal_rank_fusion,
)


def _ranking(*ids: str) -> list[ScoredId]:
    return [ScoredId(i, 10.0 - n) for n, i in enumerate(ids)]


def test_rrf_by_hand() -> None:
    fused = reciprocal_rank_fusion(
        {"lexical": _ranking("a", "b", "c"), "vector": _ranking("b", "d")}
    )
    assert [h.id for h in fused] == ["b", "a", "d", "c"]
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert fused[1].score == pytest.approx(1 / 61)
    assert fused[0].ranks == {"lexical": 2, "vector": 1}
    assert fused[3].ranks == {"lexical": 3}


def test_weighted_rrf_can_flip_the_order() -> None:
    rankings = {"lexical": _ranking("a", "b"), "vector": _ranking("b", "a")}
    assert reciprocal_rank_fusion(rankings, weights={"lexical": 2.0})[0].id == "a"
    assert reciprocal_rank_fusion(rankings, weights={"vector": 2.0})[0].id == "b"


def test_rrf_ties_are_deterministic_and_duplicates_count_once() -> None:
    fused = reciprocal_rank_fusion({"x": _ranking("b", "b", "a"), "y": _ranking("a", "b")})
    assert [h.id for h in fused] == ["b", "a"]
    assert fused[0].ranks == {"x": 1, "y": 2}


def test_convex_fusion_normalises_scores() -> None:
    rankings = {
        "lexical": [ScoredId("a", 30.0), ScoredId("b", 20.0), ScoredId("c", 10.0)],
        "vector": [ScoredId("c", 0.9), ScoredId("b", 0.8)],
    }
    fused = convex_fusion(rankings, {"lexical": 0.3, "vector": 0.7})
    by_id = {h.id: h.score for h in fused}
    assert by_id["a"] == pytest.approx(0.3)
    assert by_id["b"] == pytest.approx(0.3 * 0.5 + 0.0)
    assert by_id["c"] == pytest.approx(0.7)
    assert fused[0].id == "c"


def test_pool_sizes_follow_the_strategy() -> None:
    assert pool_sizes("lexical_heavy", 100) == (80, 20)
    assert pool_sizes("vector_heavy", 100) == (20, 80)
    assert pool_sizes("balanced", 100) == (50, 50)
    assert pool_sizes("lexical_heavy", 2) == (2, 1)


SIM = [[1.0, 0.99, 0.1], [0.99, 1.0, 0.1], [0.1, 0.1, 1.0]]


def test_mmr_by_hand() -> None:
    relevance = [1.0, 0.9, 0.5]
    assert maximal_marginal_relevance(relevance, SIM, 1.0, 3) == [0, 1, 2]
    # lambda 0.5: item 1 scores 0.5*0.9 - 0.5*0.99 = -0.045, item 2 0.5*0.5 - 0.5*0.1 = 0.2.
    assert maximal_marginal_relevance(relevance, SIM, 0.5, 3) == [0, 2, 1]
    # lambda 0.9: item 1 scores 0.81 - 0.099 = 0.711 and beats item 2 (0.45 - 0.01 = 0.44).
    assert maximal_marginal_relevance(relevance, SIM, 0.9, 3) == [0, 1, 2]
    # Relevance is relative to the best score: scaling every score changes nothing.
    assert maximal_marginal_relevance([0.02, 0.018, 0.01], SIM, 0.5, 3) == [0, 2, 1]
    # Negative scores fall back to min-max: [-1, -2, -3] -> [1, 0.5, 0].
    assert maximal_marginal_relevance([-1.0, -2.0, -3.0], SIM, 0.5, 3) == [0, 2, 1]
    assert maximal_marginal_relevance(relevance, SIM, 0.5, 1) == [0]
    assert maximal_marginal_relevance([], [], 0.5, 3) == []


def test_mmr_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="lambda"):
        maximal_marginal_relevance([1.0], [[1.0]], 1.5, 1)
    with pytest.raises(ValueError, match="square"):
        maximal_marginal_relevance([1.0, 0.5], [[1.0]], 0.5, 1)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=12), st.floats(0, 1), st.integers(1, 15))
def test_mmr_returns_distinct_indexes(relevance: list[float], lambda_: float, k: int) -> None:
    n = len(relevance)
    sim = [[1.0 if i == j else 0.5 for j in range(n)] for i in range(n)]
    chosen = maximal_marginal_relevance(relevance, sim, lambda_, k)
    assert len(chosen) == min(k, n) == len(set(chosen))


def test_intra_list_diversity() -> None:
    assert intra_list_diversity(SIM) == pytest.approx(((1 - 0.99) + 0.9 + 0.9) / 3)
    assert intra_list_diversity([[1.0]]) == 0.0


QRELS = {"d2": 1, "d4": 2, "d5": 1}
RANKING = ["d1", "d2", "d3", "d4"]


def test_metrics_by_hand() -> None:
    dcg = 1 / math.log2(3) + 2 / math.log2(5)
    ideal = 2 / 1 + 1 / math.log2(3) + 1 / 2
    assert ndcg_at_k(RANKING, QRELS, 10) == pytest.approx(dcg / ideal)
    assert ndcg_at_k(RANKING, QRELS, 2) == pytest.approx(
        (1 / math.log2(3)) / (2 + 1 / math.log2(3))
    )
    assert recall_at_k(RANKING, QRELS, 4) == pytest.approx(2 / 3)
    assert recall_at_k(RANKING, QRELS, 1) == 0.0
    assert precision_at_k(RANKING, QRELS, 4) == 0.5
    assert reciprocal_rank_at_k(RANKING, QRELS, 10) == 0.5
    assert reciprocal_rank_at_k(RANKING, QRELS, 1) == 0.0
    assert average_precision(RANKING, QRELS) == pytest.approx((1 / 2 + 2 / 4) / 3)


def test_metrics_of_a_query_without_relevant_documents_are_zero() -> None:
    assert ndcg_at_k(RANKING, {}, 10) == 0.0
    assert recall_at_k(RANKING, {"x": 0}, 10) == 0.0
    assert average_precision(RANKING, {}) == 0.0


def test_perfect_ranking_scores_one() -> None:
    assert ndcg_at_k(["d4", "d2", "d5"], QRELS, 10) == pytest.approx(1.0)
