"""One evaluation run: judged queries through the real search, measured, written down.

A run searches every judged query the way a reader would (filters, strategy, MMR, grounded
explanations), scores the ranking against the graded judgments, checks every citation
against the book re-read from the catalog, has the judge grade every explanation, runs the
negative tests, and returns one JSON artifact that says exactly what was run on what.
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from typing import Literal, cast

import structlog

from lectern.application.evaluation.datasets import (
    EvaluationDataset,
    JudgedQuery,
    NegativeTest,
)
from lectern.application.evaluation.grounding import (
    GroundingCheck,
    check_explanation,
    grounding_scores,
)
from lectern.application.evaluation.metrics import (
    average_precision,
    bootstrap_interval,
    catalog_coverage,
    intra_list_diversity,
    mean,
    ndcg_at_k,
    paired_randomization_test,
    precision_at_k,
    recall_at_k,
    reciprocal_rank_at_k,
    stdev,
)
from lectern.application.ports import (
    BookCatalog,
    LLMClient,
    ProgressReporter,
    QueryUnderstanding,
)
from lectern.application.search import BookSearchService, SearchResponse
from lectern.domain.books import Book, JSONValue
from lectern.domain.evaluation import RUBRIC_DIMENSIONS
from lectern.domain.retrieval import Strategy
from lectern.domain.search import QueryPlan, SearchFilters, SearchQuery
from lectern.errors import InvalidQueryError, LecternError

log = structlog.get_logger(__name__)

Component = Literal["query_understanding", "multi_query", "grounding", "mmr"]
COMPONENTS: tuple[Component, ...] = ("query_understanding", "multi_query", "grounding", "mmr")
STRATEGIES: tuple[Strategy, ...] = ("lexical_heavy", "vector_heavy", "balanced")
CONFIGS = ("full", "baseline")
"""`full`: every component on; `baseline`: every component off (plain hybrid search)."""
ARTIFACT_FORMAT = 1

QUERY_METRICS = (
    "ndcg_at_10",
    "recall_at_100",
    "mrr_at_10",
    "precision_at_10",
    "average_precision",
    "ild_at_10",
    "latency_ms",
)
"""Per-query metrics every run reports, averaged with bootstrap intervals."""
TARGETS: dict[str, tuple[Literal[">=", "<", "<="], float]] = {
    "ndcg_at_10": (">=", 0.50),
    "recall_at_100": (">=", 0.80),
    "mrr_at_10": (">=", 0.50),
    "ild_gain_with_mmr": (">=", 0.10),
    "citation_precision": (">=", 0.90),
    "hallucination_rate": ("<", 0.10),
    "latency_p95_ms": ("<=", 5_000.0),
}
"""The specification's targets, checked in every artifact."""


@dataclass(frozen=True, slots=True)
class RunConfig:
    """What a run switches on and off, and its sizes."""

    config: str = "full"
    disabled: tuple[Component, ...] = ()
    force_strategy: Strategy | None = None
    k: int = 10
    depth: int = 100
    mmr_lambda: float = 0.7
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


@dataclass(frozen=True, slots=True)
class RunEnvironment:
    """What the run cannot know by itself: code version, models, prompt versions."""

    git_commit: str
    models: Mapping[str, JSONValue]
    prompt_versions: Mapping[str, str]
    catalog_books: int


@dataclass(slots=True)
class _QueryOutcome:
    record: dict[str, JSONValue]
    checks: list[GroundingCheck] = field(default_factory=list)
    judge_scores: dict[str, list[float]] = field(default_factory=dict)
    shown: list[str] = field(default_factory=list)


def _round(value: float, places: int = 4) -> float:
    return round(value, places)


def _percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _filters_json(filters: SearchFilters) -> dict[str, JSONValue]:
    return {k: v for k, v in asdict(filters).items() if v is not None}


def _plan_json(plan: QueryPlan | None) -> JSONValue:
    if plan is None:
        return None
    return _jsonable(asdict(plan))


def _jsonable(value: object) -> JSONValue:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


class EvaluationRunner:
    """Runs judged queries and negative tests through the real services."""

    def __init__(
        self,
        search: BookSearchService,
        catalog: BookCatalog,
        judge: LLMClient,
        environment: RunEnvironment,
        *,
        understanding: QueryUnderstanding | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        new_id: Callable[[], str] | None = None,
    ) -> None:
        """Services come from bootstrap; the judge is the configured `LLMClient`."""
        self.search = search
        self.catalog = catalog
        self.judge = judge
        self.environment = environment
        self.understanding = understanding
        self._clock = clock
        self._new_id = new_id or (lambda: str(uuid.uuid4()))

    # --- a run -----------------------------------------------------------------------------

    def run(
        self,
        config: RunConfig,
        dataset: EvaluationDataset,
        *,
        progress: ProgressReporter | None = None,
        run_id: str | None = None,
    ) -> dict[str, JSONValue]:
        """Evaluate, and return the artifact (the caller stores it)."""
        run_id = run_id or self._new_id()
        started_at = self._clock()
        started = time.perf_counter()
        queries = dataset.queries[: config.limit] if config.limit else dataset.queries
        if progress is not None:
            progress.start(f"evaluating {config.label}", len(queries))
        outcomes: list[_QueryOutcome] = []
        failures: list[dict[str, JSONValue]] = []
        for query in queries:
            try:
                outcomes.append(self._one(query, dataset.qrels.get(query.id, {}), config, run_id))
            except Exception as error:  # noqa: BLE001 - one failing query must not end the run
                log.warning("evaluation query failed", query=query.id, error=str(error))
                failures.append({"query_id": query.id, "error": f"{type(error).__name__}: {error}"})
            if progress is not None:
                progress.advance()
        negative = self._negative_tests(dataset.negative_tests, config, run_id)
        aggregate = self._aggregate(outcomes, config)
        return {
            "format": ARTIFACT_FORMAT,
            "run_id": run_id,
            "started_at": started_at.isoformat(),
            "finished_at": self._clock().isoformat(),
            "duration_s": _round(time.perf_counter() - started, 2),
            "git_commit": self.environment.git_commit,
            "config": {
                "config": config.config,
                "label": config.label,
                "disabled": list(config.disabled),
                "force_strategy": config.force_strategy,
                "components": {c: config.enabled(c) for c in COMPONENTS},
                "query_understanding": (
                    self.understanding.name
                    if self.understanding is not None and config.enabled("query_understanding")
                    else None
                ),
                "k": config.k,
                "depth": config.depth,
                "mmr_lambda": config.mmr_lambda if config.enabled("mmr") else None,
                "explain_top": self.search.explain_top if config.enabled("grounding") else 0,
                "judge_repeats": config.judge_repeats,
                "limit": config.limit,
                "search": _jsonable(asdict(self.search.retriever.config)),
            },
            "models": dict(self.environment.models),
            "judge": {
                "model": self.judge.model_id,
                "kind": "generative" if not _is_heuristic(self.judge) else "heuristic",
                "note": (
                    "graded by the deterministic heuristic judge (word overlap and sentence "
                    "shape), not by a language model"
                    if _is_heuristic(self.judge)
                    else "graded by a generative model through the LLMClient port"
                ),
            },
            "prompt_versions": dict(self.environment.prompt_versions),
            "datasets": [asdict(f) for f in dataset.files],
            "catalog_books": self.environment.catalog_books,
            "aggregate": aggregate,
            "targets": self._targets(aggregate),
            "queries": [cast(JSONValue, o.record) for o in outcomes],
            "failures": cast(JSONValue, failures),
            "negative_tests": negative,
        }

    def _plan(self, query: JudgedQuery, config: RunConfig) -> QueryPlan | None:
        plan = None
        if config.enabled("query_understanding") and self.understanding is not None:
            plan = self.understanding.plan(query.text)
            if not config.enabled("multi_query"):
                plan = replace(plan, variations=())
        if plan is not None and config.force_strategy is not None:
            plan = replace(plan, strategy=config.force_strategy)
        return plan

    def _one(
        self, query: JudgedQuery, qrels: Mapping[str, int], config: RunConfig, run_id: str
    ) -> _QueryOutcome:
        started = time.perf_counter()  # the reader waits for the plan too
        plan = self._plan(query, config)
        planning_ms = (time.perf_counter() - started) * 1000
        strategy: Strategy = config.force_strategy or query.strategy or "balanced"
        mmr = config.mmr_lambda if config.enabled("mmr") else None
        explain = config.enabled("grounding")
        request = SearchQuery(
            query.text, query.filters.to_domain(), max_results=config.k, use_explanations=explain
        )
        response = self.search.search(
            request, strategy=strategy, mmr_lambda=mmr, plan=plan, depth=config.depth
        )
        latency = (time.perf_counter() - started) * 1000
        shown = [str(r.book.id) for r in response.results]
        # Judged and ranked at the level of works: search shows one edition per work, and
        # whichever edition it shows earns the best grade any edition of the work received.
        group_of = self.search.retriever.lexical.group_of
        ranking = [group_of(i) for i in response.ranked_ids]
        work_qrels: dict[str, int] = {}
        for book_id, grade in qrels.items():
            work = group_of(book_id)
            work_qrels[work] = max(work_qrels.get(work, 0), grade)
        qrels = work_qrels
        metrics: dict[str, float] = {
            "ndcg_at_10": ndcg_at_k(ranking, qrels, 10),
            "recall_at_100": recall_at_k(ranking, qrels, 100),
            "mrr_at_10": reciprocal_rank_at_k(ranking, qrels, 10),
            "precision_at_10": precision_at_k(ranking, qrels, 10),
            "average_precision": average_precision(ranking[: config.depth], qrels),
            "ild_at_10": self._ild(shown),
            "latency_ms": latency,
        }
        if mmr is not None:  # the same search without MMR: what diversity MMR adds
            plain = self.search.search(
                replace(request, use_explanations=False),
                strategy=strategy,
                mmr_lambda=None,
                plan=plan,
                depth=config.depth,
            )
            metrics["ild_at_10_without_mmr"] = self._ild([str(r.book.id) for r in plain.results])
        outcome = _QueryOutcome(record={}, shown=shown)
        explanations = self._explanations(response, outcome, run_id, config)
        outcome.record = {
            "query_id": query.id,
            "text": query.text,
            "intent": query.intent,
            "tags": list(query.tags),
            "filters": _filters_json(query.filters.to_domain()),
            "strategy": response.strategy,
            "plan": _plan_json(plan),
            "degraded": response.degraded,
            "metrics": {k: _round(v) for k, v in metrics.items()},
            "timings_ms": {
                "planning_ms": _round(planning_ms, 2),
                **{k: _round(v, 2) for k, v in response.timings_ms.items()},
            },
            "relevant_judged": sum(1 for g in qrels.values() if g > 0),
            "retrieved": [
                {"book_id": i, "work": group_of(i), "grade": qrels.get(group_of(i))}
                for i in response.ranked_ids[: config.k]
            ],
            "retrieved_ids_at_depth": list(response.ranked_ids),
            "explanations": explanations,
        }
        return outcome

    def _ild(self, ids: Sequence[str]) -> float:
        vector = self.search.retriever.vector
        if vector is None or len(ids) < 2:
            return 0.0
        return intra_list_diversity(vector.similarities(list(ids)))

    def _explanations(
        self, response: SearchResponse, outcome: _QueryOutcome, run_id: str, config: RunConfig
    ) -> list[JSONValue]:
        explained = [r for r in response.results if r.explanation is not None]
        if not explained:
            return []
        # Re-read the books: the check must not trust the objects the explainer was given.
        books: dict[uuid.UUID, Book] = {
            b.id: b for b in self.catalog.get_many([r.book.id for r in explained])
        }
        records: list[JSONValue] = []
        for result in explained:
            explanation = result.explanation
            assert explanation is not None
            book = books.get(result.book.id)
            if book is None:
                continue
            check = check_explanation(explanation, book, self.judge, run_id=run_id)
            outcome.checks.append(check)
            evidence = [c.snippet for c in explanation.citations]
            grades: dict[str, list[int]] = {d: [] for d in RUBRIC_DIMENSIONS}
            reasons: dict[str, str] = {}
            for _ in range(config.judge_repeats):
                judgment = self.judge.grade_explanation(
                    explanation.query_text, explanation.text, evidence, run_id=run_id
                )
                for dimension, score in judgment.scores().items():
                    grades[dimension].append(score)
                    reasons[dimension] = getattr(judgment, dimension).reason
            for dimension, scores in grades.items():
                outcome.judge_scores.setdefault(dimension, []).append(mean(scores))
            records.append(
                {
                    "book_id": str(book.id),
                    "title": book.title,
                    "rank": result.rank,
                    "text": explanation.text,
                    "model": explanation.model,
                    "confidence": explanation.confidence,
                    "grounded": explanation.grounded,
                    "citations": [
                        {"field": c.chunk_id, "snippet": c.snippet, "relevance": c.relevance_score}
                        for c in explanation.citations
                    ],
                    "grounding": {
                        "citations": check.citations,
                        "valid_citations": check.valid_citations,
                        "supporting_citations": check.supporting_citations,
                        "claims": len(check.claims),
                        "claims_with_citation": check.claims_with_citation,
                        "unsupported_claims": check.unsupported_claims,
                    },
                    "judge": {
                        d: {
                            "mean": _round(mean(s), 3),
                            "spread": _round(stdev(s), 3),
                            "reason": reasons[d],
                        }
                        for d, s in grades.items()
                    },
                }
            )
        return records

    # --- aggregates and targets ------------------------------------------------------------

    def _aggregate(
        self, outcomes: Sequence[_QueryOutcome], config: RunConfig
    ) -> dict[str, JSONValue]:
        summary: dict[str, JSONValue] = {"queries": len(outcomes)}
        for name in (*QUERY_METRICS, "ild_at_10_without_mmr"):
            values = [
                float(cast(dict[str, float], o.record["metrics"])[name])
                for o in outcomes
                if name in cast(dict[str, float], o.record["metrics"])
            ]
            if not values:
                continue
            low, high = bootstrap_interval(values)
            summary[name] = {"mean": _round(mean(values)), "ci95": [_round(low), _round(high)]}
        latencies = [
            float(cast(dict[str, float], o.record["metrics"])["latency_ms"]) for o in outcomes
        ]
        summary["latency_p50_ms"] = _round(_percentile(latencies, 0.50), 2)
        summary["latency_p95_ms"] = _round(_percentile(latencies, 0.95), 2)
        with_mmr = _mean_of(summary, "ild_at_10")
        without = _mean_of(summary, "ild_at_10_without_mmr")
        summary["ild_gain_with_mmr"] = (
            _round(with_mmr / without - 1.0)
            if config.enabled("mmr") and with_mmr is not None and without
            else None
        )
        summary["catalog_coverage_at_10"] = _round(
            catalog_coverage([o.shown for o in outcomes], self.environment.catalog_books, config.k),
            6,
        )
        checks = [c for o in outcomes for c in o.checks]
        if checks:
            scores = grounding_scores(checks)
            summary["grounding"] = _jsonable(asdict(scores))
            summary["citation_precision"] = _round(scores.citation_precision)
            summary["citation_recall"] = _round(scores.citation_recall)
            summary["hallucination_rate"] = _round(scores.hallucination_rate)
            judge: dict[str, JSONValue] = {}
            for dimension in RUBRIC_DIMENSIONS:
                values = [v for o in outcomes for v in o.judge_scores.get(dimension, [])]
                low, high = bootstrap_interval(values)
                judge[dimension] = {
                    "mean": _round(mean(values), 3),
                    "spread": _round(stdev(values), 3),
                    "ci95": [_round(low, 3), _round(high, 3)],
                }
            summary["judge"] = judge
        else:
            summary["citation_precision"] = None
            summary["citation_recall"] = None
            summary["hallucination_rate"] = None
        return summary

    @staticmethod
    def _targets(aggregate: Mapping[str, JSONValue]) -> dict[str, JSONValue]:
        report: dict[str, JSONValue] = {}
        for name, (operator, bound) in TARGETS.items():
            value = _mean_of(aggregate, name)
            if value is None:
                report[name] = {"target": f"{operator} {bound}", "value": None, "met": None}
                continue
            met = (
                value >= bound
                if operator == ">="
                else value < bound
                if operator == "<"
                else value <= bound
            )
            report[name] = {"target": f"{operator} {bound}", "value": value, "met": met}
        return report

    # --- negative tests --------------------------------------------------------------------

    def _negative_tests(
        self, tests: Sequence[NegativeTest], config: RunConfig, run_id: str
    ) -> list[JSONValue]:
        if not config.negative_tests:
            return []
        before = self.catalog.counts().books
        results: list[JSONValue] = [self._negative(t, config, run_id) for t in tests]
        after = self.catalog.counts().books
        results.append(
            {
                "id": "catalog-unchanged",
                "kind": "injection",
                "expected": f"the catalog still holds {before} books after every test",
                "observed": f"{after} books",
                "passed": before == after,
            }
        )
        return results

    def _negative(self, test: NegativeTest, config: RunConfig, run_id: str) -> JSONValue:
        observed: str
        problems: list[str] = []
        try:
            filters = test.filters.to_domain() if test.filters else SearchFilters()
            plan = None
            if config.enabled("query_understanding") and self.understanding is not None:
                plan = self.understanding.plan(test.text)
            response = self.search.search(
                SearchQuery(
                    test.text,
                    filters,
                    max_results=config.k,
                    use_explanations=config.enabled("grounding"),
                ),
                plan=plan,
                mmr_lambda=config.mmr_lambda if config.enabled("mmr") else None,
            )
        except LecternError as error:
            observed = f"error: {error}"
            if test.expect != "error":
                problems.append(f"expected {test.expect}, got an error")
            elif test.error_contains and test.error_contains.lower() not in str(error).lower():
                problems.append(f"the error does not mention {test.error_contains!r}")
            return self._negative_record(test, observed, problems)
        except Exception as error:  # noqa: BLE001 - an unexpected crash is a failed test
            observed = f"crash: {type(error).__name__}: {error}"
            return self._negative_record(test, observed, [observed])
        results = response.results
        observed = f"{len(results)} results"
        if results:
            observed += f", top: {results[0].book.title!r}"
        if test.expect == "error":
            problems.append("expected an error, got results")
        if test.expect == "empty" and results:
            problems.append("expected no results")
        if test.expect == "results" and not results:
            problems.append("expected results, got none")
        explained = [r.explanation for r in results if r.explanation is not None]
        books = {b.id: b for b in self.catalog.get_many([r.book.id for r in results])}
        invalid = 0
        for explanation in explained:
            book = books.get(explanation.book_id)
            if book is None:
                continue
            check = check_explanation(explanation, book, self.judge, run_id=run_id)
            invalid += check.citations - check.valid_citations
            for text in test.must_not_contain:
                if text.casefold() in explanation.text.casefold():
                    problems.append(f"an explanation contains {text!r}")
        if invalid:
            problems.append(f"{invalid} citations fail validation")
        if explained:
            top_confidence = max(e.confidence for e in explained)
            observed += f", highest explanation confidence {top_confidence:.2f}"
            if test.max_confidence is not None and top_confidence > test.max_confidence:
                problems.append(
                    f"an explanation claims confidence {top_confidence:.2f} > {test.max_confidence}"
                )
        if test.top_title_contains is not None and (
            not results
            or test.top_title_contains.casefold() not in results[0].book.title.casefold()
        ):
            problems.append(f"the top result's title does not contain {test.top_title_contains!r}")
        return self._negative_record(test, observed, problems)

    @staticmethod
    def _negative_record(test: NegativeTest, observed: str, problems: list[str]) -> JSONValue:
        return {
            "id": test.id,
            "kind": test.kind,
            "text": test.text[:200],
            "expected": test.expect
            + (f" mentioning {test.error_contains!r}" if test.error_contains else ""),
            "why": test.why,
            "observed": observed[:500],
            "passed": not problems,
            "problems": cast(JSONValue, problems),
        }


def _is_heuristic(llm: LLMClient) -> bool:
    return llm.model_id.startswith("extractive")


def _mean_of(aggregate: Mapping[str, JSONValue], name: str) -> float | None:
    value = aggregate.get(name)
    if isinstance(value, dict):
        inner = value.get("mean")
        return float(inner) if isinstance(inner, int | float) else None
    return float(value) if isinstance(value, int | float) else None


# --- comparing runs --------------------------------------------------------------------------


def per_query(artifact: Mapping[str, JSONValue], metric: str) -> dict[str, float]:
    """Query id -> value of one metric in one run."""
    values: dict[str, float] = {}
    for record in cast(list[dict[str, JSONValue]], artifact.get("queries", [])):
        metrics = cast(dict[str, float], record.get("metrics", {}))
        if metric in metrics:
            values[str(record["query_id"])] = float(metrics[metric])
    return values


def compare_runs(
    first: Mapping[str, JSONValue], second: Mapping[str, JSONValue]
) -> list[dict[str, JSONValue]]:
    """Per-metric means of both runs on their shared queries, delta and paired p-value."""
    rows: list[dict[str, JSONValue]] = []
    for metric in QUERY_METRICS:
        a, b = per_query(first, metric), per_query(second, metric)
        shared = sorted(set(a) & set(b))
        if not shared:
            continue
        left = [a[q] for q in shared]
        right = [b[q] for q in shared]
        rows.append(
            {
                "metric": metric,
                "queries": len(shared),
                "a": _round(mean(left)),
                "b": _round(mean(right)),
                "delta": _round(mean(right) - mean(left)),
                "p_value": _round(paired_randomization_test(left, right), 4),
            }
        )
    for metric in ("citation_precision", "citation_recall", "hallucination_rate"):
        a_value = _mean_of(cast(Mapping[str, JSONValue], first.get("aggregate", {})), metric)
        b_value = _mean_of(cast(Mapping[str, JSONValue], second.get("aggregate", {})), metric)
        if a_value is None or b_value is None:
            continue
        rows.append(
            {
                "metric": metric,
                "queries": None,
                "a": a_value,
                "b": b_value,
                "delta": _round(b_value - a_value),
                "p_value": None,
            }
        )
    return rows
