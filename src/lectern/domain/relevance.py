"""The relative relevance gate: keep what scores near the best, whatever the score's scale."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def near_the_top(
    items: Sequence[T], score: Callable[[T], float], min_share: float
) -> tuple[list[T], int]:
    """The items scoring at least `min_share` of the top score, and how many were dropped.

    Relative to the top item, so the gate means the same under convex fusion, RRF and
    cosine similarity (their absolute scales differ by orders of magnitude). When the top
    score is not positive no share can be taken, and every item is kept.
    """
    if not items:
        return [], 0
    top = max(score(item) for item in items)
    if top <= 0:
        return list(items), 0
    kept = [item for item in items if score(item) / top >= min_share]
    return kept, len(items) - len(kept)
