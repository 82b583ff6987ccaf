"""A real collection service (SQLite, bm25s, FAISS) on a temporary folder, hashed vectors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lectern.adapters.catalog.collection_store import SqlAlchemyCollectionStore
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.collection_indexes import DiskCollectionIndexes
from lectern.adapters.documents.folder import FileDocumentSource
from lectern.adapters.documents.splitter import LangChainPassageSplitter
from lectern.adapters.documents.uploads import FolderUploadInbox
from lectern.adapters.search_indexes import DiskSearchIndexes
from lectern.application.collections import CollectionService
from lectern.application.search import SearchConfig
from tests.conftest import catalog_url_for
from tests.fakes import HashingArrayEmbedder

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def collection_service(
    data_dir: Path, embedder: HashingArrayEmbedder | None = None, url: str | None = None
) -> CollectionService:
    """Every adapter real except the embedder (hashed words, 384 dimensions)."""
    model = embedder or HashingArrayEmbedder()
    catalog = SqlAlchemyBookCatalog.from_url(url or catalog_url_for(data_dir / "catalog.db"))

    def folder_indexes(folder: Path, factory: Callable[[], object]) -> DiskSearchIndexes:
        return DiskSearchIndexes(
            folder,
            factory,  # type: ignore[arg-type]
            model_id=model.model_id,
            dimension=model.dimension,
        )

    return CollectionService(
        SqlAlchemyCollectionStore(catalog.engine),
        FileDocumentSource(),
        LangChainPassageSplitter(),
        DiskCollectionIndexes(data_dir / "index", folder_indexes, lambda: model),  # type: ignore[arg-type,return-value]
        SearchConfig(fusion="convex", weights={"lexical": 0.6, "vector": 0.4}),
        inbox=FolderUploadInbox(data_dir / "uploads"),
    )
