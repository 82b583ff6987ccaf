"""`lectern index`, `search` and `similar`: build the indexes, then find books with them."""

from __future__ import annotations

from typing import Annotated

import typer

from lectern.application.catalog_queries import find_book
from lectern.application.search import MAX_RESULTS
from lectern.application.understanding import plan_query
from lectern.domain.normalize import MAX_PAGES
from lectern.domain.retrieval import DEFAULT_STRATEGY
from lectern.domain.search import DEFAULT_RESULTS, PLAN_FIELDS, SearchFilters, SearchQuery
from lectern.entrypoints.cli.collections import search_collection
from lectern.entrypoints.cli.common import (
    StrategyOption,
    _fail,
    _guarded,
    _progress_bar,
    _services,
    out,
)
from lectern.entrypoints.cli.render import (
    print_explanations,
    print_fallback,
    print_index_report,
    print_plan,
    print_request_notes,
    print_results,
)

search_app = typer.Typer()

ResultsOption = Annotated[int, typer.Option(help=f"Number of results (1-{MAX_RESULTS}).")]
JsonLinesOption = Annotated[bool, typer.Option("--json", help="JSON lines, one per result.")]


@search_app.command()
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
        print_index_report(report, _peak_mb())

    _guarded(run)


def _peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@search_app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for, in plain words.")],
    lang: Annotated[str | None, typer.Option(help="ISO 639-1 language code, e.g. es.")] = None,
    category: Annotated[str | None, typer.Option(help="A catalog category, e.g. fantasy.")] = None,
    min_year: Annotated[int | None, typer.Option(help="Published in or after this year.")] = None,
    max_year: Annotated[int | None, typer.Option(help="Published in or before this year.")] = None,
    min_pages: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_PAGES,
            help="At least this many pages (books of unknown length pass, ranked after).",
        ),
    ] = None,
    max_pages: Annotated[
        int | None, typer.Option(min=1, max=MAX_PAGES, help="At most this many pages.")
    ] = None,
    exclude_category: Annotated[
        list[str] | None,
        typer.Option(
            help="Rule out a shelf and the shelves containing it, e.g. romance. Repeatable."
        ),
    ] = None,
    exclude_author: Annotated[
        list[str] | None, typer.Option(help="Rule out an author's books. Repeatable.")
    ] = None,
    exclude_title: Annotated[
        list[str] | None,
        typer.Option(help="Rule out a title or series, e.g. Twilight. Repeatable."),
    ] = None,
    exclude_youth: Annotated[
        bool,
        typer.Option(
            "--exclude-youth",
            help="Rule out shelves for young readers (young adult, children's, juvenile, ...).",
        ),
    ] = False,
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            help="With --understand, leave out part of the plan: "
            f"{', '.join(PLAN_FIELDS)}, or one exclusion as 'not:<label>'. Repeatable."
        ),
    ] = None,
    strategy: StrategyOption = DEFAULT_STRATEGY,
    mmr: Annotated[
        float | None,
        typer.Option(help="MMR lambda in [0, 1] (default from LECTERN_MMR_LAMBDA)."),
    ] = None,
    no_mmr: Annotated[bool, typer.Option("--no-mmr", help="Keep the fused order.")] = False,
    k: ResultsOption = DEFAULT_RESULTS,
    as_json: JsonLinesOption = False,
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
    fallback: Annotated[
        bool | None,
        typer.Option(
            "--fallback/--no-fallback",
            help="Hand over to the fallback agent (at most 3 tool calls) when robust signals "
            "fire: no or too few results, one author, an exploratory query (default: "
            "LECTERN_SEARCH_FALLBACK).",
        ),
    ] = None,
    collection: Annotated[
        str | None,
        typer.Option(help="Search this collection (`lectern collections list`) instead."),
    ] = None,
    where: Annotated[
        list[str] | None,
        typer.Option(help="With --collection: a filter field=value (repeatable)."),
    ] = None,
) -> None:
    """Search the catalog: BM25 and embeddings fused, filtered, one edition per work."""
    if collection is not None:
        search_collection(collection, query, where or [], k=k, as_json=as_json)
        return
    if where:
        raise _fail("--where filters a collection: add --collection NAME")

    def run() -> None:
        services = _services()
        filters = SearchFilters(
            language=lang,
            category=category,
            min_year=min_year,
            max_year=max_year,
            min_pages=min_pages,
            max_pages=max_pages,
            exclude_categories=tuple(exclude_category or ()),
            exclude_authors=tuple(exclude_author or ()),
            exclude_titles=tuple(exclude_title or ()),
            exclude_youth=exclude_youth,
        )
        unknown = [i for i in ignore or () if i not in PLAN_FIELDS and not i.startswith("not:")]
        if unknown:
            raise _fail(
                f"cannot ignore {', '.join(unknown)}: use {', '.join(PLAN_FIELDS)} or "
                "'not:<label>'",
                2,
            )
        lambda_ = None if no_mmr else (mmr if mmr is not None else services.settings.mmr_lambda)
        plan = plan_query(services.understanding(), query, ignore or ()) if understand else None
        request = SearchQuery(text=query, filters=filters, max_results=k, use_explanations=explain)
        use_fallback = services.settings.search_fallback if fallback is None else fallback
        if use_fallback:
            response = services.fallback_search().search_with_fallback(
                request, strategy=strategy, mmr_lambda=lambda_, plan=plan
            )
        else:
            response = services.search().search(
                request, strategy=strategy, mmr_lambda=lambda_, plan=plan
            )
        if plan is not None:
            print_plan(plan, as_json)
        if response.fallback is not None:
            print_fallback(response.fallback, as_json)
        print_request_notes(response, as_json)
        print_results(response, as_json)
        if explain and not as_json:
            print_explanations(response)

    _guarded(run)


@search_app.command()
def similar(
    isbn_or_id: Annotated[str, typer.Argument(help="An ISBN-10, ISBN-13 or book id.")],
    k: ResultsOption = DEFAULT_RESULTS,
    as_json: JsonLinesOption = False,
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
        print_results(response, as_json)

    _guarded(run)
