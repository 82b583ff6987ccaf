"""Exclusions and limits: the dev set's violation rate, on-topic rate and full result lists.

Runs `src/lectern/evaluation/exclusion_requests.json` (50 requests with exclusions, audience
and page limits, each with machine-checkable constraints; see `application/evaluation/
constraints.py`) through the real search, over the top 10:
- without a plan (the words searched as typed),
- with the rules' plan (what `lectern search --understand` and the page do),
- with `--graph`, with the LangGraph flow over the configured LLM (slow with a local model).
Prints, per planner: the violation rate (results in an excluded shelf, by an excluded author,
of an excluded title or series, on a youth shelf when the reader ruled those out, or known
to be outside a page limit), the on-topic rate (results on a wanted shelf), the share of
requests with at least 5 results, explanation quotes of excluded things, and latency.

Needs an ingested, indexed catalog with page counts (`lectern ingest`, `lectern index`).
Usage: python bench/exclusions.py [--data-dir var] [--graph] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from lectern.application.evaluation.constraints import (
    load_exclusion_requests,
    run_exclusion_requests,
)
from lectern.application.ports import QueryUnderstanding
from lectern.application.understanding import plan_query
from lectern.bootstrap import bootstrap
from lectern.domain.books import JSONValue
from lectern.domain.search import QueryPlan, SearchQuery
from lectern.settings import load_settings

FIGURES = (
    "violation_rate",
    "requests_with_violation",
    "on_topic_rate",
    "with_min_results",
    "misleading_citations",
    "latency_p95_ms",
)


def _planner(understanding: QueryUnderstanding | None) -> Callable[[str], QueryPlan | None]:
    def plan(text: str) -> QueryPlan | None:
        return plan_query(understanding, text) if understanding is not None else None

    return plan


def main() -> None:
    """Print the dev set's figures for each planner, and every violation."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--graph", action="store_true", help="also the LLM graph")
    parser.add_argument("--json", type=Path, default=None, help="write every report here")
    args = parser.parse_args()
    overrides = {"data_dir": args.data_dir} if args.data_dir else {}
    services = bootstrap(load_settings(**overrides))
    search = services.search()
    dataset = load_exclusion_requests()
    planners: dict[str, QueryUnderstanding | None] = {
        "no plan": None,
        "rules": services.understanding(),
    }
    if args.graph:
        from lectern.adapters.llm.graphs.query_understanding import QueryUnderstandingGraph

        planners[f"graph ({services.llm().model_id})"] = QueryUnderstandingGraph(
            services.llm(), services.vocabulary(), fallback=services.understanding()
        )
    search.search(SearchQuery("warm up the memory-mapped indexes"))
    reports: dict[str, dict[str, JSONValue]] = {}
    for name, planner in planners.items():
        reports[name] = run_exclusion_requests(
            dataset,
            lambda query, plan: search.search(query, plan=plan).results,
            _planner(planner),
        )
    print(f"{dataset.file.version}: {len(dataset.file.requests)} requests, top 10 each")
    print(f"{'planner':<24}" + "".join(f"{f:>24}" for f in FIGURES))
    for name, report in reports.items():
        print(f"{name:<24}" + "".join(f"{report[f]!s:>24}" for f in FIGURES))
    for name, report in reports.items():
        if name == "no plan":
            continue
        for request in cast(list[dict[str, Any]], report["per_request"]):
            for problem in request["problems"]:
                print(
                    f"  {name}: {request['id']} #{problem['rank']} {problem['title']}: "
                    f"{problem['violations']} {problem['misleading_citations']}"
                )
    if args.json is not None:
        args.json.write_text(json.dumps(reports, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
