"""Evaluate retrieval on a BEIR data set: BM25, dense and hybrid, same metrics as BEIR."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Literal, TypeVar

from lectern.application.evaluation.metrics import (
    mean,
    ndcg_at_k,
    recall_at_k,
    reciprocal_rank_at_k,
)
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import ProgressReporter, SearchIndexBuilder
from lectern.domain.retrieval import DEFAULT_STRATEGY, Passage, Strategy
from lectern.errors import ConfigurationError

Method = Literal["bm25", "dense", "hybrid"]
METHODS: tuple[Method, ...] = ("bm25", "dense", "hybrid")
IndexT = TypeVar("IndexT", bound=SearchIndexBuilder)
DEPTH = 100
"""Each method returns its top 100, as BEIR's Recall@100 needs."""


@dataclass(frozen=True, slots=True)
class BeirDataset:
    """Passages, judged queries (id -> text) and graded judgments (query -> doc -> grade)."""

    passages: Sequence[Passage]
    queries: Mapping[str, str]
    qrels: Mapping[str, Mapping[str, int]]


@dataclass(frozen=True, slots=True)
class BeirScores:
    """Mean metrics of one method over the judged queries."""

    method: Method
    queries: int
    ndcg_at_10: float
    recall_at_100: float
    mrr_at_10: float


def rank(
    retriever: HybridRetriever,
    method: Method,
    text: str,
    strategy: Strategy = DEFAULT_STRATEGY,
    mmr_lambda: float | None = None,
) -> list[str]:
    """The top DEPTH passage ids of one method for one query.

    With `mmr_lambda`, the hybrid list's head is re-ordered by MMR (as book search does) and
    the rest follows in fused order, so Recall@100 is unchanged and nDCG@10 shows the cost.
    """
    if method == "bm25":
        return [h.id for h in retriever.lexical_only(text, DEPTH)]
    if method == "dense":
        return [h.id for h in retriever.vector_only(text, DEPTH)]
    hits = retriever.retrieve([text], strategy, pool=2 * DEPTH).hits[:DEPTH]
    if mmr_lambda is not None:
        head = retriever.diversify(hits, retriever.config.mmr_candidates, mmr_lambda)
        chosen = {h.id for h in head}
        hits = head + [h for h in hits if h.id not in chosen]
    return [h.id for h in hits]


def evaluate(
    retriever: HybridRetriever,
    dataset: BeirDataset,
    methods: Sequence[Method],
    *,
    progress: ProgressReporter | None = None,
    ranker: Callable[[HybridRetriever, Method, str], list[str]] = rank,
) -> list[BeirScores]:
    """nDCG@10, Recall@100 and MRR@10 of each method, averaged over judged queries."""
    results = []
    for method in methods:
        if progress is not None:
            progress.start(f"evaluating {method}", len(dataset.queries))
        ndcg, recall, mrr = [], [], []
        for query_id, text in dataset.queries.items():
            ranking = ranker(retriever, method, text)
            judgments = dataset.qrels[query_id]
            ndcg.append(ndcg_at_k(ranking, judgments, 10))
            recall.append(recall_at_k(ranking, judgments, 100))
            mrr.append(reciprocal_rank_at_k(ranking, judgments, 10))
            if progress is not None:
                progress.advance()
        results.append(BeirScores(method, len(ndcg), mean(ndcg), mean(recall), mean(mrr)))
    return results


@dataclass(frozen=True, slots=True)
class BeirCorpus:
    """A loaded BEIR data set and the folder its corpus's indexes are kept in."""

    dataset: BeirDataset
    index_folder: Path
    """`<index root>/beir-<first 16 hex digits of the corpus file's sha256>`."""


@dataclass(frozen=True, slots=True)
class BeirRun:
    """What one BEIR evaluation measured, and on which corpus."""

    corpus: BeirCorpus
    scores: list[BeirScores]
    embedded: int
    """Documents embedded by this run; 0 when the corpus's stored index was reused."""


@dataclass(frozen=True, slots=True)
class BeirEvaluation(Generic[IndexT]):
    """Loads a BEIR data set, builds or reuses its corpus's index, and scores each method.

    Each corpus has its own index folder, named by the sha256 of the corpus file, so a
    second run on the same corpus embeds nothing.
    """

    read: Callable[[Path, Path, Path], BeirDataset]
    """Reads (corpus, queries, qrels); raises SourceError naming the bad file and line."""
    fingerprint: Callable[[Path], str]
    """The corpus file's hex digest."""
    index_root: Path
    open_index: Callable[[Path], IndexT]
    open_retriever: Callable[[IndexT], HybridRetriever]

    def load(self, corpus: Path, queries: Path, qrels: Path) -> BeirCorpus:
        """The data set, checked, and where its corpus's indexes live."""
        dataset = self.read(corpus, queries, qrels)
        return BeirCorpus(dataset, self.index_root / f"beir-{self.fingerprint(corpus)[:16]}")

    def run(
        self,
        corpus: BeirCorpus,
        methods: Sequence[Method] = METHODS,
        *,
        strategy: Strategy = DEFAULT_STRATEGY,
        mmr_lambda: float | None = None,
        progress: ProgressReporter | None = None,
    ) -> BeirRun:
        """Sync the corpus's index, then score each method; refuses methods that cannot run."""
        index = self.open_index(corpus.index_folder)
        report = index.sync(corpus.dataset.passages, progress=progress)
        retriever = self.open_retriever(index)
        if retriever.degraded_reason_for(methods):
            raise ConfigurationError(str(retriever.unavailable_reason))
        scores = evaluate(
            retriever,
            corpus.dataset,
            methods,
            progress=progress,
            ranker=lambda r, m, text: rank(r, m, text, strategy, mmr_lambda),
        )
        return BeirRun(corpus, scores, report.embedded)
