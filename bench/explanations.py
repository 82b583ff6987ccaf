"""Grounded explanations on the full catalog: validity, groundedness, latency.

For 50 catalog queries x their top 5 books it prints, per model:
- raw citation validity: the share of the citations the model produced (read from its trace,
  before Lectern's validator) that are literal pieces of the named field;
- returned validity: the same check, done here independently of Lectern's validator (own
  case-folding and whitespace code, books re-read from the catalog), on what search returns;
- the share of explanations that are grounded after validation;
- latency per explanation, and what explaining the top 5 adds to a search (p50 / p95).

`extractive` always runs; `local` (the in-process GGUF) runs when `make local-llm` has been
done, on the first --local-queries queries only (10-16 s per explanation on 2 cores).

Usage: python bench/explanations.py [--data-dir var] [--local-queries 3]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

from lectern.adapters.llm.prompts import PROMPT_VERSIONS
from lectern.application.evaluation.metrics import percentile
from lectern.application.explanations import ExplanationService
from lectern.application.search import BookSearchService
from lectern.bootstrap import bootstrap, make_llm
from lectern.domain.books import Book
from lectern.domain.search import SearchQuery
from lectern.domain.tracing import LLMCallTrace
from lectern.settings import Settings

QUERIES = [
    "dark fantasy heist in a magical city",
    "a cozy mystery in a small english village",
    "dystopian young adult novel with a rebellion",
    "space opera with political intrigue",
    "history of the roman empire",
    "a funny book for a long flight",
    "coming of age in the american south",
    "psychological thriller with an unreliable narrator",
    "epic fantasy with dragons",
    "memoir of a chef",
    "science fiction about mars",
    "gothic romance in a haunted house",
    "detective in 1920s london",
    "self help about habits",
    "poetry about grief",
    "graphic novel about war",
    "picture book about bedtime",
    "vampires in high school",
    "enemies to lovers romance",
    "post apocalyptic survival",
    "true crime investigation",
    "biography of a scientist",
    "family saga across generations",
    "time travel romance",
    "school for wizards",
    "cold war spy thriller",
    "world war two france resistance",
    "philosophy for beginners",
    "economics and inequality",
    "classic russian literature",
    "short stories japan",
    "horror small town monster",
    "pirates adventure at sea",
    "courtroom drama lawyer",
    "artificial intelligence robots",
    "italian cooking",
    "military science fiction",
    "urban fantasy werewolves",
    "greek mythology retelling",
    "road trip novel",
    "murder on a train",
    "climate change",
    "startups and entrepreneurship",
    "christian fiction",
    "western cowboys",
    "superheroes",
    "zombies",
    "fairy tale retelling",
    "angels paranormal romance",
    "music and musicians",
]

_SPACE = re.compile(r"\s+")


class ListTracer:
    """Keeps the traces of this run in memory."""

    def __init__(self) -> None:
        self.traces: list[LLMCallTrace] = []

    def record(self, trace: LLMCallTrace) -> None:
        self.traces.append(trace)

    def last(self, count: int) -> list[LLMCallTrace]:
        return self.traces[-count:]


def _fold(text: str) -> str:
    return _SPACE.sub(" ", text.casefold()).strip()


def literal(snippet: str, field_text: str) -> bool:
    """The bench's own check: non-empty, <= 200 chars, a substring after folding."""
    return (
        bool(_fold(snippet)) and len(snippet.strip()) <= 200 and _fold(snippet) in _fold(field_text)
    )


def field_of(book: Book, name: str) -> str | None:
    return {
        "title": book.field_text("title"),
        "authors": ", ".join(book.authors),
        "categories": ", ".join(book.categories),
        "description": book.description or "",
    }.get(name)


def run(settings: Settings, search: BookSearchService, queries: Sequence[str], top: int) -> None:
    tracer = ListTracer()
    llm = make_llm(settings, tracer, search.retriever.embedder)
    search.explainer = ExplanationService(llm, PROMPT_VERSIONS["explain"], cache=None)
    search.explain_top = top
    added, per_explanation = [], []
    returned = valid_returned = grounded = explanations = by_model = 0
    for text in queries:
        query = SearchQuery(text, max_results=10)
        started = time.perf_counter()
        search.search(query)
        plain = time.perf_counter() - started
        started = time.perf_counter()
        response = search.search(SearchQuery(text, max_results=10, use_explanations=True))
        with_explanations = time.perf_counter() - started
        added.append((with_explanations - plain) * 1000)
        ids = [r.book.id for r in response.results if r.explanation is not None]
        fresh = {b.id: b for b in search.catalog.get_many(ids)}  # re-read from the catalog
        for result in response.results:
            explanation = result.explanation
            if explanation is None:
                continue
            explanations += 1
            grounded += explanation.grounded
            by_model += explanation.model == llm.model_id
            book = fresh[result.book.id]
            for citation in explanation.citations:
                returned += 1
                text_of_field = field_of(book, citation.chunk_id)
                valid_returned += text_of_field is not None and literal(
                    citation.snippet, text_of_field
                )
    raw = valid_raw = 0
    for trace in tracer.traces:
        if trace.operation != "explain" or trace.model != llm.model_id:
            continue
        per_explanation.append(trace.latency_ms)
        try:
            payload = json.loads(trace.raw_response or "")
            book = search.catalog.get_many([uuid.UUID(str(trace.prompt_variables["book_id"]))])
        except (ValueError, KeyError):
            payload, book = None, []
        if not isinstance(payload, dict) or not book:
            continue
        for citation in payload.get("citations") or []:
            raw += 1
            text_of_field = field_of(book[0], str(citation.get("field")))
            valid_raw += text_of_field is not None and literal(
                str(citation.get("snippet", "")), text_of_field
            )
    name = llm.model_id
    print(f"{name}: {len(queries)} queries x top {top} = {explanations} explanations")
    print(f"{name} raw citation validity: {valid_raw}/{raw} = {valid_raw / max(raw, 1):.1%}")
    print(
        f"{name} returned citation validity (independent re-check): {valid_returned}/{returned}"
        f" = {valid_returned / max(returned, 1):.1%}"
    )
    share = grounded / max(explanations, 1)
    print(f"{name} grounded after validation: {grounded}/{explanations} = {share:.1%}")
    print(
        f"{name} explanations written by this model (not the extractive fallback): "
        f"{by_model}/{explanations}"
    )
    print(
        f"{name} latency per explanation: p50 {percentile(per_explanation, 0.5):.2f} ms, "
        f"p95 {percentile(per_explanation, 0.95):.2f} ms"
    )
    print(
        f"{name} added to a search by explaining the top {top}: "
        f"p50 {percentile(added, 0.5):.1f} ms, p95 {percentile(added, 0.95):.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, help="Lectern's data directory (default ./var)")
    parser.add_argument("--local-queries", type=int, default=3)
    args = parser.parse_args()
    base = Settings(data_dir=args.data_dir) if args.data_dir else Settings()
    services = bootstrap(base)
    search = services.search()
    for text in QUERIES[:5]:  # warm-up: indexes, embedder, SQLite pages
        search.search(SearchQuery(text))
    run(base, search, QUERIES, top=5)
    local = base.model_copy(update={"llm": "local"})
    try:
        import llama_cpp  # noqa: F401
    except ImportError:
        print("local: llama-cpp-python not installed (`make local-llm`): skipped", file=sys.stderr)
        return
    if not local.resolved_local_model_path.is_file():
        print("local: model not assembled (`make local-llm`): skipped", file=sys.stderr)
        return
    run(local, search, QUERIES[: args.local_queries], top=2)


if __name__ == "__main__":
    main()
