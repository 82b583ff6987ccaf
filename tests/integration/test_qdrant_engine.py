"""The Qdrant adapter in local mode and on Qdrant Edge: scores, filters, writes, odd input."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from qdrant_client import QdrantClient
from qdrant_client.http.exceptions import UnexpectedResponse

from lectern.adapters.engines.bm25_sparse import encode_documents, encode_query
from lectern.adapters.engines.qdrant_edge import EdgeClient
from lectern.adapters.engines.qdrant_indexes import QdrantCollectionIndexes, QdrantSearchIndexes
from lectern.adapters.engines.qdrant_store import HAS_ID_MAX, _transient, retrying
from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex
from lectern.adapters.search_indexes import DiskSearchIndexes
from lectern.adapters.vector.faiss_index import FaissVectorIndex, StoredVectorEmbedder
from lectern.bootstrap import bootstrap, qdrant_client
from lectern.domain.retrieval import Passage
from lectern.domain.search import SearchFilters, SearchQuery
from lectern.errors import IndexMismatchError, IndexMissingError, InvalidQueryError
from lectern.settings import Settings
from tests.conftest import build_tiny_mirror
from tests.fakes import HashingArrayEmbedder
from tests.integration.test_retrieval_adapters import _scifact

HOSTILE = [
    "",
    "   ",
    "the of and",
    "🙂🙂🙂",
    "'; DROP TABLE books; --",
    "a" * 5_000,
    "\x00\x01 null bytes",
    "ΑΒΓ κόσμος 世界",
    "cancer " * 300,
]


@pytest.fixture(params=["local", "edge"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[QdrantClient]:
    """qdrant-client's local mode, and Qdrant's own engine through `edge:<folder>`."""
    made = (
        QdrantClient(location=":memory:")
        if request.param == "local"
        else cast("QdrantClient", EdgeClient(tmp_path / "edge"))
    )
    yield made
    made.close()


def _indexes(
    client: QdrantClient, embedder: HashingArrayEmbedder, name: str = "t"
) -> QdrantSearchIndexes:
    return QdrantSearchIndexes(
        client,
        name,
        lambda: embedder,  # type: ignore[arg-type,return-value]
        model_id=embedder.model_id,
        dimension=embedder.dimension,
    )


@pytest.fixture(scope="module")
def scifact() -> tuple[list[Passage], list[str]]:
    passages, queries = _scifact(300)
    # Groups of three abstracts, so one-per-group and group lookups have something to do.
    grouped = [Passage(p.id, p.text, p.embed_text, f"g{n // 3}") for n, p in enumerate(passages)]
    return grouped, queries


def test_sparse_bm25_with_the_idf_modifier_scores_like_bm25s(
    client: QdrantClient, scifact: tuple[list[Passage], list[str]]
) -> None:
    passages, queries = scifact
    indexes = _indexes(client, HashingArrayEmbedder())
    indexes.sync(passages)
    qdrant = indexes.load_lexical()
    reference = Bm25sLexicalIndex.build(passages)
    compared = 0
    for query in queries:
        want = reference.search(query, 20)
        got = qdrant.search(query, 20)
        assert [h.id for h in got][:5] == [h.id for h in want][:5] or np.allclose(
            [h.score for h in got][:5], [h.score for h in want][:5], rtol=1e-4
        )
        expected = {h.id: h.score for h in want}
        for hit in got:
            if hit.id in expected:
                assert hit.score == pytest.approx(expected[hit.id], rel=1e-4)
                compared += 1
    assert compared > 300


def test_dense_side_matches_exact_inner_product(
    client: QdrantClient, scifact: tuple[list[Passage], list[str]]
) -> None:
    passages, queries = scifact
    embedder = HashingArrayEmbedder()
    indexes = _indexes(client, embedder)
    indexes.sync(passages)
    qdrant = indexes.load_vectors()
    rows = np.asarray(embedder.embed_array([p.embed_text for p in passages]), dtype=np.float32)
    faiss = FaissVectorIndex.from_vectors(rows, [p.id for p in passages], embedder.model_id)
    for vector in embedder.embed(queries[:10]):
        want = faiss.search(vector, 10)
        got = qdrant.search(vector, 10)
        assert [h.score for h in got] == pytest.approx([h.score for h in want], abs=1e-5)
    stored = qdrant.vector_of(passages[0].id)
    assert stored is not None and np.allclose(stored, rows[0], atol=1e-6)
    assert qdrant.vector_of("no-such-passage") is None
    similarity = qdrant.similarities([passages[0].id, passages[1].id, "missing"])
    assert similarity[0][0] == pytest.approx(1.0, abs=1e-5)
    assert similarity[2] == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("share", [0.01, 0.5, 0.97])
def test_filters_return_only_allowed_passages(
    client: QdrantClient, scifact: tuple[list[Passage], list[str]], share: float
) -> None:
    passages, queries = scifact
    embedder = HashingArrayEmbedder()
    indexes = _indexes(client, embedder)
    indexes.sync(passages)
    lexical, vector = indexes.load_lexical(), indexes.load_vectors()
    rng = np.random.default_rng(7)
    allowed = frozenset(p.id for p in passages if rng.random() < share) | {"unknown-id"}
    reference = Bm25sLexicalIndex.build(passages)
    for query in queries[:15]:
        got = lexical.search(query, 10, allowed)
        assert all(h.id in allowed for h in got)
        want = reference.search(query, 10, allowed)
        assert [round(h.score, 3) for h in got] == [round(h.score, 3) for h in want]
        dense = vector.search(embedder.embed([query])[0], 10, allowed)
        assert dense and all(h.id in allowed for h in dense)
    assert lexical.search(queries[0], 10, frozenset()) == []
    assert lexical.search(queries[0], 10, frozenset({"unknown-id"})) == []


def test_wide_filters_fall_back_to_the_id_list_when_overfetching_runs_short(
    client: QdrantClient,
) -> None:
    # Every allowed passage says "rare" once among many words; the unfiltered top is full of
    # passages saying "common rare" that the filter excludes, so over-fetching finds too few.
    passages = [Passage(f"x{i}", "common rare rare rare", "x", f"x{i}") for i in range(900)]
    passages += [
        Passage(f"a{i}", "rare " + "filler " * 30, "a", f"a{i}") for i in range(HAS_ID_MAX + 50)
    ]
    indexes = _indexes(client, HashingArrayEmbedder())
    indexes.sync(passages)
    allowed = frozenset(p.id for p in passages if p.id.startswith("a"))
    got = indexes.load_lexical().search("rare", 20, allowed)
    assert len(got) == 20 and all(h.id in allowed for h in got)


def test_hostile_queries_answer_or_return_nothing(
    client: QdrantClient, scifact: tuple[list[Passage], list[str]]
) -> None:
    passages, _ = scifact
    embedder = HashingArrayEmbedder()
    indexes = _indexes(client, embedder)
    indexes.sync(passages)
    lexical, vector = indexes.load_lexical(), indexes.load_vectors()
    for text in HOSTILE:
        hits = lexical.search(text, 10)
        assert len(hits) <= 10 and all(h.score > 0 for h in hits)
        assert lexical.search(text, 0) == []
    assert lexical.search("cancer " * 300, 5)  # a repeated word still finds its abstracts
    assert vector.search(tuple([0.0] * embedder.dimension), 3) is not None
    assert lexical.group_of("never-indexed") == "never-indexed"


def test_resync_is_idempotent_and_embeds_only_changed_text(
    client: QdrantClient, scifact: tuple[list[Passage], list[str]]
) -> None:
    passages, queries = scifact
    embedder = HashingArrayEmbedder()
    indexes = _indexes(client, embedder)
    first = indexes.sync(passages[:100])
    assert (first.embedded, first.removed) == (100, 0)
    again = indexes.sync(passages[:100])
    assert (again.embedded, again.reused) == (0, 100)
    assert client.count("t").count == 100
    changed = [Passage(passages[0].id, "new text about zebras", "zebras", "g0"), *passages[1:90]]
    report = indexes.sync(changed)
    assert (report.embedded, report.reused, report.removed) == (1, 89, 10)
    assert client.count("t").count == 90
    lexical = indexes.load_lexical()
    assert [h.id for h in lexical.search("zebras", 5)] == [passages[0].id]
    reference = Bm25sLexicalIndex.build(changed)
    want = reference.search(queries[1], 5)
    assert [h.score for h in lexical.search(queries[1], 5)] == pytest.approx(
        [h.score for h in want], rel=1e-4
    )
    # A repeated upsert of the same points keeps one point per passage.
    indexes.corpus.upsert([])
    indexes.sync(changed, rebuild=True)
    assert client.count("t").count == 90
    assert lexical.group_of(passages[4].id) == "g1"


def test_a_collection_of_another_model_is_refused(client: QdrantClient) -> None:
    embedder = HashingArrayEmbedder()
    indexes = _indexes(client, embedder)
    indexes.sync([Passage("p", "some words", "some words", "p")])
    other = QdrantSearchIndexes(
        client,
        "t",
        lambda: embedder,  # type: ignore[arg-type,return-value]
        model_id="another-model",
        dimension=384,
    )
    with pytest.raises(IndexMismatchError, match="another-model"):
        other.load_vectors()
    with pytest.raises(IndexMissingError, match="lectern index"):
        _indexes(client, embedder, "never-built").load_lexical()


def test_collection_generations_reuse_vectors_and_discard_old_ones(client: QdrantClient) -> None:
    embedder = HashingArrayEmbedder()
    indexes = QdrantCollectionIndexes(lambda name: _indexes(client, embedder, name), client, "p_")
    first = [Passage(f"d{i}", f"document number {i} about tea", f"tea {i}", "d") for i in range(5)]
    indexes.sync("notes", 1, first)
    report = indexes.sync("notes", 2, [*first, Passage("d9", "coffee", "coffee", "e")], previous=1)
    assert (report.embedded, report.reused) == (1, 5)
    loaded = indexes.load("notes", 2)
    assert loaded.vector is not None and loaded.unavailable_reason is None
    assert [h.id for h in loaded.lexical.search("coffee", 3)] == ["d9"]
    indexes.discard("notes", keep=2)
    names = {c.name for c in client.get_collections().collections}
    assert names == {"p_collection-notes-2"}
    indexes.discard("notes")
    assert not client.get_collections().collections
    with pytest.raises(IndexMissingError):
        indexes.load("notes", 2)


def test_transient_errors_are_retried_and_client_errors_are_not() -> None:
    calls: list[int] = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise UnexpectedResponse(503, "busy", b"", None)  # type: ignore[arg-type]
        return "ok"

    assert retrying(flaky) == "ok" and len(calls) == 3
    assert not _transient(UnexpectedResponse(400, "bad", b"", None))  # type: ignore[arg-type]
    assert _transient(ConnectionError("refused"))


def test_query_weights_count_repeated_words_and_documents_share_term_indices() -> None:
    query = encode_query("Cancers cancer CELLS")
    assert len(query.indices) == 2 and sorted(query.values) == [1.0, 2.0]
    documents = encode_documents(["cancer cells divide", "the and of"])
    assert set(query.indices) <= set(documents[0].indices)
    assert documents[1].indices == ()
    assert encode_query("").indices == () and encode_query("the of").indices == ()


def test_point_ids_are_stable_uuids_of_passage_ids(client: QdrantClient) -> None:
    indexes = _indexes(client, HashingArrayEmbedder())
    indexes.sync([Passage("book-1", "a tale", "a tale", "w")])
    (point,) = client.scroll("t", limit=5)[0]
    assert uuid.UUID(str(point.id)).version == 5
    assert point.payload == {"pid": "book-1", "group": "w", "hash": point.payload["hash"]}


def test_bootstrap_runs_search_and_collections_on_qdrant(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path / "var", data_mirror=build_tiny_mirror(tmp_path / "m"), engine="qdrant"
    )
    services = bootstrap(settings)
    services.ingestion().ingest()
    report = services.indexing().index()
    assert report.index_type == "qdrant" and report.embedded == report.passages > 5
    assert services.indexing().index().embedded == 0  # unchanged: nothing re-embedded
    # A new process (bootstrap) opens the same local-mode folder and finds the collection.
    search = bootstrap(settings).search()
    response = search.search(SearchQuery("dystopian survival games"))
    assert not response.degraded
    assert response.results[0].book.title == "The Hunger Games"
    spanish = search.search(SearchQuery("novel", SearchFilters(language="es")))
    assert spanish.results and all(r.book.language == "es" for r in spanish.results)
    with pytest.raises(InvalidQueryError):
        search.search(SearchQuery("novel", SearchFilters(language="klingon")))
    for text in ("the of and", "🙂", "x" * 2_000):
        assert isinstance(search.search(SearchQuery(text)).results, list)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tea.md").write_text("# Tea\n\nGreen tea is steamed; black tea is oxidised.\n")
    collections = services.collections()
    collections.add("notes", docs)
    hits = collections.search("notes", "how is green tea made")
    assert hits.results and hits.results[0].document.title == "Tea"
    client = qdrant_client(settings)
    assert {c.name for c in client.get_collections().collections} == {
        "lectern_catalog",
        "lectern_collection-notes-1",
    }


def test_an_embedded_index_moves_to_qdrant_without_embedding_again(
    client: QdrantClient, tmp_path: Path, scifact: tuple[list[Passage], list[str]]
) -> None:
    passages, queries = scifact
    model = HashingArrayEmbedder()
    disk = DiskSearchIndexes(
        tmp_path / "disk",
        lambda: model,  # type: ignore[arg-type,return-value]
        model_id=model.model_id,
        dimension=model.dimension,
    )
    disk.sync(passages[:120])
    fallback = HashingArrayEmbedder()
    stored = StoredVectorEmbedder(tmp_path / "disk" / "vectors", lambda: fallback)  # type: ignore[arg-type,return-value]
    moved = QdrantSearchIndexes(
        client, "moved", lambda: stored, model_id=model.model_id, dimension=model.dimension
    )
    extra = Passage("new", "a passage the embedded index never saw", "never saw", "new")
    report = moved.sync([*passages[:120], extra])
    assert report.passages == 121 and stored.embedded == fallback.embedded == 1
    vector = model.embed([queries[0]])[0]
    want = [h.id for h in disk.load_vectors().search(vector, 10)]
    assert [h.id for h in moved.load_vectors().search(vector, 10)] == want
