"""Tune retrieval knobs on the shelf benchmark's dev split, with the judged set beside it.

    PYTHONPATH=src python bench/shelf_sweep.py --tags DIR [--config NAME ...]

Each configuration is a named set of SearchConfig fields and an MMR lambda; every one is
scored on the shelf benchmark (dev and test, printed together so the split stays visible;
choices are made on dev) and on the judged catalog queries (nDCG@10, by work), against plain
BM25 in the same run. Loads the catalog's indexes once.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex
from lectern.application.evaluation import shelves as bench
from lectern.application.evaluation.datasets import load_dataset
from lectern.application.evaluation.metrics import mean, ndcg_at_k, recall_at_k
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.search import BookSearchService
from lectern.bootstrap import bootstrap
from lectern.domain.passages import FieldWeights, book_passage
from lectern.domain.search import SearchQuery
from lectern.settings import load_settings

CONFIGS: dict[str, dict[str, Any]] = {
    "today": {},
    "no-mmr": {"mmr": None},
    "mmr0.7": {"mmr": 0.7},
    "mmr0.8": {"mmr": 0.8},
    "mmr0.9": {"mmr": 0.9},
    "pool200": {"candidate_pool": 200},
    "pool300": {"candidate_pool": 300},
    "pool400": {"candidate_pool": 400},
    "w0.7": {"weights": {"lexical": 0.7, "vector": 0.3}},
    "w0.5": {"weights": {"lexical": 0.5, "vector": 0.5}},
    "w0.8": {"weights": {"lexical": 0.8, "vector": 0.2}},
    "fields-1-1-2": {"fields": (1, 1, 2)},
    "fields-1-2-2": {"fields": (1, 2, 2)},
    "fields-1-1-3": {"fields": (1, 1, 3)},
    "fields-1-2-2-w0.8": {"fields": (1, 2, 2), "weights": {"lexical": 0.8, "vector": 0.2}},
    "w0.9": {"weights": {"lexical": 0.9, "vector": 0.1}},
    "tail100": {"lexical_tail": 100},
    "tail200": {"lexical_tail": 200},
    "tail300": {"lexical_tail": 300},
    "w0.8-tail200": {"weights": {"lexical": 0.8, "vector": 0.2}, "lexical_tail": 200},
    "w0.8-mmr0.7-tail200": {
        "weights": {"lexical": 0.8, "vector": 0.2},
        "lexical_tail": 200,
        "mmr": 0.7,
    },
    "w0.8-mmr0.8-tail200": {
        "weights": {"lexical": 0.8, "vector": 0.2},
        "lexical_tail": 200,
        "mmr": 0.8,
    },
    "w0.8-no-mmr-tail200": {
        "weights": {"lexical": 0.8, "vector": 0.2},
        "lexical_tail": 200,
        "mmr": None,
    },
    "no-shelf-tail": {"shelf_tail": 0},
    "fields-1-2-2-w0.8-pool200": {
        "fields": (1, 2, 2),
        "weights": {"lexical": 0.8, "vector": 0.2},
        "candidate_pool": 200,
    },
}


def judged(search: BookSearchService, understanding: Any, mmr: Any) -> tuple[float, float]:
    """Mean nDCG@10 and Recall@100 of the judged catalog queries, by work, as the runner."""
    dataset = load_dataset(None)
    group_of = search.retriever.lexical.group_of
    scores, recalls = [], []
    for query in dataset.queries:
        plan = understanding.plan(query.text)
        response = search.search(
            SearchQuery(query.text, query.filters.to_domain()),
            strategy=query.strategy or "balanced",
            plan=plan,
            depth=100,
            mmr_lambda=mmr,
        )
        qrels: dict[str, int] = {}
        for book_id, grade in dataset.qrels.get(query.id, {}).items():
            work = group_of(book_id)
            qrels[work] = max(qrels.get(work, 0), grade)
        ranking = [group_of(i) for i in response.ranked_ids]
        scores.append(ndcg_at_k(ranking, qrels, 10))
        recalls.append(recall_at_k(ranking, qrels, 100))
    return mean(scores), mean(recalls)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tags", type=Path, required=True)
    parser.add_argument("--config", action="append")
    parser.add_argument("--no-judged", action="store_true")
    parser.add_argument(
        "--split",
        choices=("dev", "test", "all"),
        default="dev",
        help="The shelves scored (default dev: the test split is run once, at the end).",
    )
    args = parser.parse_args()
    services = bootstrap(load_settings())
    base = services.retriever()
    search = services.search()
    understanding = services.understanding()
    group_of = base.lexical.group_of
    found = bench.catalog_works(services.catalog.iter_batches(), group_of)
    queries = bench.judge(bench.read_shelves(args.tags), found.works.get, bench.packaged_split())
    queries = [q for q in queries if args.split in ("all", q.split)]
    names = args.config or list(CONFIGS)
    scores = bench.run(queries, bench.baseline_rankers(base), group_of)
    rows: list[Mapping[str, Any]] = [
        {
            "config": s.method,
            "split": s.split,
            "ndcg": s.ndcg_at_10,
            "recall": s.recall_at_100,
            "mrr": s.mrr_at_10,
        }
        for s in scores
    ]
    baselines = len(rows)
    lexicals: dict[tuple[int, int, int], Any] = {(1, 1, 1): base.lexical}
    for name in names:
        knobs = dict(CONFIGS[name])
        mmr = knobs.pop("mmr", search.mmr_lambda)
        fields = tuple(knobs.pop("fields", (1, 1, 1)))
        shelf_tail = knobs.pop("shelf_tail", search.shelf_tail)
        if fields not in lexicals:
            weights = FieldWeights(*fields)
            passages = [
                book_passage(b, weights) for batch in services.catalog.iter_batches() for b in batch
            ]
            lexicals[fields] = Bm25sLexicalIndex.build(passages)  # type: ignore[index]
        lexical = lexicals[fields]  # type: ignore[index]
        config = dataclasses.replace(base.config, **knobs)
        retriever = HybridRetriever(lexical, base.vector, base.embedder, config)
        if fields != (1, 1, 1):
            bm25 = bench.run(
                queries, {f"bm25-{name}": bench.baseline_rankers(retriever)["bm25"]}, group_of
            )
            for s in bm25:
                rows.append(
                    {
                        "config": s.method,
                        "split": s.split,
                        "ndcg": s.ndcg_at_10,
                        "recall": s.recall_at_100,
                    }
                )
                sys.stdout.write(json.dumps(rows[-1]) + "\n")
        service = BookSearchService(
            services.catalog,
            retriever,
            search.filters,
            mmr_lambda=search.mmr_lambda,
            shelf_tail=shelf_tail,
        )
        started = time.perf_counter()
        first = len(rows)
        ranker = bench.search_ranker(service, understanding, mmr_lambda=mmr)
        for s in bench.run(queries, {name: ranker}, group_of):
            rows.append(
                {
                    "config": name,
                    "split": s.split,
                    "ndcg": s.ndcg_at_10,
                    "recall": s.recall_at_100,
                    "mrr": s.mrr_at_10,
                }
            )
        if not args.no_judged:
            ndcg, recall = judged(service, understanding, mmr)
            rows.append({"config": name, "split": "judged", "ndcg": ndcg, "recall": recall})
        seconds = time.perf_counter() - started
        sys.stderr.write(f"{name}: {seconds:.0f} s\n")
        for row in rows[first:]:
            sys.stdout.write(
                json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()})
                + "\n"
            )
        sys.stdout.flush()
    for row in rows[:baselines]:
        sys.stdout.write(
            json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()})
            + "\n"
        )


if __name__ == "__main__":
    main()
