"""Collections of documents and records, on the configured engine."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from lectern.application.collections import CollectionService
from lectern.application.ports import CollectionIndexes
from lectern.bootstrap.indexes import (
    qdrant_client,
    qdrant_indexes,
    search_config,
    vector_model_id,
)
from lectern.bootstrap.models import ModelWiring

if TYPE_CHECKING:
    from lectern.adapters.vector.faiss_index import ArrayEmbedder


class CollectionWiring(ModelWiring):
    """Collections in the catalog database, their indexes beside the catalog's."""

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
        from lectern.adapters.embeddings.onnx_minilm import DIMENSION
        from lectern.adapters.search_indexes import DiskSearchIndexes

        def folder_indexes(
            folder: Path, embedder: Callable[[], ArrayEmbedder]
        ) -> DiskSearchIndexes:
            return DiskSearchIndexes(
                folder,
                embedder,
                model_id=vector_model_id(settings),
                dimension=DIMENSION,
                exact_max=settings.exact_index_max,
                hnsw_m=settings.hnsw_m,
                ef_search=settings.hnsw_ef_search,
            )

        # One embedding model in memory: the catalog's, loaded on first use.
        return DiskCollectionIndexes(settings.index_dir, folder_indexes, embedder)
