"""LLM call traces as JSON lines in the data directory, rotated by size.

Rotation and thread safety come from the standard library's `RotatingFileHandler`; this
module only turns traces into lines and back.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import asdict
from datetime import datetime
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

from lectern.domain.tracing import LLMCallTrace

TRACE_FILE = "llm-calls.jsonl"


class JsonlTraceWriter:
    """Appends one JSON object per LLM call to `<folder>/llm-calls.jsonl`."""

    def __init__(self, folder: Path, *, max_bytes: int = 20_000_000, backups: int = 5) -> None:
        """Keep at most `backups` rotated files of about `max_bytes` each."""
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / TRACE_FILE
        self._backups = backups
        self._handler = RotatingFileHandler(
            self.path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8", delay=True
        )
        self._handler.setFormatter(logging.Formatter("%(message)s"))
        self._lock = threading.Lock()

    def record(self, trace: LLMCallTrace) -> None:
        """Append one trace; a trace that cannot be written is reported, never raised."""
        line = json.dumps(_to_json(trace), ensure_ascii=False, default=str)
        record = logging.LogRecord("lectern.llm", logging.INFO, "", 0, line, None, None)
        with self._lock:
            self._handler.emit(record)
            # Closed after each line (reopened by the next): no file stays open between
            # calls, and a crash never leaves a buffered trace behind.
            self._handler.close()

    def last(self, count: int) -> list[LLMCallTrace]:
        """The newest `count` traces across the current and rotated files, oldest first."""
        if count <= 0:
            return []
        files = [self.path.with_name(f"{TRACE_FILE}.{n}") for n in range(self._backups, 0, -1)]
        lines: list[str] = []
        for path in [*files, self.path]:
            if path.is_file():
                lines.extend(path.read_text(encoding="utf-8").splitlines())
        traces = []
        for line in lines[-count:]:
            try:
                traces.append(_from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                continue  # a torn or hand-edited line is skipped, not fatal
        return traces

    def close(self) -> None:
        """Release the file."""
        self._handler.close()


def _to_json(trace: LLMCallTrace) -> dict[str, Any]:
    data = asdict(trace)
    data["time"] = trace.time.isoformat()
    return data


def _from_json(data: dict[str, Any]) -> LLMCallTrace:
    data = dict(data)
    data["time"] = datetime.fromisoformat(data["time"])
    return LLMCallTrace(**data)
