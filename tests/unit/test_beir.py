"""The BEIR reader refuses malformed files clearly; the evaluator averages hand-checked metrics."""

import gzip
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from lectern.adapters.sources.beir import load_beir
from lectern.application.evaluation.beir import BeirEvaluation, evaluate
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import IndexReport, ProgressReporter
from lectern.domain.retrieval import Passage
from lectern.errors import ConfigurationError, SourceError
from tests.fakes import FakeEmbedder, FakeLexicalIndex, FakeVectorIndex, RecordingProgress

DOCS = [
    {"_id": "d1", "title": "Dragons", "text": "dragon magic"},
    {"_id": "d2", "title": "", "text": "space mystery"},
    {"_id": "d3", "text": "cozy village"},
]


def _write(tmp_path: Path, docs: list[dict[str, str]] | None = None, gz: bool = False) -> Path:
    lines = "".join(json.dumps(d) + "\n" for d in (DOCS if docs is None else docs))
    if gz:
        path = tmp_path / "corpus.jsonl.gz"
        path.write_bytes(gzip.compress(lines.encode()))
    else:
        path = tmp_path / "corpus.jsonl"
        path.write_text(lines, encoding="utf-8")
    (tmp_path / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "dragon"}\n{"_id": "q2", "text": "village"}\n'
        '{"_id": "q3", "text": "unjudged"}\n',
        encoding="utf-8",
    )
    (tmp_path / "qrels.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t2\nq9\td2\t1\n", encoding="utf-8"
    )
    return path


@pytest.mark.parametrize("gz", [False, True])
def test_loads_corpus_queries_and_judgments(tmp_path: Path, gz: bool) -> None:
    corpus = _write(tmp_path, gz=gz)
    data = load_beir(corpus, tmp_path / "queries.jsonl", tmp_path / "qrels.tsv")
    assert [p.id for p in data.passages] == ["d1", "d2", "d3"]
    assert data.passages[0].text == "Dragons. dragon magic"
    assert data.passages[1].text == "space mystery"  # empty title is left out
    # Only queries that have both a text and a judgment are kept.
    assert dict(data.queries) == {"q1": "dragon", "q2": "village"}
    assert data.qrels["q2"] == {"d3": 2}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"_id": "d1", "text": "ok"}\n{not json}\n', "corpus.jsonl:2: not JSON"),
        ('["a list"]\n', "expected an object with an _id"),
        ('{"text": "no id"}\n', "expected an object with an _id"),
        ("\n\n", "holds no documents"),
    ],
)
def test_malformed_corpus_is_refused_with_the_line(
    tmp_path: Path, content: str, message: str
) -> None:
    _write(tmp_path)
    (tmp_path / "corpus.jsonl").write_text(content, encoding="utf-8")
    with pytest.raises(SourceError, match=message):
        load_beir(tmp_path / "corpus.jsonl", tmp_path / "queries.jsonl", tmp_path / "qrels.tsv")


def test_truncated_gzip_and_binary_files_are_refused(tmp_path: Path) -> None:
    corpus = _write(tmp_path, gz=True)
    corpus.write_bytes(corpus.read_bytes()[:20])
    with pytest.raises(SourceError, match="cannot read"):
        load_beir(corpus, tmp_path / "queries.jsonl", tmp_path / "qrels.tsv")
    plain = _write(tmp_path)
    plain.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SourceError, match="cannot read"):
        load_beir(plain, tmp_path / "queries.jsonl", tmp_path / "qrels.tsv")


def test_bad_qrels_and_missing_files(tmp_path: Path) -> None:
    corpus = _write(tmp_path)
    (tmp_path / "qrels.tsv").write_text("q1\td1\tvery\n", encoding="utf-8")
    # A first line that is not a number is taken for a header; the next one must be data.
    (tmp_path / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\n", encoding="utf-8")
    with pytest.raises(SourceError, match="qrels.tsv:2: expected query-id, corpus-id, score"):
        load_beir(corpus, tmp_path / "queries.jsonl", tmp_path / "qrels.tsv")
    with pytest.raises(SourceError, match="cannot read"):
        load_beir(corpus, tmp_path / "queries.jsonl", tmp_path / "absent.tsv")
    (tmp_path / "qrels.tsv").write_text("qX\td1\t1\n", encoding="utf-8")
    with pytest.raises(SourceError, match="no query .* has a judgment"):
        load_beir(corpus, tmp_path / "queries.jsonl", tmp_path / "qrels.tsv")


def test_evaluate_averages_hand_checked_metrics(tmp_path: Path) -> None:
    corpus = _write(tmp_path)
    data = load_beir(corpus, tmp_path / "queries.jsonl", tmp_path / "qrels.tsv")
    texts = {p.id: p.text.lower().replace(".", "") for p in data.passages}
    vocab = ["dragon", "magic", "space", "mystery", "cozy", "village"]
    retriever = HybridRetriever(
        FakeLexicalIndex(texts), FakeVectorIndex(FakeEmbedder(vocab), texts), FakeEmbedder(vocab)
    )
    # A ranker that puts the relevant document second for q1 and first for q2.
    fixed = {"dragon": ["d2", "d1", "d3"], "village": ["d3", "d1"]}
    (scores,) = evaluate(retriever, data, ["bm25"], ranker=lambda _r, _m, text: fixed[text])
    assert scores.queries == 2
    # q1: nDCG@10 = (1/log2 3) / 1 = 0.6309; q2: 1.0 -> mean 0.8155; MRR (0.5 + 1) / 2.
    assert scores.ndcg_at_10 == pytest.approx((1 / 1.5849625 + 1.0) / 2, abs=1e-6)
    assert scores.mrr_at_10 == pytest.approx(0.75)
    assert scores.recall_at_100 == pytest.approx(1.0)
    # The real rankers run end to end on the fakes: every method finds both relevant docs.
    for result in evaluate(retriever, data, ["bm25", "dense", "hybrid"]):
        assert result.ndcg_at_10 == pytest.approx(1.0), result.method


VOCAB = ["dragon", "magic", "space", "mystery", "cozy", "village"]


class InMemoryCorpusIndex:
    """One index folder in memory: a sync embeds only passages it has not seen as they are."""

    def __init__(self, vectors: bool) -> None:
        self.vectors = vectors
        self.texts: dict[str, str] = {}

    def sync(
        self,
        passages: Sequence[Passage],
        *,
        rebuild: bool = False,
        progress: ProgressReporter | None = None,
    ) -> IndexReport:
        del rebuild, progress
        new = {p.id: p.text.lower().replace(".", "") for p in passages}
        embedded = sum(1 for key, text in new.items() if self.texts.get(key) != text)
        self.texts = new
        return IndexReport(len(new), embedded, len(new) - embedded, 0, True, 0.0, "flat")

    def retriever(self) -> HybridRetriever:
        lexical = FakeLexicalIndex(self.texts)
        if not self.vectors:
            return HybridRetriever(lexical, None, None, unavailable_reason="no vectors here")
        embedder = FakeEmbedder(VOCAB)
        return HybridRetriever(lexical, FakeVectorIndex(embedder, self.texts), embedder)


class InMemoryCorpusIndexes:
    """Index folders by path, as the disk keeps them between runs."""

    def __init__(self, vectors: bool = True) -> None:
        self.vectors = vectors
        self.folders: dict[Path, InMemoryCorpusIndex] = {}

    def open(self, folder: Path) -> InMemoryCorpusIndex:
        return self.folders.setdefault(folder, InMemoryCorpusIndex(self.vectors))


def _service(indexes: InMemoryCorpusIndexes, root: Path) -> BeirEvaluation[InMemoryCorpusIndex]:
    return BeirEvaluation(
        load_beir,
        lambda path: path.read_bytes().hex() * 4,
        root,
        indexes.open,
        InMemoryCorpusIndex.retriever,
    )


def test_a_run_keeps_the_corpus_index_by_fingerprint_and_reuses_it(tmp_path: Path) -> None:
    corpus = _write(tmp_path)
    indexes = InMemoryCorpusIndexes()
    service = _service(indexes, tmp_path / "index")
    loaded = service.load(corpus, tmp_path / "queries.jsonl", tmp_path / "qrels.tsv")
    assert loaded.index_folder == tmp_path / "index" / f"beir-{corpus.read_bytes().hex()[:16]}"
    progress = RecordingProgress()
    first = service.run(loaded, ["bm25", "hybrid"], progress=progress)
    assert first.corpus == loaded and first.embedded == 3
    assert [s.method for s in first.scores] == ["bm25", "hybrid"]
    assert all(s.ndcg_at_10 == pytest.approx(1.0) for s in first.scores)
    assert progress.stages == ["evaluating bm25", "evaluating hybrid"]
    again = service.run(loaded, ["dense"], mmr_lambda=0.5)
    assert again.embedded == 0 and [s.method for s in again.scores] == ["dense"]
    assert list(indexes.folders) == [loaded.index_folder]


def test_a_run_refuses_methods_the_vector_side_cannot_serve(tmp_path: Path) -> None:
    corpus = _write(tmp_path)
    service = _service(InMemoryCorpusIndexes(vectors=False), tmp_path / "index")
    loaded = service.load(corpus, tmp_path / "queries.jsonl", tmp_path / "qrels.tsv")
    (bm25,) = service.run(loaded, ["bm25"]).scores
    assert bm25.ndcg_at_10 == pytest.approx(1.0)
    with pytest.raises(ConfigurationError, match="no vectors here"):
        service.run(loaded, ["bm25", "dense"])
