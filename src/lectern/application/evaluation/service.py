"""Evaluation runs for the CLI and the HTTP API: run, store, list, compare, ablate.

HTTP callers start a run in the background and poll for it; one run at a time, because a
run uses the machine's cores and two at once would only measure each other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Literal, cast

import structlog

from lectern.application.evaluation.artifact import aggregate_mean
from lectern.application.evaluation.compare import compare_runs
from lectern.application.evaluation.config import COMPONENTS, STRATEGIES, RunConfig
from lectern.application.evaluation.datasets import EvaluationDataset
from lectern.application.evaluation.runner import EvaluationRunner
from lectern.application.ports import EvaluationRunStore, ProgressReporter
from lectern.domain.books import JSONValue
from lectern.errors import EvaluationBusyError

log = structlog.get_logger(__name__)


RunStatus = Literal["running", "finished", "failed"]


@dataclass(frozen=True, slots=True)
class StoredRun:
    """A finished run and where its artifact went."""

    run_id: str
    path: str
    artifact: dict[str, JSONValue]


def ablation_configs(base: RunConfig) -> list[RunConfig]:
    """Full, full without each component, and full with each strategy forced."""
    full = replace(base, config="full", disabled=(), force_strategy=None)
    configs = [full]
    configs += [replace(full, disabled=(component,)) for component in COMPONENTS]
    configs += [replace(full, force_strategy=strategy) for strategy in STRATEGIES]
    return configs


def _cell(value: float | None, places: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{places}f}"


def ablation_table(artifacts: Sequence[Mapping[str, JSONValue]]) -> str:
    """A Markdown table of the runs, the first one (full) as the reference for deltas."""
    header = (
        "| configuration | nDCG@10 | Δ nDCG@10 (p) | Recall@100 | MRR@10 | ILD@10 | "
        "citation precision | hallucination rate | p95 latency (ms) | exclusions: "
        "violations | on topic | 5+ results |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    reference = artifacts[0] if artifacts else None
    for artifact in artifacts:
        label = str(cast(Mapping[str, JSONValue], artifact["config"])["label"])
        delta = "(reference)"
        if reference is not None and artifact is not reference:
            ndcg = next(
                (r for r in compare_runs(reference, artifact) if r["metric"] == "ndcg_at_10"),
                None,
            )
            if ndcg is not None:
                delta = f"{float(cast(float, ndcg['delta'])):+.3f} (p={ndcg['p_value']})"
        figures = [_cell(aggregate_mean(artifact, "ndcg_at_10")), delta]
        figures += [
            _cell(aggregate_mean(artifact, name))
            for name in (
                "recall_at_100",
                "mrr_at_10",
                "ild_at_10",
                "citation_precision",
                "hallucination_rate",
            )
        ]
        figures.append(_cell(aggregate_mean(artifact, "latency_p95_ms"), 1))
        figures += [
            _cell(aggregate_mean(artifact, name))
            for name in (
                "exclusion_violation_rate",
                "exclusion_on_topic_rate",
                "exclusion_with_5_results",
            )
        ]
        rows.append(f"| {label} | " + " | ".join(figures) + " |")
    return header + "\n".join(rows) + "\n"


def results_table(artifact: Mapping[str, JSONValue]) -> str:
    """A Markdown summary of one run: its targets, grounding and judge figures."""
    aggregate = cast(Mapping[str, JSONValue], artifact.get("aggregate") or {})
    lines = [
        f"Run `{artifact['run_id']}` ({cast(Mapping[str, JSONValue], artifact['config'])['label']}"
        f", commit `{str(artifact.get('git_commit'))[:12]}`, {aggregate.get('queries')} queries, "
        f"{artifact.get('duration_s')} s).",
        "",
        "| target | value | 95% CI | met |",
        "|---|---|---|---|",
    ]
    for name, report in cast(Mapping[str, JSONValue], artifact.get("targets") or {}).items():
        entry = cast(Mapping[str, JSONValue], report)
        value = aggregate.get(name)
        interval = value.get("ci95") if isinstance(value, dict) else None
        ci = (
            f"{float(cast(float, interval[0])):.3f} - {float(cast(float, interval[1])):.3f}"
            if isinstance(interval, list)
            else ""
        )
        met = entry.get("met")
        shown = entry.get("value")
        lines.append(
            f"| {name} {entry['target']} | {'n/a' if shown is None else shown} | {ci} | "
            f"{'not measured' if met is None else 'yes' if met else '**no**'} |"
        )
    grounding = cast(Mapping[str, JSONValue], aggregate.get("grounding") or {})
    if grounding:
        lines += [
            "",
            f"Grounding: {grounding.get('explanations')} explanations, "
            f"{grounding.get('citations')} citations, {grounding.get('claims')} claims, "
            f"{grounding.get('refusals')} refusals; citation validity "
            f"{_cell(_float(grounding.get('citation_validity')))}, recall "
            f"{_cell(_float(grounding.get('citation_recall')))}.",
        ]
    judge = cast(Mapping[str, JSONValue], aggregate.get("judge") or {})
    if judge:
        grades = ", ".join(
            f"{d} {cast(Mapping[str, JSONValue], v)['mean']} (spread "
            f"{cast(Mapping[str, JSONValue], v)['spread']})"
            for d, v in judge.items()
        )
        note = cast(Mapping[str, JSONValue], artifact.get("judge") or {}).get("note")
        lines += ["", f"Judge (1-5): {grades}; {note}."]
    negative = cast(list[Mapping[str, JSONValue]], artifact.get("negative_tests") or [])
    if negative:
        passed = sum(1 for t in negative if t.get("passed"))
        lines += [
            "",
            f"Negative tests: {passed} of {len(negative)} pass.",
            "",
            "| test | kind | expected | observed | pass |",
            "|---|---|---|---|---|",
        ]
        for test in negative:
            observed = str(test.get("observed", "")).replace("|", "/")
            lines.append(
                f"| {test['id']} | {test['kind']} | {test['expected']} | {observed} | "
                f"{'yes' if test.get('passed') else '**no**'} |"
            )
    return "\n".join(lines) + "\n"


def _float(value: JSONValue) -> float | None:
    return float(value) if isinstance(value, int | float) else None


class EvaluationService:
    """Runs evaluations and keeps their artifacts."""

    def __init__(
        self,
        runner: Callable[[], EvaluationRunner],
        store: EvaluationRunStore,
        dataset: Callable[[], EvaluationDataset],
        new_id: Callable[[], str],
    ) -> None:
        """`runner` and `dataset` are built on first use: they load indexes and files."""
        self._runner_factory = runner
        self._runner: EvaluationRunner | None = None
        self.store = store
        self._dataset = dataset
        self._new_id = new_id
        self._lock = threading.Lock()
        self._active: str | None = None
        self._failed: dict[str, str] = {}
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="evaluate")

    def runner(self) -> EvaluationRunner:
        """The runner (loads the search indexes the first time)."""
        if self._runner is None:
            self._runner = self._runner_factory()
        return self._runner

    def run(
        self,
        config: RunConfig,
        *,
        progress: ProgressReporter | None = None,
        run_id: str | None = None,
    ) -> StoredRun:
        """Run one evaluation now and store its artifact."""
        run_id = run_id or self._new_id()
        artifact = self.runner().run(config, self._dataset(), progress=progress, run_id=run_id)
        path = self.store.save(artifact)
        log.debug("evaluation run stored", run_id=run_id, path=path)
        return StoredRun(run_id, path, artifact)

    def ablation(
        self, base: RunConfig, *, progress: ProgressReporter | None = None
    ) -> list[StoredRun]:
        """Every ablation configuration, each stored as its own run."""
        return [self.run(config, progress=progress) for config in ablation_configs(base)]

    def compare(self, first: str, second: str) -> list[dict[str, JSONValue]]:
        """Per-metric deltas of run `second` against run `first`, with paired p-values."""
        return compare_runs(self.store.get(first), self.store.get(second))

    # --- background runs (HTTP) ------------------------------------------------------------

    def start(self, config: RunConfig) -> str:
        """Start a run in the background and return its id; one run at a time."""
        with self._lock:
            if self._active is not None:
                raise EvaluationBusyError(
                    f"evaluation run {self._active} is still in progress: poll it, then retry"
                )
            run_id = self._new_id()
            self._active = run_id
        self._executor.submit(self._background, config, run_id)
        return run_id

    def _background(self, config: RunConfig, run_id: str) -> None:
        try:
            self.run(config, run_id=run_id)
        except Exception as error:  # noqa: BLE001 - reported through status(), not lost
            log.exception("evaluation run failed", run_id=run_id)
            self._failed[run_id] = f"{type(error).__name__}: {error}"
        finally:
            with self._lock:
                self._active = None

    def status(self, run_id: str) -> tuple[RunStatus, dict[str, JSONValue] | None, str | None]:
        """("finished", artifact, None), ("running", None, None) or ("failed", None, error)."""
        if run_id in self._failed:
            return "failed", None, self._failed[run_id]
        if run_id == self._active:
            return "running", None, None
        # A finished run is saved before it stops being active, so this finds it.
        return "finished", self.store.get(run_id), None

    @property
    def active(self) -> str | None:
        """The id of the run in progress, if any."""
        return self._active

    def close(self) -> None:
        """Wait for a background run to finish."""
        self._executor.shutdown(wait=True)
