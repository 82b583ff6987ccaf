"""One index set per collection: `<index dir>/collection-<name>/<generation>/{lexical,vectors}`.

Every change builds a new generation beside the one in use (vectors of unchanged text are
reused: the previous generation's files are hard-linked in first, and the FAISS sync embeds
only what is new), and the catalog's transaction then switches the collection to it. An add
killed before that commit leaves the old generation in use and an orphan that the next add
deletes.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from lectern.adapters.search_indexes import DiskSearchIndexes
from lectern.adapters.vector.faiss_index import ArrayEmbedder
from lectern.application.ports import (
    Embedder,
    IndexReport,
    LexicalIndex,
    LoadedIndexes,
    ProgressReporter,
    VectorIndex,
)
from lectern.domain.retrieval import Passage
from lectern.errors import ConfigurationError, IndexMismatchError, IndexMissingError

VECTOR_FILES = ("manifest.json", "vectors.npy", "faiss.index")


class GenerationIndexes(Protocol):
    """One generation's indexes as either engine opens them."""

    def load_lexical(self) -> LexicalIndex:
        """The BM25 index (required)."""
        ...

    def load_vectors(self) -> VectorIndex:
        """The vector index; raises when it is missing or built by another model."""
        ...

    def embedder(self) -> Embedder:
        """The embedder the vectors were built with."""
        ...


def loaded_generation(indexes: GenerationIndexes) -> LoadedIndexes:
    """BM25 (required) and vectors (optional: without them search is degraded, with a reason)."""
    lexical = indexes.load_lexical()
    vector: VectorIndex | None = None
    embedder: Embedder | None = None
    reason = None
    try:
        vector = indexes.load_vectors()
        embedder = indexes.embedder()
    except (IndexMissingError, IndexMismatchError, ConfigurationError) as error:
        reason = str(error)
        vector = None
    return LoadedIndexes(lexical, vector, embedder, reason)


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


class DiskCollectionIndexes:
    """Collection index folders under one root, sharing one embedder."""

    def __init__(
        self,
        root: Path,
        make_indexes: Callable[[Path, Callable[[], ArrayEmbedder]], DiskSearchIndexes],
        embedder: Callable[[], ArrayEmbedder],
    ) -> None:
        """`make_indexes(folder, embedder)` builds the engine's index pair for a folder."""
        self.root = root
        self._make_indexes = make_indexes
        self._embedder_factory = embedder
        self._embedder: ArrayEmbedder | None = None

    def _shared_embedder(self) -> ArrayEmbedder:
        if self._embedder is None:
            self._embedder = self._embedder_factory()
        return self._embedder

    def folder(self, name: str) -> Path:
        """Where a collection's generations live."""
        return self.root / f"collection-{name}"

    def _indexes(self, name: str, generation: int) -> DiskSearchIndexes:
        return self._make_indexes(self.folder(name) / str(generation), self._shared_embedder)

    def sync(
        self,
        name: str,
        generation: int,
        passages: Sequence[Passage],
        *,
        previous: int | None = None,
        progress: ProgressReporter | None = None,
    ) -> IndexReport:
        """Build a generation from scratch, reusing the previous one's vectors by text hash."""
        target = self.folder(name) / str(generation)
        shutil.rmtree(target, ignore_errors=True)
        if previous is not None:
            old = self.folder(name) / str(previous) / "vectors"
            if (old / "manifest.json").is_file():
                (target / "vectors").mkdir(parents=True)
                for file in VECTOR_FILES:
                    if (old / file).is_file():
                        _link_or_copy(old / file, target / "vectors" / file)
        return self._indexes(name, generation).sync(passages, progress=progress)

    def load(self, name: str, generation: int) -> LoadedIndexes:
        """BM25 (required) and vectors (optional: without them search is degraded)."""
        return loaded_generation(self._indexes(name, generation))

    def discard(self, name: str, keep: int | None = None) -> None:
        """Delete other generations (or the whole folder when `keep` is None)."""
        folder = self.folder(name)
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
            return
        if folder.is_dir():
            for child in folder.iterdir():
                if child.name != str(keep):
                    shutil.rmtree(child, ignore_errors=True)
