"""The exclusion dev set: requests with machine-checkable constraints, checked over the top k.

Each request (`src/lectern/evaluation/exclusion_requests.json`) says what the reader ruled
out (shelves, authors, titles, youth shelves, page limits) and which shelves are on topic.
A run searches each request as a reader would (with the plan when understanding is on) and
counts, over the results shown: results that break a constraint (violation rate), results on
a wanted shelf (on-topic rate), requests with at least 5 results, and explanation citations
that quote a shelf or author the reader excluded (misleading citations).

The checks read only the book's record and the request: they share no code with the rules
that plan the search, so a wrong rule shows up as a violation instead of hiding itself.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lectern.application.evaluation.packaged import packaged_bytes
from lectern.domain.books import Book, JSONValue
from lectern.domain.search import QueryPlan, SearchQuery, SearchResult
from lectern.errors import DatasetError

EXCLUSIONS_FILE = "exclusion_requests.json"
MIN_RESULTS = 5
"""A request "has results" when at least this many come back."""
_WORD = re.compile(r"\w+", re.UNICODE)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ExclusionRequest(_Strict):
    """One request and the constraints its results must meet."""

    id: str = Field(pattern=r"^[a-z0-9_-]{1,40}$")
    text: str = Field(min_length=1, max_length=1_000)
    wanted_categories: tuple[str, ...] = Field(min_length=1)
    exclude_categories: tuple[str, ...] = ()
    exclude_authors: tuple[str, ...] = ()
    exclude_titles: tuple[str, ...] = ()
    exclude_youth: bool = False
    min_pages: int | None = Field(default=None, ge=1)
    max_pages: int | None = Field(default=None, ge=1)


class ExclusionFile(_Strict):
    """`exclusion_requests.json`."""

    version: str
    description: str = ""
    youth_markers: tuple[str, ...] = Field(min_length=1)
    """Phrases that make a shelf a youth shelf wherever they occur in its name."""
    youth_first_words: tuple[str, ...] = ()
    """Words that make a shelf a youth shelf only as its first word ("children's books")."""
    requests: tuple[ExclusionRequest, ...] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class ExclusionSet:
    """The parsed file with its version and the sha256 of its bytes."""

    file: ExclusionFile
    sha256: str


def load_exclusion_requests(directory: Path | None = None) -> ExclusionSet:
    """Read and check the dev set (from `directory`, or the packaged one)."""
    raw = packaged_bytes(EXCLUSIONS_FILE, directory)
    try:
        parsed = ExclusionFile.model_validate(json.loads(raw))
    except json.JSONDecodeError as error:
        raise DatasetError(f"{EXCLUSIONS_FILE} is not valid JSON: {error}") from error
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DatasetError(f"{EXCLUSIONS_FILE}: {where}: {first['msg']}") from error
    ids = [r.id for r in parsed.requests]
    if len(set(ids)) != len(ids):
        raise DatasetError(f"{EXCLUSIONS_FILE}: request ids must be unique")
    return ExclusionSet(parsed, hashlib.sha256(raw).hexdigest())


def _words(text: str) -> tuple[str, ...]:
    """Case-folded words without plurals ("mysteries" and "mystery" alike, "vampires")."""
    return tuple(
        _singular(w) for w in _WORD.findall(text.casefold().replace("'", "").replace("’", ""))
    )


def _singular(word: str) -> str:
    # The dev set's own rule, kept apart from the product's on purpose (see the module doc).
    word = word[:-1] if len(word) > 3 and word.endswith("s") else word
    return word[:-2] + "y" if len(word) > 3 and word.endswith("ie") else word


def _contains(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    size = len(needle)
    return bool(size) and any(
        haystack[i : i + size] == needle for i in range(len(haystack) - size + 1)
    )


def _series(book: Book) -> str:
    value = book.metadata.get("series")
    return value if isinstance(value, str) else ""


@dataclass(frozen=True, slots=True)
class Checker:
    """The constraints of one request, ready to check books against."""

    request: ExclusionRequest
    youth_markers: tuple[tuple[str, ...], ...]
    youth_first_words: frozenset[str]
    pages_of: Callable[[Book], int | None]

    def is_youth_shelf(self, shelf: str) -> bool:
        """True when a shelf is for young readers by the dev set's own markers."""
        words = _words(shelf)
        if words[:1] and words[0] in self.youth_first_words:
            return True
        return any(_contains(words, marker) for marker in self.youth_markers)

    def excluded_shelf(self, shelf: str) -> str | None:
        """The excluded phrase this shelf contains, or None."""
        words = _words(shelf)
        for name in self.request.exclude_categories:
            if _contains(words, _words(name)):
                return name
        if self.request.exclude_youth and self.is_youth_shelf(shelf):
            return "youth shelf"
        return None

    def excluded_author(self, author: str) -> str | None:
        """The excluded author this name is, or None."""
        key = _words(author)
        return next((a for a in self.request.exclude_authors if _words(a) == key), None)

    def violations(self, book: Book) -> list[str]:
        """Why this book breaks the request's constraints (empty when it does not)."""
        found: list[str] = []
        for shelf in book.categories:
            excluded = self.excluded_shelf(shelf)
            if excluded is not None:
                found.append(f"shelf {shelf!r} ({excluded})")
        found += [f"author {a!r}" for a in book.authors if self.excluded_author(a)]
        title, series = _words(book.title), _words(_series(book))
        for name in self.request.exclude_titles:
            key = _words(name)
            if _contains(title, key) or _contains(series, key):
                found.append(f"title {name!r}")
        pages = self.pages_of(book)
        if pages is not None:
            low, high = self.request.min_pages, self.request.max_pages
            if (low is not None and pages < low) or (high is not None and pages > high):
                found.append(f"{pages} pages")
        return found

    def on_topic(self, book: Book) -> bool:
        """True when one of the book's shelves contains a wanted phrase."""
        wanted = [_words(w) for w in self.request.wanted_categories]
        return any(_contains(_words(s), w) for s in book.categories for w in wanted)

    def misleading_citations(self, result: SearchResult) -> list[str]:
        """Quotes of the explanation that cite an excluded shelf or author as support."""
        explanation = result.explanation
        if explanation is None:
            return []
        bad = []
        for citation in explanation.citations:
            if citation.chunk_id == "categories" and self.excluded_shelf(citation.snippet):
                bad.append(f"categories: {citation.snippet}")
            elif citation.chunk_id == "authors" and self.excluded_author(citation.snippet):
                bad.append(f"authors: {citation.snippet}")
        return bad


def _book_pages(book: Book) -> int | None:
    return book.pages


@dataclass
class ExclusionOutcome:
    """What one request returned and what was wrong with it."""

    request: ExclusionRequest
    results: int = 0
    violating: int = 0
    on_topic: int = 0
    misleading: int = 0
    latency_ms: float = 0.0
    record: dict[str, JSONValue] = field(default_factory=dict)


Planner = Callable[[str], QueryPlan | None]
Searcher = Callable[[SearchQuery, QueryPlan | None], Sequence[SearchResult]]


def run_exclusion_requests(
    dataset: ExclusionSet,
    search: Searcher,
    planner: Planner,
    *,
    k: int = 10,
    explain: bool = True,
    pages_of: Callable[[Book], int | None] = _book_pages,
) -> dict[str, JSONValue]:
    """Search every request, check the top k, and return the figures with every failure."""
    file = dataset.file
    markers = tuple(_words(m) for m in file.youth_markers)
    first_words = frozenset(w for m in file.youth_first_words for w in _words(m))
    outcomes: list[ExclusionOutcome] = []
    for request in file.requests:
        checker = Checker(request, markers, first_words, pages_of)
        started = time.perf_counter()
        plan = planner(request.text)
        request_query = SearchQuery(request.text, max_results=k, use_explanations=explain)
        results = list(search(request_query, plan))[:k]
        outcome = ExclusionOutcome(request, latency_ms=(time.perf_counter() - started) * 1000)
        problems: list[JSONValue] = []
        for result in results:
            reasons = checker.violations(result.book)
            cited = checker.misleading_citations(result)
            outcome.results += 1
            outcome.violating += bool(reasons)
            outcome.on_topic += checker.on_topic(result.book)
            outcome.misleading += len(cited)
            if reasons or cited:
                problems.append(
                    {
                        "rank": result.rank,
                        "title": result.book.title,
                        "violations": list[JSONValue](reasons),
                        "misleading_citations": list[JSONValue](cited),
                    }
                )
        outcome.record = {
            "id": request.id,
            "text": request.text,
            "results": outcome.results,
            "violating": outcome.violating,
            "on_topic": outcome.on_topic,
            "misleading_citations": outcome.misleading,
            "latency_ms": round(outcome.latency_ms, 2),
            "problems": problems,
            "off_topic_titles": [r.book.title for r in results if not checker.on_topic(r.book)],
        }
        outcomes.append(outcome)
    return summarise(outcomes, dataset)


def _rate(count: int, total: int) -> float:
    return round(count / total, 4) if total else 0.0


def summarise(outcomes: Sequence[ExclusionOutcome], dataset: ExclusionSet) -> dict[str, JSONValue]:
    """The dev set's figures: rates over results, shares over requests, and each request."""
    results = sum(o.results for o in outcomes)
    requests = len(outcomes)
    latencies = sorted(o.latency_ms for o in outcomes)
    p95 = latencies[max(0, -(-95 * len(latencies) // 100) - 1)] if latencies else 0.0
    return {
        "file": EXCLUSIONS_FILE,
        "version": dataset.file.version,
        "sha256": dataset.sha256,
        "requests": requests,
        "results": results,
        "violation_rate": _rate(sum(o.violating for o in outcomes), results),
        "requests_with_violation": sum(1 for o in outcomes if o.violating),
        "on_topic_rate": _rate(sum(o.on_topic for o in outcomes), results),
        "with_min_results": _rate(sum(1 for o in outcomes if o.results >= MIN_RESULTS), requests),
        "misleading_citations": sum(o.misleading for o in outcomes),
        "latency_p95_ms": round(p95, 2),
        "per_request": [o.record for o in outcomes],
    }
