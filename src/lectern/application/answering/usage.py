"""Token usage per reply: a tracer that also adds up the calls of the runs it watches."""

from __future__ import annotations

import threading

from lectern.application.ports import LLMTracer
from lectern.domain.answering import TokenCount
from lectern.domain.tracing import LLMCallTrace


class UsageMeter:
    """`LLMTracer` that hands every trace on and sums tokens for watched run ids."""

    def __init__(self, inner: LLMTracer | None = None) -> None:
        """Wrap the trace writer (None: count only)."""
        self.inner = inner
        self._runs: dict[str, TokenCount] = {}
        self._lock = threading.Lock()

    def watch(self, run_id: str) -> None:
        """Start adding up the calls of this run."""
        with self._lock:
            self._runs[run_id] = TokenCount()

    def pop(self, run_id: str) -> TokenCount:
        """The run's total, and stop watching it."""
        with self._lock:
            return self._runs.pop(run_id, TokenCount())

    def record(self, trace: LLMCallTrace) -> None:
        """Count the call for its run (when watched), then write it."""
        if trace.run_id is not None:
            with self._lock:
                count = self._runs.get(trace.run_id)
                if count is not None:
                    self._runs[trace.run_id] = TokenCount(
                        count.input_tokens + (trace.input_tokens or 0),
                        count.output_tokens + (trace.output_tokens or 0),
                        count.calls + 1,
                    )
        if self.inner is not None:
            self.inner.record(trace)

    def last(self, count: int) -> list[LLMCallTrace]:
        """The wrapped writer's newest traces."""
        return self.inner.last(count) if self.inner is not None else []
