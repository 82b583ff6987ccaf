"""Book search: the shared retriever's candidates, filtered, one edition per work, diversified.

`BookSearchService` adds what books need to `HybridRetriever` (`hybrid_retrieval.py`, any
passages: books, BEIR abstracts, collection passages): the filters of `book_filters.py`, one
edition per work, known fits first, MMR, similar books, the shelf tail (`shelf_tail.py`),
readings and "nothing fits" (`readings.py`).
"""

from __future__ import annotations

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
from lectern.application.known_item import KnownItems
from lectern.application.ports import (
    BookCatalog,
    TitleMatcher,
)
from lectern.application.readings import Readings, nothing_fits, of_the_title
from lectern.application.shelf_tail import ShelfTail, names_only_shelves
from lectern.application.timing import elapsed_ms as _ms
from lectern.application.understanding import key_of
from lectern.domain.books import Book
from lectern.domain.fallback import FallbackReport
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
    FILTER_KINDS,
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
    subtract_phrases,
    without_request_framing,
    without_spans,
)
from lectern.errors import InvalidQueryError

MAX_RESULTS = 100
"""The most results one search returns; more is a request for the whole catalog."""
BOOK_CACHE_SIZE = 4_096
BOOK_CACHE_SECONDS = 60.0
SIMILAR_QUERY_WORDS = 80
"""Without vectors, similar books are found by BM25 on the book's first 80 words."""

_names_only_shelves = names_only_shelves
"""Its name before `shelf_tail.py`: bench/shelf_misses.py and test_shelf_tail.py import it."""


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


def _without_filter_words(text: str, plan: QueryPlan) -> str | None:
    """The query minus the spans a plan turned into filters or exclusions, cleaned."""
    if plan.original_query != text:
        return None
    spans = [(r.start, r.end) for r in plan.recognised if r.kind in FILTER_KINDS]
    if not spans:
        return None
    rest = without_spans(text, spans)
    try:
        return clean_query_text(rest) if rest.strip(" ,.;:!?") else ""
    except InvalidQueryError:
        return None


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
        known_items: KnownItems | None = None,
    ) -> None:
        """Indexes are loaded by bootstrap; this only combines them.

        `mmr_lambda` is the default of `search` (bootstrap passes LECTERN_MMR_LAMBDA);
        `shelf_tail` is LECTERN_SHELF_TAIL (`_shelf_holders`).
        `titles` reads the X of "books like X" by spelling: which books it may mean, and
        whether the catalog holds it at all (without it, neither is said).
        `known_items` puts the books a request names by title first (LECTERN_KNOWN_ITEM_FIRST;
        None leaves the ranking as fused).
        """
        self.catalog = catalog
        self.known_items = known_items
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
            and names_only_shelves(plan)
        )
        listed = hits
        if filters.has_page_limit:
            hits = listed = self._known_to_fit_first(hits)
            chosen = self._diversify_known_first(hits, k, mmr_lambda)
        elif plan is not None and shelf_first:
            # The first page is the one a ten-result search shows; the shelf orders the rest.
            chosen = self._diversify(hits, page, mmr_lambda)
            shelves = ShelfTail(self.retriever.lexical, self.filters, self.shelf_tail)
            listed = shelves.past_page(hits, chosen, wanted, plan, text, allowed)
            chosen = listed[:k]
        else:
            chosen = self._diversify(hits, k, mmr_lambda)
        titled = known = self._titled(query.text, hits, allowed)
        if not titled and plan is not None and not filters.has_page_limit:
            named_book = self._named_book(plan, allowed)
            titled = (named_book,) if named_book is not None else ()
        if titled:
            chosen, listed = self._titled_first(titled, chosen, listed, k)
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
        unknown = None if named else nothing_fits(text, results, self.retriever.lexical)
        like_readings, missing = self.like_readings(plan) if plan is not None else ((), None)
        if missing is not None:
            unknown = NothingFits(unknown.words if unknown else (), missing)
        readings = like_readings or (
            of_the_title(
                Readings(self.filters, self.titles).of_request(
                    query.text, hits, by_spelling=plan is not None
                ),
                known,
            )
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
            nothing_fits=unknown,
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

    def _titled(
        self, text: str, hits: Sequence[FusedHit], allowed: frozenset[str] | None
    ) -> tuple[str, ...]:
        """The books the whole request names by title (known-item search), within the filters.

        The exact title is a lookup; a near spelling is compared with the candidates' titles.
        """
        if self.known_items is None:
            return ()

        return tuple(
            book_id
            for book_id in self.known_items.named_by(text, lambda: (h.id for h in hits))
            if book_id in self.filters.all_ids and (allowed is None or book_id in allowed)
        )

    def _titled_first(
        self, book_ids: Sequence[str], chosen: list[FusedHit], listed: list[FusedHit], k: int
    ) -> tuple[list[FusedHit], list[FusedHit]]:
        """The named books' works first on the page and in the list, the rest in order.

        Among the named works the search's own order decides (the page's, then the list's);
        a named book the search did not retrieve follows them, in the order given (most read
        first). One entry per work, as everywhere, and that entry is a book of the title named.
        """
        group_of = self.retriever.lexical.group_of
        position: dict[str, tuple[int, FusedHit]] = {}
        for index, hit in enumerate([*chosen, *listed]):
            position.setdefault(group_of(hit.id), (index, hit))
        top = max((h.score for h in chosen), default=0.0)
        found: list[tuple[int, FusedHit]] = []
        missing: list[FusedHit] = []
        works: set[str] = set()
        for book_id in book_ids:
            work = group_of(book_id)
            if work in works:
                continue
            works.add(work)
            if work in position:
                index, hit = position[work]
                if hit.id not in book_ids:
                    # The work's best-scored edition is not the title typed ("The Hunger
                    # Games Trilogy Boxset" for "the hunger games"): show the book named.
                    hit = FusedHit(book_id, hit.score, {"title": 1}, {})
                found.append((index, hit))
            else:
                missing.append(FusedHit(book_id, top, {"title": 1}, {}))
        first = [hit for _, hit in sorted(found, key=lambda pair: pair[0])] + missing
        chosen = [*first, *(h for h in chosen if group_of(h.id) not in works)][:k]
        listed = [*first, *(h for h in listed if group_of(h.id) not in works)]
        return chosen, listed

    def like_readings(
        self, plan: QueryPlan, titles: TitleMatcher | None = None
    ) -> tuple[tuple[Reading, ...], str | None]:
        """Which books the X of "books like X" may mean, and X when the catalog lacks it.

        `Readings.of_like` (`readings.py`) with `titles` standing in for the service's own
        matcher; with neither, nothing is said.
        """
        return Readings(self.filters, titles or self.titles).of_like(plan)

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
