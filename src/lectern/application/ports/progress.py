"""How a long task reports its progress (ingests, index builds)."""

from __future__ import annotations

from typing import Protocol


class ProgressReporter(Protocol):
    """Receives progress of long work; the CLI draws bars, tests count calls."""

    def start(self, task: str, total: int | None) -> None:
        """A new stage begins; total is None when unknown."""
        ...

    def advance(self, amount: int = 1) -> None:
        """Some units of the current stage are done."""
        ...
