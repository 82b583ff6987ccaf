"""Evaluation metrics against cases worked out by hand."""

import math
import random

import pytest

from lectern.application.evaluation.metrics import (
    average_precision,
    bootstrap_interval,
    catalog_coverage,
    intra_list_diversity,
    ndcg_at_k,
    paired_randomization_test,
    percentile,
    precision_at_k,
    recall_at_k,
    reciprocal_rank_at_k,
    stdev,
)

QRELS = {"a": 3, "b": 2, "c": 1, "z": 0}
RANKING = ["x", "b", "a", "y", "c"]


def test_graded_ndcg_by_hand() -> None:
    # DCG = 2/log2(3) + 3/log2(4) + 1/log2(6); ideal = 3/1 + 2/log2(3) + 1/log2(4)
    dcg = 2 / math.log2(3) + 3 / 2 + 1 / math.log2(6)
    ideal = 3 + 2 / math.log2(3) + 1 / 2
    assert ndcg_at_k(RANKING, QRELS, 10) == pytest.approx(dcg / ideal)
    assert ndcg_at_k(["a", "b", "c"], QRELS, 3) == pytest.approx(1.0)
    assert ndcg_at_k(RANKING, {"q": 0}, 10) == 0.0  # nothing relevant: 0, not a division error


def test_precision_recall_mrr_and_ap_by_hand() -> None:
    assert precision_at_k(RANKING, QRELS, 5) == pytest.approx(3 / 5)
    assert precision_at_k(RANKING, QRELS, 2) == pytest.approx(1 / 2)
    assert recall_at_k(RANKING, QRELS, 3) == pytest.approx(2 / 3)
    assert reciprocal_rank_at_k(RANKING, QRELS, 10) == pytest.approx(1 / 2)
    assert reciprocal_rank_at_k(RANKING, QRELS, 1) == 0.0
    # relevant at ranks 2, 3, 5: (1/2 + 2/3 + 3/5) / 3
    assert average_precision(RANKING, QRELS) == pytest.approx((1 / 2 + 2 / 3 + 3 / 5) / 3)


def test_intra_list_diversity_is_mean_pairwise_distance() -> None:
    same = [[1.0, 1.0], [1.0, 1.0]]
    assert intra_list_diversity(same) == 0.0
    three = [[1.0, 0.0, 0.5], [0.0, 1.0, 0.5], [0.5, 0.5, 1.0]]
    assert intra_list_diversity(three) == pytest.approx((1.0 + 0.5 + 0.5) / 3)
    assert intra_list_diversity([[1.0]]) == 0.0


def test_catalog_coverage_counts_distinct_books_in_top_k() -> None:
    assert catalog_coverage([["a", "b", "c"], ["b", "d"]], 10, 2) == pytest.approx(3 / 10)
    assert catalog_coverage([], 0, 10) == 0.0


def test_bootstrap_interval_brackets_the_mean_and_repeats() -> None:
    values = [0.1, 0.4, 0.5, 0.9, 0.3, 0.7, 0.2, 0.8]
    low, high = bootstrap_interval(values)
    assert low < sum(values) / len(values) < high
    assert bootstrap_interval(values) == (low, high)  # seeded
    assert bootstrap_interval([0.5] * 5) == (0.5, 0.5)
    assert bootstrap_interval([]) == (0.0, 0.0)


def test_randomization_test_separates_real_from_no_difference() -> None:
    a = [0.2, 0.3, 0.1, 0.4, 0.2, 0.3, 0.25, 0.35, 0.15, 0.3, 0.2, 0.1]
    better = [x + 0.2 for x in a]
    assert paired_randomization_test(a, better) < 0.01
    assert paired_randomization_test(a, a) == 1.0
    noisy = [x + (0.05 if i % 2 else -0.05) for i, x in enumerate(a)]
    assert paired_randomization_test(a, noisy) > 0.5
    with pytest.raises(ValueError, match="equal lengths"):
        paired_randomization_test([0.1], [0.1, 0.2])


def test_stdev() -> None:
    assert stdev([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) == pytest.approx(2.138, abs=1e-3)
    assert stdev([3.0]) == 0.0


def test_percentile_is_nearest_rank() -> None:
    values = [7.0, 1.0, 10.0, 3.0, 5.0, 2.0, 9.0, 4.0, 8.0, 6.0]
    assert percentile(values, 0.5) == 5.0  # the 5th of 10, not an interpolated 5.5
    assert percentile(values, 0.9) == 9.0
    assert percentile(values, 0.95) == 10.0
    assert percentile(values, 0.0) == 1.0 and percentile(values, 1.0) == 10.0
    assert percentile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.0  # the lower middle one
    assert percentile([], 0.95) == 0.0
    with pytest.raises(ValueError, match="between 0 and 1"):
        percentile(values, 95)


def test_percentile_is_the_smallest_value_with_that_share_at_or_below_it() -> None:
    rng = random.Random(3)
    for size in (1, 2, 7, 20, 67, 210):
        values = rng.sample(range(10_000), size)
        for share in (0.5, 0.9, 0.95, 0.99):
            value = percentile([float(v) for v in values], share)
            assert sum(v <= value for v in values) >= share * size
            assert sum(v < value for v in values) < share * size
