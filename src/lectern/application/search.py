"""Hybrid search: BM25 + vectors fused by RRF, filtered, de-duplicated, diversified.

`HybridRetriever` works on any passages (books, BEIR abstracts, knowledge-base files).
`BookSearchService` adds what books need: filters, one edition per work, MMR, similar books.
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Mapping, Sequence, Set
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import EllipsisType

from cachetools import TTLCache

from lectern.application.explanations import ExplanationService
from lectern.application.ports import (
    BookCatalog,
    BookFacts,
    Embedder,
    LexicalIndex,
    Vector,
    VectorIndex,
)
from lectern.domain.answering_words import STOP_WORDS
from lectern.domain.books import Book
from lectern.domain.exclusions import (
    author_words,
    name_words,
    shelf_excluded,
    title_excluded,
    title_key,
)
from lectern.domain.fallback import FallbackReport
from lectern.domain.normalize import (
    fold,
    is_youth_shelf,
    normalize_category,
    normalize_language,
    singular,
)
from lectern.domain.passages import book_passage
from lectern.domain.retrieval import (
    DEFAULT_MMR_LAMBDA,
    DEFAULT_STRATEGY,
    FusedHit,
    FusionMethod,
    ScoredId,
    Strategy,
    convex_fusion,
    maximal_marginal_relevance,
    pool_sizes,
    reciprocal_rank_fusion,
)
from lectern.domain.search import (
    DEFAULT_RESULTS,
    MAX_READINGS,
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
    reading_words,
    subtract_phrases,
    without_request_framing,
)
from lectern.errors import InvalidQueryError

MAX_RESULTS = 100
"""The most results one search returns; more is a request for the whole catalog."""
BOOK_CACHE_SIZE = 4_096
BOOK_CACHE_SECONDS = 60.0
FILTER_CACHE = 128
"""Distinct filters whose allowed ids are kept (LRU)."""
MIN_UNKNOWN_WORD = 4
"""Shorter words are not checked against the catalog's vocabulary ("nothing fits")."""
READING_CANDIDATES = 50
"""Candidates an ambiguous request's readings are chosen from."""
SIMILAR_QUERY_WORDS = 80
"""Without vectors, similar books are found by BM25 on the book's first 80 words."""


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """Tunable knobs of retrieval; defaults follow DESIGN.md section 4."""

    rrf_k: int = 60
    fusion: FusionMethod = "rrf"
    weights: Mapping[str, float] = field(default_factory=lambda: {"lexical": 1.0, "vector": 1.0})
    """Per-method weights: RRF multipliers, or convex-combination weights."""
    candidate_pool: int = 100
    """Candidates per variation, split between methods by the strategy."""
    mmr_candidates: int = 50
    """How many fused candidates MMR chooses from."""
    lexical_enabled: bool = True
    """False: vector-only retrieval (BM25 still answers when the vector side cannot)."""
    shelf_weights: Mapping[str, float] | None = None
    """Weights for a request the plan read as naming catalog shelves (None: `weights`).

    A shelf's words are in its books' lexical text (readers' shelves are the categories),
    where the embedding of a short subject is blurrier, so such requests may lean on BM25."""
    lexical_tail: int = 0
    """BM25 candidates past the fused pool, appended after every fused one in BM25 order.

    They deepen the list (Recall@100, a second page) without entering fusion, so the fused
    scores, MMR and the first page stay what the pool alone gives."""


@dataclass(frozen=True, slots=True)
class Retrieval:
    """Fused candidates and how they were obtained."""

    hits: list[FusedHit]
    degraded: bool
    degraded_reason: str | None
    timings_ms: dict[str, float]


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


def _tail(
    hits: Sequence[FusedHit], tails: Mapping[str, Sequence[ScoredId]], depth: int
) -> list[FusedHit]:
    """Candidates only past the pool, below every fused hit, the first variation's first.

    `depth` is how many each ranking had in the pool: a tail's ranks continue from there.
    """
    seen = {h.id for h in hits}
    floor = min((h.score for h in hits), default=0.0)
    extra: list[FusedHit] = []
    for name, ranking in tails.items():
        for position, hit in enumerate(ranking, start=1):
            if hit.id not in seen:
                seen.add(hit.id)
                rank = {name: depth + position}
                extra.append(FusedHit(hit.id, floor, rank, {name: hit.score}))
    return extra


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


class HybridRetriever:
    """Lexical and vector candidates for each query variation, fused into one list."""

    def __init__(
        self,
        lexical: LexicalIndex,
        vector: VectorIndex | None,
        embedder: Embedder | None,
        config: SearchConfig | None = None,
        *,
        unavailable_reason: str | None = None,
    ) -> None:
        """Without a vector index or embedder the retriever answers from BM25 alone."""
        self.lexical = lexical
        self.vector = vector if embedder is not None else None
        self.embedder = embedder if vector is not None else None
        self.config = config or SearchConfig()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed")
        self.unavailable_reason = unavailable_reason or (
            None if self.vector is not None else "the vector index or embedder is not available"
        )

    def _embed(self, texts: Sequence[str]) -> tuple[list[Vector], float]:
        """Vectors of the texts, and the milliseconds it took."""
        assert self.embedder is not None
        start = time.perf_counter()
        vectors = self.embedder.embed(list(texts))
        return vectors, _ms(start)

    @property
    def has_vectors(self) -> bool:
        """True when the vector side can answer."""
        return self.vector is not None

    def retrieve(
        self,
        variations: Sequence[str],
        strategy: Strategy = DEFAULT_STRATEGY,
        allowed: Set[str] | None = None,
        *,
        pool: int | None = None,
        seeds: Sequence[str] = (),
        method_weights: Mapping[str, float] | None = None,
    ) -> Retrieval:
        """Fuse lexical and vector rankings of every variation (RRF across all of them).

        `seeds` are passage ids whose stored vectors are searched too ("books like X"):
        one more vector ranking each, fused with the rest. `method_weights` replace the
        configured fusion weights for this call.
        """
        chosen_weights = method_weights or self.config.weights
        lexical_k, vector_k = pool_sizes(strategy, pool or self.config.candidate_pool)
        if allowed is not None:
            # Filters act inside both indexes (masks), so every candidate is allowed: a pool
            # larger than the allowed books only costs a wider top-k.
            lexical_k, vector_k = (max(1, min(n, len(allowed))) for n in (lexical_k, vector_k))
        tail = self.config.lexical_tail
        if allowed is not None:
            tail = max(0, min(tail, len(allowed) - lexical_k))
        rankings: dict[str, list[ScoredId]] = {}
        timings = {"lexical_ms": 0.0, "embed_ms": 0.0, "vector_ms": 0.0}
        degraded_reason = self.unavailable_reason
        weights: dict[str, float] = {}
        # The embedder runs on its own thread (ONNX Runtime releases the GIL) while BM25
        # ranks on this one: the two costs overlap instead of adding up.
        embedding = self._executor.submit(self._embed, variations) if self.vector else None
        lexical_variations = variations if self.config.lexical_enabled or not self.vector else ()
        if not self.config.lexical_enabled and not self.vector:
            degraded_reason = f"BM25 is switched off but {degraded_reason}: answering from BM25"
        for number, text in enumerate(lexical_variations):
            suffix = "" if number == 0 else f":{number}"
            start = time.perf_counter()
            rankings[f"lexical{suffix}"] = self.lexical.search(text, lexical_k + tail, allowed)
            timings["lexical_ms"] += _ms(start)
            weights[f"lexical{suffix}"] = chosen_weights.get("lexical", 1.0)
        if embedding is not None and self.vector is not None:
            try:
                start = time.perf_counter()
                vectors, timings["embed_ms"] = embedding.result()
                timings["embed_wait_ms"] = _ms(start)
                start = time.perf_counter()
                for number, vector in enumerate(vectors):
                    suffix = "" if number == 0 else f":{number}"
                    rankings[f"vector{suffix}"] = self.vector.search(vector, vector_k, allowed)
                    weights[f"vector{suffix}"] = chosen_weights.get("vector", 1.0)
                for number, seed in enumerate(seeds):
                    stored = self.vector.vector_of(seed)
                    if stored is not None:
                        key = f"vector:like{number}"
                        rankings[key] = self.vector.search(stored, vector_k, allowed)
                        weights[key] = chosen_weights.get("vector", 1.0)
                timings["vector_ms"] = _ms(start)
            except Exception as error:  # noqa: BLE001 - any vector failure degrades to BM25
                degraded_reason = f"the vector side failed: {type(error).__name__}: {error}"
                rankings = {k: v for k, v in rankings.items() if not k.startswith("vector")}
                if not self.config.lexical_enabled:
                    for number, text in enumerate(variations):
                        suffix = "" if number == 0 else f":{number}"
                        rankings[f"lexical{suffix}"] = self.lexical.search(text, lexical_k, allowed)
                        weights[f"lexical{suffix}"] = chosen_weights.get("lexical", 1.0)
        start = time.perf_counter()
        lexical_names = [name for name in rankings if name.startswith("lexical")]
        tails = {name: rankings[name][lexical_k:] for name in lexical_names}
        rankings.update({name: rankings[name][:lexical_k] for name in lexical_names})
        if self.config.fusion == "convex":
            hits = convex_fusion(rankings, weights)
        else:
            hits = reciprocal_rank_fusion(rankings, k=self.config.rrf_k, weights=weights)
        hits += _tail(hits, tails, lexical_k)
        timings["fusion_ms"] = _ms(start)
        return Retrieval(hits, degraded_reason is not None, degraded_reason, timings)

    def degraded_reason_for(self, methods: Sequence[str]) -> str | None:
        """Why these methods cannot run as asked, or None when they can."""
        needs_vectors = any(m in {"dense", "hybrid"} for m in methods)
        return self.unavailable_reason if needs_vectors and not self.has_vectors else None

    def diversify(
        self, hits: Sequence[FusedHit], k: int, mmr_lambda: float | None
    ) -> list[FusedHit]:
        """The first k hits, re-ordered by MMR over the top candidates when lambda is set.

        Similarity is the cosine of the stored vectors; without vectors the order is kept.
        """
        if mmr_lambda is None or self.vector is None or len(hits) <= 1:
            return list(hits[:k])
        pool = hits[: max(k, self.config.mmr_candidates)]
        similarity = self.vector.similarities([h.id for h in pool])
        order = maximal_marginal_relevance([h.score for h in pool], similarity, mmr_lambda, k)
        return [pool[i] for i in order]

    def lexical_only(self, text: str, k: int) -> list[ScoredId]:
        """BM25 alone, for measuring it."""
        return self.lexical.search(text, k)

    def vector_only(self, text: str, k: int) -> list[ScoredId]:
        """Dense retrieval alone, for measuring it; empty without a vector side."""
        if self.vector is None or self.embedder is None:
            return []
        return self.vector.search(self.embedder.embed([text])[0], k)


class BookFilterIndex:
    """What search filters on, in memory: languages, years, shelves, pages, authors, titles.

    Page limits rule out only books known to be outside them (`pages_of` tells the search
    which of the rest are known to fit). Exclusions follow `domain.exclusions`; words index
    the shelf names, authors and titles, so a distinct filter costs a few set operations.
    """

    def __init__(self, facts: Sequence[BookFacts]) -> None:
        """Index the facts once at start-up."""
        self.all_ids = frozenset(f.id for f in facts)
        self._by_language: dict[str, set[str]] = {}
        self._by_category: dict[str, set[str]] = {}
        self._by_year: dict[int, set[str]] = {}
        self._pages: dict[str, int] = {}
        self._by_author: dict[tuple[str, ...], set[str]] = {}
        self._titles: dict[str, tuple[str, str | None]] = {}
        self._title_words: dict[str, set[str]] = {}
        self._first_author: dict[str, str] = {}
        for fact in facts:
            if fact.language:
                self._by_language.setdefault(fact.language, set()).add(fact.id)
            for name in fact.categories:
                self._by_category.setdefault(name, set()).add(fact.id)
            if fact.published_year is not None:
                self._by_year.setdefault(fact.published_year, set()).add(fact.id)
            if fact.pages is not None:
                self._pages[fact.id] = fact.pages
            for author in fact.authors:
                self._by_author.setdefault(author_words(author), set()).add(fact.id)
            if fact.authors:
                self._first_author[fact.id] = fact.authors[0]
            self._titles[fact.id] = (fact.title, fact.series)
            for word in {*name_words(fact.title), *name_words(fact.series or "")}:
                self._title_words.setdefault(word, set()).add(fact.id)
        self._shelf_words: dict[str, set[str]] = {}
        for name in self._by_category:
            for word in name_words(name):
                self._shelf_words.setdefault(word, set()).add(name)
        self.youth_shelves = tuple(sorted(n for n in self._by_category if is_youth_shelf(n)))
        """The catalog's shelves for young readers (what `exclude_youth` rules out)."""
        self._youth_ids = frozenset(i for n in self.youth_shelves for i in self._by_category[n])
        self.youth_phrases = frozenset(phrase_key(n) for n in self.youth_shelves) - {()}
        """The youth shelves as `subtract_phrases` finds them in a variation."""
        # One frozenset per distinct filter: the indexes key their cached masks on it.
        self._cache: OrderedDict[SearchFilters, frozenset[str]] = OrderedDict()
        self._lock = threading.Lock()

    def title_of(self, book_id: str) -> tuple[str, str | None] | None:
        """The book's title and series, or None for an unknown id."""
        return self._titles.get(book_id)

    def first_author_of(self, book_id: str) -> str | None:
        """The book's first author, or None."""
        return self._first_author.get(book_id)

    def pages_of(self, book_id: str) -> int | None:
        """The book's page count, or None when no source states it."""
        return self._pages.get(book_id)

    def shelves_excluded_by(self, name: str) -> list[str]:
        """The catalog shelves an excluded shelf name rules out (itself and longer ones)."""
        words = name_words(name)
        if not words:
            return []
        candidates = self._shelf_words.get(
            min(words, key=lambda w: len(self._shelf_words.get(w, ()))), set()
        )
        return sorted(c for c in candidates if shelf_excluded(name, c))

    def allowed(self, filters: SearchFilters) -> frozenset[str] | None:
        """Ids passing every filter; None when no filter is set."""
        if filters.is_empty:
            return None
        with self._lock:  # searches run on many threads under the HTTP server
            if filters in self._cache:
                self._cache.move_to_end(filters)
                return self._cache[filters]
        result = self._compute(filters)
        with self._lock:
            self._cache[filters] = result
            if len(self._cache) > FILTER_CACHE:
                self._cache.popitem(last=False)
        return result

    def _compute(self, filters: SearchFilters) -> frozenset[str]:
        allowed: set[str] | frozenset[str] = self.all_ids
        if filters.language is not None:
            code, _ = normalize_language(filters.language)
            if code is None:
                raise InvalidQueryError(
                    f"unknown language {filters.language!r}: use an ISO 639 code such as en, es, de"
                )
            allowed = allowed & self._by_language.get(code, set())
        if filters.category is not None:
            name = normalize_category(filters.category)
            if name is None or name not in self._by_category:
                raise InvalidQueryError(
                    f"unknown category {filters.category!r}: `lectern catalog stats` lists the "
                    "common ones"
                )
            allowed = allowed & self._by_category[name]
        if filters.min_year is not None or filters.max_year is not None:
            low = filters.min_year if filters.min_year is not None else -10_000
            high = filters.max_year if filters.max_year is not None else 10_000
            in_range: set[str] = set()
            for year, ids in self._by_year.items():
                if low <= year <= high:
                    in_range |= ids
            allowed = allowed & in_range
        if filters.has_page_limit:
            allowed = allowed - {i for i, p in self._pages.items() if not filters.fits_pages(p)}
        return frozenset(allowed - self._excluded(filters))

    def _excluded(self, filters: SearchFilters) -> set[str]:
        """Ids that an exclusion of the filters rules out."""
        out: set[str] = set(self._youth_ids) if filters.exclude_youth else set()
        for name in filters.exclude_categories:
            for shelf in self.shelves_excluded_by(name):
                out |= self._by_category[shelf]
        for name in filters.exclude_authors:
            out |= self._by_author.get(author_words(name), set())
        for name in filters.exclude_titles:
            words = title_key(name)
            if not words:
                continue
            candidates = min((self._title_words.get(w, set()) for w in words), key=len)
            out |= {i for i in candidates if title_excluded(name, *self._titles[i])}
        return out


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
    ) -> None:
        """Indexes are loaded by bootstrap; this only combines them.

        `mmr_lambda` is the default of `search` (bootstrap passes LECTERN_MMR_LAMBDA).
        """
        self.catalog = catalog
        self.mmr_lambda = mmr_lambda
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
        if filters.has_page_limit:
            hits = self._known_to_fit_first(hits)
            chosen = self._diversify_known_first(hits, query.max_results, mmr_lambda)
        else:
            chosen = self._diversify(hits, query.max_results, mmr_lambda)
        ranked: tuple[str, ...] = ()
        if depth is not None:
            shown = {h.id for h in chosen}
            ranked = tuple([h.id for h in chosen] + [h.id for h in hits if h.id not in shown])
            ranked = ranked[: max(depth, len(chosen))]
        rerank_ms = _ms(start)
        start = time.perf_counter()
        results = self._results(chosen)
        load_ms = _ms(start)
        named = plan is not None and any(
            r.kind in ("title", "author", "like") for r in plan.recognised
        )
        nothing_fits = None if named else self._nothing_fits(text, results)
        readings = self._readings(query.text, hits) if not filters.has_page_limit else ()
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
            # "Books like X" is searched by X's shelves: they are what a result can match.
            explained = " ".join([text, *variations]) if like_alone else text
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

    def _readings(self, text: str, hits: Sequence[FusedHit]) -> tuple[Reading, ...]:
        """Two or three books a bare, short title may mean, by different first authors.

        Read from the candidates in fused order: a work whose title or series holds every word
        of the request, one per first author. Fewer than two such authors: no question.
        """
        words = reading_words(text)
        if not words:
            return ()
        readings: list[Reading] = []
        authors: set[str] = set()
        for hit in hits[:READING_CANDIDATES]:
            named = self.filters.title_of(hit.id)
            if named is None:
                continue
            title, series = named
            if not set(words) <= {*name_words(title), *name_words(series or "")}:
                continue
            author = self.filters.first_author_of(hit.id)
            key = fold(author or "")
            if key in authors:
                continue
            authors.add(key)
            readings.append(Reading(hit.id, title, author))
            if len(readings) == MAX_READINGS:
                break
        return tuple(readings) if len(readings) >= 2 else ()

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
