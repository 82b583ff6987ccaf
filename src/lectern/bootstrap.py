"""The one place that wires adapters into services."""

from __future__ import annotations

import json
import subprocess
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, cast

import structlog
import uuid6

from lectern import __version__
from lectern.adapters.actions.sqlalchemy_actions import SqlAlchemyPendingActions
from lectern.adapters.answering_metrics import PrometheusAnsweringObserver
from lectern.adapters.assistant_metrics import PrometheusAssistantObserver
from lectern.adapters.catalog.explanation_cache import SqlAlchemyExplanationCache
from lectern.adapters.catalog.library import SqlAlchemyLibrary
from lectern.adapters.catalog.provider_records import SqlAlchemyProviderRecords
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.embeddings.onnx_minilm import DIMENSION, MODEL_ID, OnnxMiniLMEmbedder
from lectern.adapters.evaluation_runs import JsonRunStore
from lectern.adapters.guidance.profiles import load_profiles
from lectern.adapters.knowledge_index import JsonKnowledgeIndexStore
from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.adapters.llm.followups import LlmFollowUpRewriter, RuleFollowUpRewriter
from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.adapters.llm.prompts import PROMPT_VERSIONS
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.llm.tracing import JsonlTraceWriter
from lectern.adapters.metrics import MeteredTracer, PrometheusMetrics
from lectern.adapters.privacy.patterns import PatternPiiDetector
from lectern.adapters.providers.google_books import GoogleBooksProvider
from lectern.adapters.providers.http import PoliteJsonClient
from lectern.adapters.providers.openlibrary import OpenLibraryProvider
from lectern.adapters.search_indexes import DiskSearchIndexes
from lectern.adapters.sessions.memory import InMemorySessions
from lectern.adapters.sources.beir import load_beir
from lectern.adapters.sources.fetch import HttpSourceFetcher, MirrorSourceFetcher, sha256_of
from lectern.adapters.sources.goodbooks import GoodbooksSource
from lectern.adapters.sources.goodreads_openlibrary import GoodreadsOpenLibrarySource
from lectern.adapters.sources.seven_k import SevenKBooksSource
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.adapters.vector.faiss_index import ArrayEmbedder
from lectern.application.access import CatalogEditors, CollectionAccess
from lectern.application.answering.extractive_research import ExtractiveResearchWriter
from lectern.application.answering.kb_sources import KnowledgeSourceSync
from lectern.application.answering.knowledge import (
    KnowledgeBases,
    LeadSentenceSummarizer,
    SelectionConfig,
)
from lectern.application.answering.ports import (
    JsonModel,
    ReplyGraph,
    ReplySteps,
    ResearchWriter,
    SourceSummarizer,
    TurnRewriter,
)
from lectern.application.answering.research import ResearchService
from lectern.application.answering.rules import RuleReplySteps
from lectern.application.answering.service import KnowledgeBaseReplier
from lectern.application.answering.usage import UsageMeter
from lectern.application.assistant.approvals import ActionReviewer, Approvals
from lectern.application.assistant.correction_review import CorrectionReviewer
from lectern.application.assistant.guideline import (
    FollowUpRewriter,
    GuideConfig,
    GuidelineAgent,
)
from lectern.application.assistant.names import visible_names
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
from lectern.application.catalog_corrections import CatalogCorrections
from lectern.application.collections import CollectionService
from lectern.application.evaluation.beir import BeirEvaluation
from lectern.application.evaluation.datasets import load_dataset
from lectern.application.evaluation.fallback import FallbackEvaluation
from lectern.application.evaluation.runner import EvaluationRunner, RunEnvironment
from lectern.application.evaluation.service import EvaluationService
from lectern.application.explanations import ExplanationService
from lectern.application.fallback.ports import SearchFallbackAgent
from lectern.application.fallback.service import FallbackSearch
from lectern.application.indexing import IndexingService
from lectern.application.ingestion import IngestionService
from lectern.application.ports import (
    BookCatalog,
    BookSource,
    CollectionIndexes,
    CollectionStore,
    Embedder,
    ExplanationCache,
    ExternalBooksProvider,
    LexicalIndex,
    LLMClient,
    LLMTracer,
    ProgressReporter,
    ProviderRecordStore,
    QueryUnderstanding,
    Reranker,
    SourceFetcher,
    VectorIndex,
)
from lectern.application.providers import (
    InMemoryProviderRecords,
    ProviderIngestion,
    StoredProviderSource,
    StoredRecordLookup,
)
from lectern.application.search import (
    BookFilterIndex,
    BookSearchService,
    HybridRetriever,
    SearchConfig,
)
from lectern.application.understanding import Vocabulary
from lectern.application.upload_jobs import (
    UploadJob,
    UploadJobs,
    collection_result,
    project_result,
)
from lectern.application.upload_reviews import UploadReviewer, UploadReviewStore
from lectern.application.workspace.ports import ReviewQueue, WorkspaceStore
from lectern.application.workspace.reviews import ReviewService
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.books import JSONValue
from lectern.domain.guidance import GuideProfile
from lectern.errors import ConfigurationError, IndexMismatchError, IndexMissingError
from lectern.settings import Settings

T = TypeVar("T")
log = structlog.get_logger(__name__)

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

    from lectern.adapters.engines.qdrant_indexes import QdrantSearchIndexes
    from lectern.adapters.jobs.review_outbox import OutboxReviewQueue
    from lectern.adapters.jobs.rq_reviews import RqReviewQueue
    from lectern.adapters.jobs.rq_uploads import RqUploadQueue
    from lectern.adapters.llm.langchain_llm import StructuredMethod
    from lectern.adapters.llm.providers import ProviderConfig
    from lectern.adapters.probes import DependencyProbe
    from lectern.adapters.understanding.layer import Understanding


def default_sources() -> list[BookSource]:
    """The catalog's sources, in merge priority order."""
    return [GoodbooksSource(), SevenKBooksSource(), GoodreadsOpenLibrarySource()]


PROVIDERS = ("openlibrary", "google-books")
"""The external providers `lectern ingest --provider` knows, in merge priority order."""


def make_providers(settings: Settings) -> dict[str, ExternalBooksProvider]:
    """The providers over their configured URLs, with timeouts, retries and a rate limit."""

    def client(url: str, name: str) -> PoliteJsonClient:
        return PoliteJsonClient(
            url,
            name=name,
            timeout=settings.provider_timeout,
            attempts=settings.provider_attempts,
            min_interval=settings.provider_min_interval,
            user_agent=f"lectern/{__version__} (book catalog; python-httpx)",
        )

    key = settings.google_books_api_key
    providers: list[ExternalBooksProvider] = [
        OpenLibraryProvider(client(settings.openlibrary_url, "openlibrary")),
        GoogleBooksProvider(
            client(settings.google_books_url, "google-books"),
            api_key=key.get_secret_value() if key is not None else None,
        ),
    ]
    return {p.name: p for p in providers}


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


SearchIndexes: TypeAlias = "DiskSearchIndexes | QdrantSearchIndexes"
"""The index pair of one corpus on either engine (same `sync` / `load_*` / `embedder`)."""


def qdrant_client(settings: Settings) -> QdrantClient:
    """The Qdrant client of LECTERN_QDRANT_URL (shared per location within the process)."""
    from lectern.adapters.engines.qdrant_store import connect

    key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
    return connect(settings.resolved_qdrant_url, key)


def qdrant_indexes(
    settings: Settings,
    corpus: str,
    embedder: Callable[[], ArrayEmbedder] | None = None,
    *,
    prefixed: bool = False,
) -> QdrantSearchIndexes:
    """One corpus (`catalog`, `beir-<hash>`) in the Qdrant collection `<prefix><corpus>`.

    `prefixed`: `corpus` already starts with the prefix (collection generations).
    """
    from lectern.adapters.engines.qdrant_indexes import QdrantSearchIndexes

    return QdrantSearchIndexes(
        qdrant_client(settings),
        corpus if prefixed else f"{settings.qdrant_collection_prefix}{corpus}",
        embedder or (lambda: make_embedder(settings)),
        model_id=MODEL_ID,
        dimension=DIMENSION,
        shards=settings.qdrant_shards,
        replicas=settings.qdrant_replicas,
    )


def search_indexes(
    settings: Settings, folder: Path, embedder: Callable[[], ArrayEmbedder] | None = None
) -> SearchIndexes:
    """The indexes of one corpus on the configured engine, wired to the configured embedder.

    Embedded: the folder itself; Qdrant: the collection named after the folder.
    """
    if settings.engine == "qdrant":
        return qdrant_indexes(settings, folder.name, embedder)
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
    settings: Settings, indexes: SearchIndexes, embedder_override: Embedder | None = None
) -> HybridRetriever:
    """BM25 (required) and vectors (optional: without them search is degraded)."""
    lexical: LexicalIndex = indexes.load_lexical()
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


def beir_evaluation(settings: Settings) -> BeirEvaluation[SearchIndexes]:
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
    search_fallback_agent: SearchFallbackAgent | None = None
    """The fallback agent (over a fake chat model in tests) instead of the configured one."""
    pending_actions: PendingActionStore | None = None
    library: LibraryStore | None = None
    sessions: SessionStore | None = None
    pii: PiiDetector | None = None
    provider_records: ProviderRecordStore | None = None
    """Where records fetched from Open Library or Google Books are kept."""
    workspace_store: WorkspaceStore | None = None
    review_queue: ReviewQueue | None = None
    """Where automatic reviews go (a recording fake in tests) instead of rq or a thread."""
    upload_reviews: UploadReviewStore | None = None
    """Where uploads' reviews are kept instead of the catalog database."""
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
        """The catalog's sources in merge priority order; the providers' stored records last."""
        if self.overrides.sources is not None:
            return list(self.overrides.sources)
        stored = [StoredProviderSource(name, self.provider_records()) for name in PROVIDERS]
        return [*default_sources(), *stored]

    def provider_records(self) -> ProviderRecordStore:
        """Records fetched from providers: the catalog database unless another store is given."""
        if self.overrides.provider_records is not None:
            return self.overrides.provider_records
        if self.overrides.catalog is not None:  # a caller's own catalog: nothing of ours
            return self._once("provider_records", InMemoryProviderRecords)
        return self._once(
            "provider_records",
            lambda: SqlAlchemyProviderRecords(self._once("catalog", self._sql_catalog).engine),
        )

    def providers(self) -> dict[str, ExternalBooksProvider]:
        """Open Library and Google Books, each with its polite HTTP client."""
        return self._once("providers", lambda: make_providers(self.settings))

    def provider_ingestion(self, progress: ProgressReporter | None = None) -> ProviderIngestion:
        """Fetch from a provider, keep the records, merge them into the catalog."""
        return ProviderIngestion(
            self.providers(), self.provider_records(), lambda: self.ingestion(progress)
        )

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

    def catalog_indexes(self) -> SearchIndexes:
        """The catalog's indexes on the configured engine (one instance: one embedder)."""
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
        from lectern.adapters.documents.folder import FileDocumentSource
        from lectern.adapters.documents.splitter import LangChainPassageSplitter
        from lectern.adapters.documents.uploads import FolderUploadInbox

        settings = self.settings
        store = self.overrides.collection_store or SqlAlchemyCollectionStore(
            self._once("catalog", self._sql_catalog).engine
        )

        return CollectionService(
            store,
            FileDocumentSource(),
            LangChainPassageSplitter(),
            self.collection_indexes(),
            search_config(settings),
            mmr_lambda=settings.mmr_lambda,
            inbox=FolderUploadInbox(settings.data_dir / "uploads"),
            reranker=self.reranker(),
            rerank_depth=settings.rerank_depth,
            max_upload_chars=settings.max_upload_chars,
        )

    def collection_indexes(self) -> CollectionIndexes:
        """Every collection's indexes on the configured engine, sharing the catalog's embedder."""
        settings = self.settings
        embedder = self.catalog_indexes().embedder
        if settings.engine == "qdrant":
            from lectern.adapters.engines.qdrant_indexes import QdrantCollectionIndexes

            return QdrantCollectionIndexes(
                lambda name: qdrant_indexes(settings, name, embedder, prefixed=True),
                qdrant_client(settings),
                settings.qdrant_collection_prefix,
            )
        from lectern.adapters.collection_indexes import DiskCollectionIndexes

        def folder_indexes(
            folder: Path, embedder: Callable[[], ArrayEmbedder]
        ) -> DiskSearchIndexes:
            return DiskSearchIndexes(
                folder,
                embedder,
                model_id=MODEL_ID,
                dimension=DIMENSION,
                exact_max=settings.exact_index_max,
                hnsw_m=settings.hnsw_m,
                ef_search=settings.hnsw_ef_search,
            )

        # One embedding model in memory: the catalog's, loaded on first use.
        return DiskCollectionIndexes(settings.index_dir, folder_indexes, embedder)

    def tracer(self) -> UsageMeter:
        """The LLM trace file (or the override), counted, with token usage per watched run."""
        return self._once(
            "tracer", lambda: UsageMeter(self.overrides.tracer or self._trace_writer())
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

    def dependency_probes(self) -> list[DependencyProbe]:
        """The servers this configuration needs, each with a cheap check, for readiness.

        The database always (unless a test replaced the catalog); Redis when sessions and
        reviews (LECTERN_REDIS_URL) or rate limits (LECTERN_RATE_LIMIT_STORAGE) use it; Qdrant
        when LECTERN_ENGINE=qdrant. Every one is required: without it requests fail.
        """
        from sqlalchemy.engine import Engine

        from lectern.adapters.probes import (
            DependencyProbe,
            http_ready_probe,
            redis_probe,
            sql_probe,
        )

        settings = self.settings
        probes: list[DependencyProbe] = []
        engine = getattr(self.catalog, "engine", None)
        if isinstance(engine, Engine):
            probes.append(DependencyProbe("database", True, sql_probe(engine)))
        if settings.redis_url is not None:
            probes.append(DependencyProbe("redis", True, redis_probe(settings.redis_url)))
        storage = settings.rate_limit_storage
        if storage.startswith("redis") and storage != settings.redis_url:
            probes.append(DependencyProbe("rate_limit_storage", True, redis_probe(storage)))
        qdrant = qdrant_readiness_url(settings)
        if qdrant is not None:
            probes.append(DependencyProbe("qdrant", True, http_ready_probe(qdrant)))
        return probes

    def chat_model(self) -> ChatModel:
        """LECTERN_ASSISTANT_PROVIDER's model: the rule policy, or a provider's tool calling."""
        if self.overrides.chat_model is not None:
            return self.overrides.chat_model
        return self._once("chat_model", self._build_chat_model)

    def _build_chat_model(self) -> ChatModel:
        settings = self.settings
        provider = settings.assistant_provider
        if provider == "rules":
            return RulePolicy(self.understanding(), self.understanding_layer())
        from lectern.adapters.llm.tool_calling import LangChainToolModel

        if provider == "local":
            model, model_id = local_chat_model(settings, context=TOOL_CONTEXT)
            return LangChainToolModel(model, model_id)
        from lectern.adapters.llm.providers import make_chat_model

        choice = make_chat_model(
            provider_config(settings, provider, settings.assistant_model or settings.llm_model)
        )
        return LangChainToolModel(choice.model, choice.model_id)

    def understanding_layer(self) -> Understanding:
        """The understanding layer: intents by meaning over the packaged MiniLM (issue 26)."""
        return self._once("understanding_layer", self._build_understanding_layer)

    def _build_understanding_layer(self) -> Understanding:
        from lectern.adapters.understanding.intent_examples import EXAMPLES
        from lectern.adapters.understanding.intents import NearestExampleClassifier
        from lectern.adapters.understanding.layer import Understanding

        embedder = self.overrides.embedder or make_embedder(self.settings)
        cache = self.settings.data_dir / "understanding"
        return Understanding(NearestExampleClassifier(embedder, EXAMPLES, cache))

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
            tracer=self.tracer(),
            clock=self.clock,
        )

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
            workspace=self.workspace(),
            load_search=self.search,
            understanding=self.understanding(),
            vocabulary=self.vocabulary(),
            min_relevance=self.settings.assistant_min_relevance,
            new_id=lambda: str(uuid.uuid4()),
            kb_replier=self.kb_replier,
            kb_collection=self.settings.ai_kb_collection,
            research=self.research,
            research_collection=self.settings.ai_research_collection,
            access=self.collection_access(),
            catalog_editors=self.catalog_editors(),
        )

    def assistant(self) -> AssistantService:
        """The chat assistant: the loop, its tools, approvals, sessions and guardrails."""
        return self._once("assistant", self._build_assistant)

    def approvals(self) -> Approvals:
        """Pending actions and their decisions (shared by the assistant and recovery)."""
        return self._once("approvals", self._build_approvals)

    def _build_approvals(self) -> Approvals:
        settings = self.settings
        return Approvals(
            self.pending_actions(),
            self.tool_registry(),
            ttl=timedelta(seconds=settings.action_ttl_seconds),
            clock=self.clock,
            new_id=lambda: str(uuid.uuid4()),
            observer=self._assistant_observer(),
            reviewers=self.action_reviewers(),
            lease=timedelta(seconds=settings.action_lease_seconds),
        )

    def _assistant_observer(self) -> PrometheusAssistantObserver:
        return self._once(
            "assistant_observer", lambda: PrometheusAssistantObserver(self.metrics.registry)
        )

    def recover(self) -> None:
        """Settle stranded approvals (start-up and the server's timer); never raises."""
        try:
            # One cheap query first: the tools (and what they load) only when needed.
            if self.pending_actions().stranded(self.clock()):
                self.approvals().recover()
        except Exception as error:  # noqa: BLE001 - recovery retries on the next tick
            log.warning("action recovery failed", error=f"{type(error).__name__}: {error}")

    def flush_reviews(self) -> None:
        """Hand reviews kept while Redis was down to the queue (the server's timer)."""
        if self.settings.redis_url is None or self.overrides.review_queue is not None:
            return
        try:
            self.review_outbox().flush()
        except Exception as error:  # noqa: BLE001 - the outbox keeps them for the next tick
            log.warning("review outbox not flushed", error=f"{type(error).__name__}: {error}")

    def clean_uploads(self) -> None:
        """Delete uploaded files a crash left outside every collection (start-up)."""
        try:
            keep = self.upload_jobs().pending_files()
            self.collections().clean_inbox(
                timedelta(seconds=self.settings.orphan_upload_seconds), keep
            )
        except Exception as error:  # noqa: BLE001 - a failed clean-up never stops the server
            log.warning("upload clean-up failed", error=f"{type(error).__name__}: {error}")

    def _build_assistant(self) -> AssistantService:
        settings = self.settings
        registry = self.tool_registry()
        observer = self._assistant_observer()
        return AssistantService(
            self.chat_model(),
            registry,
            self.approvals(),
            self.sessions(),
            config=AssistantConfig(
                enabled=settings.assistant_enabled,
                max_agent_steps=settings.assistant_max_steps,
                temperature=settings.llm_temperature,
                max_tokens=settings.llm_max_tokens,
                mask_pii=settings.assistant_masks_pii,
            ),
            clock=self.clock,
            tracer=self.tracer(),
            pii=self.overrides.pii or PatternPiiDetector(),
            observer=observer,
            page_check=self.workspace().checked_page,
            names=visible_names(self.workspace(), self.library()),
        )

    def action_reviewers(self) -> dict[str, ActionReviewer]:
        """Automatic reviews of previews, by tool (LECTERN_REVIEW_CORRECTIONS)."""
        if not self.settings.review_corrections:
            return {}
        reviewer = CorrectionReviewer(self.catalog, StoredRecordLookup(self.provider_records()))
        return {reviewer.tool_name: reviewer}

    def upload_reviewer(self) -> UploadReviewer:
        """Reviews of uploaded documents (run on upload when LECTERN_REVIEW_UPLOADS is on)."""
        return self._once("upload_reviewer", self._build_upload_reviewer)

    def _build_upload_reviewer(self) -> UploadReviewer:
        from lectern.adapters.catalog.upload_reviews import SqlAlchemyUploadReviews

        store = self.overrides.upload_reviews or SqlAlchemyUploadReviews(self._assistant_engine())
        return UploadReviewer(
            self.collections(),
            store,
            self.overrides.pii or PatternPiiDetector(),
            clock=self.clock,
        )

    # --- answering: the knowledge-base reply graph and the research chain ------------------

    def _uses_model(self) -> bool:
        return self.settings.llm != "extractive"

    def knowledge_bases(self) -> KnowledgeBases:
        """Collections as knowledge bases, their indexes under index_dir/kb."""
        return self._once("knowledge_bases", self._build_knowledge_bases)

    def _build_knowledge_bases(self) -> KnowledgeBases:
        settings = self.settings
        summarizer: SourceSummarizer = LeadSentenceSummarizer()
        if self._uses_model():
            from lectern.adapters.llm.kb_steps import LLMSummarizer

            summarizer = LLMSummarizer(self.llm())
        return KnowledgeBases(
            self.collections(),
            JsonKnowledgeIndexStore(settings.index_dir / "kb"),
            summarizer,
            SelectionConfig(settings.ai_min_relevance, settings.ai_min_coverage),
        )

    def reply_graph(self) -> ReplyGraph:
        """The reply graph, compiled once: rules offline, the configured model otherwise."""
        return self._once("reply_graph", self._build_reply_graph)

    def _build_reply_graph(self) -> ReplyGraph:
        from lectern.adapters.llm.graphs.kb_reply import GraphConfig, KnowledgeBaseReplyGraph

        settings = self.settings
        steps: ReplySteps = RuleReplySteps(settings.ai_max_answer_chars)
        if self._uses_model():
            from lectern.adapters.llm.kb_steps import KBPrompts, LLMReplySteps

            prompts = KBPrompts.build(
                {
                    "gate": settings.ai_gating_prompt,
                    "select": settings.ai_selection_prompt,
                    "answer": settings.ai_answer_prompt,
                    "verify": settings.ai_verification_prompt,
                },
                project_introduction=settings.ai_project_introduction,
                max_sources=settings.ai_max_sources,
                max_answer_chars=settings.ai_max_answer_chars,
            )
            steps = LLMReplySteps(self.llm(), prompts)
        answer_check = None
        if settings.ai_answer_check:
            from lectern.adapters.understanding.question import AnswerCheck, load_model

            answer_check = AnswerCheck(load_model(settings.ai_answer_model))
        return KnowledgeBaseReplyGraph(
            steps,
            GraphConfig(
                max_sources=settings.ai_max_sources,
                max_answer_chars=settings.ai_max_answer_chars,
                enable_verification=settings.ai_enable_verification,
                graph_timeout_seconds=settings.ai_graph_timeout_seconds,
            ),
            answer_check=answer_check,
        )

    def kb_source_sync(self) -> KnowledgeSourceSync:
        """The support bot's web and team sources into a collection (`lectern kb sync`)."""
        return self._once("kb_source_sync", self._build_kb_source_sync)

    def _build_kb_source_sync(self) -> KnowledgeSourceSync:
        from lectern.adapters.kb_web import FolderKbSourceStore, HttpxWebPageFetcher

        settings = self.settings
        fetcher = HttpxWebPageFetcher(
            max_bytes=settings.kb_max_page_bytes, timeout=settings.kb_fetch_timeout_seconds
        )
        store = FolderKbSourceStore(
            settings.data_dir / "kb-sources", max_bytes=settings.kb_max_page_bytes
        )
        return KnowledgeSourceSync(self.collections(), fetcher, store)

    def kb_replier(self) -> KnowledgeBaseReplier:
        """Knowledge-base replies (`lectern kb reply`, POST /kb/reply, ask_knowledge_base)."""
        return self._once("kb_replier", self._build_kb_replier)

    def _build_kb_replier(self) -> KnowledgeBaseReplier:
        json_model: JsonModel | None = None
        if self._uses_model():
            from lectern.adapters.llm.kb_steps import LLMJsonModel

            json_model = LLMJsonModel(self.llm())
        observer = self._once(
            "answering_observer", lambda: PrometheusAnsweringObserver(self.metrics.registry)
        )
        from lectern.adapters.llm.standalone import LlmStandaloneRewriter, RuleStandaloneRewriter

        rewriter: TurnRewriter | None = RuleStandaloneRewriter()
        if not self.settings.ai_standalone_rewrite:
            rewriter = None
        elif self._uses_model():
            rewriter = LlmStandaloneRewriter(self.llm(), RuleStandaloneRewriter())
        return KnowledgeBaseReplier(
            self.reply_graph(),
            self.knowledge_bases(),
            project_introduction=self.settings.ai_project_introduction,
            json_model=json_model,
            usage=self.tracer(),
            observer=observer,
            rewriter=rewriter,
        )

    def research(self) -> ResearchService:
        """The research chain over any collection (`lectern research`, POST /research)."""
        return self._once("research", self._build_research)

    def _build_research(self) -> ResearchService:
        writer: ResearchWriter = ExtractiveResearchWriter()
        if self._uses_model():
            from lectern.adapters.llm.research_writer import LLMResearchWriter

            writer = LLMResearchWriter(self.llm())
        observer = self._once(
            "answering_observer", lambda: PrometheusAnsweringObserver(self.metrics.registry)
        )
        return ResearchService(self.collections(), writer, observer=observer)

    # --- research workspaces --------------------------------------------------------------

    def workspace(self) -> WorkspaceService:
        """Organizations, projects, tasks, blockers, comments and documents, per member."""
        return self._once("workspace", self._build_workspace)

    def catalog_editors(self) -> CatalogEditors:
        """Who may change the shared catalog (LECTERN_CATALOG_EDITORS)."""
        return CatalogEditors(
            self.settings.catalog_editor_set, keys_required=self.settings.api_keyring.required
        )

    def catalog_corrections(self) -> CatalogCorrections:
        """Pending catalog corrections and an editor's decision on each."""
        return CatalogCorrections(self.catalog, self.library(), self.catalog_editors())

    def collection_access(self) -> CollectionAccess:
        """Who may read which collection: every surface that names a collection asks it."""
        return self.workspace().access

    def _build_workspace(self) -> WorkspaceService:
        from lectern.adapters.catalog.workspace_store import SqlAlchemyWorkspaceStore
        from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex

        store = self.overrides.workspace_store or SqlAlchemyWorkspaceStore(self._assistant_engine())
        return WorkspaceService(
            store,
            collections=self.collections(),
            text_index=Bm25sLexicalIndex.build,
            reviews=self.review_queue(),
            clock=self.clock,
            max_upload_bytes=self.settings.max_upload_bytes,
        )

    def review_queue(self) -> ReviewQueue:
        """Reviews on Redis (rq) when LECTERN_REDIS_URL is set, else a background thread."""
        if self.overrides.review_queue is not None:
            return self.overrides.review_queue
        return self._once("review_queue", self._build_review_queue)

    def _build_review_queue(self) -> ReviewQueue:
        settings = self.settings
        if settings.redis_url is not None:
            return self.review_outbox()
        from lectern.adapters.jobs.thread_reviews import ThreadReviewQueue

        return ThreadReviewQueue(
            lambda job: self.reviews().run(job),
            retries=settings.review_retries,
            retry_seconds=settings.review_retry_seconds,
        )

    def review_outbox(self) -> OutboxReviewQueue:
        """The rq queue, with reviews it refuses (Redis down) kept in the database."""
        from lectern.adapters.jobs.review_outbox import OutboxReviewQueue

        return self._once(
            "review_outbox",
            lambda: OutboxReviewQueue(
                self.rq_reviews(), self._assistant_engine(), clock=self.clock
            ),
        )

    def rq_reviews(self) -> RqReviewQueue:
        """The rq queue on LECTERN_REDIS_URL (the worker serves the same one)."""
        if self.settings.redis_url is None:
            raise ConfigurationError(
                "LECTERN_REDIS_URL is not set: the review worker needs Redis (without it, "
                "reviews run inside the serving process)"
            )
        from lectern.adapters.jobs.rq_reviews import RqReviewQueue

        url = self.settings.redis_url
        return self._once(
            "rq_reviews",
            lambda: RqReviewQueue(
                url,
                retries=self.settings.review_retries,
                retry_seconds=self.settings.review_retry_seconds,
            ),
        )

    def serve_reviews(self, *, burst: bool = False) -> bool:
        """Run the review and upload worker in this process (`lectern workspace worker`)."""
        from lectern.adapters.jobs.rq_reviews import run_review_worker
        from lectern.adapters.jobs.rq_uploads import set_upload_handler

        jobs = self.upload_jobs()
        set_upload_handler(jobs.run)
        uploads = self.rq_uploads()
        return run_review_worker(
            self.rq_reviews(), self.reviews().run, burst=burst, also=[uploads.queue]
        )

    def upload_jobs(self) -> UploadJobs:
        """Uploads as jobs: state in the database, run on rq or on this process's threads."""
        return self._once("upload_jobs", self._build_upload_jobs)

    def _build_upload_jobs(self) -> UploadJobs:
        from lectern.adapters.catalog.upload_jobs import SqlAlchemyUploadJobStore

        settings = self.settings
        jobs = UploadJobs(
            SqlAlchemyUploadJobStore(self._assistant_engine()),
            {"collection": self._ingest_collection_upload, "project": self._ingest_project_upload},
            quota_bytes=settings.upload_quota_bytes,
            max_jobs=settings.upload_max_jobs,
            clock=self.clock,
            discard=lambda job: self.collections().discard_upload(job.collection, job.stored),
        )
        if settings.redis_url is not None:
            jobs.use(self.rq_uploads())
        elif self._uploads_in_processes():
            from lectern.adapters.jobs.process_uploads import ProcessUploadQueue

            jobs.use(
                ProcessUploadQueue(
                    settings,
                    jobs.abandon,
                    workers=settings.upload_workers,
                    niceness=settings.upload_niceness,
                )
            )
        else:
            from lectern.adapters.jobs.thread_uploads import ThreadUploadQueue

            jobs.use(ThreadUploadQueue(jobs.run, workers=settings.upload_workers))
        return jobs

    def stop_uploads(self) -> None:
        """Stop the upload worker processes, if this process started any (server shutdown)."""
        jobs = self._built.get("upload_jobs")
        stop = getattr(getattr(jobs, "queue", None), "stop", None)
        if callable(stop):
            stop()

    def _uploads_in_processes(self) -> bool:
        """Whether upload jobs can run in worker processes built from the settings alone.

        Not with a caller's overrides (tests' fakes: a worker process cannot rebuild them),
        nor with Qdrant in local mode, which locks its folder to one process.
        """
        settings = self.settings
        if settings.upload_runner != "process" or self.overrides != Overrides():
            return False
        return settings.engine == "embedded" or settings.resolved_qdrant_url.startswith(
            ("http://", "https://")
        )

    def rq_uploads(self) -> RqUploadQueue:
        """The upload jobs' rq queue on LECTERN_REDIS_URL (the worker serves it too)."""
        if self.settings.redis_url is None:
            raise ConfigurationError("LECTERN_REDIS_URL is not set: uploads run in-process")
        from lectern.adapters.jobs.rq_uploads import RqUploadQueue

        url = self.settings.redis_url
        return self._once("rq_uploads", lambda: RqUploadQueue(url))

    def _ingest_collection_upload(self, job: UploadJob) -> dict[str, Any]:
        report, document_id = self.collections().ingest_upload(job.collection, job.stored)
        review = None
        if self.settings.review_uploads:
            review = self.upload_reviewer().review(job.collection, document_id)
        return collection_result(report, document_id, review)

    def _ingest_project_upload(self, job: UploadJob) -> dict[str, Any]:
        if job.project_id is None:
            raise ValueError("a project upload job names no project")
        link = self.workspace().finish_upload(job.user, job.project_id, job.stored)
        return project_result(link)

    def recover_uploads(self) -> None:
        """Fail upload jobs a dead process left running, queue queued ones again (start-up)."""
        try:
            self.upload_jobs().recover()
        except Exception as error:  # noqa: BLE001 - recovery never stops the server
            log.warning("upload job recovery failed", error=f"{type(error).__name__}: {error}")

    def reviews(self) -> ReviewService:
        """Automatic reviews with the configured model (masked text for hosted ones)."""
        return self._once("reviews", self._build_reviews)

    def _build_reviews(self) -> ReviewService:
        settings = self.settings
        return ReviewService(
            self.workspace(),
            self.llm(),
            self.overrides.pii or PatternPiiDetector(),
            mask_pii=settings.llm not in ("extractive", "local"),
            max_claims=settings.review_max_claims,
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
            "lexical": "qdrant" if self.settings.engine == "qdrant" else "bm25s",
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


def qdrant_readiness_url(settings: Settings) -> str | None:
    """Qdrant's ``/readyz`` when LECTERN_ENGINE=qdrant points at an http(s) server, else None.

    Local mode and Qdrant Edge run in process: there is no server to probe.
    """
    if settings.engine != "qdrant":
        return None
    url = settings.resolved_qdrant_url
    if not url.startswith(("http://", "https://")):
        return None
    return f"{url.rstrip('/')}/readyz"


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


TOOL_CONTEXT = 12_288
"""Tokens of context for the local model when it calls tools (signatures, history, results)."""


def local_chat_model(settings: Settings, *, context: int = 4096) -> tuple[Any, str]:
    """The in-process GGUF model as a LangChain chat model, and its id (loaded on first use).

    `context` is the window in tokens; the assistant's tool signatures alone take about
    6,000, so its callers ask for more (Qwen2.5 was trained on 32,768).
    """
    from lectern.adapters.llm.local_gguf import MODEL_ID, LlamaCppChatModel

    options: dict[str, Any] = {"n_ctx": context}
    if "llm_max_tokens" in settings.model_fields_set:
        options["max_tokens"] = settings.llm_max_tokens
    model = LlamaCppChatModel(
        model_path=str(settings.resolved_local_model_path),
        temperature=settings.llm_temperature,
        n_threads=settings.embed_threads,
        n_gpu_layers=settings.local_gpu_layers,
        vram_limit_gb=settings.llm_vram_limit,
        **options,
    )
    return model, MODEL_ID


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
        from lectern.adapters.llm.local_gguf import LOCAL_TIMEOUT

        # One generation at a time on the CPU: a timed-out attempt keeps running, so a
        # retry would only queue behind it. No retries, and a timeout sized for 2 cores.
        retries = 0
        if "llm_timeout" not in settings.model_fields_set:
            timeout = LOCAL_TIMEOUT
        model, model_id = local_chat_model(settings)
        method: StructuredMethod = (
            "grammar"
            if settings.llm_structured_output == "auto"
            else settings.llm_structured_output
        )
    else:
        from lectern.adapters.llm.providers import make_chat_model

        choice = make_chat_model(provider_config(settings, settings.llm, settings.llm_model))
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


def provider_config(settings: Settings, provider: str, model: str | None) -> ProviderConfig:
    """A provider's configuration: LECTERN_LLM_*, the provider's own settings filling gaps.

    The provider's own settings are the ones the assistant specification names too
    (ANTHROPIC_API_KEY, AZURE_OPENAI_ENDPOINT, GEMINI_MODEL, ...). `model` is the explicit
    choice (LECTERN_ASSISTANT_MODEL or LECTERN_LLM_MODEL); without one, anthropic,
    azure-openai, gemini and bedrock take their model setting's default.
    """
    from lectern.adapters.llm.providers import ProviderConfig

    own_models = {
        "anthropic": settings.anthropic_model,
        "azure-openai": settings.azure_openai_deployment,
        "gemini": settings.gemini_model,
        "bedrock": settings.bedrock_model,
    }
    own_keys = {
        "anthropic": settings.anthropic_api_key,
        "azure-openai": settings.azure_openai_api_key,
        "gemini": settings.gemini_api_key,
    }
    base_url = settings.llm_base_url
    if base_url is None and provider == "azure-openai":
        base_url = settings.azure_openai_endpoint
    return ProviderConfig(
        provider=provider,
        model=model or own_models.get(provider),
        base_url=base_url,
        api_key=settings.llm_api_key or own_keys.get(provider),
        api_version=settings.llm_api_version,
        region=settings.llm_region,
        timeout=settings.llm_timeout,
        temperature=settings.llm_temperature,
        structured_output=settings.llm_structured_output,
        max_tokens=settings.llm_max_tokens,
        vram_limit=settings.llm_vram_limit,
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


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What `lectern migrate` did: rows per table, and the indexes built for the target."""

    tables: dict[str, int]
    books_indexed: int
    collections_indexed: dict[str, int]


def migrate_install(
    settings: Settings,
    target_url: str,
    *,
    batch_size: int = 2_000,
    progress: ProgressReporter | None = None,
    skip_indexes: bool = False,
) -> MigrationReport:
    """Copy this install's catalog database to `target_url`, then index it for the target.

    The target's settings are these settings with LECTERN_CATALOG_URL replaced, so the
    engine (LECTERN_ENGINE and its settings) is whichever this environment configures: the
    embedded indexes in the data directory, or the servers the environment names.
    """
    from lectern.adapters.catalog.copy import copy_catalog, open_databases

    source, target = open_databases(settings.resolved_catalog_url, target_url)
    try:
        copied = copy_catalog(source, target, batch_size=batch_size, progress=progress)
    finally:
        source.dispose()
        target.dispose()
    books = 0
    indexed: dict[str, int] = {}
    if not skip_indexes:
        services = bootstrap(settings.model_copy(update={"catalog_url": target_url}))
        if copied.tables.get("books"):
            books = services.indexing().index(progress=progress).passages
        collections = services.collections()
        for summary in collections.summaries():
            name = summary.record.name
            indexed[name] = collections.reindex(name, progress).passages
        catalog = services.catalog
        if isinstance(catalog, SqlAlchemyBookCatalog):
            catalog.close()
    return MigrationReport(dict(copied.tables), books, indexed)


def discord_support_bot(services: Services, collection: str) -> Any:
    """The support bot on Discord over `collection` (`lectern kb bot`), not yet connected."""
    try:
        from lectern.adapters.chat.discord_bot import DiscordReplies, DiscordSupportBot
    except ImportError:
        raise ConfigurationError(
            "lectern kb bot needs discord.py: pip install -e '.[discord]'"
        ) from None
    from lectern.application.answering.chat_channel import ChannelBot

    settings = services.settings
    replier = services.kb_replier()

    def make_bot(replies: DiscordReplies) -> ChannelBot:
        return ChannelBot(
            "discord",
            replier,
            replies,
            collection=collection,
            window_seconds=settings.ai_batch_window_seconds,
        )

    return DiscordSupportBot(make_bot, channels=settings.discord_channel_set)


def train_answer_gate(
    settings: Settings,
    clapnq: Path,
    collection: str,
    output: Path,
    *,
    progress: ProgressReporter | None = None,
    build: Callable[[Settings], Services] | None = None,
) -> dict[str, JSONValue]:
    """Train the answer check on ClapNQ and its perturbed twins; write the model file.

    Every question (the 600 originals and the checked twins) is split by its passage (60/20/20
    train/dev/test); the regression learns on train, its threshold is picked on dev, test is
    reported. Returns the training report (also written beside the model, in the file).
    """
    from lectern.adapters.understanding.answer_training import (
        MODEL_VERSION_PREFIX,
        LabelledQuestion,
        collect,
        fit,
    )
    from lectern.application.answering.rules import RuleReplySteps
    from lectern.application.evaluation.answering import load_clapnq
    from lectern.application.evaluation.perturbed import make_twins, original_splits

    make = build or bootstrap
    services = make(settings)
    kb = services.knowledge_bases().get(collection)
    splits = original_splits(clapnq)
    questions = [
        LabelledQuestion(c.id, c.question, c.answerable, splits[c.id], c.gold_sentences)
        for c in load_clapnq(clapnq)
    ]
    questions += [
        LabelledQuestion(t.id, t.question, False, t.split, (), "perturbed")
        for t in make_twins(clapnq)
    ]
    if progress is not None:
        progress.start("answer check: signals", len(questions))
    rows = collect(
        questions,
        kb,
        RuleReplySteps(settings.ai_max_answer_chars),
        settings.ai_max_sources,
        progress.advance if progress is not None else None,
    )
    version = f"{MODEL_VERSION_PREFIX}-{git_commit()[:7]}"
    model = fit(rows, version=version)
    report = {
        **model.report,
        "collection": collection,
        "min_relevance": settings.ai_min_relevance,
        "questions": {
            s: sum(1 for q in questions if q.split == s) for s in ("train", "dev", "test")
        },
    }
    from dataclasses import replace

    model = replace(model, report=report)
    output.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    return cast(dict[str, JSONValue], model.to_json())


def packaged_answer_model() -> Path:
    """The answer check's model file shipped in the package."""
    from lectern.adapters.understanding import question

    return Path(question.__file__).with_name(question.MODEL_FILE)
