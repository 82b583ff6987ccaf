"""Grades of an explanation by a judge: three dimensions, 1 to 5, each with its reason."""

from __future__ import annotations

from dataclasses import dataclass

from lectern.errors import LLMError

RUBRIC_DIMENSIONS = ("groundedness", "clarity", "relevance")
MAX_REASON_CHARS = 200


@dataclass(frozen=True, slots=True)
class RubricScore:
    """One dimension's grade: 1 (poor) .. 5 (excellent), and why."""

    score: int
    reason: str

    def __post_init__(self) -> None:
        """Refuse grades off the scale and reasons longer than 200 characters."""
        if not 1 <= self.score <= 5:
            raise LLMError(f"a rubric score must be 1..5, not {self.score}")
        if len(self.reason) > MAX_REASON_CHARS:
            raise LLMError(f"a rubric reason must be at most {MAX_REASON_CHARS} characters")


@dataclass(frozen=True, slots=True)
class RubricJudgment:
    """How a judge graded one explanation of one result for one query."""

    groundedness: RubricScore
    clarity: RubricScore
    relevance: RubricScore
    model: str
    heuristic: bool
    """True when a deterministic heuristic graded it, not a generative model."""

    def scores(self) -> dict[str, int]:
        """Dimension name to score."""
        return {name: getattr(self, name).score for name in RUBRIC_DIMENSIONS}
