"""The whole catalog in Qdrant's own engine (qdrant-edge-py, in process) against bm25s and FAISS.

The points are the ones the Qdrant adapter writes (`encode_documents`, `point_id`), so this
checks that the engine a server runs scores our sparse BM25 with its IDF modifier as bm25s
does, finds the same nearest vectors, and returns only what a filter allows.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import qdrant_edge as edge

from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.engines.bm25_sparse import encode_documents, encode_query
from lectern.adapters.engines.qdrant_store import DENSE, SPARSE, point_id
from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex
from lectern.adapters.vector.faiss_index import FaissVectorIndex
from lectern.application.book_filters import BookFilterIndex
from lectern.application.evaluation.datasets import load_dataset
from lectern.domain.passages import book_passage
from lectern.domain.retrieval import Passage
from lectern.domain.search import SearchFilters
from tests.fakes import HashingArrayEmbedder
from tests.integration.conftest import FullIngest

pytestmark = pytest.mark.slow


class Catalog:
    """The full catalog's passages, their vectors, both reference indexes and an edge shard."""

    def __init__(self, catalog: SqlAlchemyBookCatalog, shard_dir: Path) -> None:
        self.passages: list[Passage] = [
            book_passage(book) for batch in catalog.iter_batches(2_000) for book in batch
        ]
        self.filters = BookFilterIndex(catalog.book_facts())
        self.embedder = HashingArrayEmbedder()
        rows = np.asarray(
            self.embedder.embed_array([p.embed_text for p in self.passages]), dtype=np.float32
        )
        ids = [p.id for p in self.passages]
        self.bm25 = Bm25sLexicalIndex.build(self.passages)
        self.faiss = FaissVectorIndex.from_vectors(rows, ids, self.embedder.model_id)
        config = edge.EdgeConfig(
            vectors={DENSE: edge.EdgeVectorParams(size=384, distance=edge.Distance.Cosine)},
            sparse_vectors={SPARSE: edge.EdgeSparseVectorParams(modifier=edge.Modifier.Idf)},
        )
        self.shard = edge.EdgeShard.create(str(shard_dir), config)
        sparse = encode_documents([p.text for p in self.passages])
        for start in range(0, len(ids), 1_000):
            points = [
                edge.Point(
                    id=point_id(ids[i]),
                    vector={
                        DENSE: rows[i].tolist(),
                        SPARSE: edge.SparseVector(
                            indices=list(sparse[i].indices), values=list(sparse[i].values)
                        ),
                    },
                    payload={"pid": ids[i], "group": self.passages[i].group},
                )
                for i in range(start, min(start + 1_000, len(ids)))
            ]
            self.shard.update(edge.UpdateOperation.upsert_points(points))

    def query(
        self, vector: object, using: str, k: int, allowed: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        where = None
        if allowed is not None:
            where = edge.Filter(
                must=[edge.HasIdCondition(point_ids={point_id(i) for i in allowed})]
            )
        found = self.shard.query(
            edge.QueryRequest(
                limit=k,
                query=edge.Query.Nearest(vector, using=using),  # type: ignore[arg-type]
                with_payload=True,
                filter=where,
            )
        )
        return [(str((p.payload or {})["pid"]), float(p.score)) for p in found]

    def sparse(self, text: str) -> edge.SparseVector:
        terms = encode_query(text)
        return edge.SparseVector(indices=list(terms.indices), values=list(terms.values))


@pytest.fixture(scope="module")
def full(full_ingest: FullIngest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    """The run's one full ingest of the shared books (a copy: the shared file is read-only)."""
    folder = tmp_path_factory.mktemp("edge")
    shutil.copy(full_ingest.catalog, folder / "catalog.db")
    catalog = SqlAlchemyBookCatalog.from_url(f"sqlite:///{folder / 'catalog.db'}")
    built = Catalog(catalog, folder / "shard")
    catalog.close()
    yield built
    built.shard.close()


def _texts() -> list[str]:
    return [q.text for q in load_dataset().queries]


def test_the_shard_holds_every_book(full: Catalog) -> None:
    assert len(full.passages) >= 18_000
    assert full.shard.count(edge.CountRequest()) == len(full.passages)


def test_sparse_bm25_in_the_engine_equals_bm25s_on_the_whole_catalog(full: Catalog) -> None:
    overlaps, compared = [], 0
    for text in _texts():
        want = full.bm25.search(text, 10)
        terms = encode_query(text)
        got = full.query(full.sparse(text), SPARSE, 10) if terms.indices else []
        expected = {h.id: h.score for h in want}
        for pid, score in got:
            if pid in expected:
                assert score == pytest.approx(expected[pid], rel=1e-3)
                compared += 1
        if want:
            overlaps.append(len(expected.keys() & {p for p, _ in got}) / len(want))
    assert compared > 500
    assert float(np.mean(overlaps)) >= 0.97  # ties at the cut may order differently


def test_dense_neighbours_equal_exact_search(full: Catalog) -> None:
    for vector in full.embedder.embed(_texts()[:40]):
        want = full.faiss.search(vector, 10)
        got = full.query(list(vector), DENSE, 10)
        assert [s for _, s in got] == pytest.approx([h.score for h in want], abs=1e-4)


@pytest.mark.parametrize(
    "filters",
    [
        SearchFilters(language="es"),
        SearchFilters(min_year=2010),
        SearchFilters(category="fantasy", max_year=1990),
        SearchFilters(exclude_categories=("fiction",), exclude_youth=True),
    ],
)
def test_every_filtered_result_passes_the_filter(full: Catalog, filters: SearchFilters) -> None:
    allowed = full.filters.allowed(filters)
    assert allowed is not None and 0 < len(allowed) < len(full.passages)
    returned = 0
    for text, vector in zip(_texts()[:15], full.embedder.embed(_texts()[:15]), strict=True):
        lexical = (
            full.query(full.sparse(text), SPARSE, 10, allowed) if encode_query(text).indices else []
        )
        dense = full.query(list(vector), DENSE, 10, allowed)
        assert all(pid in allowed for pid, _ in lexical + dense)
        reference = full.bm25.search(text, 10, allowed)
        assert [s for _, s in lexical] == pytest.approx([h.score for h in reference], rel=1e-3)
        returned += len(lexical) + len(dense)
    assert returned > 0
