"""The search engine's parts per corpus: embedder, indexes on either engine, retrievers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from lectern.adapters.sources.beir import load_beir
from lectern.adapters.sources.fetch import sha256_of
from lectern.application.evaluation.beir import BeirEvaluation
from lectern.application.hybrid_retrieval import HybridRetriever, SearchConfig
from lectern.application.ports import Embedder, LexicalIndex, VectorIndex
from lectern.errors import ConfigurationError, IndexMismatchError, IndexMissingError
from lectern.settings import Settings

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

    from lectern.adapters.engines.qdrant_indexes import QdrantSearchIndexes
    from lectern.adapters.search_indexes import DiskSearchIndexes
    from lectern.adapters.vector.faiss_index import ArrayEmbedder


def make_embedder(settings: Settings) -> ArrayEmbedder:
    """The configured embedding backend (built on first use: it loads a model)."""
    if settings.embedder == "sentence-transformers":
        from lectern.adapters.embeddings.sentence_transformers import (
            SentenceTransformerEmbedder,
        )

        return SentenceTransformerEmbedder(
            threads=settings.embed_threads, batch_size=settings.embed_batch_size
        )
    from lectern.adapters.embeddings.onnx_minilm import OnnxMiniLMEmbedder

    return OnnxMiniLMEmbedder(
        threads=settings.embed_threads,
        batch_size=settings.embed_batch_size,
        int8_arithmetic=settings.embedder == "onnx-int8",
    )


def vector_model_id(settings: Settings) -> str:
    """The model id stored with (and required of) the vectors the configured embedder makes."""
    from lectern.adapters.embeddings.onnx_minilm import INT8_MODEL_ID, MODEL_ID

    return INT8_MODEL_ID if settings.embedder == "onnx-int8" else MODEL_ID


def search_config(settings: Settings) -> SearchConfig:
    """Retrieval knobs from settings."""
    return SearchConfig(
        rrf_k=settings.rrf_k,
        fusion=settings.fusion,
        weights={"lexical": settings.lexical_weight, "vector": settings.vector_weight},
        candidate_pool=settings.candidate_pool,
        lexical_enabled=settings.bm25_enabled,
    )


def book_search_config(settings: Settings) -> SearchConfig:
    """The catalog's knobs: the shared ones, plus shelf-leaning weights and a lexical tail.

    Both were chosen on the book benchmarks; other corpora (SciFact, collections) keep the
    shared knobs, so their measured figures stand.
    """
    return replace(
        search_config(settings),
        shelf_weights={
            "lexical": settings.shelf_lexical_weight,
            "vector": settings.shelf_vector_weight,
        },
        lexical_tail=settings.lexical_tail,
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
    from lectern.adapters.embeddings.onnx_minilm import DIMENSION
    from lectern.adapters.engines.qdrant_indexes import QdrantSearchIndexes

    return QdrantSearchIndexes(
        qdrant_client(settings),
        corpus if prefixed else f"{settings.qdrant_collection_prefix}{corpus}",
        embedder or (lambda: make_embedder(settings)),
        model_id=vector_model_id(settings),
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
    from lectern.adapters.embeddings.onnx_minilm import DIMENSION
    from lectern.adapters.search_indexes import DiskSearchIndexes

    return DiskSearchIndexes(
        folder,
        embedder or (lambda: make_embedder(settings)),
        model_id=vector_model_id(settings),
        dimension=DIMENSION,
        exact_max=settings.exact_index_max,
        hnsw_m=settings.hnsw_m,
        ef_search=settings.hnsw_ef_search,
    )


def load_retriever(
    settings: Settings,
    indexes: SearchIndexes,
    embedder_override: Embedder | None = None,
    config: SearchConfig | None = None,
) -> HybridRetriever:
    """BM25 (required) and vectors (optional: without them search is degraded).

    `config` defaults to the shared knobs (`search_config`).
    """
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
        lexical, vector, embedder, config or search_config(settings), unavailable_reason=reason
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
