"""Explanations for search results: concurrent, cached, and validated here again.

Adapters validate what they return; this service validates once more against the book it
holds, so no adapter, cache row or future code path can show an unchecked quote.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import structlog

from lectern.application.ports import ExplanationCache, LLMClient
from lectern.application.timing import elapsed_ms
from lectern.domain.books import Book
from lectern.domain.grounding import (
    Explanation,
    validate_grounded_explanation,
    without_excluded_citations,
)
from lectern.domain.search import SearchResult

log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class ExplainReport:
    """How one batch of explanations was obtained."""

    explained: int
    from_cache: int
    failed: int
    milliseconds: float


class ExplanationService:
    """Explains the top results of a search with the configured `LLMClient`."""

    def __init__(
        self,
        llm: LLMClient,
        prompt_version: str,
        *,
        cache: ExplanationCache | None = None,
        concurrency: int = 4,
    ) -> None:
        """`concurrency` bounds the calls in flight (hosted models rate-limit)."""
        if concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.llm = llm
        self.prompt_version = prompt_version
        self.cache = cache
        self.concurrency = concurrency
        # One pool for the service's life: the bound holds across concurrent searches (what
        # a rate-limited provider needs), and no threads are started per search.
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="explain")

    def explain_results(
        self,
        query: str,
        results: Sequence[SearchResult],
        top: int,
        *,
        run_id: str | None = None,
        excluded_shelves: Sequence[str] = (),
        excluded_authors: Sequence[str] = (),
    ) -> tuple[list[SearchResult], ExplainReport]:
        """The results with an explanation on each of the first `top`; the rest unchanged.

        A quote of a shelf or author the reader excluded is never kept as support
        (`without_excluded_citations`), whatever the model or the cache says.
        """
        started = time.perf_counter()
        chosen = list(results[: max(top, 0)])
        explanations: dict[uuid.UUID, Explanation] = {}
        missing: list[Book] = []
        for result in chosen:
            cached = self._cached(query, result.book)
            if cached is not None:
                explanations[result.book.id] = cached
            else:
                missing.append(result.book)
        from_cache = len(explanations)
        failed = 0
        if missing:
            made = list(self._pool.map(lambda b: self._explain(query, b, run_id), missing))
            for book, (explanation, ok) in zip(missing, made, strict=True):
                explanations[book.id] = explanation
                failed += 0 if ok else 1
                if ok and self.cache is not None:
                    self.cache.put(explanation, self.prompt_version)
        if excluded_shelves or excluded_authors:
            books = {r.book.id: r.book for r in chosen}
            explanations = {
                book_id: without_excluded_citations(
                    explanation, books[book_id], excluded_shelves, excluded_authors
                )
                for book_id, explanation in explanations.items()
            }
        explained = [
            replace(r, explanation=explanations[r.book.id]) if r.book.id in explanations else r
            for r in results
        ]
        report = ExplainReport(len(chosen), from_cache, failed, elapsed_ms(started))
        return explained, report

    def _cached(self, query: str, book: Book) -> Explanation | None:
        if self.cache is None:
            return None
        hit = self.cache.get(book.id, query, self.prompt_version, self.llm.model_id)
        if hit is None:
            return None
        checked = validate_grounded_explanation(hit, book)
        # A book re-ingested with other text can orphan a cached quote: explain it afresh.
        return checked if len(checked.citations) == len(hit.citations) else None

    def _explain(self, query: str, book: Book, run_id: str | None) -> tuple[Explanation, bool]:
        try:
            return validate_grounded_explanation(
                self.llm.explain(query, book, run_id=run_id), book
            ), True
        except Exception as error:  # noqa: BLE001 - one failed explanation never fails a search
            log.warning(
                "explain.failed", book_id=str(book.id), error=f"{type(error).__name__}: {error}"
            )
            empty = Explanation(
                book_id=book.id,
                query_text=query,
                text="",
                citations=(),
                model=self.llm.model_id,
                created_at=datetime.now(UTC),
                confidence=0.0,
                grounded=False,
            )
            return validate_grounded_explanation(empty, book), False
