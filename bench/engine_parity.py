"""Embedded engine (bm25s + FAISS) against the Qdrant adapter on Qdrant's engine, side by side.

For the judged catalog queries (book search as the product runs it: the rules plan, the
query's filters and strategy, MMR at the default lambda) and for SciFact (hybrid retrieval,
as `lectern evaluate beir` runs it): nDCG@10 and Recall@100 of each engine, the mean top-10
overlap, and the share of filtered results that pass their filters (the judged queries'
own filters plus four probe filters on every query).

Qdrant gets the embedded index's stored vectors (looked up by text hash), so the two engines
rank the same vectors and the comparison measures the engines, not two embedding runs.

Needs an ingested and indexed catalog in LECTERN_DATA_DIR (`lectern ingest`, `lectern index`);
SciFact's embedded index is built on the first run (index_dir/beir-scifact-dev).

Usage: python bench/engine_parity.py [--scifact DIR] [--skip-catalog] [--skip-scifact]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from lectern.adapters.sources.beir import load_beir
from lectern.adapters.vector.faiss_index import StoredVectorEmbedder
from lectern.application.evaluation.beir import rank
from lectern.application.evaluation.datasets import load_dataset
from lectern.application.evaluation.metrics import mean, ndcg_at_k, recall_at_k
from lectern.application.indexing import IndexingService
from lectern.application.search import BookSearchService
from lectern.bootstrap import (
    Services,
    bootstrap,
    load_retriever,
    make_embedder,
    qdrant_indexes,
    search_indexes,
)
from lectern.domain.search import SearchFilters, SearchQuery, merge_filters
from lectern.settings import Settings, load_settings

SCIFACT = Path(__file__).resolve().parents[2] / "shared" / "data" / "beir-scifact-dev"
PROBES = (
    SearchFilters(language="es"),
    SearchFilters(min_year=2005),
    SearchFilters(category="fantasy", max_year=1999),
    SearchFilters(exclude_categories=("fiction",)),
)
"""Filters tried on every judged query (wide, narrow, combined, an exclusion)."""


def overlap(first: Sequence[str], second: Sequence[str], k: int = 10) -> float:
    """Share of the first list's top k that the second's top k holds (1 when both are empty)."""
    a, b = set(first[:k]), set(second[:k])
    return len(a & b) / len(a) if a else float(not b)


EDGE = Path(tempfile.mkdtemp(prefix="lectern-parity-"))


def qdrant_settings(settings: Settings) -> Settings:
    """The same settings on Qdrant: its engine in process (`edge:`), in a temporary folder.

    qdrant-client's local mode gives the same rankings (tests/integration/test_qdrant_engine.py
    runs both) but scores sparse vectors in pure Python: seconds per query at this size.
    """
    return settings.model_copy(update={"engine": "qdrant", "qdrant_url": f"edge:{EDGE}"})


def _row(name: str, embedded: float, qdrant: float) -> str:
    return f"| {name} | {embedded:.4f} | {qdrant:.4f} | {qdrant - embedded:+.4f} |"


def catalog(settings: Settings) -> dict[str, float]:
    """The judged catalog queries on both engines."""
    embedded = bootstrap(settings)
    on_qdrant = bootstrap(qdrant_settings(settings))
    started = time.perf_counter()
    vectors = StoredVectorEmbedder(
        settings.index_dir / "catalog" / "vectors", lambda: make_embedder(settings)
    )
    builder = qdrant_indexes(on_qdrant.settings, "catalog", lambda: vectors)
    report = IndexingService(embedded.catalog, builder).index()
    spent = time.perf_counter() - started
    print(f"Qdrant catalog collection: {report.passages} books in {spent:.0f} s")
    dataset = load_dataset()
    understanding = embedded.understanding()
    engines: dict[str, Services] = {"embedded": embedded, "qdrant": on_qdrant}
    searches: dict[str, BookSearchService] = {n: s.search() for n, s in engines.items()}
    scores: dict[str, dict[str, list[float]]] = {n: {"ndcg": [], "recall": []} for n in engines}
    overlaps: list[float] = []
    checked = {n: [0, 0] for n in engines}  # results under a filter, of which passed
    seconds = dict.fromkeys(engines, 0.0)
    for query in dataset.queries:
        plan = understanding.plan(query.text)
        request = SearchQuery(query.text, query.filters.to_domain(), max_results=10)
        strategy = query.strategy or plan.strategy
        tops: dict[str, list[str]] = {}
        for name, search in searches.items():
            group_of = search.retriever.lexical.group_of
            qrels: dict[str, int] = {}
            for book_id, grade in dataset.qrels.get(query.id, {}).items():
                qrels[group_of(book_id)] = max(qrels.get(group_of(book_id), 0), grade)
            started = time.perf_counter()
            response = search.search(request, strategy=strategy, plan=plan, depth=100)
            seconds[name] += time.perf_counter() - started
            ranking = [group_of(i) for i in response.ranked_ids]
            scores[name]["ndcg"].append(ndcg_at_k(ranking, qrels, 10))
            scores[name]["recall"].append(recall_at_k(ranking, qrels, 100))
            tops[name] = [str(r.book.id) for r in response.results]
            filters = merge_filters(request.filters, plan.filters)
            _check(search, filters, tops[name], checked[name])
            for probe in PROBES:
                probed = search.search(SearchQuery(query.text, probe, max_results=10))
                _check(search, probe, [str(r.book.id) for r in probed.results], checked[name])
        overlaps.append(overlap(tops["embedded"], tops["qdrant"]))
    count = len(dataset.queries)
    print(f"\nJudged catalog queries ({count}; {report.passages} books)\n")
    print("| metric | embedded | qdrant | difference |\n|---|---|---|---|")
    figures: dict[str, float] = {}
    for metric, label in (("ndcg", "nDCG@10"), ("recall", "Recall@100")):
        e, q = mean(scores["embedded"][metric]), mean(scores["qdrant"][metric])
        figures[f"catalog_{metric}_embedded"], figures[f"catalog_{metric}_qdrant"] = e, q
        print(_row(label, e, q))
    figures["catalog_overlap"] = mean(overlaps)
    print(f"| top-10 overlap | | {mean(overlaps):.4f} | min {min(overlaps):.2f} |")
    for name, (total, passed) in checked.items():
        share = passed / total if total else 1.0
        figures[f"catalog_filtered_{name}"] = share
        print(f"| filtered results that match ({name}) | {passed}/{total} | {share:.2%} | |")
    for name, spent in seconds.items():
        print(f"| mean search ms ({name}, MMR on) | {1000 * spent / count:.1f} | | |")
    return figures


def _check(
    search: BookSearchService, filters: SearchFilters, ids: Sequence[str], tally: list[int]
) -> None:
    """Count results under a filter and those the application's filter index allows."""
    allowed = search.filters.allowed(filters)
    if allowed is None:
        return
    tally[0] += len(ids)
    tally[1] += sum(1 for i in ids if i in allowed)


def scifact(settings: Settings, folder: Path) -> dict[str, float]:
    """SciFact's hybrid retrieval on both engines."""
    dataset = load_beir(
        folder / "corpus.jsonl.gz", folder / "queries-train.jsonl", folder / "qrels-train.tsv"
    )
    disk = search_indexes(settings, settings.index_dir / "beir-scifact-dev")
    started = time.perf_counter()
    disk.sync(dataset.passages)
    print(f"\nembedded SciFact index ready in {time.perf_counter() - started:.0f} s")
    vectors = StoredVectorEmbedder(
        settings.index_dir / "beir-scifact-dev" / "vectors", lambda: make_embedder(settings)
    )
    qdrant = qdrant_indexes(qdrant_settings(settings), "beir-scifact-dev", lambda: vectors)
    qdrant.sync(dataset.passages)
    embedder = disk.embedder()
    retrievers = {
        "embedded": load_retriever(settings, disk, embedder),
        "qdrant": load_retriever(qdrant_settings(settings), qdrant, embedder),
    }
    scores: dict[str, dict[str, list[float]]] = {n: {"ndcg": [], "recall": []} for n in retrievers}
    overlaps: list[float] = []
    for query_id, text in dataset.queries.items():
        rankings = {name: rank(r, "hybrid", text) for name, r in retrievers.items()}
        for name, ranking in rankings.items():
            scores[name]["ndcg"].append(ndcg_at_k(ranking, dataset.qrels[query_id], 10))
            scores[name]["recall"].append(recall_at_k(ranking, dataset.qrels[query_id], 100))
        overlaps.append(overlap(rankings["embedded"], rankings["qdrant"]))
    print(
        f"\nSciFact, hybrid ({len(dataset.queries)} queries, {len(dataset.passages)} abstracts)\n"
    )
    print("| metric | embedded | qdrant | difference |\n|---|---|---|---|")
    figures: dict[str, float] = {}
    for metric, label in (("ndcg", "nDCG@10"), ("recall", "Recall@100")):
        e, q = mean(scores["embedded"][metric]), mean(scores["qdrant"][metric])
        figures[f"scifact_{metric}_embedded"], figures[f"scifact_{metric}_qdrant"] = e, q
        print(_row(label, e, q))
    figures["scifact_overlap"] = mean(overlaps)
    print(f"| top-10 overlap | | {mean(overlaps):.4f} | min {min(overlaps):.2f} |")
    return figures


def main(argv: Sequence[str] | None = None) -> None:
    """Run the comparisons asked for and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--scifact", type=Path, default=SCIFACT)
    parser.add_argument("--skip-catalog", action="store_true")
    parser.add_argument("--skip-scifact", action="store_true")
    args = parser.parse_args(argv)
    settings = load_settings()
    figures: dict[str, float] = {}
    jobs: Mapping[str, Callable[[], dict[str, float]]] = {
        "catalog": lambda: catalog(settings),
        "scifact": lambda: scifact(settings, args.scifact),
    }
    try:
        for name, job in jobs.items():
            if not getattr(args, f"skip_{name}"):
                figures.update(job())
    finally:
        shutil.rmtree(EDGE, ignore_errors=True)
    print("\n" + json.dumps({k: round(v, 4) for k, v in figures.items()}))


if __name__ == "__main__":
    main()
