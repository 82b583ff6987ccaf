"""The one place that wires adapters into services."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uuid6

from lectern.adapters.catalog.explanation_cache import SqlAlchemyExplanationCache
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.embeddings.onnx_minilm import DIMENSION, MODEL_ID, OnnxMiniLMEmbedder
from lectern.adapters.evaluation_runs import JsonRunStore
from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.adapters.llm.prompts import PROMPT_VERSIONS
from lectern.adapters.llm.tracing import JsonlTraceWriter
from lectern.adapters.metrics import MeteredTracer, PrometheusMetrics
from lectern.adapters.search_indexes import DiskSearchIndexes
from lectern.adapters.sources.fetch import HttpSourceFetcher, MirrorSourceFetcher
from lectern.adapters.sources.goodbooks import GoodbooksSource
from lectern.adapters.sources.goodreads_openlibrary import GoodreadsOpenLibrarySource
from lectern.adapters.sources.seven_k import SevenKBooksSource
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.adapters.vector.faiss_index import ArrayEmbedder
from lectern.application.collections import CollectionService
from lectern.application.evaluation.datasets import load_dataset
from lectern.application.evaluation.runner import EvaluationRunner, RunEnvironment
from lectern.application.evaluation.service import EvaluationService
from lectern.application.explanations import ExplanationService
from lectern.application.indexing import IndexingService
from lectern.application.ingestion import IngestionService
from lectern.application.ports import (
    BookCatalog,
    BookSource,
    Embedder,
    LLMClient,
    LLMTracer,
    ProgressReporter,
    QueryUnderstanding,
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
from lectern.errors import ConfigurationError, IndexMismatchError, IndexMissingError
from lectern.settings import Settings

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
    )


def search_indexes(settings: Settings, folder: Path) -> DiskSearchIndexes:
    """The index folder of one corpus, wired to the configured embedder."""
    return DiskSearchIndexes(
        folder,
        lambda: make_embedder(settings),
        model_id=MODEL_ID,
        dimension=DIMENSION,
        exact_max=settings.exact_index_max,
        hnsw_m=settings.hnsw_m,
        ef_search=settings.hnsw_ef_search,
    )


def load_retriever(settings: Settings, indexes: DiskSearchIndexes) -> HybridRetriever:
    """BM25 (required) and vectors (optional: without them search is degraded)."""
    lexical = indexes.load_lexical()
    vector: VectorIndex | None = None
    embedder: Embedder | None = None
    reason = None
    try:
        vector = indexes.load_vectors()
        embedder = indexes.embedder()
    except (IndexMissingError, IndexMismatchError, ConfigurationError) as error:
        reason = str(error)
    return HybridRetriever(
        lexical, vector, embedder, search_config(settings), unavailable_reason=reason
    )


@dataclass
class Services:
    """Everything the entry points use, built from one Settings."""

    settings: Settings
    catalog: BookCatalog
    sources: Sequence[BookSource]
    fetcher: SourceFetcher | None = None
    _search: BookSearchService | None = field(default=None, repr=False)
    metrics: PrometheusMetrics = field(default_factory=PrometheusMetrics, repr=False)
    _tracer: LLMTracer | None = field(default=None, repr=False)
    _llm: LLMClient | None = field(default=None, repr=False)
    _evaluation: EvaluationService | None = field(default=None, repr=False)
    _vocabulary: Vocabulary | None = field(default=None, repr=False)
    _understanding: QueryUnderstanding | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _collections: CollectionService | None = field(default=None, repr=False)
    evaluation_data: Path | None = None
    """A folder with the three evaluation files instead of the packaged ones (tests)."""

    def ingestion(self, progress: ProgressReporter | None = None) -> IngestionService:
        """An ingestion service reading the mirror if set, else downloading."""
        fetcher = self.fetcher or make_fetcher(self.settings, progress)
        return IngestionService(
            self.catalog,
            fetcher,
            self.sources,
            batch_size=self.settings.ingest_batch_size,
            progress=progress,
        )

    def catalog_indexes(self) -> DiskSearchIndexes:
        """The catalog's index folder."""
        return search_indexes(self.settings, self.settings.index_dir / "catalog")

    def indexing(self) -> IndexingService:
        """Builds the catalog's indexes."""
        return IndexingService(self.catalog, self.catalog_indexes())

    def search(self) -> BookSearchService:
        """The search service; indexes are loaded once, on first use."""
        if self._search is None:
            retriever = load_retriever(self.settings, self.catalog_indexes())
            self._search = BookSearchService(
                self.catalog,
                retriever,
                BookFilterIndex(self.catalog.book_facts()),
                explainer=self.explanations(retriever.embedder),
                explain_top=self.settings.explain_top,
            )
        return self._search

    def collections(self) -> CollectionService:
        """Collections in the catalog database, indexed under index_dir/collection-<name>."""
        with self._lock:
            if self._collections is None:
                self._collections = make_collections(self.settings, self.catalog)
            return self._collections

    def tracer(self) -> LLMTracer:
        """The LLM trace file of this data directory, counted in the metrics."""
        if self._tracer is None:
            writer = JsonlTraceWriter(
                self.settings.trace_dir,
                max_bytes=self.settings.trace_max_bytes,
                backups=self.settings.trace_backups,
            )
            self._tracer = MeteredTracer(writer, self.metrics)
        return self._tracer

    def llm(self, embedder: Embedder | None = None) -> LLMClient:
        """The configured language model; built once. The extractive one backs every other."""
        if self._llm is None:
            self._llm = make_llm(self.settings, self.tracer(), embedder)
        return self._llm

    def explanations(self, embedder: Embedder | None = None) -> ExplanationService:
        """Explanations with the configured model, cached in the catalog database."""
        cache = None
        if isinstance(self.catalog, SqlAlchemyBookCatalog):
            cache = SqlAlchemyExplanationCache(self.catalog.engine)
        # The in-process model generates one explanation at a time anyway.
        concurrency = 1 if self.settings.llm == "local" else self.settings.explain_concurrency
        return ExplanationService(
            self.llm(embedder), PROMPT_VERSIONS["explain"], cache=cache, concurrency=concurrency
        )

    def vocabulary(self) -> Vocabulary:
        """The catalog's titles, authors, shelves and languages, for understanding queries."""
        with self._lock:
            if self._vocabulary is None:
                facets = self.catalog.facets(top_categories=1)
                self._vocabulary = Vocabulary.build(
                    self.catalog.book_names(),
                    [c.name for c in facets.languages],
                    min_year=facets.min_year,
                    max_year=facets.max_year,
                )
            return self._vocabulary

    def understanding(self) -> QueryUnderstanding:
        """LECTERN_UNDERSTANDING's planner: the offline rules, or the LLM graph over them."""
        if self._understanding is None:
            rules = RuleBasedUnderstanding(self.vocabulary())
            if self.settings.understanding == "llm":
                from lectern.adapters.llm.graphs.query_understanding import (
                    QueryUnderstandingGraph,
                )

                self._understanding = QueryUnderstandingGraph(
                    self.llm(), self.vocabulary(), fallback=rules
                )
            else:
                self._understanding = rules
        return self._understanding

    def evaluation(self) -> EvaluationService:
        """Evaluation runs of this catalog, stored under data_dir/evaluation/runs."""
        if self._evaluation is None:

            def runner() -> EvaluationRunner:
                search = self.search()
                return EvaluationRunner(
                    search,
                    self.catalog,
                    self.llm(search.retriever.embedder),
                    RunEnvironment(
                        git_commit=git_commit(),
                        models=self.model_config(search),
                        prompt_versions=dict(PROMPT_VERSIONS),
                        catalog_books=len(search.filters.all_ids),
                    ),
                    understanding=self.understanding(),
                    new_id=new_run_id,
                )

            self._evaluation = EvaluationService(
                runner,
                JsonRunStore(self.settings.data_dir / "evaluation" / "runs"),
                lambda: load_dataset(self.evaluation_data),
                new_run_id,
            )
        return self._evaluation

    def model_config(self, search: BookSearchService) -> dict[str, JSONValue]:
        """The models a run used, as recorded in its artifact."""
        embedder = search.retriever.embedder
        return {
            "llm": self.settings.llm,
            "llm_model": self.llm(embedder).model_id,
            "llm_temperature": self.settings.llm_temperature,
            "llm_structured_output": self.settings.llm_structured_output,
            "embedder": embedder.model_id if embedder is not None else None,
            "lexical": "bm25s",
            "vector_index": search.retriever.vector.model_id if search.retriever.vector else None,
        }


def make_collections(settings: Settings, catalog: BookCatalog) -> CollectionService:
    """The collection service on the catalog's database (SQLAlchemy catalogs only)."""
    from lectern.adapters.catalog.collection_store import SqlAlchemyCollectionStore
    from lectern.adapters.collection_indexes import DiskCollectionIndexes
    from lectern.adapters.documents.folder import FileDocumentSource
    from lectern.adapters.documents.splitter import LangChainPassageSplitter
    from lectern.adapters.documents.uploads import FolderUploadInbox

    if not isinstance(catalog, SqlAlchemyBookCatalog):
        raise ConfigurationError("collections need the SQL catalog (LECTERN_CATALOG_URL)")

    def folder_indexes(folder: Path, embedder: Callable[[], ArrayEmbedder]) -> DiskSearchIndexes:
        return DiskSearchIndexes(
            folder,
            embedder,
            model_id=MODEL_ID,
            dimension=DIMENSION,
            exact_max=settings.exact_index_max,
            hnsw_m=settings.hnsw_m,
            ef_search=settings.hnsw_ef_search,
        )

    return CollectionService(
        SqlAlchemyCollectionStore(catalog.engine),
        FileDocumentSource(),
        LangChainPassageSplitter(),
        DiskCollectionIndexes(settings.index_dir, folder_indexes, lambda: make_embedder(settings)),
        search_config(settings),
        mmr_lambda=settings.mmr_lambda,
        inbox=FolderUploadInbox(settings.data_dir / "uploads"),
    )


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
    settings: Settings, tracer: LLMTracer | None = None, embedder: Embedder | None = None
) -> LLMClient:
    """LECTERN_LLM's client: extractive, a LangChain provider, or the in-process GGUF."""
    extractive = ExtractiveLLM(tracer=tracer, embedder=embedder)
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
        from lectern.adapters.llm.providers import make_chat_model

        choice = make_chat_model(settings)
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
    )


def make_fetcher(settings: Settings, progress: ProgressReporter | None = None) -> SourceFetcher:
    """A mirror reader when LECTERN_DATA_MIRROR is set, else the checked downloader."""
    if settings.data_mirror is not None:
        return MirrorSourceFetcher(settings.data_mirror)
    return HttpSourceFetcher(
        settings.data_dir / "sources", base_url=settings.source_base_url, progress=progress
    )


def bootstrap(
    settings: Settings,
    *,
    catalog: BookCatalog | None = None,
    sources: Sequence[BookSource] | None = None,
    fetcher: SourceFetcher | None = None,
) -> Services:
    """Build the services; tests pass fakes or in-memory adapters as overrides."""
    return Services(
        settings=settings,
        catalog=catalog or SqlAlchemyBookCatalog.from_url(settings.resolved_catalog_url),
        sources=list(sources) if sources is not None else default_sources(),
        fetcher=fetcher,
    )
