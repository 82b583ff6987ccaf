"""Graded relevance judgments from written rules over the catalog's own fields.

Each judged query carries `criteria` (see datasets.Criteria): facets of what the reader
wants, each a list of terms looked for in named fields, plus hard constraints (language,
years), known answers (`exact_titles`) and excluded books (the X of "books like X").

Grade of a book for a query, deterministic:
1. a title in `exclude_titles` -> 0 (the reader named it; it is not a recommendation);
2. a title in `exact_titles` -> 3 (the known item; other editions too);
3. otherwise from the weight share of the facets it satisfies: all of them 3, at least
   two thirds 2, anything less but more than nothing 1, none 0;
4. a known language or year outside the asked ones caps the grade at 1; an unknown one at 2.

Terms match whole words, case-folded, at a word start; a trailing `*` matches any ending
(`thie*` finds thief and thieves). The pool to grade is the top 20 of BM25, dense and hybrid
search for the query and for each of its `pool_texts` and `exact_titles`, with its explicit
filters and again with the criteria's language and years as filters; entries by a person in
the judgments file (labeller other than rules-v1) override a rule's grade with a reason.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from lectern.application.evaluation.datasets import (
    Criteria,
    JudgedQuery,
    JudgmentsFile,
    QueriesFile,
)
from lectern.application.ports import BookCatalog, ProgressReporter, QueryUnderstanding
from lectern.application.search import BookSearchService
from lectern.domain.books import Book, JSONValue
from lectern.domain.grounding import match_form
from lectern.domain.retrieval import DEFAULT_STRATEGY
from lectern.domain.search import SearchFilters, SearchQuery

LABELLER = "rules-v1"
POOL_DEPTH = 20
POOL_MMR_LAMBDA = 0.7
"""The judged pools were drawn with MMR 0.7: part of the labelling protocol, not the default."""
POOL_METHODS = ("bm25", "dense", "hybrid", "understood")
"""`understood` is hybrid search with the query-understanding plan: every system the
evaluation compares contributes to the pool, as in TREC pooling."""


@dataclass(frozen=True, slots=True)
class Label:
    """A grade and the rule matches that produced it."""

    grade: int
    matched: tuple[str, ...]


@lru_cache(maxsize=4_096)
def _pattern(term: str) -> re.Pattern[str]:
    folded = match_form(term)
    if folded.endswith("*"):
        return re.compile(r"(?<!\w)" + re.escape(folded[:-1]))
    return re.compile(r"(?<!\w)" + re.escape(folded) + r"(?!\w)")


def _fields(book: Book) -> dict[str, str]:
    return {
        "title": match_form(book.field_text("title")),
        "authors": match_form(book.field_text("authors")),
        "categories": match_form(book.field_text("categories")),
        "description": match_form(book.field_text("description")),
    }


def _has_title(text: str, titles: Iterable[str]) -> str | None:
    return next((t for t in titles if _pattern(t).search(text)), None)


def label(book: Book, criteria: Criteria) -> Label:
    """The grade of one book for one query's criteria, with what matched."""
    fields = _fields(book)
    excluded = _has_title(fields["title"], criteria.exclude_titles)
    if excluded:
        return Label(0, (f"excluded title: {excluded}",))
    exact = _has_title(fields["title"], criteria.exact_titles)
    matched: list[str] = []
    if exact:
        grade = 3
        matched.append(f"title: {exact}")
    else:
        total = sum(f.weight for f in criteria.facets)
        satisfied = 0.0
        for facet in criteria.facets:
            hit = next(
                (
                    (field, term)
                    for term in facet.any
                    for field in facet.fields
                    if _pattern(term).search(fields[field])
                ),
                None,
            )
            if hit is not None:
                satisfied += facet.weight
                matched.append(f"{facet.name}: {hit[1]} in {hit[0]}")
        share = satisfied / total if total else 0.0
        grade = 3 if share >= 1.0 - 1e-9 else 2 if share >= 2 / 3 - 1e-9 else 1 if share > 0 else 0
    return Label(_constrained(book, criteria, grade, matched), tuple(matched))


def _constrained(book: Book, criteria: Criteria, grade: int, matched: list[str]) -> int:
    """Cap the grade when the book breaks (or may break) a language or year constraint."""
    cap = 3
    if criteria.language is not None:
        if book.language is None:
            cap = min(cap, 2)
            matched.append("language unknown")
        elif book.language != criteria.language:
            cap = min(cap, 1)
            matched.append(f"language {book.language}, not {criteria.language}")
    if criteria.min_year is not None or criteria.max_year is not None:
        year = book.published_year
        low = criteria.min_year if criteria.min_year is not None else -10_000
        high = criteria.max_year if criteria.max_year is not None else 10_000
        if year is None:
            cap = min(cap, 2)
            matched.append("year unknown")
        elif not low <= year <= high:
            cap = min(cap, 1)
            matched.append(f"year {year} outside {low}..{high}")
    return min(grade, cap)


@dataclass(frozen=True, slots=True)
class LabelledPair:
    """One pooled (query, book) pair with its grade."""

    query_id: str
    book_id: str
    title: str
    grade: int
    matched: tuple[str, ...]
    labeller: str
    note: str = ""


def label_pool(
    query: JudgedQuery,
    books: Sequence[Book],
    overrides: Mapping[tuple[str, str], tuple[int, str, str]] | None = None,
) -> list[LabelledPair]:
    """Grade every pooled book; a hand review (grade, reviewer, reason) wins over the rule."""
    pairs = []
    for book in books:
        key = (query.id, str(book.id))
        if overrides and key in overrides:
            grade, reviewer, reason = overrides[key]
            pairs.append(
                LabelledPair(query.id, str(book.id), book.title, grade, (), reviewer, reason)
            )
            continue
        result = label(book, query.criteria)
        pairs.append(
            LabelledPair(query.id, str(book.id), book.title, result.grade, result.matched, LABELLER)
        )
    return sorted(pairs, key=lambda p: (-p.grade, p.title, p.book_id))


PROCEDURE = (
    "Pool: the top 20 books of BM25, dense and hybrid search (MMR 0.7) for each query and "
    "for its pool_texts and exact_titles, with its explicit filters and with the criteria's "
    "language and years as filters, and of hybrid search with the query-understanding plan. "
    "Grades 0-3 from the written rules in each query's criteria "
    "(application/evaluation/labelling.py, labeller rules-v1); pairs re-graded by a person "
    "carry labeller 'hand-review' and the reason, and survive re-labelling."
)


def pool(
    search: BookSearchService,
    query: JudgedQuery,
    depth: int = POOL_DEPTH,
    understanding: QueryUnderstanding | None = None,
) -> dict[str, list[str]]:
    """The top `depth` book ids of each pooling method, over every phrasing and filter set."""
    criteria = query.criteria
    texts = list(dict.fromkeys([query.text, *criteria.pool_texts, *criteria.exact_titles]))
    explicit = query.filters.to_domain()
    filter_sets = [explicit]
    if criteria.language or criteria.min_year is not None or criteria.max_year is not None:
        filter_sets.append(
            SearchFilters(
                explicit.language or criteria.language,
                explicit.category,
                explicit.min_year if explicit.min_year is not None else criteria.min_year,
                explicit.max_year if explicit.max_year is not None else criteria.max_year,
            )
        )
    retriever = search.retriever
    pools: dict[str, list[str]] = {method: [] for method in POOL_METHODS}
    for filters in filter_sets:
        allowed = search.filters.allowed(filters)
        for text in texts:
            pools["bm25"] += [h.id for h in retriever.lexical.search(text, depth, allowed)]
            if retriever.vector is not None and retriever.embedder is not None:
                vector = retriever.embedder.embed([text])[0]
                pools["dense"] += [h.id for h in retriever.vector.search(vector, depth, allowed)]
            response = search.search(
                SearchQuery(text, filters, max_results=depth),
                strategy=query.strategy or DEFAULT_STRATEGY,
                mmr_lambda=POOL_MMR_LAMBDA,
            )
            pools["hybrid"] += [str(r.book.id) for r in response.results]
    if understanding is not None:
        planned = search.search(
            SearchQuery(query.text, explicit, max_results=depth),
            mmr_lambda=POOL_MMR_LAMBDA,
            plan=understanding.plan(query.text),
        )
        pools["understood"] += [str(r.book.id) for r in planned.results]
    return {method: list(dict.fromkeys(ids)) for method, ids in pools.items()}


def build_judgments(
    search: BookSearchService,
    catalog: BookCatalog,
    queries: QueriesFile,
    previous: JudgmentsFile | None,
    *,
    version: str,
    progress: ProgressReporter | None = None,
    understanding: QueryUnderstanding | None = None,
) -> dict[str, JSONValue]:
    """The judgments file's content: pooled, rule-graded, hand reviews carried over."""
    overrides: dict[tuple[str, str], tuple[int, str, str]] = {}
    if previous is not None:
        for query_id, pairs in previous.judgments.items():
            for pair in pairs:
                if pair.labeller != LABELLER:
                    overrides[(query_id, pair.book_id)] = (pair.grade, pair.labeller, pair.note)
    if progress is not None:
        progress.start("pooling and labelling", len(queries.queries))
    judgments: dict[str, JSONValue] = {}
    for query in queries.queries:
        pools = pool(search, query, understanding=understanding)
        ids = list(dict.fromkeys(i for method in POOL_METHODS for i in pools.get(method, [])))
        ids += [b for (q, b) in overrides if q == query.id and b not in ids]
        books = catalog.get_many([uuid.UUID(i) for i in ids])
        judgments[query.id] = [
            {
                "book_id": p.book_id,
                "title": p.title,
                "grade": p.grade,
                "labeller": p.labeller,
                "matched": list(p.matched),
                **({"note": p.note} if p.note else {}),
            }
            for p in label_pool(query, books, overrides)
        ]
        if progress is not None:
            progress.advance()
    return {
        "version": version,
        "procedure": PROCEDURE,
        "queries_version": queries.version,
        "pool": {"depth": POOL_DEPTH, "methods": list(POOL_METHODS)},
        "judgments": judgments,
    }
