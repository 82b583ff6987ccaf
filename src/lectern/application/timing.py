"""Timings as every service reports them: milliseconds since a `time.perf_counter()` reading."""

from __future__ import annotations

import time


def elapsed_ms(start: float) -> float:
    """Milliseconds since `start` (a `time.perf_counter()` value), to the microsecond."""
    return round((time.perf_counter() - start) * 1000, 3)
