"""What book search filters on, kept in memory: languages, years, shelves, pages, audience."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from lectern.application.ports import (
    BookFacts,
)
from lectern.domain.exclusions import (
    author_words,
    name_words,
    shelf_excluded,
    title_excluded,
    title_key,
)
from lectern.domain.normalize import (
    is_youth_shelf,
    normalize_category,
    normalize_language,
    shelf_key,
)
from lectern.domain.search import (
    SearchFilters,
    phrase_key,
)
from lectern.errors import InvalidQueryError

FILTER_CACHE = 128
"""Distinct filters whose allowed ids are kept (LRU)."""


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
        self._popularity: dict[str, int] = {}
        for fact in facts:
            if fact.language:
                self._by_language.setdefault(fact.language, set()).add(fact.id)
            for name in fact.categories:
                self._by_category.setdefault(name, set()).add(fact.id)
            if fact.published_year is not None:
                self._by_year.setdefault(fact.published_year, set()).add(fact.id)
            if fact.pages is not None:
                self._pages[fact.id] = fact.pages
            if fact.popularity:
                self._popularity[fact.id] = fact.popularity
            for author in fact.authors:
                self._by_author.setdefault(author_words(author), set()).add(fact.id)
            if fact.authors:
                self._first_author[fact.id] = fact.authors[0]
            self._titles[fact.id] = (fact.title, fact.series)
            for word in {*name_words(fact.title), *name_words(fact.series or "")}:
                self._title_words.setdefault(word, set()).add(fact.id)
        self._shelf_words: dict[str, set[str]] = {}
        self._spellings: dict[tuple[str, ...], list[str]] = {}
        for name in self._by_category:
            self._spellings.setdefault(shelf_key(name), []).append(name)
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

    def popularity_of(self, book_id: str) -> int:
        """The book's ratings count, 0 when no source gives one."""
        return self._popularity.get(book_id, 0)

    def holders_of(self, shelves: Sequence[str]) -> frozenset[str]:
        """Ids of the books on every one of these shelves (none when none is named).

        A shelf is held under any of its spellings (`shelf_key`): "children's literature"
        also by the books shelved "childrens lit", "biography" by those on "biographies".
        """
        held = [
            set().union(*(self._by_category[n] for n in self._spellings.get(shelf_key(name), ())))
            | self._by_category.get(name, set())
            for name in shelves
        ]
        return frozenset(set.intersection(*held)) if held else frozenset()

    def parts_of(self, name: str) -> tuple[str, ...] | None:
        """The catalog shelves a compound shelf's words name, left to right, or None.

        "ya paranormal" -> ("young adult", "paranormal"), longest part first; None when a
        word is on no shelf ("first in series") or the name is one part.
        """
        key = shelf_key(name)
        parts: list[str] = []
        start = 0
        while start < len(key):
            for end in range(len(key) - (start == 0), start, -1):
                names = self._spellings.get(key[start:end])
                if names:
                    parts.append(names[0])
                    start = end
                    break
            else:
                return None
        return tuple(parts) if len(parts) > 1 else None

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
