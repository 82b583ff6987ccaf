"""Evaluation run artifacts as JSON files: `{data_dir}/evaluation/runs/{run_id}.json`."""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import cast

from lectern.domain.books import JSONValue
from lectern.errors import EvaluationRunNotFoundError

_RUN_ID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
SUMMARY_METRICS = (
    "ndcg_at_10",
    "recall_at_100",
    "mrr_at_10",
    "citation_precision",
    "hallucination_rate",
    "latency_p95_ms",
)


def _summary(artifact: Mapping[str, JSONValue]) -> dict[str, JSONValue]:
    aggregate = cast(Mapping[str, JSONValue], artifact.get("aggregate") or {})
    config = cast(Mapping[str, JSONValue], artifact.get("config") or {})
    metrics: dict[str, JSONValue] = {}
    for name in SUMMARY_METRICS:
        value = aggregate.get(name)
        metrics[name] = value.get("mean") if isinstance(value, dict) else value
    negative = cast(list[dict[str, JSONValue]], artifact.get("negative_tests") or [])
    return {
        "run_id": artifact.get("run_id"),
        "started_at": artifact.get("started_at"),
        "label": config.get("label"),
        "git_commit": artifact.get("git_commit"),
        "queries": aggregate.get("queries"),
        "failures": len(cast(list[JSONValue], artifact.get("failures") or [])),
        "negative_passed": sum(1 for t in negative if t.get("passed")),
        "negative_total": len(negative),
        "metrics": metrics,
    }


class JsonRunStore:
    """One pretty-printed JSON file per run, written atomically (no half-written runs)."""

    def __init__(self, directory: Path) -> None:
        """Runs live in `directory`; it is created on the first save."""
        self.directory = directory

    def path_of(self, run_id: str) -> Path:
        """The file of a run; refuses anything that is not a UUID (no path tricks)."""
        if not _RUN_ID.match(run_id):
            raise EvaluationRunNotFoundError(f"{run_id!r} is not a run id (a UUID)")
        return self.directory / f"{run_id}.json"

    def save(self, artifact: Mapping[str, JSONValue]) -> str:
        """Write the run; returns its path."""
        path = self.path_of(str(artifact["run_id"]))
        self.directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(artifact, out, ensure_ascii=False, indent=1)
                out.write("\n")
            Path(temporary).replace(path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return str(path)

    def list(self) -> list[dict[str, JSONValue]]:
        """Summaries of every readable run, newest first (UUIDv7 ids sort by time)."""
        if not self.directory.is_dir():
            return []
        summaries = []
        for path in sorted(self.directory.glob("*.json"), reverse=True):
            try:
                artifact = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # a foreign or damaged file is not a run
            if isinstance(artifact, dict) and artifact.get("run_id") == path.stem:
                summaries.append(_summary(artifact))
        return summaries

    def get(self, run_id: str) -> dict[str, JSONValue]:
        """The artifact of one run."""
        path = self.path_of(run_id)
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as error:
            raise EvaluationRunNotFoundError(
                f"no evaluation run {run_id}: `lectern evaluate runs` lists them"
            ) from error
        except ValueError as error:
            raise EvaluationRunNotFoundError(f"run {run_id} is damaged: {error}") from error
        return cast(dict[str, JSONValue], loaded)
