"""Search latency of this tree against another checkout, in one run, as a ratio.

    PYTHONPATH=src python bench/search_p95_before_after.py --before /path/to/old/src [--rounds 2]

Each round times the latency bench's queries (`search_latency.bench_queries`: hand-written
needs, titles, authors, shelves; the default MMR lambda) once with the other checkout's code
and once with this one, each in a fresh subprocess over the same data directory, so both
see the same machine state; rounds alternate which goes first. Prints p50 and p95 of each
and the ratio after / before. The machine may be shared: read the ratio, not the times.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _child() -> None:
    sys.path.insert(0, str(HERE))
    from lectern.application.indexing import IndexingService
    from lectern.bootstrap import bootstrap
    from lectern.settings import Settings
    from search_latency import bench_queries, timed  # type: ignore[import-not-found]

    settings = Settings()
    services = bootstrap(settings)
    service = services.search()
    passages = IndexingService(services.catalog, services.catalog_indexes()).passages()
    queries = bench_queries(passages, service)
    times = timed(service, queries, mmr_lambda=settings.mmr_lambda)
    sys.stdout.write(json.dumps(times) + "\n")


def _run(src: Path) -> list[float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, __file__, "--child"], env=env, capture_output=True, text=True, check=True
    )
    times: list[float] = json.loads(done.stdout.strip().splitlines()[-1])
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, help="the other checkout's src folder")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child()
        return
    from lectern.application.evaluation.metrics import percentile

    after_src = HERE.parent / "src"
    times: dict[str, list[float]] = {"before": [], "after": []}
    for number in range(args.rounds):
        order = ("before", "after") if number % 2 == 0 else ("after", "before")
        for name in order:
            times[name] += _run(args.before if name == "before" else after_src)
    for name, values in times.items():
        print(
            f"{name}: p50 {percentile(values, 0.5):.2f} ms, p95 {percentile(values, 0.95):.2f} ms "
            f"over {len(values)} searches"
        )
    ratio = percentile(times["after"], 0.95) / percentile(times["before"], 0.95)
    print(f"p95 after / before: {ratio:.3f}")


if __name__ == "__main__":
    main()
