"""`lectern evaluate label`: pool and grade the judged queries, keeping hand reviews."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich.markup import escape

from lectern.entrypoints.cli.common import _guarded, _progress_bar, _services, out
from lectern.entrypoints.cli.evaluate_options import DataOption


def label(
    data: DataOption = None,
    version: Annotated[
        str, typer.Option("--version", help="The version to write into the judgments file.")
    ] = "",
) -> None:
    """Pool (top 20 of BM25, dense, hybrid) and grade by the queries' rules; keeps hand reviews."""
    from importlib import resources

    from lectern.application.evaluation.datasets import (
        DATA_PACKAGE,
        JUDGMENTS_FILE,
        load_judgments,
        load_queries,
    )
    from lectern.application.evaluation.labelling import build_judgments

    def run() -> None:
        services = _services()
        queries = load_queries(data)
        previous = load_judgments(data)
        target = (
            (data / JUDGMENTS_FILE)
            if data is not None
            else Path(str(resources.files(DATA_PACKAGE).joinpath(JUDGMENTS_FILE)))
        )
        with _progress_bar() as progress:
            content = build_judgments(
                services.search(),
                services.catalog,
                queries,
                previous,
                version=version or queries.version,
                progress=progress,
                understanding=services.understanding(),
            )
        target.write_text(
            json.dumps(content, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        judged = cast(Mapping[str, list[Mapping[str, Any]]], content["judgments"])
        pairs = sum(len(v) for v in judged.values())
        relevant = sum(1 for v in judged.values() for p in v if p["grade"] > 0)
        out.print(
            f"{pairs} pairs judged for {len(judged)} queries ({relevant} relevant) -> "
            f"{escape(str(target))}",
            highlight=False,
        )

    _guarded(run)
