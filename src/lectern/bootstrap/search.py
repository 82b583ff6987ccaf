"""Book search: the retriever, explanations, understanding, fallback and evaluation."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lectern.adapters.catalog.explanation_cache import SqlAlchemyExplanationCache
from lectern.adapters.evaluation_runs import JsonRunStore
from lectern.adapters.llm.prompts import PROMPT_VERSIONS
from lectern.adapters.rapidfuzz_spelling import RapidfuzzSpelling
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.adapters.understanding.titles import RapidfuzzTitleMatcher
from lectern.application.book_filters import BookFilterIndex
from lectern.application.evaluation.datasets import load_dataset
from lectern.application.evaluation.fallback import FallbackEvaluation
from lectern.application.evaluation.runner import EvaluationRunner, RunEnvironment
from lectern.application.evaluation.service import EvaluationService
from lectern.application.explanations import ExplanationService
from lectern.application.fallback.ports import SearchFallbackAgent
from lectern.application.fallback.service import FallbackSearch
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.known_item import KnownItems
from lectern.application.ports import (
    BookFacts,
    BookNames,
    ExplanationCache,
    QueryUnderstanding,
    TitleMatcher,
)
from lectern.application.search import BookSearchService
from lectern.application.understanding import Vocabulary
from lectern.bootstrap.indexes import book_search_config, load_retriever
from lectern.bootstrap.models import TOOL_CONTEXT, ModelWiring, local_chat_model, provider_config
from lectern.bootstrap.operations import git_commit, new_run_id
from lectern.domain.books import JSONValue


class SearchWiring(ModelWiring):
    """Book search and what plans, explains, rescues and measures it."""

    def retriever(self) -> HybridRetriever:
        """BM25 and vectors of the catalog: the overrides when given, else the index folder."""
        return self._once("retriever", self._load_retriever)

    def _load_retriever(self) -> HybridRetriever:
        given = self.overrides
        if given.lexical_index is None:
            return load_retriever(
                self.settings,
                self.catalog_indexes(),
                given.embedder,
                book_search_config(self.settings),
            )
        embedder = given.embedder if given.vector_index is not None else None
        return HybridRetriever(
            given.lexical_index, given.vector_index, embedder, book_search_config(self.settings)
        )

    def search(self) -> BookSearchService:
        """The search service; indexes are loaded once, on first use."""
        return self._once("search", self._build_search)

    def _build_search(self) -> BookSearchService:
        facts = self.catalog.book_facts()
        return BookSearchService(
            self.catalog,
            self.retriever(),
            BookFilterIndex(facts),
            explainer=self.explanations(),
            explain_top=self.settings.explain_top,
            mmr_lambda=self.settings.mmr_lambda,
            shelf_tail=self.settings.shelf_tail,
            # Built on first use: only a planned "like X" asks, and it needs the vocabulary.
            titles=_LazyTitleMatcher(self.title_matcher),
            known_items=self._known_items(facts) if self.settings.known_item_first else None,
        )

    def _known_items(self, facts: Sequence[BookFacts]) -> KnownItems:
        """Titles a request names: a title table from the facts search loads anyway, rapidfuzz.

        Built on the first search (0.3 s for 19.5k books; the full vocabulary reads the
        catalog again and costs ten times that, too much for a one-off `lectern search`).
        """

        def titles() -> Vocabulary:
            return Vocabulary.of_titles(
                BookNames(f.id, f.title, f.authors, tuple(sorted(f.categories)), f.popularity)
                for f in facts
            )

        return KnownItems(titles, RapidfuzzSpelling())

    def title_matcher(self) -> TitleMatcher:
        """Titles by spelling (a misspelt, ambiguous or absent "like X"): override or rapidfuzz."""
        if self.overrides.title_matcher is not None:
            return self.overrides.title_matcher
        return self._once("title_matcher", lambda: RapidfuzzTitleMatcher(self.vocabulary()))

    def explanation_cache(self) -> ExplanationCache | None:
        """Where explanations are kept: the catalog database unless another cache is given."""
        if self.overrides.explanation_cache is not None:
            return self.overrides.explanation_cache
        if self.overrides.catalog is not None:
            return None  # a caller's own catalog: no database of ours to keep them in
        return self._once(
            "explanation_cache",
            lambda: SqlAlchemyExplanationCache(self._once("catalog", self._sql_catalog).engine),
        )

    def explanations(self) -> ExplanationService:
        """Explanations with the configured model, cached."""
        # The in-process model generates one explanation at a time anyway.
        concurrency = 1 if self.settings.llm == "local" else self.settings.explain_concurrency
        return ExplanationService(
            self.llm(),
            PROMPT_VERSIONS["explain"],
            cache=self.explanation_cache(),
            concurrency=concurrency,
        )

    def vocabulary(self) -> Vocabulary:
        """The catalog's titles, authors, shelves and languages, for understanding queries."""
        return self._once("vocabulary", self._build_vocabulary)

    def _build_vocabulary(self) -> Vocabulary:
        facets = self.catalog.facets(top_categories=1)
        return Vocabulary.build(
            self.catalog.book_names(),
            [c.name for c in facets.languages],
            min_year=facets.min_year,
            max_year=facets.max_year,
        )

    def understanding(self) -> QueryUnderstanding:
        """LECTERN_UNDERSTANDING's planner: the offline rules, or the LLM graph over them."""
        if self.overrides.understanding is not None:
            return self.overrides.understanding
        return self._once("understanding", self._build_understanding)

    def _build_understanding(self) -> QueryUnderstanding:
        rules = RuleBasedUnderstanding(self.vocabulary())
        if self.settings.understanding != "llm":
            return rules
        from lectern.adapters.llm.graphs.query_understanding import QueryUnderstandingGraph

        return QueryUnderstandingGraph(self.llm(), self.vocabulary(), fallback=rules)

    def search_fallback_agent(self) -> SearchFallbackAgent:
        """LECTERN_FALLBACK_PROVIDER's ReAct agent: the rule policy or a provider's model."""
        if self.overrides.search_fallback_agent is not None:
            return self.overrides.search_fallback_agent
        return self._once("search_fallback_agent", self._build_fallback_agent)

    def _build_fallback_agent(self) -> SearchFallbackAgent:
        from lectern.adapters.llm.graphs.search_fallback import ReactSearchFallback

        settings = self.settings
        provider = settings.fallback_provider
        if provider == "rules":
            from lectern.adapters.llm.fallback_policy import MODEL_ID, FallbackRulePolicy

            return ReactSearchFallback(FallbackRulePolicy(), MODEL_ID)
        if provider == "local":
            return ReactSearchFallback(*local_chat_model(settings, context=TOOL_CONTEXT))
        from lectern.adapters.llm.providers import make_chat_model

        choice = make_chat_model(
            provider_config(settings, provider, settings.assistant_model or settings.llm_model)
        )
        return ReactSearchFallback(choice.model, choice.model_id)

    def fallback_search(self) -> FallbackSearch:
        """Book search with the fallback agent behind it (`search_with_fallback`)."""
        return self._once("fallback_search", self._build_fallback_search)

    def fallback_evaluation(self) -> FallbackEvaluation:
        """The search fallback measured on the judged queries."""
        return FallbackEvaluation(self.fallback_search(), self.understanding())

    def _build_fallback_search(self) -> FallbackSearch:
        return FallbackSearch(
            self.search(),
            self.catalog,
            self.search_fallback_agent(),
            understanding=self.understanding(),
            vocabulary=self.vocabulary(),
            titles=self.title_matcher(),
            tracer=self.tracer(),
            clock=self.clock,
        )

    def evaluation(self) -> EvaluationService:
        """Evaluation runs of this catalog, stored under data_dir/evaluation/runs."""
        return self._once("evaluation", self._build_evaluation)

    def _build_evaluation(self) -> EvaluationService:
        def runner() -> EvaluationRunner:
            search = self.search()
            return EvaluationRunner(
                search,
                self.catalog,
                self.llm(),
                RunEnvironment(
                    git_commit=git_commit(),
                    models=self.model_config(),
                    prompt_versions=dict(PROMPT_VERSIONS),
                    catalog_books=len(search.filters.all_ids),
                ),
                understanding=self.understanding(),
                new_id=new_run_id,
                clock=self.clock,
            )

        return EvaluationService(
            runner,
            JsonRunStore(self.settings.data_dir / "evaluation" / "runs"),
            lambda: load_dataset(self.overrides.evaluation_data),
            new_run_id,
        )

    def model_config(self) -> dict[str, JSONValue]:
        """The models a run used, as recorded in its artifact."""
        retriever = self.retriever()
        embedder = retriever.embedder
        return {
            "llm": self.settings.llm,
            "llm_model": self.llm().model_id,
            "llm_temperature": self.settings.llm_temperature,
            "llm_structured_output": self.settings.llm_structured_output,
            "embedder": embedder.model_id if embedder is not None else None,
            "lexical": "qdrant" if self.settings.engine == "qdrant" else "bm25s",
            "vector_index": retriever.vector.model_id if retriever.vector else None,
        }


class _LazyTitleMatcher:
    """A `TitleMatcher` built on its first question (plain searches never ask one)."""

    def __init__(self, build: Callable[[], TitleMatcher]) -> None:
        self._build = build

    def closest(self, title: str) -> str | None:
        """The built matcher's answer."""
        return self._build().closest(title)

    def spelt_like(self, title: str, cutoff: float) -> tuple[str, ...]:
        """The built matcher's answer."""
        return self._build().spelt_like(title, cutoff)
