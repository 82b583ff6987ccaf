"""Query understanding: filter-extraction accuracy on hand-labelled queries, and its cost.

1. Accuracy per field (language, years, categories, authors) of the rule-based planner on
   `src/lectern/evaluation/understanding_queries.json` (90 queries labelled by hand with
   what a reader means), with every disagreement printed. With `--graph`, the same for the
   LangGraph flow over the configured LLM (LECTERN_LLM; slow with a local model).
2. What it adds to a search: the same queries searched without a plan and with the rules'
   plan (multi-query included), in one run, p50/p95 of each and the difference.

Needs an ingested, indexed catalog (`make bench` or `make demo` first).
Usage: python bench/query_understanding.py [--data-dir var] [--graph] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import time
from importlib import resources
from pathlib import Path
from typing import Any

from lectern.application.evaluation.metrics import percentile
from lectern.application.ports import QueryUnderstanding
from lectern.bootstrap import bootstrap
from lectern.domain.search import QueryPlan, SearchQuery
from lectern.settings import load_settings

FIELDS = ("language", "years", "categories", "authors")
ROUNDS = 3


def _fields(plan: QueryPlan) -> dict[str, Any]:
    return {
        "language": plan.filters.language,
        "years": (plan.filters.min_year, plan.filters.max_year),
        "categories": sorted(plan.categories),
        "authors": sorted(plan.authors),
    }


def _expected(entry: dict[str, Any]) -> dict[str, Any]:
    e = entry["expected"]
    return {
        "language": e["language"],
        "years": (e["min_year"], e["max_year"]),
        "categories": sorted(e["categories"]),
        "authors": sorted(e["authors"]),
    }


def accuracy(planner: QueryUnderstanding, queries: list[dict[str, Any]]) -> dict[str, float]:
    """Share of queries each field is exactly right for; prints the misses."""
    right = dict.fromkeys((*FIELDS, "all"), 0)
    for entry in queries:
        got, want = _fields(planner.plan(entry["text"])), _expected(entry)
        wrong = [f for f in FIELDS if got[f] != want[f]]
        for field in FIELDS:
            right[field] += field not in wrong
        right["all"] += not wrong
        for field in wrong:
            print(f"  miss {field:<10} {entry['text']!r}: got {got[field]}, want {want[field]}")
    return {f: right[f] / len(queries) for f in right}


def main() -> None:
    """Print accuracy per field and the latency a plan adds to search."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--graph", action="store_true", help="also the LLM graph")
    parser.add_argument("--limit", type=int, default=None, help="first n queries only")
    args = parser.parse_args()
    overrides = {"data_dir": args.data_dir} if args.data_dir else {}
    services = bootstrap(load_settings(**overrides))
    raw = resources.files("lectern.evaluation").joinpath("understanding_queries.json")
    queries = json.loads(raw.read_text(encoding="utf-8"))["queries"][: args.limit]
    started = time.perf_counter()
    rules = services.understanding()
    print(f"vocabulary built in {time.perf_counter() - started:.2f} s")
    print(f"{len(queries)} labelled queries")
    scores = {"rules": accuracy(rules, queries)}
    if args.graph:
        from lectern.adapters.llm.graphs.query_understanding import QueryUnderstandingGraph

        graph = QueryUnderstandingGraph(services.llm(), services.vocabulary(), fallback=rules)
        print(f"graph over {services.llm().model_id}:")
        scores["graph"] = accuracy(graph, queries)
    print()
    print(f"{'planner':<8} " + " ".join(f"{f:>10}" for f in (*FIELDS, "all")))
    for name, result in scores.items():
        print(f"{name:<8} " + " ".join(f"{result[f]:>10.1%}" for f in (*FIELDS, "all")))

    search = services.search()
    texts = [q["text"] for q in queries]
    for text in texts[:10]:  # warm-up: memory-mapped indexes, caches
        search.search(SearchQuery(text), plan=rules.plan(text))
    plan_ms: list[float] = []
    plain_ms: list[float] = []
    planned_ms: list[float] = []
    for _ in range(ROUNDS):
        for text in texts:
            start = time.perf_counter()
            search.search(SearchQuery(text))
            plain_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            plan = rules.plan(text)
            middle = time.perf_counter()
            search.search(SearchQuery(text), plan=plan)
            end = time.perf_counter()
            plan_ms.append((middle - start) * 1000)
            planned_ms.append((end - start) * 1000)
    print()
    print(f"search latency over {len(plain_ms)} searches ({ROUNDS} rounds of {len(texts)})")
    print(f"{'':<28}{'p50 ms':>10}{'p95 ms':>10}")
    for name, values in (
        ("rules.plan alone", plan_ms),
        ("search, no plan", plain_ms),
        ("search with rules' plan", planned_ms),
    ):
        print(f"{name:<28}{percentile(values, 0.5):>10.2f}{percentile(values, 0.95):>10.2f}")
    added = percentile(planned_ms, 0.95) - percentile(plain_ms, 0.95)
    ratio = percentile(planned_ms, 0.95) / percentile(plain_ms, 0.95)
    print(
        f"understanding adds {added:.2f} ms at p95 ({ratio:.2f}x the plain search's p95); "
        f"planning itself is {percentile(plan_ms, 0.95):.2f} ms at p95"
    )


if __name__ == "__main__":
    main()
