"""`lectern collections ...`: add, list, show and remove collections; search them; cite.

`search_collection` and `show_label` are the bodies of `lectern search --collection NAME`
and `lectern show LABEL`; they are also reachable here as `collections search` and
`collections cite`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from lectern.application.collections import (
    AddReport,
    CollectionSearchResponse,
    Resolution,
)
from lectern.entrypoints.cli.common import _guarded, _progress_bar, _services, err, out

collections_app = typer.Typer(
    help="Collections: documents, guidance, PDFs and records, searchable and cited.",
    no_args_is_help=True,
)

FormatOption = Annotated[
    str | None,
    typer.Option(
        "--format",
        help="markdown, text, html, pdf or records; default: by content and extension.",
    ),
]
MappingOption = Annotated[
    str | None,
    typer.Option(
        "--mapping",
        help="Records mapping: a YAML file or a shipped name (cisa-kev, mitre-attack, rustsec, "
        "beir, clapnq, kb-web).",
    ),
]
WhereOption = Annotated[
    list[str] | None,
    typer.Option(
        "--where",
        help="Metadata filter (repeatable): f=v, f=a,b (any of), f>=low, f<=high, f=low..high.",
    ),
]


@collections_app.command("add")
def add(
    name: Annotated[str, typer.Argument(help="Collection name (lower-case, digits, - or _).")],
    path: Annotated[Path, typer.Argument(help="A file or folder to add (folders recursively).")],
    format: FormatOption = None,
    mapping: MappingOption = None,
    pattern: Annotated[
        str | None,
        typer.Option(help="Only files whose relative path matches this glob (e.g. 'rfc*.txt')."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Add a folder or file to a collection (created if new); unchanged documents are kept."""

    def run() -> None:
        services = _services()
        with _progress_bar() as progress:
            report = services.collections().add(
                name, path, format=format, mapping=mapping, pattern=pattern, progress=progress
            )
        if as_json:
            sys.stdout.write(json.dumps(report_json(report), indent=2) + "\n")
        else:
            print_report(report)

    _guarded(run)


def report_json(report: AddReport) -> dict[str, object]:
    """An add report as plain JSON."""
    return {
        "collection": report.collection,
        "source": report.source,
        "changed": report.changed,
        "documents": report.documents,
        "passages": report.passages,
        "read": report.read,
        "added": report.added,
        "updated": report.updated,
        "unchanged": report.unchanged,
        "removed": report.removed,
        "new_passages": report.new_passages,
        "embedded": report.index.embedded if report.index else 0,
        "read_seconds": round(report.read_seconds, 3),
        "index_seconds": round(report.index_seconds, 3),
        "skipped": [{"path": s.path, "reason": s.reason} for s in report.skipped],
        "notes": [{"document": uri, "note": note} for uri, note in report.notes],
    }


def print_report(report: AddReport) -> None:
    """The final report: counts, then every skipped file with its reason."""
    table = Table(title=f"Collection {report.collection}", show_header=False, title_justify="left")
    table.add_column("what")
    table.add_column("count", justify="right")
    rows = [
        ("documents in the collection", report.documents),
        ("passages in the collection", report.passages),
        ("added", report.added),
        ("updated", report.updated),
        ("unchanged", report.unchanged),
        ("removed", report.removed),
        ("new passages", report.new_passages),
        ("passages embedded now", report.index.embedded if report.index else 0),
        ("skipped", len(report.skipped)),
    ]
    for what, count in rows:
        table.add_row(what, f"{count:,}")
    out.print(table)
    if not report.changed:
        out.print("Nothing changed: every document is as stored.")
    for skipped in report.skipped:
        out.print(f"  skipped {escape(skipped.path)}: {escape(skipped.reason)}", highlight=False)
    if report.notes:
        out.print(f"{len(report.notes)} notes (first 20):", highlight=False)
        for uri, note in report.notes[:20]:
            out.print(f"  {escape(uri)}: {escape(note)}", highlight=False)


@collections_app.command("list")
def list_collections() -> None:
    """Every collection with its documents, passages and sources."""

    def run() -> None:
        summaries = _services().collections().summaries()
        if not summaries:
            out.print("No collections yet: `lectern collections add NAME PATH` makes one.")
            return
        table = Table("name", "documents", "passages", "filters", "updated", "sources")
        for summary in summaries:
            record = summary.record
            table.add_row(
                record.name,
                f"{summary.documents:,}",
                f"{summary.passages:,}",
                ", ".join(f.name for f in record.filters),
                f"{record.updated_at:%Y-%m-%d %H:%M}",
                escape("\n".join(summary.sources)),
            )
        out.print(table)

    _guarded(run)


@collections_app.command("show")
def show(name: Annotated[str, typer.Argument(help="The collection.")]) -> None:
    """A collection's counts, filters and first documents."""

    def run() -> None:
        summary, documents = _services().collections().show(name)
        record = summary.record
        out.print(
            f"[bold]{escape(record.name)}[/]: {summary.documents:,} documents, "
            f"{summary.passages:,} passages, index generation {record.generation}",
            highlight=False,
        )
        filters = ", ".join(f"{f.name} ({f.kind})" for f in record.filters) or "none"
        out.print(f"filters: {escape(filters)}", highlight=False)
        for source in summary.sources:
            out.print(f"source: {escape(source)}", highlight=False)
        table = Table("label key", "title", "kind", "id")
        for document in documents:
            table.add_row(
                escape(document.cite_as), escape(document.title[:70]), document.kind, document.id
            )
        out.print(table)

    _guarded(run)


@collections_app.command("remove")
def remove(
    name: Annotated[str, typer.Argument(help="The collection.")],
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete a collection with its documents, passages and indexes."""

    def run() -> None:
        if not yes:
            typer.confirm(f"Delete the collection {name}?", abort=True)
        _services().collections().remove(name)
        out.print(f"Removed {escape(name)}.")

    _guarded(run)


@collections_app.command("search")
def search_command(
    name: Annotated[str, typer.Argument(help="The collection.")],
    query: Annotated[str, typer.Argument(help="What to look for.")],
    where: WhereOption = None,
    k: Annotated[int, typer.Option(min=1, max=100, help="Documents to show.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Search one collection (what `lectern search --collection NAME` runs)."""
    search_collection(name, query, where or [], k=k, as_json=as_json)


def search_collection(
    name: str, query: str, where: list[str], *, k: int = 10, as_json: bool = False
) -> None:
    """Run and print a collection search: documents, then their passages with labels."""

    def run() -> None:
        response = _services().collections().search(name, query, where=where, k=k)
        if as_json:
            sys.stdout.write(json.dumps(search_json(response), indent=2) + "\n")
        else:
            print_search(response)

    _guarded(run)


def search_json(response: CollectionSearchResponse) -> dict[str, object]:
    """A search response as plain JSON."""
    return {
        "collection": response.collection,
        "query": response.query,
        "degraded": response.degraded,
        "degraded_reason": response.degraded_reason,
        "scope": response.scope,
        "expansion": response.expansion,
        "timings_ms": dict(response.timings_ms),
        "results": [
            {
                "rank": hit.rank,
                "score": round(hit.score, 6),
                "document": {
                    "id": hit.document.id,
                    "title": hit.document.title,
                    "uri": hit.document.uri,
                },
                "passages": [
                    {
                        "id": p.passage.id,
                        "label": p.label,
                        "page": p.passage.page,
                        "section": p.passage.section,
                        "start": p.passage.start,
                        "end": p.passage.end,
                        "snippet": p.snippet.text,
                        "highlights": [list(h) for h in p.snippet.highlights],
                    }
                    for p in hit.passages
                ],
            }
            for hit in response.results
        ],
    }


def _highlighted(text: str, spans: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> str:
    """Rich markup for text with these spans in bold yellow; everything escaped."""
    parts = []
    position = 0
    for start, end in sorted(spans):
        if start < position:
            continue
        parts.append(escape(text[position:start]))
        parts.append(f"[bold yellow]{escape(text[start:end])}[/]")
        position = end
    parts.append(escape(text[position:]))
    return "".join(parts)


def print_search(response: CollectionSearchResponse) -> None:
    """Documents with their passages' labels and highlighted snippets."""
    if response.degraded:
        err.print(f"[yellow]degraded:[/] {escape(str(response.degraded_reason))}")
    if response.scope:
        err.print(f"[cyan]scope:[/] {escape(response.scope)}", highlight=False)
    if not response.results:
        out.print("No passage matches.")
    for hit in response.results:
        out.print(
            f"[bold]{hit.rank}. {escape(hit.document.title)}[/] ({hit.score:.3f})", highlight=False
        )
        for passage in hit.passages:
            out.print(f"   [cyan]{escape(passage.label)}[/]", highlight=False)
            out.print(
                "     " + _highlighted(passage.snippet.text, passage.snippet.highlights),
                highlight=False,
                soft_wrap=True,
            )


@collections_app.command("similar")
def similar_command(
    name: Annotated[str, typer.Argument(help="The collection.")],
    document_id: Annotated[str, typer.Argument(help="A document id (`collections show`).")],
    k: Annotated[int, typer.Option(min=1, max=100, help="Documents to show.")] = 10,
) -> None:
    """Documents nearest to one document of the collection."""

    def run() -> None:
        print_search(_services().collections().similar(name, document_id, k))

    _guarded(run)


@collections_app.command("cite")
def cite_command(
    label: Annotated[str, typer.Argument(help="A label such as '[RFC 7231 p.12]'.")],
    snippet: Annotated[
        str | None, typer.Option(help="Highlight this quote inside the cited text.")
    ] = None,
) -> None:
    """Print the page, section or record a label cites (what `lectern show LABEL` runs)."""
    show_label(label, snippet)


def show_label(label: str, snippet: str | None = None) -> None:
    """Print what a label cites, with the snippet highlighted; exit 1 when it is not there."""

    def run() -> None:
        resolution = _services().collections().resolve(label, snippet)
        print_resolution(resolution)
        if snippet and resolution.snippet_at is None:
            err.print("[red]the snippet is not on the cited page or section[/]")
            raise typer.Exit(1)

    _guarded(run)


def print_resolution(resolution: Resolution) -> None:
    """The cited text, framed by its document and label."""
    document = resolution.document
    out.print(
        f"[bold]{escape(document.title)}[/] [cyan]{escape(resolution.label)}[/] "
        f"({escape(document.collection)}: {escape(document.uri)}, "
        f"characters {resolution.start}-{resolution.end})",
        highlight=False,
    )
    spans = []
    if resolution.snippet_at is not None:
        start, end = resolution.snippet_at
        spans.append((start - resolution.start, end - resolution.start))
    out.print(_highlighted(resolution.text, spans), highlight=False, soft_wrap=True)
