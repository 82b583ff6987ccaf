"""The shelf tail: past the first page, a request for shelves lists what is on them.

"books about time travel" asks for what is on the catalog's time-travel shelf, as a
catalog's subject facet lists it. `names_only_shelves` tells such a request from one that
asks for more than its shelf; `ShelfTail` orders the results past the first page: the
candidates on the named shelves, then the shelves' other books (at most LECTERN_SHELF_TAIL
in all), then the other candidates. `BookSearchService` (`search.py`) decides when.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lectern.application.book_filters import BookFilterIndex
from lectern.application.ports import LexicalIndex
from lectern.domain.answering_words import STOP_WORDS
from lectern.domain.normalize import fold
from lectern.domain.retrieval import FusedHit
from lectern.domain.search import (
    FILTER_KINDS,
    QueryPlan,
    without_request_framing,
    without_spans,
)

_FRAME_WORDS = frozenset({"book", "books", "novel", "novels", "story", "stories", "read", "reads"})
"""Words that name what every catalog item is, not a subject (left over from a frame)."""


def names_only_shelves(plan: QueryPlan) -> bool:
    """True when the request's words, past a frame and stop words, all name its shelves.

    "books about time travel", "epic fantasy with dragons": the reader asks for what is on
    those shelves. "a cozy mystery in a small english village" asks for more than its shelf.
    Words that became filters ("in Spanish", "under 300 pages") do not count.
    """
    if not plan.categories:
        return False
    kinds = FILTER_KINDS | {"category"}
    spans = [(r.start, r.end) for r in plan.recognised if r.kind in kinds and r.end]
    rest = without_spans(plan.original_query, spans)
    rest = without_request_framing(rest) if rest else rest
    words = re.findall(r"\w+", fold(rest))
    return not [w for w in words if w not in STOP_WORDS and w not in _FRAME_WORDS]


@dataclass(frozen=True, slots=True)
class ShelfTail:
    """Orders a shelf request's results past the first page (see the module's docstring)."""

    lexical: LexicalIndex
    """Groups editions into works, and matches the searched words among a shelf's books."""
    filters: BookFilterIndex
    """Which books are on a shelf (or on a compound's parts), and how widely each is read."""
    budget: int
    """The most shelf books looked up beyond the candidates (LECTERN_SHELF_TAIL)."""

    def past_page(
        self,
        hits: list[FusedHit],
        chosen: list[FusedHit],
        wanted: int,
        plan: QueryPlan,
        text: str,
        allowed: frozenset[str] | None,
    ) -> list[FusedHit]:
        """The first page, then the named shelves' books, then the other candidates.

        Past the first page (`chosen`, unchanged): the candidates on every named shelf in
        candidate order, then the shelves' other books (`_holders`, at most `budget` in
        all), then the other candidates; `wanted` places are filled, so no shelf book is
        looked up when the candidates on it fill them. A broad shelf (more works than
        places: "dystopia", "young adult") gives its best matched candidates half the
        places and its most read books the rest (`_most_read`): its candidates alone are
        the books that say its name most often. Places still left go the same way to a
        compound shelf read as its parts ("ya paranormal": the books on both "young adult"
        and "paranormal"; `_tiers`).
        """
        group_of = self.lexical.group_of
        listed = list(chosen)
        taken = {group_of(h.id) for h in chosen}
        shown = {h.id for h in chosen}
        rest = [h for h in hits if h.id not in shown]
        later: list[FusedHit] = []
        budget = self.budget
        floor = min((h.score for h in hits), default=0.0)
        for shelf in self._tiers(plan.categories, allowed):
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
            others = self._holders(shelf, text, taken | {group_of(h.id) for h in hits}, room, floor)
            listed += others
            taken |= {group_of(h.id) for h in others}
            budget -= len(others)
        return [*listed, *later, *rest]

    def _tiers(
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
            work = self.lexical.group_of(book_id)
            if work in taken:
                continue
            taken.add(work)
            tail.append(FusedHit(book_id, score, {"shelf": len(tail) + 1}, {}))
            if len(tail) == count:
                break
        return tail

    def _holders(
        self, holders: frozenset[str], text: str, taken: set[str], count: int, score: float
    ) -> list[FusedHit]:
        """Up to `count` works of these books outside `taken`, best matched first.

        Ordered by BM25 over the searched words among these books, then by ratings count
        (what the books say, then how widely they are read; never an evaluation's grades).
        """
        if not holders:
            return []
        matched = self.lexical.search(text, len(holders), holders)
        scores = {h.id: h.score for h in matched}
        unmatched = sorted(
            holders - scores.keys(), key=lambda i: (-self.filters.popularity_of(i), i)
        )
        tail: list[FusedHit] = []
        for book_id in [*(h.id for h in matched), *unmatched]:
            work = self.lexical.group_of(book_id)
            if work in taken:
                continue
            taken.add(work)
            ranks = {"shelf": len(tail) + 1}
            tail.append(FusedHit(book_id, score, ranks, {"shelf": scores.get(book_id, 0.0)}))
            if len(tail) == count:
                break
        return tail
