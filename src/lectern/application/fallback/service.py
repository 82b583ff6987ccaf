"""`search_with_fallback`: a search, and a ReAct agent when robust signals say it fell short.

1. The search runs as asked.
2. The triggers of `domain/fallback.py` read its results and its plan (too few results, a
   page limit no shown book is known to fit, a "like X" whose X is no catalog book, an
   explicit request to explore); none fires: the results stand, untouched.
3. Otherwise the agent gets the request, the reasons and the first results, and calls
   `search_catalog` / `get_similar_books` (at most three calls), then names the books it
   recommends by id. The reader gets those books (ids no tool or first search returned are
   ignored), then the other books the tools found, then the first results, up to the count.
4. A failing agent never fails the search: the first results come back with the error.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from itertools import zip_longest
from types import EllipsisType

import structlog

from lectern.application.fallback.ports import AgentRun, SearchFallbackAgent
from lectern.application.fallback.prompts import PROMPT_VERSION, SYSTEM_PROMPT, request_text
from lectern.application.fallback.tools import FallbackToolbox, ToolRecord
from lectern.application.ports import BookCatalog, LLMTracer, QueryUnderstanding, TitleMatcher
from lectern.application.search import BookSearchService, SearchResponse
from lectern.application.timing import elapsed_ms
from lectern.application.understanding import Vocabulary
from lectern.domain.books import JSONValue
from lectern.domain.fallback import (
    MAX_FALLBACK_TOOL_CALLS,
    FallbackReport,
    FallbackToolCall,
    ResultSignals,
    exploration_request,
    fallback_reasons,
    plan_did_explore,
    unresolved_like,
)
from lectern.domain.retrieval import DEFAULT_STRATEGY, Strategy
from lectern.domain.search import NothingFits, QueryPlan, SearchQuery, SearchResult
from lectern.domain.tracing import LLMCallTrace

log = structlog.get_logger(__name__)

_BOOK_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class FallbackSearch:
    """Book search with the fallback agent behind it."""

    def __init__(
        self,
        search: BookSearchService,
        catalog: BookCatalog,
        agent: SearchFallbackAgent,
        *,
        understanding: QueryUnderstanding | None = None,
        vocabulary: Vocabulary | None = None,
        titles: TitleMatcher | None = None,
        tracer: LLMTracer | None = None,
        max_tool_calls: int = MAX_FALLBACK_TOOL_CALLS,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        """`understanding` plans queries searched without a plan; `titles` reads misspelt ones."""
        self.search = search
        self.catalog = catalog
        self.agent = agent
        self.understanding = understanding
        self.vocabulary = vocabulary
        self.titles = titles
        self.tracer = tracer
        self.max_tool_calls = max_tool_calls
        self._clock = clock

    def search_with_fallback(
        self,
        query: SearchQuery,
        *,
        strategy: Strategy = DEFAULT_STRATEGY,
        mmr_lambda: float | None | EllipsisType = ...,
        plan: QueryPlan | None = None,
        depth: int | None = None,
    ) -> SearchResponse:
        """The search's response, replaced by the agent's books when a trigger fires.

        `response.fallback` says whether the agent ran, why, its tool calls and the time it
        added; `response.timings_ms["fallback_ms"]` too.
        """
        first = self.search.search(
            query, strategy=strategy, mmr_lambda=mmr_lambda, plan=plan, depth=depth
        )
        started = time.perf_counter()
        intent_plan = plan
        if intent_plan is None and self.understanding is not None:
            intent_plan = self.understanding.plan(query.text)
        if first.plan is None and intent_plan is not None:
            # Searched without a plan: what the plan reads of "like X" is still told, so an X
            # the catalog does not hold is said to be missing whatever the agent does.
            readings, missing = self.search.like_readings(intent_plan, self.titles)
            if missing is not None:
                words = first.nothing_fits.words if first.nothing_fits is not None else ()
                first = replace(first, nothing_fits=NothingFits(words, missing))
            if readings:
                first = replace(first, readings=readings)
        exploration = exploration_request(query.text)
        ran = first.plan
        if (
            exploration is not None
            and ran is not None
            and plan_did_explore(
                exploration, ran.like_book_id is not None, [e.label for e in ran.exclusions]
            )
        ):
            exploration = None
        filters = first.plan.filters if first.plan else query.filters
        known_fits = None
        if filters.has_page_limit:
            known_fits = sum(
                1
                for r in first.results
                if r.book.pages is not None and filters.fits_pages(r.book.pages)
            )
        signals = ResultSignals(
            requested=query.max_results,
            first_authors=tuple(r.book.authors[0] if r.book.authors else "" for r in first.results),
            lexical_candidates=first.candidates.get("lexical", 0),
            vector_candidates=first.candidates.get("vector", 0),
            known_fits=known_fits,
        )
        unresolved = unresolved_like(intent_plan.notes) if intent_plan is not None else None
        reasons = fallback_reasons(signals, exploration=exploration, unresolved_like=unresolved)
        first_ids = tuple(str(r.book.id) for r in first.results)
        if not reasons:
            return replace(first, fallback=FallbackReport(first_ids=first_ids))
        toolbox = FallbackToolbox(
            self.search, self.catalog, self.understanding, self.vocabulary, self.titles
        )
        request = request_text(
            query.text,
            query.max_results,
            filters,
            reasons,
            first.results,
            exploration=exploration,
            unresolved_like=unresolved,
        )
        run_id = uuid.uuid4().hex
        try:
            run = self.agent.run(
                system=SYSTEM_PROMPT,
                request=request,
                tools=toolbox.tools(),
                max_tool_calls=self.max_tool_calls,
            )
        except Exception as error:  # noqa: BLE001 - the reader still gets the first results
            log.warning("search fallback failed", error=str(error), reasons=list(reasons))
            report = FallbackReport(
                reasons,
                self.agent.model_id,
                _calls(toolbox.records),
                latency_ms=elapsed_ms(started),
                first_ids=first_ids,
                error=f"{type(error).__name__}: {error}",
            )
            return replace(
                first,
                fallback=report,
                timings_ms={**first.timings_ms, "fallback_ms": report.latency_ms},
            )
        self._trace(run, request, run_id)
        chosen = self._compose(run.answer, toolbox.records, first.results, query.max_results)
        asked = sum(len(step.tool_calls) for step in run.steps)
        report = FallbackReport(
            reasons,
            run.model_id,
            _calls(toolbox.records),
            refused_calls=max(0, asked - len(toolbox.records)),
            latency_ms=elapsed_ms(started),
            first_ids=first_ids,
            answer=run.answer,
        )
        shown = [str(r.book.id) for r in chosen]
        ranked = first.ranked_ids
        if depth is not None:
            rest = [i for i in first.ranked_ids if i not in set(shown)]
            ranked = tuple(shown + rest)[: max(depth, len(shown))]
        nothing_fits = first.nothing_fits
        if (
            nothing_fits is not None
            and nothing_fits.title is None
            and unresolved is not None
            and any(r.name == "get_similar_books" and r.results for r in toolbox.records)
        ):
            # The misspelt X was read as a catalog book and its neighbours answer: the first
            # search's "nothing mentions 'gatsbi'" no longer describes the books shown.
            nothing_fits = None
        return replace(
            first,
            results=chosen,
            ranked_ids=ranked,
            fallback=report,
            timings_ms={**first.timings_ms, "fallback_ms": report.latency_ms},
            nothing_fits=nothing_fits,
        )

    def _compose(
        self,
        answer: str,
        records: Sequence[ToolRecord],
        first: Sequence[SearchResult],
        k: int,
    ) -> list[SearchResult]:
        """The agent's named books, then the tools' other books, then the first results."""
        found: dict[str, SearchResult] = {}
        for record in records:
            for result in record.results:
                found.setdefault(str(result.book.id), result)
        for result in first:
            found.setdefault(str(result.book.id), result)
        named = [i for i in dict.fromkeys(_BOOK_ID.findall(answer)) if i in found]
        interleaved = [
            str(r.book.id)
            for group in zip_longest(*(rec.results for rec in records))
            for r in group
            if r is not None
        ]
        group_of = self.search.retriever.lexical.group_of
        chosen: list[SearchResult] = []
        works: set[str] = set()
        for book_id in [*named, *interleaved, *(str(r.book.id) for r in first)]:
            work = group_of(book_id)
            if work in works:
                continue
            works.add(work)
            chosen.append(replace(found[book_id], rank=len(chosen) + 1))
            if len(chosen) == k:
                break
        return chosen

    def _trace(self, run: AgentRun, request: str, run_id: str) -> None:
        if self.tracer is None:
            return
        for number, step in enumerate(run.steps):
            calls: list[JSONValue] = [
                {"name": c.name, "arguments": dict(c.arguments)} for c in step.tool_calls
            ]
            self.tracer.record(
                LLMCallTrace(
                    trace_id=uuid.uuid4().hex,
                    time=self._clock(),
                    operation="search-fallback",
                    prompt_version=PROMPT_VERSION,
                    model=run.model_id,
                    temperature=None,
                    prompt_variables={"request": request} if number == 0 else {"step": number},
                    raw_response=step.text,
                    parsed_output={"tool_calls": calls},
                    parse_error=None,
                    latency_ms=step.latency_ms,
                    input_tokens=step.input_tokens,
                    output_tokens=step.output_tokens,
                    run_id=run_id,
                )
            )


def _calls(records: Sequence[ToolRecord]) -> tuple[FallbackToolCall, ...]:
    return tuple(
        FallbackToolCall(r.name, dict(r.arguments), len(r.results), r.error) for r in records
    )
