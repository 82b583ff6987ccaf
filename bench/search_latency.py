"""Hybrid search on the full catalog: latency, against the specification's original stack.

Both contenders run the same pipeline in one process, on the same passages, with the same
packaged ONNX MiniLM and the same FAISS vectors: filters, RRF (k=60), one edition per work,
MMR, books loaded from SQLite. Only the lexical engine differs:
- `lectern`: bm25s (sparse matrix, memory-mapped, stemmed, stop words removed);
- `original`: rank-bm25 `BM25Okapi` over the same tokens, scoring every book per query
  (what the specification first named, and what a user would reach for).

Also printed: the lexical engines alone (build and query), and what MMR does: intra-list
diversity (mean pairwise 1 - cosine of the top 10) with MMR on and off over the same queries,
and the nDCG@10 it costs on SciFact (train split).

Needs an ingested, indexed catalog: `make bench` runs `lectern ingest` and `lectern index` first.
Usage: python bench/search_latency.py [--data-dir var] [--scifact ../shared/data/beir-scifact-dev]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Sequence, Set
from pathlib import Path
from typing import Any

import numpy as np
from rank_bm25 import BM25Okapi

from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex, make_tokenizer
from lectern.application.book_filters import BookFilterIndex
from lectern.application.evaluation.metrics import percentile
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.indexing import IndexingService
from lectern.application.search import BookSearchService
from lectern.bootstrap import bootstrap, load_retriever, search_config, search_indexes
from lectern.domain.retrieval import Passage, ScoredId, intra_list_diversity
from lectern.domain.search import SearchFilters, SearchQuery
from lectern.settings import Settings

WARM_UP = 20
SEED = 7

HAND_WRITTEN = [
    "dark fantasy heist in a magical city",
    "a cozy mystery in a small english village",
    "dystopian young adult novel with a rebellion",
    "space opera with political intrigue",
    "books about the history of the roman empire",
    "a funny book for a long flight",
    "coming of age story set in the american south",
    "psychological thriller with an unreliable narrator",
    "epic fantasy with dragons and a chosen one",
    "memoir of a chef",
    "hard science fiction about mars",
    "gothic romance in a haunted house",
    "detective novel set in 1920s london",
    "self help book about habits",
    "poetry collection about grief",
    "graphic novel about war",
    "children's picture book about bedtime",
    "vampires in high school",
    "a love story between two rivals",
    "post apocalyptic survival",
    "true crime investigation",
    "biography of a scientist",
    "novel about a family saga across generations",
    "time travel romance",
    "magic school for wizards",
    "spy thriller in the cold war",
    "historical fiction world war two france",
    "philosophy for beginners",
    "a book about economics and inequality",
    "classic russian literature",
    "short stories by a japanese author",
    "horror novel with a small town and a monster",
    "adventure at sea with pirates",
    "courtroom drama lawyer",
    "artificial intelligence robots",
    "book about cooking italian food",
    "military science fiction",
    "urban fantasy with werewolves",
    "mythology retelling greek gods",
    "road trip novel",
    "novela de misterio",
    "libro de fantasía para jóvenes",
    "roman policier",
    "kriminalroman",
    "feminist classic",
    "satire of politics",
    "a book that will make me cry",
    "light hearted romantic comedy",
    "steampunk adventure",
    "the lord of the rings",
    "harry poter",
    "hunger games",
    "sherlock holmes",
    "stephen king",
    "agatha christie",
    "jane austen",
    "neil gaiman",
    "orwell 1984",
    "murder mystery on a train",
    "book about climate change",
    "entrepreneurship and startups",
    "christian fiction",
    "a western with cowboys",
    "superheroes",
    "zombies",
    "fairy tale retelling",
    "paranormal romance with angels",
    "a novel about music and musicians",
    "sports biography basketball",
    "world war one poetry",
]


class RankBm25LexicalIndex:
    """The original stack's lexical side: rank-bm25 scoring every passage per query."""

    def __init__(self, passages: Sequence[Passage], groups: Callable[[str], str]) -> None:
        self._tokenizer = make_tokenizer()
        tokens = self._tokenizer.tokenize(
            [p.text for p in passages], return_as="string", show_progress=False
        )
        self._bm25 = BM25Okapi(tokens)
        self._ids = [p.id for p in passages]
        self._row = {pid: row for row, pid in enumerate(self._ids)}
        self._groups = groups

    def __len__(self) -> int:
        return len(self._ids)

    def group_of(self, passage_id: str) -> str:
        return self._groups(passage_id)

    def search(self, query: str, k: int, allowed: Set[str] | None = None) -> list[ScoredId]:
        words = self._tokenizer.tokenize(
            [query], update_vocab=False, return_as="string", show_progress=False
        )[0]
        scores = self._bm25.get_scores(words)
        if allowed is not None:
            mask = np.zeros(len(self._ids), dtype=bool)
            mask[[self._row[i] for i in allowed if i in self._row]] = True
            scores = np.where(mask, scores, 0.0)
        top = min(k, len(self._ids))
        best = np.argpartition(-scores, top - 1)[:top]
        best = best[np.argsort(-scores[best], kind="stable")]
        return [ScoredId(self._ids[int(r)], float(scores[r])) for r in best if scores[r] > 0]


def bench_queries(passages: Sequence[Passage], service: BookSearchService) -> list[SearchQuery]:
    """Hand-written needs, plus known-item titles, authors and topics drawn from the catalog."""
    rng = random.Random(SEED)
    facets = service.catalog.facets(top_categories=60)
    categories = [c.name for c in facets.top_categories]
    books = service.catalog.get_many([uuid.UUID(p.id) for p in rng.sample(list(passages), 400)])
    texts: list[str] = list(HAND_WRITTEN)
    texts += [b.title for b in books[:60]]
    texts += [b.authors[0] for b in books[60:160] if b.authors][:40]
    texts += [f"a {c} book that critics loved" for c in rng.sample(categories, 40)]
    queries = []
    for number, text in enumerate(texts):
        filters = SearchFilters()
        if number % 5 == 1:
            filters = SearchFilters(min_year=2000)
        elif number % 5 == 3:
            filters = SearchFilters(category=rng.choice(categories[:20]))
        elif number % 11 == 0:
            filters = SearchFilters(language=rng.choice(["en", "es", "de", "fr"]))
        queries.append(SearchQuery(text, filters=filters, max_results=10))
    return queries


def timed(service: BookSearchService, queries: Sequence[SearchQuery], **kw: Any) -> list[float]:
    for query in queries[:WARM_UP]:
        service.search(query, **kw)
    times = []
    for query in queries:
        started = time.perf_counter()
        service.search(query, **kw)
        times.append((time.perf_counter() - started) * 1000)
    return times


def report(name: str, times: Sequence[float]) -> None:
    print(
        f"{name}: p50 {percentile(times, 0.5):.2f} ms, p95 {percentile(times, 0.95):.2f} ms, "
        f"mean {statistics.fmean(times):.2f} ms over {len(times)} queries"
    )


def lexical_engines(passages: Sequence[Passage], texts: Sequence[str]) -> None:
    started = time.perf_counter()
    fast = Bm25sLexicalIndex.build(passages)
    fast_build = time.perf_counter() - started
    started = time.perf_counter()
    slow = RankBm25LexicalIndex(passages, lambda pid: pid)
    slow_build = time.perf_counter() - started
    results = {}
    for name, index in (("bm25s", fast), ("rank-bm25", slow)):
        times = []
        for text in texts:
            started = time.perf_counter()
            index.search(text, 50)
            times.append((time.perf_counter() - started) * 1000)
        results[name] = times
        report(f"lexical {name} query", times)
    print(f"lexical build: bm25s {fast_build:.2f} s, rank-bm25 {slow_build:.2f} s")
    ratio = percentile(results["rank-bm25"], 0.5) / percentile(results["bm25s"], 0.5)
    print(f"lexical speed ratio (rank-bm25 p50 / bm25s p50): {ratio:.1f}x")


def diversity(service: BookSearchService, queries: Sequence[SearchQuery], lam: float) -> None:
    vector = service.retriever.vector
    assert vector is not None
    scores: dict[str, list[float]] = {"off": [], "on": []}
    for query in queries:
        for name, value in (("off", None), ("on", lam)):
            ids = [str(r.book.id) for r in service.search(query, mmr_lambda=value).results]
            if len(ids) >= 2:
                scores[name].append(intra_list_diversity(vector.similarities(ids)))
    off, on = statistics.fmean(scores["off"]), statistics.fmean(scores["on"])
    print(f"intra-list diversity@10: MMR off {off:.4f}, MMR on (lambda {lam}) {on:.4f}")
    print(f"intra-list diversity rise with MMR: {100 * (on / off - 1):+.1f}%")


def scifact_cost(settings: Settings, folder: Path, lam: float) -> None:
    from lectern.adapters.sources.beir import load_beir
    from lectern.adapters.sources.fetch import sha256_of
    from lectern.application.evaluation.beir import evaluate, rank

    corpus = folder / "corpus.jsonl.gz"
    if not corpus.is_file():
        print(f"SciFact not found at {folder}: MMR nDCG cost not measured", file=sys.stderr)
        return
    dataset = load_beir(corpus, folder / "queries-train.jsonl", folder / "qrels-train.tsv")
    indexes = search_indexes(settings, settings.index_dir / f"beir-{sha256_of(corpus)[:16]}")
    indexes.sync(dataset.passages)
    retriever = load_retriever(settings, indexes)
    (plain,) = evaluate(retriever, dataset, ["hybrid"])
    (diverse,) = evaluate(
        retriever, dataset, ["hybrid"], ranker=lambda r, m, t: rank(r, m, t, mmr_lambda=lam)
    )
    print(
        f"scifact hybrid ndcg@10: MMR off {plain.ndcg_at_10:.4f}, MMR on {diverse.ndcg_at_10:.4f}"
        f" (cost {plain.ndcg_at_10 - diverse.ndcg_at_10:+.4f}) over {plain.queries} queries"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, help="Lectern's data directory (default ./var)")
    parser.add_argument(
        "--scifact",
        type=Path,
        default=Path(__file__).parents[1] / "../shared/data/beir-scifact-dev",
    )
    args = parser.parse_args()
    settings = Settings(data_dir=args.data_dir) if args.data_dir else Settings()
    services = bootstrap(settings)
    service = services.search()
    if not service.retriever.has_vectors:
        sys.exit(f"no vector index: {service.retriever.unavailable_reason}")
    passages = IndexingService(services.catalog, services.catalog_indexes()).passages()
    queries = bench_queries(passages, service)
    print(f"catalog: {len(passages):,} books; {len(queries)} queries (+{WARM_UP} warm-up)")

    lam = settings.mmr_lambda
    lectern_times = timed(service, queries, mmr_lambda=lam)
    lexical = service.retriever.lexical
    original = BookSearchService(
        service.catalog,
        HybridRetriever(
            RankBm25LexicalIndex(passages, lexical.group_of),
            service.retriever.vector,
            service.retriever.embedder,
            search_config(settings),
        ),
        BookFilterIndex(services.catalog.book_facts()),
    )
    original_times = timed(original, queries, mmr_lambda=lam)
    report("lectern hybrid search", lectern_times)
    report("original stack (rank-bm25 + ONNX + FAISS)", original_times)
    print(
        "speed ratio (original p50 / lectern p50): "
        f"{percentile(original_times, 0.5) / percentile(lectern_times, 0.5):.1f}x; "
        f"p95: {percentile(original_times, 0.95) / percentile(lectern_times, 0.95):.1f}x"
    )
    lexical_engines(passages, [q.text for q in queries])
    diversity(service, queries, lam)
    scifact_cost(settings, args.scifact.resolve(), lam)


if __name__ == "__main__":
    main()
