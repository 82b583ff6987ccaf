"""Where evaluation runs are kept."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from lectern.domain.books import (
    JSONValue,
)


class EvaluationRunStore(Protocol):
    """Where evaluation run artifacts are kept."""

    def save(self, artifact: Mapping[str, JSONValue]) -> str:
        """Store one run (keyed by its `run_id`); returns where it went."""
        ...

    def list(self) -> list[dict[str, JSONValue]]:
        """A summary of every stored run, newest first."""
        ...

    def get(self, run_id: str) -> dict[str, JSONValue]:
        """One run's artifact; EvaluationRunNotFoundError when absent."""
        ...
