"""What an evaluation run switches on and off, and its sizes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lectern.domain.retrieval import DEFAULT_MMR_LAMBDA, Strategy
from lectern.domain.search import DEFAULT_RESULTS
from lectern.errors import InvalidQueryError

Component = Literal["query_understanding", "multi_query", "grounding", "mmr"]
COMPONENTS: tuple[Component, ...] = ("query_understanding", "multi_query", "grounding", "mmr")
STRATEGIES: tuple[Strategy, ...] = ("lexical_heavy", "vector_heavy", "balanced")
CONFIGS = ("full", "baseline")
"""`full`: every component on; `baseline`: every component off (plain hybrid search)."""


@dataclass(frozen=True, slots=True)
class RunConfig:
    """What a run switches on and off, and its sizes."""

    config: str = "full"
    disabled: tuple[Component, ...] = ()
    force_strategy: Strategy | None = None
    k: int = DEFAULT_RESULTS
    depth: int = 100
    mmr_lambda: float = DEFAULT_MMR_LAMBDA
    judge_repeats: int = 1
    limit: int | None = None
    """Only the first n judged queries (quick checks); the artifact says so."""
    negative_tests: bool = True

    def __post_init__(self) -> None:
        """Refuse unknown configs, components and out-of-range sizes with a clear message."""
        if self.config not in CONFIGS:
            raise InvalidQueryError(f"unknown config {self.config!r}: use {' or '.join(CONFIGS)}")
        unknown = [c for c in self.disabled if c not in COMPONENTS]
        if unknown:
            raise InvalidQueryError(
                f"cannot disable {', '.join(unknown)}: choose from {', '.join(COMPONENTS)}"
            )
        if self.force_strategy is not None and self.force_strategy not in STRATEGIES:
            raise InvalidQueryError(
                f"unknown strategy {self.force_strategy!r}: use {', '.join(STRATEGIES)}"
            )
        if not 1 <= self.k <= self.depth <= 100:
            raise InvalidQueryError(
                f"need 1 <= k <= depth <= 100, not k={self.k} depth={self.depth}"
            )
        if not 0.0 <= self.mmr_lambda <= 1.0:
            raise InvalidQueryError(f"MMR lambda must be between 0 and 1, not {self.mmr_lambda}")
        if not 1 <= self.judge_repeats <= 10:
            raise InvalidQueryError(f"judge repeats must be 1..10, not {self.judge_repeats}")
        if self.limit is not None and self.limit < 1:
            raise InvalidQueryError(f"limit must be at least 1, not {self.limit}")

    def enabled(self, component: Component) -> bool:
        """True when the component takes part in this run."""
        return self.config == "full" and component not in self.disabled

    @property
    def label(self) -> str:
        """A short name for tables: `full`, `full -mmr`, `full strategy=lexical_heavy`."""
        parts = [self.config]
        parts += [f"-{c}" for c in self.disabled]
        if self.force_strategy:
            parts.append(f"strategy={self.force_strategy}")
        return " ".join(parts)
