"""The lexical and vector indexes of one corpus, kept together in one folder."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex
from lectern.adapters.vector.faiss_index import (
    ArrayEmbedder,
    FaissVectorIndex,
    swap_in,
    sync_vectors,
)
from lectern.application.ports import IndexReport, ProgressReporter
from lectern.domain.retrieval import Passage, corpus_hash


class DiskSearchIndexes:
    """`<folder>/lexical` (bm25s) and `<folder>/vectors` (FAISS) for one corpus."""

    def __init__(
        self,
        directory: Path,
        embedder: Callable[[], ArrayEmbedder],
        *,
        model_id: str,
        dimension: int,
        exact_max: int = 100_000,
        hnsw_m: int = 32,
        ef_search: int = 64,
    ) -> None:
        """The embedder is built only when something has to be embedded."""
        self.directory = directory
        self._embedder_factory = embedder
        self._embedder: ArrayEmbedder | None = None
        self.model_id = model_id
        self.dimension = dimension
        self.exact_max = exact_max
        self.hnsw_m = hnsw_m
        self.ef_search = ef_search

    @property
    def lexical_dir(self) -> Path:
        """Where the bm25s index lives."""
        return self.directory / "lexical"

    @property
    def vector_dir(self) -> Path:
        """Where the FAISS index lives."""
        return self.directory / "vectors"

    def embedder(self) -> ArrayEmbedder:
        """The embedder, built on first use."""
        if self._embedder is None:
            self._embedder = self._embedder_factory()
        return self._embedder

    def sync(
        self,
        passages: Sequence[Passage],
        *,
        rebuild: bool = False,
        progress: ProgressReporter | None = None,
    ) -> IndexReport:
        """Bring both indexes in line with the passages."""
        started = time.perf_counter()
        digest = corpus_hash(passages, with_embed_text=False)
        marker = self.lexical_dir / "corpus.sha256"
        lexical_current = (
            not rebuild
            and marker.is_file()
            and marker.read_text(encoding="utf-8").strip() == digest
        )
        if not lexical_current:
            if progress is not None:
                progress.start("building the lexical index", None)
            staging = self.directory / "lexical.new"
            shutil.rmtree(staging, ignore_errors=True)
            Bm25sLexicalIndex.build(passages).save(staging)
            (staging / "corpus.sha256").write_text(digest, encoding="utf-8")
            swap_in(staging, self.lexical_dir)
        result = sync_vectors(
            self.vector_dir,
            passages,
            self.embedder,
            model_id=self.model_id,
            dimension=self.dimension,
            rebuild=rebuild,
            exact_max=self.exact_max,
            hnsw_m=self.hnsw_m,
            progress=progress,
        )
        return IndexReport(
            passages=len(passages),
            embedded=result.embedded,
            reused=result.reused,
            removed=result.removed,
            lexical_rebuilt=not lexical_current,
            seconds=time.perf_counter() - started,
            index_type=result.index_type,
        )

    def load_lexical(self) -> Bm25sLexicalIndex:
        """The lexical index, memory-mapped."""
        return Bm25sLexicalIndex.load(self.lexical_dir)

    def load_vectors(self) -> FaissVectorIndex:
        """The vector index; refuses one built with another model."""
        return FaissVectorIndex.load(
            self.vector_dir, self.model_id, self.dimension, ef_search=self.ef_search
        )
