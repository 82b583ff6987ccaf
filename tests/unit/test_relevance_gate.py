"""The relative relevance gate that book and passage gates share."""

from lectern.domain.relevance import near_the_top


def test_keeps_what_scores_the_share_of_the_top_on_any_scale() -> None:
    for scale in (1.0, 0.01, 1000.0):
        scores = {"a": 1.0 * scale, "b": 0.5 * scale, "c": 0.49 * scale}
        kept, dropped = near_the_top(list(scores), scores.__getitem__, 0.5)
        assert (kept, dropped) == (["a", "b"], 1)


def test_keeps_everything_when_the_top_score_is_not_positive() -> None:
    scores = {"a": 0.0, "b": -1.0}
    assert near_the_top(list(scores), scores.__getitem__, 0.5) == (["a", "b"], 0)
    assert near_the_top([], scores.__getitem__, 0.5) == ([], 0)
