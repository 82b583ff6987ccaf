"""`lectern ingest` and `lectern catalog`: fill the catalog, then look inside it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import structlog
import typer

from lectern.application.catalog_queries import find_book
from lectern.application.ingestion import IngestReport
from lectern.application.providers import MAX_PROVIDER_RESULTS
from lectern.entrypoints.cli.common import _fail, _guarded, _progress_bar, _services
from lectern.entrypoints.cli.render import (
    print_book,
    print_catalog_stats,
    print_ingest_report,
    print_provider_report,
)

ingest_app = typer.Typer()
catalog_app = typer.Typer(help="Inspect the catalog.", no_args_is_help=True)

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]


@ingest_app.command()
def ingest(
    mirror: Annotated[
        Path | None,
        typer.Option(
            help="Read the source files from this folder instead of downloading them "
            "(same as LECTERN_DATA_MIRROR)."
        ),
    ] = None,
    source: Annotated[
        list[str] | None,
        typer.Option(help="Only this source (repeatable); default: all of them."),
    ] = None,
    batch_size: Annotated[
        int | None, typer.Option(min=1, max=50_000, help="Books written per transaction.")
    ] = None,
    provider: Annotated[
        str | None,
        typer.Option(
            help="Also fetch from an external provider: openlibrary or google-books "
            "(with --isbn and/or --query); its records are kept and merged on every ingest."
        ),
    ] = None,
    isbn: Annotated[
        list[str] | None, typer.Option(help="With --provider: an ISBN to fetch. Repeatable.")
    ] = None,
    query: Annotated[
        str | None, typer.Option(help="With --provider: words to search the provider for.")
    ] = None,
    limit: Annotated[
        int,
        typer.Option(
            min=1, max=MAX_PROVIDER_RESULTS, help="With --query: how many records to fetch."
        ),
    ] = 10,
) -> None:
    """Download (or read from a mirror) every source, merge them and update the catalog."""

    def run() -> IngestReport:
        services = _services(data_mirror=mirror, ingest_batch_size=batch_size)
        if provider is None and (isbn or query):
            raise _fail("--isbn and --query need --provider openlibrary or google-books", 2)
        if provider is not None:
            with _progress_bar() as progress:
                fetched = services.provider_ingestion(progress).ingest(
                    provider, isbns=isbn or (), query=query, limit=limit
                )
            print_provider_report(fetched)
            assert fetched.ingest is not None
            report = fetched.ingest
        else:
            with _progress_bar() as progress:
                report = services.ingestion(progress).ingest(only=source)
        path = _save_report(services.settings.data_dir, report)
        print_ingest_report(report, path)
        structlog.get_logger().info(
            "ingest.finished",
            books=report.books,
            inserted=report.inserted,
            updated=report.updated,
            rejected=sum(report.rejected.values()),
            seconds=round(report.seconds, 2),
        )
        return report

    _guarded(run)


def _save_report(data_dir: Path, report: IngestReport) -> Path:
    """Keep the full report, every rejected row with file and line, beside the catalog."""
    folder = data_dir / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"ingest-{datetime.now(UTC):%Y%m%dT%H%M%S%fZ}.json"
    path.write_text(json.dumps(report.to_json(), indent=2, default=str), encoding="utf-8")
    return path


@catalog_app.command("stats")
def catalog_stats(as_json: JsonOption = False) -> None:
    """Counts, languages, top categories and years of the catalog."""

    def run() -> None:
        services = _services()
        counts = services.catalog.counts()
        facets = services.catalog.facets(top_categories=15)
        print_catalog_stats(counts, facets, as_json)

    _guarded(run)


@catalog_app.command("show")
def catalog_show(
    isbn_or_id: Annotated[str, typer.Argument(help="An ISBN-10, ISBN-13 or book id.")],
    as_json: JsonOption = False,
) -> None:
    """One book with its identifiers and the provenance of each field."""

    def run() -> None:
        print_book(find_book(_services().catalog, isbn_or_id), as_json)

    _guarded(run)
