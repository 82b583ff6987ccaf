"""Ports of the search engine: embedders, rerankers, lexical and vector indexes."""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import Protocol

from lectern.application.ports.progress import ProgressReporter
from lectern.domain.retrieval import Passage, RerankCandidate, ScoredId

Vector = tuple[float, ...]
"""An embedding as plain floats; adapters keep their arrays to themselves."""


class Embedder(Protocol):
    """Turns text into unit vectors."""

    @property
    def model_id(self) -> str:
        """The model's name, recorded in index manifests."""
        ...

    @property
    def dimension(self) -> int:
        """Length of each vector."""
        ...

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """One unit vector per text."""
        ...


class Reranker(Protocol):
    """Re-orders the head of a fused candidate list (listwise by a model, late interaction)."""

    @property
    def name(self) -> str:
        """The adapter's name as LECTERN_RERANK spells it."""
        ...

    def rerank(self, query: str, candidates: Sequence[RerankCandidate]) -> list[ScoredId]:
        """The candidates best first, each with this reranker's score; raises on failure."""
        ...


class LexicalIndex(Protocol):
    """Keyword search over passages."""

    def __len__(self) -> int:
        """Number of passages indexed."""
        ...

    def search(self, query: str, k: int, allowed: Set[str] | None = None) -> list[ScoredId]:
        """Top k passages with a positive score; only `allowed` ids when given."""
        ...

    def group_of(self, passage_id: str) -> str:
        """The passage's group (editions of one work share one)."""
        ...


class VectorIndex(Protocol):
    """Nearest-neighbour search over passage vectors."""

    @property
    def model_id(self) -> str:
        """The embedding model the vectors came from."""
        ...

    def __len__(self) -> int:
        """Number of vectors."""
        ...

    def search(self, vector: Vector, k: int, allowed: Set[str] | None = None) -> list[ScoredId]:
        """Top k passages by inner product; only `allowed` ids when given."""
        ...

    def vector_of(self, passage_id: str) -> Vector | None:
        """The stored vector of a passage, or None."""
        ...

    def similarities(self, passage_ids: Sequence[str]) -> list[list[float]]:
        """Pairwise cosine similarities; a passage without a vector is 0 to all others."""
        ...


class SearchIndexBuilder(Protocol):
    """Builds or updates the lexical and vector indexes from passages."""

    def sync(
        self,
        passages: Sequence[Passage],
        *,
        rebuild: bool = False,
        progress: ProgressReporter | None = None,
    ) -> IndexReport:
        """Make the stored indexes match these passages; embed only what changed."""
        ...


@dataclass(frozen=True, slots=True)
class IndexReport:
    """What an index sync did."""

    passages: int
    embedded: int
    """Passages whose text was new or changed and went through the embedder."""
    reused: int
    removed: int
    lexical_rebuilt: bool
    seconds: float
    index_type: str
