"""A real collection service (SQLite, bm25s, FAISS) on a temporary folder, hashed vectors."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lectern.adapters.catalog.collection_store import SqlAlchemyCollectionStore
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.collection_indexes import DiskCollectionIndexes
from lectern.adapters.documents.folder import FileDocumentSource
from lectern.adapters.documents.splitter import LangChainPassageSplitter
from lectern.adapters.documents.uploads import FolderUploadInbox
from lectern.adapters.search_indexes import DiskSearchIndexes
from lectern.application.collections import CollectionService
from lectern.application.hybrid_retrieval import SearchConfig
from lectern.application.ports import CollectionIndexes, DocumentBatch
from tests.conftest import SHARED_DATA, catalog_url_for
from tests.fakes import HashingArrayEmbedder

ROOT = Path(__file__).resolve().parents[1]
SHARED = SHARED_DATA


def on_qdrant() -> bool:
    """Whether the tests run with `--engine qdrant` (tests/conftest.py sets the variable)."""
    return os.environ.get("LECTERN_ENGINE") == "qdrant"


def _qdrant_indexes(data_dir: Path, model: HashingArrayEmbedder) -> CollectionIndexes:
    from lectern.adapters.engines.qdrant_indexes import (
        QdrantCollectionIndexes,
        QdrantSearchIndexes,
    )
    from lectern.adapters.engines.qdrant_store import connect

    client = connect(str((data_dir / "qdrant").resolve()))

    def corpus(name: str) -> QdrantSearchIndexes:
        return QdrantSearchIndexes(
            client,
            name,
            lambda: model,  # type: ignore[arg-type,return-value]
            model_id=model.model_id,
            dimension=model.dimension,
        )

    return QdrantCollectionIndexes(corpus, client, "")


def index_generations(data_dir: Path, name: str) -> list[str]:
    """The index generations a collection has on disk or in Qdrant, sorted."""
    if on_qdrant():
        from lectern.adapters.engines.qdrant_store import connect

        client = connect(str((data_dir / "qdrant").resolve()))
        stem = f"collection-{name}-"
        names = [c.name for c in client.get_collections().collections]
        return sorted(n[len(stem) :] for n in names if n.startswith(stem))
    folder = data_dir / "index" / f"collection-{name}"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def collection_service(
    data_dir: Path, embedder: HashingArrayEmbedder | None = None, url: str | None = None
) -> CollectionService:
    """Every adapter real except the embedder (hashed words, 384 dimensions).

    The indexes are bm25s and FAISS files, or Qdrant local mode under `--engine qdrant`.
    """
    model = embedder or HashingArrayEmbedder()
    catalog = SqlAlchemyBookCatalog.from_url(url or catalog_url_for(data_dir / "catalog.db"))

    def folder_indexes(folder: Path, factory: Callable[[], object]) -> DiskSearchIndexes:
        return DiskSearchIndexes(
            folder,
            factory,  # type: ignore[arg-type]
            model_id=model.model_id,
            dimension=model.dimension,
        )

    indexes: CollectionIndexes = (
        _qdrant_indexes(data_dir, model)
        if on_qdrant()
        else DiskCollectionIndexes(data_dir / "index", folder_indexes, lambda: model)  # type: ignore[arg-type,return-value]
    )
    return CollectionService(
        SqlAlchemyCollectionStore(catalog.engine),
        FileDocumentSource(),
        LangChainPassageSplitter(),
        indexes,
        SearchConfig(fusion="convex", weights={"lexical": 0.6, "vector": 0.4}),
        inbox=FolderUploadInbox(data_dir / "uploads"),
    )


class GatedSource:
    """The real document source, held at the gate while it reads collection `held`."""

    def __init__(self, inner: Any, held: str) -> None:
        self.inner = inner
        self.held = held
        self.reading = threading.Event()
        self.gate = threading.Event()

    def read(self, path: Path, collection: str, **options: Any) -> DocumentBatch:
        if collection == self.held:
            self.reading.set()
            assert self.gate.wait(60), "the gate was never opened"
        batch: DocumentBatch = self.inner.read(path, collection, **options)
        return batch
