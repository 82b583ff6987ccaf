"""Per shelf of the benchmark's dev split: what the plan read, what was found, what was missed.

    PYTHONPATH=src python bench/shelf_misses.py --tags DIR [--split dev]

One line a shelf: Recall@100 of the default search, how many relevant works, the shelves
the plan recognised, whether the request names only shelves, how many works those shelves
hold and how many relevant works are among them, and the catalog shelves the missed
relevant works hold most often. This is how round 4's classes of misses were found
(docs/evaluation.md); run it on dev only: the test split is scored once, by
`lectern evaluate shelves`.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from lectern.application.evaluation import shelves as bench
from lectern.application.search import _names_only_shelves
from lectern.bootstrap import bootstrap
from lectern.settings import load_settings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tags", type=Path, required=True)
    parser.add_argument("--split", choices=("dev", "test"), default="dev")
    args = parser.parse_args()
    services = bootstrap(load_settings())
    search, understanding = services.search(), services.understanding()
    group_of = services.retriever().lexical.group_of
    found = bench.catalog_works(services.catalog.iter_batches(), group_of)
    queries = bench.judge(bench.read_shelves(args.tags), found.works.get, bench.packaged_split())
    shelves_of: dict[str, set[str]] = {}
    for batch in services.catalog.iter_batches():
        for book in batch:
            shelves_of.setdefault(group_of(str(book.id)), set()).update(book.categories)
    ranker = bench.search_ranker(search, understanding)
    recalls = []
    for query in (q for q in queries if q.split == args.split):
        plan = understanding.plan(query.text)
        ranking = set(bench.works_in_order(ranker(query.text), group_of)[: bench.DEPTH])
        relevant = set(query.qrels)
        holders = {group_of(i) for i in search.filters.holders_of(plan.categories)}
        missed = Counter(s for work in relevant - ranking for s in shelves_of.get(work, ()))
        recall = len(relevant & ranking) / len(relevant)
        recalls.append(recall)
        print(
            f"{query.shelf:24s} R@100={recall:.2f} relevant={len(relevant):3d} "
            f"planned={list(plan.categories)} only_shelves={_names_only_shelves(plan)} "
            f"holders={len(holders)} relevant_held={len(relevant & holders)} "
            f"missed_on={missed.most_common(5)}"
        )
    print(f"mean Recall@100 {sum(recalls) / len(recalls):.4f}")


if __name__ == "__main__":
    main()
