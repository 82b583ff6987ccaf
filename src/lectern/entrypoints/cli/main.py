"""The `lectern` command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

import structlog
import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from lectern import __version__
from lectern.application.catalog_queries import BookView, find_book
from lectern.application.ingestion import IngestReport
from lectern.bootstrap import Services, bootstrap
from lectern.errors import BookNotFoundError, LecternError
from lectern.observability import configure_logging
from lectern.settings import load_settings

app = typer.Typer(
    name="lectern",
    help="Lectern: answers from a book catalog you can check.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
catalog_app = typer.Typer(help="Inspect the catalog.", no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")

out = Console()
err = Console(stderr=True)
T = TypeVar("T")


def _fail(message: str, code: int = 1) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def _guarded(action: Callable[[], T]) -> T:
    """Run a command body; a Lectern error becomes a one-line message and exit 1."""
    try:
        return action()
    except LecternError as error:
        raise _fail(str(error)) from None


def _services(**overrides: Any) -> Services:
    settings = load_settings(**{k: v for k, v in overrides.items() if v is not None})
    configure_logging(settings.log_level)
    return bootstrap(settings)


class RichProgress:
    """Draws each stage of long work as a rich progress bar."""

    def __init__(self, progress: Progress) -> None:
        """Wrap a started rich Progress."""
        self._progress = progress
        self._task: TaskID | None = None

    def start(self, task: str, total: int | None) -> None:
        """Finish the previous bar and start one for this stage."""
        if self._task is not None:
            current = self._progress.tasks[-1]
            self._progress.update(
                self._task, total=current.completed or 1, completed=current.completed or 1
            )
        self._task = self._progress.add_task(task, total=total)

    def advance(self, amount: int = 1) -> None:
        """Move the current bar on."""
        if self._task is not None:
            self._progress.advance(self._task, amount)


@contextmanager
def _progress_bar() -> Iterator[RichProgress]:
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description:<32}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err, transient=False) as progress:
        reporter = RichProgress(progress)
        yield reporter
        reporter.start("done", 1)
        reporter.advance()


def _print_version(value: bool) -> None:
    if value:
        out.print(__version__)
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", is_eager=True, callback=_print_version
        ),
    ] = False,
) -> None:
    """Lectern: answers from a book catalog you can check."""
    del version


@app.command()
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
) -> None:
    """Download (or read from a mirror) every source, merge them and update the catalog."""

    def run() -> IngestReport:
        services = _services(data_mirror=mirror, ingest_batch_size=batch_size)
        with _progress_bar() as progress:
            report = services.ingestion(progress).ingest(only=source)
        path = _save_report(services.settings.data_dir, report)
        _print_report(report, path)
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


def _print_report(report: IngestReport, path: Path) -> None:
    table = Table(title="Ingest report", show_header=False, title_justify="left")
    table.add_column("what")
    table.add_column("count", justify="right")
    for name, count in report.rows_read.items():
        table.add_row(f"rows read: {name}", f"{count:,}")
    table.add_row("read", f"{report.read:,}")
    table.add_row("records kept", f"{report.records:,}")
    table.add_row("merged into another record's book", f"{report.merged:,}")
    table.add_row("books", f"{report.books:,}")
    table.add_row("inserted", f"{report.inserted:,}")
    table.add_row("updated", f"{report.updated:,}")
    table.add_row("unchanged", f"{report.unchanged:,}")
    table.add_row("rejected", f"{sum(report.rejected.values()):,}")
    for reason, count in report.rejected.most_common():
        table.add_row(f"  rejected: {reason}", f"{count:,}")
    for reason, count in report.dropped_values.most_common():
        table.add_row(f"  value dropped: {reason}", f"{count:,}")
    table.add_row("seconds", f"{report.seconds:.1f}")
    out.print(table)
    for row in report.rejected_rows[:10]:
        out.print(f"  rejected {row.file}:{row.line}: {row.reason} {row.detail}", highlight=False)
    if len(report.rejected_rows) > 10:
        out.print(f"  ... {len(report.rejected_rows) - 10} more rejected rows in the report")
    out.print(f"Full report: {path}", highlight=False)


@catalog_app.command("stats")
def catalog_stats(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Counts, languages, top categories and years of the catalog."""

    def run() -> None:
        services = _services()
        counts = services.catalog.counts()
        facets = services.catalog.facets(top_categories=15)
        if as_json:
            payload = {
                "books": counts.books,
                "with_description": counts.with_description,
                "with_category": counts.with_category,
                "with_isbn13": counts.with_isbn13,
                "with_language": counts.with_language,
                "with_year": counts.with_year,
                "distinct_authors": counts.authors,
                "distinct_categories": counts.categories,
                "by_source": dict(counts.by_source),
                "languages": {c.name: c.count for c in facets.languages},
                "top_categories": {c.name: c.count for c in facets.top_categories},
                "year_histogram": dict(facets.year_histogram),
            }
            sys.stdout.write(json.dumps(payload, indent=2) + "\n")
            return
        if counts.books == 0:
            out.print("The catalog is empty: run `lectern ingest` first.")
            return
        table = Table(title="Catalog", show_header=False, title_justify="left")
        table.add_column("what")
        table.add_column("count", justify="right")
        for label, value in (
            ("books", counts.books),
            ("with a description", counts.with_description),
            ("with a category", counts.with_category),
            ("with an ISBN-13", counts.with_isbn13),
            ("with a language", counts.with_language),
            ("with a year", counts.with_year),
            ("distinct authors", counts.authors),
            ("distinct categories", counts.categories),
        ):
            table.add_row(label, f"{value:,}")
        for name, count in counts.by_source.items():
            table.add_row(f"books with a record from {name}", f"{count:,}")
        out.print(table)
        languages = ", ".join(f"{c.name} {c.count:,}" for c in facets.languages[:12])
        out.print(f"Languages: {languages}", highlight=False)
        categories = ", ".join(f"{c.name} {c.count:,}" for c in facets.top_categories)
        out.print(f"Top categories: {categories}", highlight=False)
        if facets.min_year is not None:
            out.print(f"Years: {facets.min_year} to {facets.max_year}", highlight=False)

    _guarded(run)


@catalog_app.command("show")
def catalog_show(
    isbn_or_id: Annotated[str, typer.Argument(help="An ISBN-10, ISBN-13 or book id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """One book with its identifiers and the provenance of each field."""

    def run() -> None:
        services = _services()
        try:
            view = find_book(services.catalog, isbn_or_id)
        except BookNotFoundError as error:
            raise _fail(str(error)) from None
        if as_json:
            sys.stdout.write(json.dumps(view.to_json(), indent=2, ensure_ascii=False) + "\n")
            return
        _print_book(view)

    _guarded(run)


def _print_book(view: BookView) -> None:
    book = view.entry.book
    table = Table(title=book.title, show_header=False, title_justify="left")
    table.add_column("field", style="bold")
    table.add_column("value", overflow="fold")
    table.add_column("from", style="dim")
    by_field: dict[str, list[str]] = {}
    for item in view.entry.provenance:
        by_field.setdefault(item.field, []).append(f"{item.source}:{item.source_id}")
    for name, value in view.fields():
        table.add_row(name, value, ", ".join(by_field.get(name, [])))
    out.print(table)
    out.print("Identifiers: " + ", ".join(view.entry.identifiers), highlight=False)
    out.print("Source records:", highlight=False)
    for ref in view.entry.sources:
        out.print(f"  {ref.source}:{ref.source_id}  ({ref.file}:{ref.line})", highlight=False)


def run() -> None:
    """Console-script entry point."""
    app()
