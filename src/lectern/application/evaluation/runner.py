"""One evaluation run: judged queries through the real search, measured, written down.

A run searches every judged query the way a reader would (filters, strategy, MMR, grounded
explanations), scores the ranking against the graded judgments, checks every citation
against the book re-read from the catalog, has the judge grade every explanation, runs the
negative tests (`negative.py`), aggregates (`aggregate.py`) and returns one JSON artifact
that says exactly what was run on what. Runs are compared in `compare.py`.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import cast

import structlog

from lectern.application.evaluation.aggregate import QueryOutcome, aggregate, check_targets
from lectern.application.evaluation.artifact import ARTIFACT_FORMAT, jsonable
from lectern.application.evaluation.config import COMPONENTS, RunConfig
from lectern.application.evaluation.constraints import run_exclusion_requests
from lectern.application.evaluation.datasets import EvaluationDataset, JudgedQuery
from lectern.application.evaluation.grounding import check_explanation
from lectern.application.evaluation.metrics import (
    average_precision,
    intra_list_diversity,
    mean,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank_at_k,
    stdev,
)
from lectern.application.evaluation.negative import NegativeTestRunner
from lectern.application.ports import (
    BookCatalog,
    LLMClient,
    ProgressReporter,
    QueryUnderstanding,
)
from lectern.application.search import BookSearchService, SearchResponse
from lectern.domain.books import Book, JSONValue
from lectern.domain.evaluation import RUBRIC_DIMENSIONS
from lectern.domain.grounding import explanation_json
from lectern.domain.retrieval import DEFAULT_STRATEGY, Strategy
from lectern.domain.search import QueryPlan, SearchFilters, SearchQuery, SearchResult

# RunConfig lives in config.py; the entry points import it from here too.
__all__ = ["EvaluationRunner", "RunConfig", "RunEnvironment"]

log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class RunEnvironment:
    """What the run cannot know by itself: code version, models, prompt versions."""

    git_commit: str
    models: Mapping[str, JSONValue]
    prompt_versions: Mapping[str, str]
    catalog_books: int


def _filters_json(filters: SearchFilters) -> dict[str, JSONValue]:
    return {k: v for k, v in asdict(filters).items() if v is not None}


def _plan_json(plan: QueryPlan | None) -> JSONValue:
    if plan is None:
        return None
    return jsonable(asdict(plan))


def _is_heuristic(llm: LLMClient) -> bool:
    return llm.model_id.startswith("extractive")


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
        outcomes: list[QueryOutcome] = []
        failures: list[dict[str, JSONValue]] = []
        for query in queries:
            try:
                outcomes.append(self._one(query, dataset.qrels.get(query.id, {}), config, run_id))
            except Exception as error:  # noqa: BLE001 - one failing query must not end the run
                log.warning("evaluation query failed", query=query.id, error=str(error))
                failures.append({"query_id": query.id, "error": f"{type(error).__name__}: {error}"})
            if progress is not None:
                progress.advance()
        negative = NegativeTestRunner(
            self.search, self.catalog, self.judge, self.understanding
        ).run(dataset.negative_tests, config, run_id)
        summary = aggregate(outcomes, config, self.environment.catalog_books)
        exclusions = self._exclusions(dataset, config)
        if exclusions is not None:
            summary.update(
                {
                    "exclusion_violation_rate": exclusions["violation_rate"],
                    "exclusion_on_topic_rate": exclusions["on_topic_rate"],
                    "exclusion_with_5_results": exclusions["with_min_results"],
                    "exclusion_misleading_citations": exclusions["misleading_citations"],
                }
            )
        return {
            "format": ARTIFACT_FORMAT,
            "run_id": run_id,
            "started_at": started_at.isoformat(),
            "finished_at": self._clock().isoformat(),
            "duration_s": round(time.perf_counter() - started, 2),
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
                "search": jsonable(asdict(self.search.retriever.config)),
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
            "aggregate": summary,
            "targets": check_targets(summary),
            "queries": [cast(JSONValue, o.record) for o in outcomes],
            "failures": cast(JSONValue, failures),
            "negative_tests": negative,
            "exclusions": exclusions,
        }

    def _exclusions(
        self, dataset: EvaluationDataset, config: RunConfig
    ) -> dict[str, JSONValue] | None:
        """The exclusion dev set searched as this run searches (`constraints.py`)."""
        if dataset.exclusions is None:
            return None
        strategy: Strategy = config.force_strategy or DEFAULT_STRATEGY
        mmr = config.mmr_lambda if config.enabled("mmr") else None

        def search(query: SearchQuery, plan: QueryPlan | None) -> list[SearchResult]:
            return self.search.search(query, strategy=strategy, mmr_lambda=mmr, plan=plan).results

        return run_exclusion_requests(
            dataset.exclusions,
            search,
            lambda text: self._plan_text(text, config),
            k=config.k,
            explain=config.enabled("grounding"),
        )

    def _plan(self, query: JudgedQuery, config: RunConfig) -> QueryPlan | None:
        return self._plan_text(query.text, config)

    def _plan_text(self, text: str, config: RunConfig) -> QueryPlan | None:
        plan = None
        if config.enabled("query_understanding") and self.understanding is not None:
            plan = self.understanding.plan(text)
            if not config.enabled("multi_query"):
                plan = replace(plan, variations=())
        if plan is not None and config.force_strategy is not None:
            plan = replace(plan, strategy=config.force_strategy)
        return plan

    def _one(
        self, query: JudgedQuery, qrels: Mapping[str, int], config: RunConfig, run_id: str
    ) -> QueryOutcome:
        started = time.perf_counter()  # the reader waits for the plan too
        plan = self._plan(query, config)
        planning_ms = (time.perf_counter() - started) * 1000
        strategy: Strategy = config.force_strategy or query.strategy or DEFAULT_STRATEGY
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
            "precision_at_5": precision_at_k(ranking, qrels, 5),
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
        outcome = QueryOutcome(record={}, shown=shown)
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
            "metrics": {k: round(v, 4) for k, v in metrics.items()},
            "timings_ms": {
                "planning_ms": round(planning_ms, 2),
                **{k: round(v, 2) for k, v in response.timings_ms.items()},
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
        self, response: SearchResponse, outcome: QueryOutcome, run_id: str, config: RunConfig
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
                    **explanation_json(explanation),
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
                            "mean": round(mean(s), 3),
                            "spread": round(stdev(s), 3),
                            "reason": reasons[d],
                        }
                        for d, s in grades.items()
                    },
                }
            )
        return records
