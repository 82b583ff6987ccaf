"""How `lectern` commands show what they did: rich tables for people, JSON for programs."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table

from lectern.application.catalog_queries import BookView
from lectern.application.evaluation.beir import BeirRun
from lectern.application.ingestion import IngestReport
from lectern.application.ports import IndexReport
from lectern.application.providers import ProviderReport
from lectern.application.search import SearchResponse
from lectern.domain.books import PAGE_BUCKET, PAGE_BUCKETS_UP_TO, CatalogCounts, Facets
from lectern.domain.fallback import FallbackReport
from lectern.domain.grounding import explanation_json
from lectern.domain.search import QueryPlan, describe_page_limit
from lectern.domain.tracing import LLMCallTrace
from lectern.entrypoints.cli.common import err, out


def write_json_line(value: object, **options: Any) -> None:
    """One JSON document on stdout, on one line unless `indent` is given."""
    sys.stdout.write(json.dumps(value, **options) + "\n")


def print_ingest_report(report: IngestReport, path: Path) -> None:
    """The ingest counts, the first rejected rows, and where the full report is."""
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


def print_provider_report(report: ProviderReport) -> None:
    """What a provider was asked, what it answered and what was kept."""
    asked = [f"ISBN {i}" for i in report.isbns] + ([repr(report.query)] if report.query else [])
    out.print(
        f"{report.provider}: asked {', '.join(asked)}; {report.fetched} records fetched, "
        f"{report.new_records} new",
        highlight=False,
    )
    for isbn in report.not_found:
        out.print(f"  {report.provider} has no record of ISBN {isbn}", highlight=False)


def print_catalog_stats(counts: CatalogCounts, facets: Facets, as_json: bool) -> None:
    """Counts, languages, top categories and years, as a table or one JSON document."""
    if as_json:
        payload = {
            "books": counts.books,
            "with_description": counts.with_description,
            "with_category": counts.with_category,
            "with_isbn13": counts.with_isbn13,
            "with_language": counts.with_language,
            "with_year": counts.with_year,
            "with_pages": counts.with_pages,
            "distinct_authors": counts.authors,
            "distinct_categories": counts.categories,
            "by_source": dict(counts.by_source),
            "languages": {c.name: c.count for c in facets.languages},
            "top_categories": {c.name: c.count for c in facets.top_categories},
            "year_histogram": dict(facets.year_histogram),
            "page_histogram": dict(facets.page_histogram),
        }
        write_json_line(payload, indent=2)
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
        ("with a page count", counts.with_pages),
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
    if facets.page_histogram:
        buckets = ", ".join(f"{_bucket(start)} {count:,}" for start, count in facets.page_histogram)
        out.print(f"Pages: {buckets}", highlight=False)


def _bucket(start: int) -> str:
    """A page-histogram bucket as people read it: "300-399", "1000+"."""
    return f"{start}+" if start >= PAGE_BUCKETS_UP_TO else f"{start}-{start + PAGE_BUCKET - 1}"


def print_book(view: BookView, as_json: bool) -> None:
    """One book: each field with the records it came from, its identifiers and sources."""
    if as_json:
        write_json_line(view.to_json(), indent=2, ensure_ascii=False)
        return
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


def print_index_report(report: IndexReport, peak_mb: float) -> None:
    """One line: what an index sync embedded, reused and removed, and its peak memory."""
    out.print(
        f"Indexed {report.passages:,} books in {report.seconds:.1f} s: "
        f"{report.embedded:,} embedded, {report.reused:,} reused, {report.removed:,} removed; "
        f"lexical index {'rebuilt' if report.lexical_rebuilt else 'unchanged'}; "
        f"vector index {report.index_type}; peak memory {peak_mb:.0f} MB",
        highlight=False,
    )


def print_plan(plan: QueryPlan, as_json: bool) -> None:
    """What was understood from the query: filters, recognised words, variations, notes."""
    if as_json:
        write_json_line({"plan": asdict(plan)}, ensure_ascii=False)
        return
    f = plan.filters
    lines = [
        f"[bold]Understood[/] ({escape(plan.source)}): {plan.intent}, strategy "
        f"{plan.strategy} ({escape(plan.strategy_reason)})"
    ]
    parts = []
    if f.language:
        parts.append(f"language {f.language}")
    if f.min_year is not None or f.max_year is not None:
        parts.append(f"years {f.min_year or ''}-{f.max_year or ''}")
    if plan.categories:
        parts.append("categories " + ", ".join(plan.categories))
    if plan.authors:
        parts.append("authors " + ", ".join(plan.authors))
    if plan.like_title:
        parts.append(f"like {plan.like_title}")
    if f.has_page_limit:
        parts.append(describe_page_limit(f.min_pages, f.max_pages))
    for exclusion in plan.exclusions:
        parts.append(
            "not for young readers"
            if exclusion.scope == "audience"
            else f"not {exclusion.scope} {exclusion.label}"
        )
    lines.append("  " + (escape("; ".join(parts)) if parts else "no filters"))
    for found in plan.recognised:
        said = plan.original_query[found.start : found.end]
        lines.append(f"  {found.kind}: {escape(repr(said))} -> {escape(found.value)}")
    if plan.variations:
        lines.append("  variations: " + escape(" | ".join(plan.variations)))
    for note in plan.notes:
        lines.append(f"  [yellow]note:[/] {escape(note)}")
    out.print("\n".join(lines), highlight=False)


def print_fallback(report: FallbackReport, as_json: bool) -> None:
    """Whether the fallback agent ran, why, its tool calls and the time it added."""
    if as_json:
        write_json_line({"fallback": asdict(report)}, ensure_ascii=False)
        return
    if not report.triggered:
        out.print("[dim]Fallback: not needed (no signal fired)[/]", highlight=False)
        return
    lines = [
        f"[bold]Fallback[/] ({escape(report.model or '?')}): "
        f"{escape(', '.join(report.reasons))}; {len(report.tool_calls)} tool call(s), "
        f"+{report.latency_ms:.0f} ms"
    ]
    for call in report.tool_calls:
        arguments = json.dumps(dict(call.arguments), ensure_ascii=False)
        outcome = f"error: {call.error}" if call.error else f"{call.results} books"
        lines.append(f"  {escape(call.name)}({escape(arguments)}) -> {escape(outcome)}")
    if report.error:
        lines.append(f"  [yellow]the agent failed, first results kept:[/] {escape(report.error)}")
    out.print("\n".join(lines), highlight=False)


def print_request_notes(response: SearchResponse, as_json: bool) -> None:
    """Say when nothing fits (the books shown are the nearest) and offer an ambiguity's readings.

    JSON lines stay one book a line; the notes are for the table.
    """
    if as_json:
        return
    if response.nothing_fits is not None:
        out.print(f"[yellow]{escape(response.nothing_fits.message)}[/]", highlight=False)
    if response.readings:
        options = "; ".join(
            f"{r.title}" + (f" by {r.author}" if r.author else "") for r in response.readings
        )
        out.print(f"Did you mean: {escape(options)}?", highlight=False)


def print_results(response: SearchResponse, as_json: bool) -> None:
    """Ranked books as a table, or one JSON line each; a degraded search says so on stderr."""
    if response.degraded:
        err.print(f"[yellow]degraded:[/] {response.degraded_reason}", highlight=False)
    if as_json:
        for result in response.results:
            book = result.book
            line = {
                "rank": result.rank,
                "book_id": str(book.id),
                "isbn13": book.isbn13,
                "isbn10": book.isbn10,
                "title": book.title,
                "authors": list(book.authors),
                "year": book.published_year,
                "language": book.language,
                "pages": book.pages,
                "score": result.final_score,
                "source": result.source,
                "lexical_score": result.lexical_score,
                "lexical_rank": result.lexical_rank,
                "vector_score": result.vector_score,
                "vector_rank": result.vector_rank,
                "degraded": response.degraded,
            }
            if result.explanation is not None:
                line["explanation"] = explanation_json(result.explanation)
            write_json_line(line, ensure_ascii=False)
        return
    if not response.results:
        out.print("No books match: try fewer words or wider filters.")
        return
    table = Table(show_lines=False, title_justify="left")
    for name, justify in (
        ("#", "right"),
        ("title", "left"),
        ("authors", "left"),
        ("year", "right"),
        ("lang", "left"),
        ("pages", "right"),
        ("score", "right"),
        ("bm25", "right"),
        ("vector", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for result in response.results:
        book = result.book
        table.add_row(
            str(result.rank),
            book.title,
            ", ".join(book.authors[:2]),
            "" if book.published_year is None else str(book.published_year),
            book.language or "",
            "" if book.pages is None else str(book.pages),
            f"{result.final_score:.4f}",
            ""
            if result.lexical_score is None
            else f"{result.lexical_score:.2f} (#{result.lexical_rank})",
            ""
            if result.vector_score is None
            else f"{result.vector_score:.3f} (#{result.vector_rank})",
        )
    out.print(table)
    total = response.timings_ms.get("retrieval_ms")
    if total is not None:
        out.print(
            f"{len(response.results)} results in {total:.1f} ms", style="dim", highlight=False
        )


def print_explanations(response: SearchResponse) -> None:
    """Each explained result with its verified quotes, model and confidence."""
    for result in response.results:
        explanation = result.explanation
        if explanation is None:
            continue
        out.print(f"\n[bold]#{result.rank} {escape(result.book.title)}[/]", highlight=False)
        style = "" if explanation.grounded else "yellow"
        out.print(f"  {escape(explanation.text)}", style=style, highlight=False)
        for citation in explanation.citations:
            out.print(
                f"  [dim]{citation.chunk_id}:[/] [reverse]“{escape(citation.snippet)}”[/]"
                f" [dim]({citation.relevance_score:.2f})[/]",
                highlight=False,
            )
        out.print(f"  [dim]{explanation.model}, confidence {explanation.confidence:.2f}[/]")
    explained = response.timings_ms.get("explain_ms")
    if explained is not None:
        out.print(f"\nexplained in {explained:.1f} ms", style="dim", highlight=False)


def print_traces(traces: Sequence[LLMCallTrace], as_json: bool) -> None:
    """One line per traced LLM call, or the stored records as JSON lines."""
    for trace in traces:
        if as_json:
            data = asdict(trace)
            data["time"] = trace.time.isoformat()
            write_json_line(data, ensure_ascii=False, default=str)
            continue
        tokens = (
            f"{trace.input_tokens}+{trace.output_tokens} tokens"
            if trace.input_tokens is not None
            else "no token count"
        )
        problem = f" [red]{escape(trace.parse_error)}[/]" if trace.parse_error else ""
        out.print(
            f"{trace.time:%Y-%m-%d %H:%M:%S} {trace.operation} {trace.prompt_version} "
            f"{escape(trace.model)} {trace.latency_ms:.1f} ms {tokens}{problem}",
            highlight=False,
        )


def print_beir_run(run: BeirRun) -> None:
    """What was evaluated on stderr; three `name: value` metric lines per method on stdout."""
    dataset = run.corpus.dataset
    err.print(
        f"{len(dataset.passages):,} documents ({run.embedded:,} embedded now), "
        f"{len(dataset.queries):,} judged queries, index in {run.corpus.index_folder}",
        highlight=False,
    )
    for score in run.scores:
        prefix = f"{score.method}." if len(run.scores) > 1 else ""
        sys.stdout.write(
            f"{prefix}ndcg@10: {score.ndcg_at_10:.4f}\n"
            f"{prefix}recall@100: {score.recall_at_100:.4f}\n"
            f"{prefix}mrr@10: {score.mrr_at_10:.4f}\n"
        )
