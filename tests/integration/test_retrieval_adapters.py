"""bm25s, the packaged ONNX MiniLM and FAISS, each on real inputs."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from rank_bm25 import BM25Okapi as _BM25Okapi

from lectern.adapters.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex, make_tokenizer
from lectern.adapters.vector.faiss_index import FaissVectorIndex, sync_vectors
from lectern.application.ports import ProgressReporter
from lectern.domain.retrieval import Passage
from lectern.errors import IndexMismatchError, IndexMissingError
from tests.conftest import SHARED_BOOKS

SCIFACT = SHARED_BOOKS.parent / "beir-scifact-dev"


class BM25Okapi(_BM25Okapi):  # type: ignore[misc]
    """rank-bm25's Okapi, remembering each term's document frequency."""

    def _initialize(self, corpus: list[list[str]]) -> dict[str, int]:
        frequencies: dict[str, int] = super()._initialize(corpus)
        self.doc_freqs_by_term = frequencies
        return frequencies


def _scifact(limit: int) -> tuple[list[Passage], list[str]]:
    if not (SCIFACT / "corpus.jsonl.gz").is_file():
        pytest.fail(f"SciFact is missing at {SCIFACT}")
    passages = []
    with gzip.open(SCIFACT / "corpus.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            doc = json.loads(line)
            text = f"{doc['title']}. {doc['text']}"
            passages.append(Passage(doc["_id"], text, text, doc["_id"]))
            if len(passages) == limit:
                break
    with (SCIFACT / "queries-train.jsonl").open(encoding="utf-8") as handle:
        queries = [json.loads(line)["text"] for line in handle][:40]
    return passages, queries


def test_bm25s_matches_rank_bm25_on_scifact_abstracts() -> None:
    passages, queries = _scifact(400)
    index = Bm25sLexicalIndex.build(passages, method="robertson", k1=1.5, b=0.75)
    tokenizer = make_tokenizer()
    corpus_tokens = tokenizer.tokenize(
        [p.text for p in passages], return_as="string", show_progress=False
    )
    reference = BM25Okapi(corpus_tokens, k1=1.5, b=0.75)
    # A term in over half the documents has a negative Robertson IDF: rank-bm25 replaces it
    # with epsilon * mean IDF, bm25s with 0. The variants agree on every other term.
    common = {t for t, n in reference.doc_freqs_by_term.items() if n > len(passages) / 2}
    compared = 0
    for query in queries:
        query_tokens = tokenizer.tokenize(
            [query], update_vocab=False, return_as="string", show_progress=False
        )[0]
        if common & set(query_tokens):
            continue
        expected_scores = reference.get_scores(query_tokens)
        order = np.argsort(-expected_scores, kind="stable")[:10]
        expected = [
            (passages[i].id, float(expected_scores[i])) for i in order if expected_scores[i] > 0
        ]
        # bm25s leaves out the constant (k1 + 1) factor of the numerator: same ranking,
        # scores scaled by 1 / (k1 + 1).
        found = [(hit.id, hit.score * 2.5) for hit in index.search(query, 10)]
        assert [s for _, s in found] == pytest.approx([s for _, s in expected], rel=1e-4)
        # ids agree except where two documents tie
        for (found_id, score), (expected_id, _) in zip(found, expected, strict=True):
            if found_id != expected_id:
                assert sum(abs(s - score) < 1e-4 for _, s in expected) > 1
        compared += 1
    assert compared >= 25


def test_bm25s_index_round_trips_through_disk_and_filters(tmp_path: Path) -> None:
    passages, queries = _scifact(200)
    Bm25sLexicalIndex.build(passages).save(tmp_path / "lex")
    loaded = Bm25sLexicalIndex.load(tmp_path / "lex")
    built = Bm25sLexicalIndex.build(passages)
    assert loaded.search(queries[0], 10) == built.search(queries[0], 10)
    allowed = {p.id for p in passages[:50]}
    filtered = loaded.search(queries[0], 10, allowed)
    assert all(hit.id in allowed for hit in filtered)
    # The filtered ranking is the unfiltered one restricted to the allowed passages.
    everything = [h for h in loaded.search(queries[0], 200) if h.id in allowed]
    assert filtered == everything[:10]
    # The same filter again (a frozenset, as BookFilterIndex hands it over) hits the mask cache.
    assert loaded.search(queries[0], 10, frozenset(allowed)) == filtered
    assert loaded.search("the of and", 10) == []
    assert loaded.search("zzzqqq unknownword", 10) == []
    assert loaded.search(queries[0], 0) == []
    assert loaded.search(queries[0], 10, set()) == []
    with pytest.raises(IndexMissingError, match="lectern index"):
        Bm25sLexicalIndex.load(tmp_path / "nothing")


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder(threads=2)


def test_onnx_minilm_gives_unit_vectors_with_sensible_neighbours(
    embedder: OnnxMiniLMEmbedder,
) -> None:
    texts = [
        "A man is eating food.",
        "A man is eating a piece of bread.",
        "A man is riding a horse.",
        "",
        "word " * 2_000,
    ]
    vectors = embedder.embed_array(texts)
    assert vectors.shape == (5, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2
    # order is kept although batches are sorted by length
    again = embedder.embed_array(list(reversed(texts)))
    assert np.allclose(again[::-1], vectors, atol=1e-5)
    assert embedder.embed(["A man is eating food."])[0] == pytest.approx(
        tuple(vectors[0]), abs=1e-5
    )


def test_embedders_of_one_model_share_its_session_and_agree() -> None:
    """Each `Services` builds an embedder; they share one onnxruntime session per model file
    and thread count (a session per embedder grew a long run's memory), and give the same
    vectors from threads at once."""
    from concurrent.futures import ThreadPoolExecutor

    first, second = OnnxMiniLMEmbedder(threads=1), OnnxMiniLMEmbedder(threads=1)
    assert first._session is second._session
    assert OnnxMiniLMEmbedder(threads=2)._session is not first._session
    texts = ["the salt SHALL be at least 32 bits", "a man is riding a horse"] * 4
    alone = first.embed_array(texts)
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda e: e.embed_array(texts), [first, second] * 2))
    assert all(np.allclose(vectors, alone, atol=1e-6) for vectors in together)


class CountingEmbedder:
    """Deterministic random unit vectors per text; counts what it embeds."""

    model_id = "counting"
    dimension = 16

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return [tuple(float(x) for x in row) for row in self.embed_array(texts)]

    def embed_array(
        self, texts: Sequence[str], progress: ProgressReporter | None = None
    ) -> npt.NDArray[np.float32]:
        del progress
        self.embedded.extend(texts)
        rows = []
        for text in texts:
            seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
            row = np.random.default_rng(seed).normal(size=self.dimension).astype(np.float32)
            rows.append(row / np.linalg.norm(row))
        return np.array(rows, dtype=np.float32).reshape(len(texts), self.dimension)


def _passages(n: int, changed: int | None = None) -> list[Passage]:
    return [
        Passage(f"p{i}", f"text {i}", f"text {i}{' changed' if i == changed else ''}", f"p{i}")
        for i in range(n)
    ]


def test_vector_sync_embeds_only_new_or_changed_passages(tmp_path: Path) -> None:
    folder = tmp_path / "vectors"
    counting = CountingEmbedder()

    def sync(passages: list[Passage], **kw: object) -> object:
        return sync_vectors(
            folder, passages, lambda: counting, model_id="counting", dimension=16, **kw
        )  # type: ignore[arg-type]

    first = sync(_passages(50))
    assert (first.embedded, first.reused) == (50, 0)  # type: ignore[attr-defined]
    counting.embedded.clear()
    unchanged = sync(_passages(50))
    assert (unchanged.embedded, unchanged.changed) == (0, False)  # type: ignore[attr-defined]
    updated = sync(_passages(55, changed=3))
    assert counting.embedded == ["text 3 changed", *[f"text {i}" for i in range(50, 55)]]
    assert (updated.embedded, updated.reused, updated.removed) == (6, 49, 0)  # type: ignore[attr-defined]
    shrunk = sync(_passages(40))
    assert shrunk.removed == 15  # type: ignore[attr-defined]
    index = FaissVectorIndex.load(folder, "counting", 16)
    assert len(index) == 40
    expected = counting.embed_array(["text 7"])[0]
    assert index.vector_of("p7") == pytest.approx(tuple(expected), abs=1e-6)
    assert index.search(tuple(expected), 1)[0].id == "p7"


def test_an_index_from_another_model_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "vectors"
    counting = CountingEmbedder()
    sync_vectors(folder, _passages(5), lambda: counting, model_id="counting", dimension=16)
    with pytest.raises(IndexMismatchError, match="lectern index --rebuild"):
        FaissVectorIndex.load(folder, "another-model", 16)
    with pytest.raises(IndexMismatchError, match="lectern index --rebuild"):
        sync_vectors(folder, _passages(5), lambda: counting, model_id="another-model", dimension=16)
    rebuilt = sync_vectors(
        folder, _passages(5), lambda: counting, model_id="counting", dimension=16, rebuild=True
    )
    assert rebuilt.embedded == 5
    (folder / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(IndexMismatchError, match="unreadable"):
        FaissVectorIndex.load(folder, "counting", 16)


def test_hnsw_agrees_with_exact_search_and_filters_are_exact() -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(3_000, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = [f"d{i}" for i in range(3_000)]
    exact = FaissVectorIndex.from_vectors(vectors, ids, "m", exact_max=10_000)
    approx = FaissVectorIndex.from_vectors(vectors, ids, "m", exact_max=100, hnsw_m=32)
    assert (exact.index_type, approx.index_type) == ("flat", "hnsw32")
    recall = []
    for row in range(50):
        query = tuple(float(x) for x in vectors[row] + rng.normal(scale=0.3, size=32))
        truth = {h.id for h in exact.search(query, 10)}
        recall.append(len(truth & {h.id for h in approx.search(query, 10)}) / 10)
    assert sum(recall) / len(recall) > 0.9
    allowed = {f"d{i}" for i in range(0, 3_000, 100)}
    query = tuple(float(x) for x in vectors[5])
    for index in (exact, approx):
        hits = index.search(query, 5, allowed)
        assert len(hits) == 5 and all(h.id in allowed for h in hits)
        scores = vectors[[int(h.id[1:]) for h in hits]] @ vectors[5]
        assert list(scores) == sorted(scores, reverse=True)
    # A wide filter (half the passages) goes through FAISS with an ID selector: the hits
    # are exactly the best allowed ones, for the flat index and (nearly) for HNSW.
    wide = frozenset(f"d{i}" for i in range(0, 3_000, 2))
    rows = np.asarray(sorted(int(i[1:]) for i in wide))
    for row in range(20):
        query = tuple(float(x) for x in vectors[row])
        expected = rows[np.argsort(-(vectors[rows] @ vectors[row]), kind="stable")[:10]]
        flat_hits = exact.search(query, 10, wide)
        assert [int(h.id[1:]) for h in flat_hits] == list(expected)
        approx_hits = approx.search(query, 10, set(wide))
        assert len(approx_hits) == 10 and all(h.id in wide for h in approx_hits)
        assert len({int(h.id[1:]) for h in approx_hits} & set(expected)) >= 8
    assert exact.search(query, 10, frozenset({"nope"})) == []
    similarity = exact.similarities(["d1", "d2", "missing"])
    assert similarity[0][0] == pytest.approx(1.0, abs=1e-5)
    assert similarity[2] == [0.0, 0.0, 0.0]


def test_the_optional_sentence_transformers_backend_agrees_with_onnx(
    embedder: OnnxMiniLMEmbedder,
) -> None:
    pytest.importorskip(
        "sentence_transformers",
        reason="optional extra, not in the default install: `make sentence-transformers`",
    )
    from lectern.adapters.embeddings.sentence_transformers import SentenceTransformerEmbedder

    texts = [
        "The Hunger Games. by Suzanne Collins. Categories: dystopia, young adult",
        "a cozy mystery in a small english village",
        "Vaccines protect children from measles",
    ]
    torch_backend = SentenceTransformerEmbedder(threads=2)
    assert torch_backend.model_id == embedder.model_id
    agreement = (torch_backend.embed_array(texts) * embedder.embed_array(texts)).sum(axis=1)
    assert agreement.min() > 0.99  # the int8 ONNX model is the same model, quantised
