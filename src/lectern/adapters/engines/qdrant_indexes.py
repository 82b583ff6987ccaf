"""The search ports on Qdrant: BM25 and dense candidates from one collection per corpus.

Qdrant returns each method's candidates (sparse BM25 with IDF, dense cosine); fusion, MMR,
one-edition-per-work and the filters' meaning stay in the application, so both engines rank
with the same code and weights. Filters arrive as the allowed passage ids and are enforced
by the engine (see `QdrantCorpus.query`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence, Set

import numpy as np
from qdrant_client import QdrantClient, models

from lectern.adapters.collection_indexes import loaded_generation
from lectern.adapters.engines.bm25_sparse import K1, B, encode_documents, encode_query
from lectern.adapters.engines.qdrant_store import DENSE, SPARSE, NewPoint, QdrantCorpus
from lectern.adapters.vector.faiss_index import ArrayEmbedder, text_hash
from lectern.application.ports import (
    IndexReport,
    LoadedIndexes,
    ProgressReporter,
    Vector,
)
from lectern.domain.retrieval import Passage, ScoredId, corpus_hash
from lectern.errors import IndexMismatchError, IndexMissingError

FORMAT = 1


class QdrantLexicalIndex:
    """BM25 over the collection's sparse vectors (bm25s's terms, Qdrant's IDF)."""

    def __init__(self, corpus: QdrantCorpus) -> None:
        """Reads the collection's passage ids and groups on first use."""
        self.corpus = corpus

    def __len__(self) -> int:
        """Number of passages."""
        return len(self.corpus.groups())

    def search(self, query: str, k: int, allowed: Set[str] | None = None) -> list[ScoredId]:
        """Top k passages with a positive BM25 score; only `allowed` ids when given."""
        terms = encode_query(query)
        if not terms.indices or k <= 0:
            return []  # nothing but stop words, or an empty query
        vector = models.SparseVector(indices=list(terms.indices), values=list(terms.values))
        return [ScoredId(i, s) for i, s in self.corpus.query(vector, SPARSE, k, allowed)]

    def group_of(self, passage_id: str) -> str:
        """The passage's group, or its own id when unknown."""
        return self.corpus.groups().get(passage_id, passage_id)


class QdrantVectorIndex:
    """Nearest neighbours by cosine over the collection's dense vectors."""

    def __init__(self, corpus: QdrantCorpus, model_id: str) -> None:
        """The model id is checked against the collection's metadata by the loader."""
        self.corpus = corpus
        self._model_id = model_id

    @property
    def model_id(self) -> str:
        """The embedding model of the stored vectors."""
        return self._model_id

    def __len__(self) -> int:
        """Number of vectors."""
        return len(self.corpus.groups())

    def search(self, vector: Vector, k: int, allowed: Set[str] | None = None) -> list[ScoredId]:
        """Top k passages by cosine (inner product of unit vectors); only `allowed` when given."""
        hits = self.corpus.query([float(x) for x in vector], DENSE, k, allowed)
        return [ScoredId(i, s) for i, s in hits]

    def vector_of(self, passage_id: str) -> Vector | None:
        """The stored vector of a passage."""
        return self.corpus.vectors([passage_id]).get(passage_id)

    def similarities(self, passage_ids: Sequence[str]) -> list[list[float]]:
        """Pairwise cosine similarities; a passage without a vector is 0 to the others."""
        stored = self.corpus.vectors(list(dict.fromkeys(passage_ids)))
        matrix = np.zeros((len(passage_ids), self.corpus.dimension), dtype=np.float32)
        for row, pid in enumerate(passage_ids):
            if pid in stored:
                matrix[row] = stored[pid]
        result: list[list[float]] = (matrix @ matrix.T).tolist()
        return result


class QdrantSearchIndexes:
    """The lexical and vector sides of one corpus in one Qdrant collection.

    The same shape as `DiskSearchIndexes` (`sync`, `load_lexical`, `load_vectors`,
    `embedder`), so bootstrap and the BEIR evaluation use either.
    """

    def __init__(
        self,
        client: QdrantClient,
        name: str,
        embedder: Callable[[], ArrayEmbedder],
        *,
        model_id: str,
        dimension: int,
        shards: int = 1,
        replicas: int = 1,
    ) -> None:
        """The embedder is built only when something has to be embedded."""
        self.corpus = QdrantCorpus(
            client, name, dimension=dimension, shards=shards, replicas=replicas
        )
        self._embedder_factory = embedder
        self._embedder: ArrayEmbedder | None = None
        self.model_id = model_id
        self.dimension = dimension

    def embedder(self) -> ArrayEmbedder:
        """The embedder, built on first use."""
        if self._embedder is None:
            self._embedder = self._embedder_factory()
        return self._embedder

    def _wanted_metadata(self, digest: str) -> dict[str, object]:
        return {
            "format": FORMAT,
            "model_id": self.model_id,
            "dimension": self.dimension,
            "bm25": {"k1": K1, "b": B},
            "corpus": digest,
        }

    def sync(
        self,
        passages: Sequence[Passage],
        *,
        rebuild: bool = False,
        progress: ProgressReporter | None = None,
        reuse: QdrantCorpus | None = None,
    ) -> IndexReport:
        """Make the collection hold exactly these passages; embed only new or changed text.

        When anything changed the collection is written anew: a document's BM25 weights depend
        on the corpus's mean length. Vectors of unchanged text come from the collection itself
        (or from `reuse`, a previous generation), read before it is recreated.
        """
        started = time.perf_counter()
        digest = corpus_hash(passages)
        wanted = self._wanted_metadata(digest)
        found = self.corpus.metadata() if self.corpus.exists() else None
        if found is not None and not rebuild and found == wanted:
            unchanged = len(passages)
            return IndexReport(unchanged, 0, unchanged, 0, False, _seconds(started), "qdrant")
        if (
            found is not None
            and not rebuild
            and (found.get("model_id") != self.model_id or found.get("dimension") != self.dimension)
        ):
            raise IndexMismatchError(
                f"the Qdrant collection {self.corpus.name!r} holds {found.get('model_id')} "
                f"vectors, but {self.model_id} is configured: run `lectern index --rebuild`"
            )
        old: dict[str, tuple[str, tuple[float, ...]]] = {}
        sources = [c for c in (None if rebuild else self.corpus, reuse) if c is not None]
        for source in sources:
            if source.exists() and source.metadata().get("model_id") == self.model_id:
                for point in source.stored(with_vectors=True):
                    if point.vector is not None:
                        old.setdefault(point.passage_id, (point.text_hash, point.vector))
        hashes = [text_hash(p.embed_text) for p in passages]
        todo = [i for i, p in enumerate(passages) if old.get(p.id, ("",))[0] != hashes[i]]
        if progress is not None:
            progress.start("embedding", len(todo))
        fresh: dict[int, Sequence[float]] = {}
        if todo:
            model = self.embedder()
            if model.model_id != self.model_id or model.dimension != self.dimension:
                raise IndexMismatchError(
                    f"the embedder is {model.model_id} ({model.dimension} dimensions), but the "
                    f"index wants {self.model_id} ({self.dimension})"
                )
            rows = model.embed_array([passages[i].embed_text for i in todo], progress)
            fresh = {i: rows[n] for n, i in enumerate(todo)}
        if progress is not None:
            progress.start("writing to Qdrant", None)
        sparse = encode_documents([p.text for p in passages])
        points = [
            NewPoint(p.id, p.group, hashes[i], fresh[i] if i in fresh else old[p.id][1], sparse[i])
            for i, p in enumerate(passages)
        ]
        keep = {p.id for p in passages}
        removed = [] if found is None else [i for i in self.corpus.groups() if i not in keep]
        # Recreated, not updated in place: Qdrant's engine counts replaced and deleted points
        # in its IDF statistics until their segments are optimised, and every point is
        # rewritten anyway (BM25 weights depend on the corpus's mean length).
        self.corpus.create({**wanted, "corpus": ""})
        self.corpus.upsert(points)
        # The corpus hash goes in last: a sync killed half-way is redone next time.
        self.corpus.set_metadata(wanted)
        return IndexReport(
            passages=len(passages),
            embedded=len(todo),
            reused=len(passages) - len(todo),
            removed=len(removed),
            lexical_rebuilt=True,
            seconds=_seconds(started),
            index_type="qdrant",
        )

    def load_lexical(self) -> QdrantLexicalIndex:
        """The BM25 side; IndexMissingError when the collection was never built."""
        metadata = self.corpus.metadata()
        if not metadata.get("corpus"):
            raise IndexMissingError(
                f"the Qdrant collection {self.corpus.name!r} was never completely built: "
                "run `lectern index`"
            )
        return QdrantLexicalIndex(self.corpus)

    def load_vectors(self) -> QdrantVectorIndex:
        """The dense side; refuses vectors of another model."""
        self.corpus.check_model(self.model_id)
        return QdrantVectorIndex(self.corpus, self.model_id)


def _seconds(started: float) -> float:
    return time.perf_counter() - started


class QdrantCollectionIndexes:
    """One Qdrant collection per Lectern collection generation: `<prefix>collection-<name>-<n>`.

    A change builds generation n+1 beside n (vectors of unchanged text copied over), the
    catalog's transaction switches to it, and `discard` drops the rest.
    """

    def __init__(
        self,
        make_indexes: Callable[[str], QdrantSearchIndexes],
        client: QdrantClient,
        prefix: str,
    ) -> None:
        """`make_indexes(qdrant collection name)` wires a corpus to the shared embedder."""
        self._make = make_indexes
        self._client = client
        self._prefix = prefix

    def collection_name(self, name: str, generation: int) -> str:
        """The Qdrant collection of one generation."""
        return f"{self._prefix}collection-{name}-{generation}"

    def sync(
        self,
        name: str,
        generation: int,
        passages: Sequence[Passage],
        *,
        previous: int | None = None,
        progress: ProgressReporter | None = None,
    ) -> IndexReport:
        """Build generation `generation`, reusing vectors of `previous` for unchanged text."""
        indexes = self._make(self.collection_name(name, generation))
        reuse = None
        if previous is not None:
            reuse = self._make(self.collection_name(name, previous)).corpus
        return indexes.sync(passages, rebuild=True, progress=progress, reuse=reuse)

    def load(self, name: str, generation: int) -> LoadedIndexes:
        """BM25 (required) and vectors (optional: without them search is degraded)."""
        return loaded_generation(self._make(self.collection_name(name, generation)))

    def discard(self, name: str, keep: int | None = None) -> None:
        """Drop every generation's collection but `keep` (all of them when None)."""
        stem = f"{self._prefix}collection-{name}-"
        for described in self._client.get_collections().collections:
            suffix = described.name[len(stem) :]
            if described.name.startswith(stem) and suffix.isdigit() and suffix != str(keep):
                QdrantCorpus(self._client, described.name, dimension=0).drop()
