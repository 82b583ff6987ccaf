"""`lectern evaluate shelves`: the reader-shelf benchmark beside plain BM25 and plain dense.

The benchmark's rules and split: `application/evaluation/shelves.py` and docs/evaluation.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from lectern.entrypoints.cli.common import _fail, _guarded, _progress_bar, _services, out


def evaluate_shelves(
    split: Annotated[
        str, typer.Option("--split", help="dev, test or all (both, side by side).")
    ] = "all",
    tags: Annotated[
        Path | None,
        typer.Option(
            "--tags",
            help="The goodbooks-10k-tags folder (default: LECTERN_DATA_MIRROR/goodbooks-10k-tags).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """The reader-shelf benchmark: default search beside plain BM25 and plain dense."""
    from lectern.application.evaluation import shelves as bench

    if split not in ("dev", "test", "all"):
        raise _fail(f"--split must be dev, test or all, not {split!r}")

    def run() -> None:
        services = _services({})
        folder = tags
        if folder is None:
            mirror = services.settings.data_mirror
            if mirror is None:
                raise _fail(
                    "name the goodbooks-10k-tags folder with --tags (no LECTERN_DATA_MIRROR)"
                )
            folder = Path(str(mirror)) / "goodbooks-10k-tags"
        retriever = services.retriever()
        group_of = retriever.lexical.group_of
        found = bench.catalog_works(services.catalog.iter_batches(), group_of)
        queries = bench.judge(bench.read_shelves(folder), found.works.get, bench.packaged_split())
        # Only the asked split is searched: a dev run never ranks the test shelves.
        queries = [q for q in queries if split in ("all", q.split)]
        methods = {
            **bench.baseline_rankers(retriever),
            "default": bench.search_ranker(services.search(), services.understanding()),
        }
        with _progress_bar() as progress:
            scores = bench.run(queries, methods, group_of, progress=progress)
        if as_json:
            rows = [
                {
                    "method": s.method,
                    "split": s.split,
                    "queries": s.queries,
                    "ndcg@10": round(s.ndcg_at_10, 4),
                    "recall@100": round(s.recall_at_100, 4),
                    "mrr@10": round(s.mrr_at_10, 4),
                }
                for s in scores
            ]
            sys.stdout.write(json.dumps(rows, indent=1) + "\n")
            return
        table = Table(title=f"Shelf benchmark ({len(queries)} reader shelves, seed {bench.SEED})")
        for column in ("method", "split", "queries", "nDCG@10", "Recall@100", "MRR@10"):
            table.add_column(column)
        for s in scores:
            table.add_row(
                s.method,
                s.split,
                str(s.queries),
                f"{s.ndcg_at_10:.4f}",
                f"{s.recall_at_100:.4f}",
                f"{s.mrr_at_10:.4f}",
            )
        out.print(table)

    _guarded(run)
