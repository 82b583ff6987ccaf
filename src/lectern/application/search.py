"""Book search: the shared retriever's candidates, filtered, one edition per work, diversified.

`BookSearchService` adds what books need to `HybridRetriever` (`hybrid_retrieval.py`, any
passages: books, BEIR abstracts, collection passages): the filters of `book_filters.py`, one
edition per work, known fits first, MMR, similar books, readings and "nothing fits".
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import EllipsisType

from cachetools import TTLCache

from lectern.application.book_filters import BookFilterIndex
from lectern.application.explanations import ExplanationService
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.ports import (
    BookCatalog,
    TitleMatcher,
)
from lectern.application.timing import elapsed_ms as _ms
from lectern.application.understanding import key_of
from lectern.domain.answering_words import STOP_WORDS
from lectern.domain.books import Book
from lectern.domain.exclusions import (
    name_words,
)
from lectern.domain.fallback import FallbackReport, unresolved_like
from lectern.domain.normalize import (
    fold,
    singular,
)
from lectern.domain.passages import book_passage
from lectern.domain.retrieval import (
    DEFAULT_MMR_LAMBDA,
    DEFAULT_STRATEGY,
    FusedHit,
    ScoredId,
    Strategy,
)
from lectern.domain.search import (
    DEFAULT_RESULTS,
    EXACT_TITLE_SIMILARITY,
    MAX_READINGS,
    NEAR_TITLE_SIMILARITY,
    NothingFits,
    QueryPlan,
    Reading,
    ResultSource,
    SearchFilters,
    SearchQuery,
    SearchResult,
    clean_query_text,
    merge_filters,
    phrase_key,
    reading_title,
    reading_words,
    subtract_phrases,
    without_request_framing,
)
from lectern.errors import InvalidQueryError

MAX_RESULTS = 100
"""The most results one search returns; more is a request for the whole catalog."""
BOOK_CACHE_SIZE = 4_096
BOOK_CACHE_SECONDS = 60.0
MIN_UNKNOWN_WORD = 4
"""Shorter words are not checked against the catalog's vocabulary ("nothing fits")."""
READING_CANDIDATES = 50
"""Candidates an ambiguous request's readings are chosen from."""
SIMILAR_QUERY_WORDS = 80
"""Without vectors, similar books are found by BM25 on the book's first 80 words."""


@dataclass(frozen=True, slots=True)
class SearchResponse:
    """Ranked results and whether the vector side took part."""

    results: list[SearchResult]
    degraded: bool
    degraded_reason: str | None
    timings_ms: dict[str, float]
    strategy: Strategy
    mmr_lambda: float | None
    ranked_ids: tuple[str, ...] = ()
    """With `depth`: the ids of the first `depth` works, the shown ones first (evaluation)."""
    plan: QueryPlan | None = None
    """The plan the search ran with, so readers see what was understood."""
    candidates: Mapping[str, int] = field(default_factory=dict)
    """Fused candidates each method found (`lexical`, `vector`), before one edition per work."""
    fallback: FallbackReport | None = None
    """With `search_with_fallback`: whether the fallback agent ran, why, and what it did."""
    nothing_fits: NothingFits | None = None
    """Set when words of the request occur in no catalog book: the results are the nearest."""
    readings: tuple[Reading, ...] = ()
    """Two or three books a short, ambiguous request may mean ("Dune", "the hunger one")."""


FILTER_KINDS = frozenset({"language", "years", "pages", "audience", "exclude"})
"""Recognised spans that became filters: not searched for."""


def _without_filter_words(text: str, plan: QueryPlan) -> str | None:
    """The query minus the spans a plan turned into filters or exclusions, cleaned."""
    if plan.original_query != text:
        return None
    spans = sorted((r.start, r.end) for r in plan.recognised if r.kind in FILTER_KINDS)
    if not spans:
        return None
    kept, position = [], 0
    for start, end in spans:
        kept.append(text[position:start])
        position = max(position, end)
    kept.append(text[position:])
    rest = " ".join("".join(kept).split())
    try:
        return clean_query_text(rest) if rest.strip(" ,.;:!?") else ""
    except InvalidQueryError:
        return None


_FRAME_WORDS = frozenset({"book", "books", "novel", "novels", "story", "stories", "read", "reads"})
"""Words that name what every catalog item is, not a subject (left over from a frame)."""


def _names_only_shelves(plan: QueryPlan) -> bool:
    """True when the request's words, past a frame and stop words, all name its shelves.

    "books about time travel", "epic fantasy with dragons": the reader asks for what is on
    those shelves. "a cozy mystery in a small english village" asks for more than its shelf.
    Words that became filters ("in Spanish", "under 300 pages") do not count.
    """
    if not plan.categories:
        return False
    kinds = FILTER_KINDS | {"category"}
    text = plan.original_query
    spans = sorted((r.start, r.end) for r in plan.recognised if r.kind in kinds and r.end)
    kept, position = [], 0
    for start, end in spans:
        kept.append(text[position:start])
        position = max(position, end)
    kept.append(text[position:])
    rest = " ".join("".join(kept).split())
    rest = without_request_framing(rest) if rest else rest
    words = re.findall(r"\w+", fold(rest))
    return not [w for w in words if w not in STOP_WORDS and w not in _FRAME_WORDS]


def _candidates(hits: Sequence[FusedHit]) -> dict[str, int]:
    """How many fused candidates each method (any variation) found."""
    counts = {"lexical": 0, "vector": 0}
    for hit in hits:
        for method in {key.split(":")[0] for key in hit.ranks}:
            if method in counts:
                counts[method] += 1
    return counts


def _check_k(k: int) -> None:
    if not 1 <= k <= MAX_RESULTS:
        raise InvalidQueryError(
            f"the number of results must be between 1 and {MAX_RESULTS}, not {k}"
        )


class BookSearchService:
    """Search the catalog: query to books, and book to similar books."""

    def __init__(
        self,
        catalog: BookCatalog,
        retriever: HybridRetriever,
        filters: BookFilterIndex,
        *,
        explainer: ExplanationService | None = None,
        explain_top: int = 5,
        mmr_lambda: float | None = DEFAULT_MMR_LAMBDA,
        shelf_tail: int = 0,
        titles: TitleMatcher | None = None,
    ) -> None:
        """Indexes are loaded by bootstrap; this only combines them.

        `mmr_lambda` is the default of `search` (bootstrap passes LECTERN_MMR_LAMBDA);
        `shelf_tail` is LECTERN_SHELF_TAIL (`_shelf_holders`).
        `titles` reads the X of "books like X" by spelling: which books it may mean, and
        whether the catalog holds it at all (without it, neither is said).
        """
        self.catalog = catalog
        self.titles = titles
        self.mmr_lambda = mmr_lambda
        self.shelf_tail = shelf_tail
        self.retriever = retriever
        self.filters = filters
        self.explainer = explainer
        self.explain_top = explain_top
        # Loading 10 books with their authors and categories is a third of a search's CPU.
        # Entries expire, so a re-ingest shows within BOOK_CACHE_SECONDS without a restart.
        self._book_cache: TTLCache[str, Book] = TTLCache(BOOK_CACHE_SIZE, BOOK_CACHE_SECONDS)
        self._book_lock = threading.Lock()

    def search(
        self,
        query: SearchQuery,
        *,
        strategy: Strategy = DEFAULT_STRATEGY,
        mmr_lambda: float | None | EllipsisType = ...,
        plan: QueryPlan | None = None,
        depth: int | None = None,
    ) -> SearchResponse:
        """Ranked, filtered books, one edition per work, diversified by MMR when asked.

        `mmr_lambda`: omitted (`...`) takes the service's default; None keeps fused order.
        With `depth`, the response also lists the ids of the first `depth` works: the shown
        results in their order, then the rest in fused order (what Recall@depth needs).
        """
        started = time.perf_counter()
        _check_k(query.max_results)
        if mmr_lambda is ...:
            mmr_lambda = self.mmr_lambda
        if mmr_lambda is not None and not 0.0 <= mmr_lambda <= 1.0:
            raise InvalidQueryError(f"MMR lambda must be between 0 and 1, not {mmr_lambda}")
        text = clean_query_text(query.text)
        filters = query.filters
        planned: list[str] = []
        seeds: list[str] = []
        like_alone = False
        if plan is not None:
            filters = merge_filters(query.filters, plan.filters)
            # Words that became filters ("Spanish", "after 2005", "not by King", "short")
            # would only pull in books that mention them; the filters hold results to them.
            stripped = _without_filter_words(query.text, plan)
            text = text if stripped is None else stripped
            # "Books like X": X's own title would pull in books about X (companions,
            # guides); its neighbours and the plan's words stand in for the text.
            like_alone = plan.like_book_id is not None and bool(plan.variations)
            planned = list(plan.variations)
            strategy = plan.strategy
            if plan.like_book_id is not None:
                seeds.append(plan.like_book_id)
        if plan is None or not any(r.kind == "title" for r in plan.recognised):
            text = without_request_framing(text)
        text, variations = self._without_excluded(
            text, planned, filters, like_alone, clean_query_text(query.text)
        )
        start = time.perf_counter()
        allowed = self.filters.allowed(filters)
        filter_ms = _ms(start)
        # `depth` never widens the candidate pool: the top results an evaluation scores must
        # be the ones a reader gets, and Recall@depth measures the pool the product uses.
        shelf_weights = self.retriever.config.shelf_weights
        on_shelves = plan is not None and bool(plan.categories) and not seeds
        retrieval = self.retriever.retrieve(
            variations,
            strategy,
            allowed,
            seeds=seeds,
            method_weights=shelf_weights if on_shelves else None,
        )
        start = time.perf_counter()
        hits = self._one_per_work(retrieval.hits, exclude=seeds)
        if plan is not None and plan.like_title:
            hits = self._not_about(hits, plan.like_title, query.max_results)
        k = query.max_results
        page = min(k, DEFAULT_RESULTS)
        wanted = max(k, depth or 0)
        shelf_first = (
            plan is not None
            and on_shelves
            and bool(self.shelf_tail)
            and not filters.has_page_limit
            and wanted > page
            and _names_only_shelves(plan)
        )
        listed = hits
        if filters.has_page_limit:
            hits = listed = self._known_to_fit_first(hits)
            chosen = self._diversify_known_first(hits, k, mmr_lambda)
        elif plan is not None and shelf_first:
            # The first page is the one a ten-result search shows; the shelf orders the rest.
            chosen = self._diversify(hits, page, mmr_lambda)
            listed = self._shelf_first_past_page(hits, chosen, wanted, plan, text, allowed)
            chosen = listed[:k]
        else:
            chosen = self._diversify(hits, k, mmr_lambda)
        named_book = (
            self._named_book(plan, allowed)
            if plan is not None and not filters.has_page_limit
            else None
        )
        if named_book is not None:
            chosen, listed = self._named_book_first(named_book, chosen, listed, k)
        ranked: tuple[str, ...] = ()
        if depth is not None:
            shown = {h.id for h in chosen}
            ranked = tuple([h.id for h in chosen] + [h.id for h in listed if h.id not in shown])
            ranked = ranked[: max(depth, len(chosen))]
        rerank_ms = _ms(start)
        start = time.perf_counter()
        results = self._results(chosen)
        load_ms = _ms(start)
        named = plan is not None and any(
            r.kind in ("title", "author", "like") for r in plan.recognised
        )
        nothing_fits = None if named else self._nothing_fits(text, results)
        like_readings, missing = self.like_readings(plan) if plan is not None else ((), None)
        if missing is not None:
            nothing_fits = NothingFits(nothing_fits.words if nothing_fits else (), missing)
        readings = like_readings or (
            self._readings(query.text, hits, by_spelling=plan is not None)
            if not filters.has_page_limit
            else ()
        )
        timings = {
            "filter_ms": filter_ms,
            **retrieval.timings_ms,
            "rerank_ms": rerank_ms,
            "load_ms": load_ms,
            "retrieval_ms": _ms(started),
        }
        if query.use_explanations:
            if self.explainer is None:
                raise InvalidQueryError("explanations are not configured for this search")
            # A result is explained by everything it was searched for: the reader's words and
            # the plan's variations ("books like X" is searched by X's shelves, "Liebesroman"
            # by "romance"); the reader's words alone left books found by a translation
            # without a word to quote.
            explained = " ".join(dict.fromkeys([text, *variations]))
            results, report = self.explainer.explain_results(
                explained,
                results,
                min(self.explain_top, query.max_results),
                run_id=uuid.uuid4().hex,
                excluded_shelves=self._excluded_shelves(filters),
                excluded_authors=filters.exclude_authors,
            )
            timings["explain_ms"] = report.milliseconds
        return SearchResponse(
            results,
            retrieval.degraded,
            retrieval.degraded_reason,
            timings,
            strategy,
            mmr_lambda if self.retriever.has_vectors else None,
            ranked,
            plan,
            candidates=_candidates(retrieval.hits),
            nothing_fits=nothing_fits,
            readings=readings,
        )

    def _without_excluded(
        self,
        text: str,
        planned: Sequence[str],
        filters: SearchFilters,
        like_alone: bool,
        original: str,
    ) -> tuple[str, list[str]]:
        """The text and variations to search, without a word of anything excluded.

        Excluded shelves, authors and titles are cut from the reader's words and from every
        variation (a model's plan may put them back); youth shelves, when excluded, from the
        variations the plan wrote ("young adult" among X's shelves), not from the reader's
        own words ("a novel about children"). What is left is searched, then filtered.
        """
        names = {
            phrase_key(n)
            for n in (
                *filters.exclude_categories,
                *filters.exclude_authors,
                *filters.exclude_titles,
            )
        } - {()}
        youth = self.filters.youth_phrases if filters.exclude_youth else frozenset()
        text = subtract_phrases(text, names)
        variations = [] if like_alone or not text else [text]
        seen = {v.casefold() for v in variations}
        for variation in planned:
            kept = subtract_phrases(subtract_phrases(variation, names), youth).strip()
            if kept and kept.casefold() not in seen:
                seen.add(kept.casefold())
                variations.append(clean_query_text(kept))
        if not variations:  # every word was a filter ("nothing by Stephen King")
            variations = [subtract_phrases(original, names) or original]
        return text or variations[0], variations

    def _shelf_first_past_page(
        self,
        hits: list[FusedHit],
        chosen: list[FusedHit],
        wanted: int,
        plan: QueryPlan,
        text: str,
        allowed: frozenset[str] | None,
    ) -> list[FusedHit]:
        """The first page, then the named shelves' books, then the other candidates.

        "books about time travel" asks for what is on the catalog's time-travel shelf, as a
        catalog's subject facet lists it. Past the first page (`chosen`, unchanged): the
        candidates on every named shelf in candidate order, then the shelves' other books
        (`_shelf_holders`, at most `shelf_tail` in all), then the other candidates; `wanted`
        places are filled, so no shelf book is looked up when the candidates on it fill them.
        A broad shelf (more works than places: "dystopia", "young adult") gives its best
        matched candidates half the places and its most read books the rest
        (`_most_read`): its candidates alone are the books that say its name most often.
        Places still left go the same way to a compound shelf read as its parts ("ya
        paranormal": the books on both "young adult" and "paranormal"; `_shelf_tiers`).
        """
        group_of = self.retriever.lexical.group_of
        listed = list(chosen)
        taken = {group_of(h.id) for h in chosen}
        shown = {h.id for h in chosen}
        rest = [h for h in hits if h.id not in shown]
        later: list[FusedHit] = []
        budget = self.shelf_tail
        floor = min((h.score for h in hits), default=0.0)
        for shelf in self._shelf_tiers(plan.categories, allowed):
            places = min(budget, wanted - len(listed))
            works = {group_of(i) for i in shelf}
            on = [h for h in rest if group_of(h.id) in works]
            rest = [h for h in rest if group_of(h.id) not in works]
            if len(works - taken) > places > 0:
                matched = on[: places // 2]
                taken |= {group_of(h.id) for h in matched}
                read = self._most_read(shelf, taken, places - len(matched), floor)
                found = {h.id for h in read}
                listed += [*matched, *read]
                later += [h for h in on[places // 2 :] if h.id not in found]
                budget -= len(read)
                continue
            listed += on
            taken |= {group_of(h.id) for h in on}
            room = min(budget, wanted - len(listed))
            if room <= 0:
                continue
            others = self._shelf_holders(
                shelf, text, taken | {group_of(h.id) for h in hits}, room, floor
            )
            listed += others
            taken |= {group_of(h.id) for h in others}
            budget -= len(others)
        return [*listed, *later, *rest]

    def _named_book(self, plan: QueryPlan, allowed: frozenset[str] | None) -> str | None:
        """The book a request that is a catalog title names: the most read of that title.

        "Dune" is Herbert's novel, not the eight books with "Dune" in their titles that
        outscore it on the word; the planner read the request as the title, and the title
        matcher lists the books of that exact title, most read first.
        """
        titles = [r.value for r in plan.recognised if r.kind == "title"]
        if len(titles) != 1 or self.titles is None:
            return None
        wanted = key_of(titles[0])
        for book_id in self.titles.spelt_like(titles[0], EXACT_TITLE_SIMILARITY):
            named = self.filters.title_of(book_id)
            if named is not None and key_of(named[0]) == wanted:
                return book_id if allowed is None or book_id in allowed else None
        return None

    def _named_book_first(
        self, book_id: str, chosen: list[FusedHit], listed: list[FusedHit], k: int
    ) -> tuple[list[FusedHit], list[FusedHit]]:
        """The named book's work first on the page and in the list, the rest in order."""
        group_of = self.retriever.lexical.group_of
        work = group_of(book_id)
        found = next((h for h in [*chosen, *listed] if group_of(h.id) == work), None)
        top = max((h.score for h in chosen), default=0.0)
        first = found or FusedHit(book_id, top, {"title": 1}, {})
        chosen = [first, *(h for h in chosen if group_of(h.id) != work)][:k]
        listed = [first, *(h for h in listed if group_of(h.id) != work)]
        return chosen, listed

    def _shelf_tiers(
        self, shelves: Sequence[str], allowed: frozenset[str] | None
    ) -> list[frozenset[str]]:
        """The books on the named shelves, then those on their parts when they are compounds.

        A compound ("ya paranormal", "murder mystery") is read as the catalog shelves its
        words name (`BookFilterIndex.parts_of`): a reader's compound shelf is often kept
        by the catalog on few books, while its parts hold the rest.
        """
        tiers = [self.filters.holders_of(shelves)]
        parts = [self.filters.parts_of(name) for name in shelves]
        if parts and all(parts):
            held = [self.filters.holders_of(p) for p in parts if p]
            tiers.append(frozenset.intersection(*held) - tiers[0])
        if allowed is not None:
            tiers = [t & allowed for t in tiers]
        return [t for t in tiers if t]

    def _most_read(
        self, holders: frozenset[str], taken: set[str], count: int, score: float
    ) -> list[FusedHit]:
        """Up to `count` works of these books outside `taken`, most ratings first."""
        popularity = self.filters.popularity_of
        ordered = sorted(holders, key=lambda i: (-popularity(i), i))
        tail: list[FusedHit] = []
        for book_id in ordered:
            work = self.retriever.lexical.group_of(book_id)
            if work in taken:
                continue
            taken.add(work)
            tail.append(FusedHit(book_id, score, {"shelf": len(tail) + 1}, {}))
            if len(tail) == count:
                break
        return tail

    def _shelf_holders(
        self, holders: frozenset[str], text: str, taken: set[str], count: int, score: float
    ) -> list[FusedHit]:
        """Up to `count` works of these books outside `taken`, best matched first.

        Ordered by BM25 over the searched words among these books, then by ratings count
        (what the books say, then how widely they are read; never an evaluation's grades).
        """
        if not holders:
            return []
        matched = self.retriever.lexical.search(text, len(holders), holders)
        scores = {h.id: h.score for h in matched}
        unmatched = sorted(
            holders - scores.keys(), key=lambda i: (-self.filters.popularity_of(i), i)
        )
        tail: list[FusedHit] = []
        for book_id in [*(h.id for h in matched), *unmatched]:
            work = self.retriever.lexical.group_of(book_id)
            if work in taken:
                continue
            taken.add(work)
            ranks = {"shelf": len(tail) + 1}
            tail.append(FusedHit(book_id, score, ranks, {"shelf": scores.get(book_id, 0.0)}))
            if len(tail) == count:
                break
        return tail

    def _nothing_fits(self, text: str, results: Sequence[SearchResult]) -> NothingFits | None:
        """The request's words that no catalog book uses, when there are any.

        A word is looked up in the lexical index only when no shown book has it, so a search
        whose results carry every word costs nothing more. Words under four letters, stop
        words and numbers are not looked for.
        """
        words = [
            w
            for w in dict.fromkeys(re.findall(r"\w+", fold(text)))
            if len(w) >= MIN_UNKNOWN_WORD and w not in STOP_WORDS and not w.isdigit()
        ]
        if not words or not results:
            return None
        shown: set[str] = set()
        for result in results:
            book = result.book
            fields = [book.title, *book.authors, *book.categories, book.description or ""]
            for value in fields:
                shown.update(singular(w) for w in re.findall(r"\w+", fold(value)))
        unknown = tuple(
            w for w in words if singular(w) not in shown and not self.retriever.lexical.search(w, 1)
        )
        return NothingFits(unknown) if unknown else None

    def _readings(
        self, text: str, hits: Sequence[FusedHit], *, by_spelling: bool
    ) -> tuple[Reading, ...]:
        """Two or three books a bare, short title may mean, by different first authors.

        First the titles that are the request or start with it, most read first
        (with a title matcher: "the hunger one" is The Hunger Games before its companions,
        "Dune" Herbert's novel before his son's); then the candidates in fused order whose
        title or series holds every word of the request. One per first author; fewer than
        two authors: no question. Titles by spelling are read only for a planned search
        (`by_spelling`): the matcher needs the catalog's vocabulary, which planning has
        loaded and a plain search never waits for.
        """
        words = reading_words(text)
        if not words:
            return ()
        by_title = (
            self.titles.spelt_like(reading_title(text), EXACT_TITLE_SIMILARITY)
            if self.titles is not None and by_spelling
            else ()
        )
        holding: list[str] = []
        for hit in hits[:READING_CANDIDATES]:
            named = self.filters.title_of(hit.id)
            if named is not None and set(words) <= {
                *name_words(named[0]),
                *name_words(named[1] or ""),
            }:
                holding.append(hit.id)
        readings = self._by_authors([*by_title, *holding])
        return readings if len(readings) >= 2 else ()

    def like_readings(
        self, plan: QueryPlan, titles: TitleMatcher | None = None
    ) -> tuple[tuple[Reading, ...], str | None]:
        """Which books the X of "books like X" may mean, and X when the catalog lacks it.

        A found X whose exact title other authors' books share ("Hunger": Hamsun's, Gay's)
        offers them, the planned one first. An X the planner did not find is read by
        spelling: titles within two slips are offered ("did you mean"); when none is within
        one slip, X is not in the catalog and the results are only the nearest it has.
        `titles` stands in for the service's own matcher; with neither, nothing is said.
        """
        matcher = titles or self.titles
        if matcher is None:
            return (), None
        if plan.like_title is not None:
            wanted = key_of(plan.like_title)
            ids = [
                i
                for i in matcher.spelt_like(plan.like_title, EXACT_TITLE_SIMILARITY)
                if (named := self.filters.title_of(i)) is not None and key_of(named[0]) == wanted
            ]
            first = [plan.like_book_id] if plan.like_book_id else []
            readings = self._by_authors([*first, *ids])
            return (readings if len(readings) >= 2 else ()), None
        title = unresolved_like(plan.notes)
        if title is None:
            return (), None
        readings = self._by_authors(matcher.spelt_like(title, NEAR_TITLE_SIMILARITY))
        return readings, None if matcher.closest(title) is not None else title

    def _by_authors(self, ids: Sequence[str]) -> tuple[Reading, ...]:
        """The first book of each first author among `ids`, in order, at most three."""
        readings: list[Reading] = []
        authors: set[str] = set()
        for book_id in ids:
            named = self.filters.title_of(book_id)
            author = self.filters.first_author_of(book_id)
            if named is None or fold(author or "") in authors:
                continue
            authors.add(fold(author or ""))
            readings.append(Reading(book_id, named[0], author))
            if len(readings) == MAX_READINGS:
                break
        return tuple(readings)

    def _excluded_shelves(self, filters: SearchFilters) -> tuple[str, ...]:
        """Every catalog shelf the filters rule out (explanations must not cite them)."""
        shelves = [
            s for name in filters.exclude_categories for s in self.filters.shelves_excluded_by(name)
        ]
        if filters.exclude_youth:
            shelves += self.filters.youth_shelves
        return tuple(dict.fromkeys(shelves))

    def _known_to_fit_first(self, hits: Sequence[FusedHit]) -> list[FusedHit]:
        """Books known to fit a page limit first, then those of unknown length, in order.

        A known page count fits, since the filter kept the book.
        """
        known = [h for h in hits if self.filters.pages_of(h.id) is not None]
        return known + [h for h in hits if self.filters.pages_of(h.id) is None]

    def similar(self, book_id: uuid.UUID, k: int = DEFAULT_RESULTS) -> SearchResponse:
        """Books nearest to this one by embedding, never itself or another of its editions."""
        started = time.perf_counter()
        _check_k(k)
        key = str(book_id)
        vector_index = self.retriever.vector
        if vector_index is None:
            return self._similar_by_words(book_id, k, started)
        vector = vector_index.vector_of(key)
        if vector is None:
            raise InvalidQueryError(
                f"book {book_id} is not in the vector index: run `lectern index`"
            )
        found = vector_index.search(vector, k * 3 + 10)
        hits = self._others(key, found, "vector", k)
        return SearchResponse(
            self._results(hits), False, None, {"retrieval_ms": _ms(started)}, "vector_heavy", None
        )

    def _similar_by_words(self, book_id: uuid.UUID, k: int, started: float) -> SearchResponse:
        """Degraded similar books: BM25 with the book's own title, categories and blurb."""
        books = self.catalog.get_many([book_id])
        if not books:
            raise InvalidQueryError(f"no book with id {book_id} in the catalog")
        words = book_passage(books[0]).text.split()[:SIMILAR_QUERY_WORDS]
        found = self.retriever.lexical.search(" ".join(words), k * 3 + 10)
        hits = self._others(str(book_id), found, "lexical", k)
        return SearchResponse(
            self._results(hits),
            True,
            self.retriever.unavailable_reason,
            {"retrieval_ms": _ms(started)},
            "lexical_heavy",
            None,
        )

    def _others(self, key: str, found: Sequence[ScoredId], method: str, k: int) -> list[FusedHit]:
        """Up to k hits that are neither the book nor another edition of it, one per work."""
        seen = {self.retriever.lexical.group_of(key)}
        hits: list[FusedHit] = []
        for hit in found:
            hit_group = self.retriever.lexical.group_of(hit.id)
            if hit.id == key or hit_group in seen:
                continue
            seen.add(hit_group)
            hits.append(FusedHit(hit.id, hit.score, {method: len(hits) + 1}, {method: hit.score}))
            if len(hits) == k:
                break
        return hits

    def _one_per_work(
        self, hits: Sequence[FusedHit], exclude: Sequence[str] = ()
    ) -> list[FusedHit]:
        """The best hit of each work; works of `exclude` (the X of "like X") are left out."""
        seen: set[str] = {self.retriever.lexical.group_of(i) for i in exclude}
        kept = []
        for hit in hits:
            group = self.retriever.lexical.group_of(hit.id)
            if group not in seen:
                seen.add(group)
                kept.append(hit)
        return kept

    def _not_about(self, hits: list[FusedHit], title: str, k: int) -> list[FusedHit]:
        """Hits whose title does not contain X's title ("The World of the Hunger Games").

        Only the candidates MMR and the page can use are checked (their books are loaded,
        and cached, anyway); the rest of the list is kept as it is.
        """
        head = max(k, self.retriever.config.mmr_candidates) * 2
        wanted = " ".join(title.casefold().split())
        books = self._books([h.id for h in hits[:head]])
        kept = [
            h
            for h in hits[:head]
            if h.id not in books or wanted not in " ".join(books[h.id].title.casefold().split())
        ]
        return kept + hits[head:]

    def _diversify(self, hits: list[FusedHit], k: int, mmr_lambda: float | None) -> list[FusedHit]:
        return self.retriever.diversify(hits, k, mmr_lambda)

    def _diversify_known_first(
        self, hits: list[FusedHit], k: int, mmr_lambda: float | None
    ) -> list[FusedHit]:
        """MMR among the books known to fit, then among the rest for the places left.

        MMR reads fused scores, not positions: over one pool it would let a well-scored book
        of unknown length take the place of a weaker known fit. Choosing within each part
        keeps every known fit above every unknown, at any k.
        """
        known = [h for h in hits if self.filters.pages_of(h.id) is not None]
        unknown = [h for h in hits if self.filters.pages_of(h.id) is None]
        chosen = self._diversify(known, k, mmr_lambda) if known else []
        if len(chosen) < k and unknown:
            chosen += self._diversify(unknown, k - len(chosen), mmr_lambda)
        return chosen

    def _books(self, ids: Sequence[str]) -> dict[str, Book]:
        """Books by id: recently shown ones from memory, the rest in one catalog query."""
        with self._book_lock:
            books = {i: self._book_cache[i] for i in ids if i in self._book_cache}
        missing = [uuid.UUID(i) for i in ids if i not in books]
        if missing:
            loaded = self.catalog.get_many(missing)
            with self._book_lock:
                for book in loaded:
                    key = str(book.id)
                    books[key] = self._book_cache[key] = book
        return books

    def _results(self, hits: Sequence[FusedHit]) -> list[SearchResult]:
        books = self._books([h.id for h in hits])
        results: list[SearchResult] = []
        for hit in hits:
            book = books.get(hit.id)
            if book is None:
                continue  # indexed but since removed from the catalog
            methods = {m.split(":")[0] for m in hit.ranks}
            source: ResultSource = (
                "hybrid" if len(methods) > 1 else ("vector" if "vector" in methods else "lexical")
            )
            results.append(
                SearchResult(
                    book=book,
                    final_score=hit.score,
                    rank=len(results) + 1,
                    source=source,
                    lexical_score=hit.scores.get("lexical"),
                    vector_score=hit.scores.get("vector"),
                    lexical_rank=hit.ranks.get("lexical"),
                    vector_rank=hit.ranks.get("vector"),
                )
            )
        return results
