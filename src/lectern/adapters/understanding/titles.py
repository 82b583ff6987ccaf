"""`RapidfuzzTitleMatcher`: a misspelt title resolved to a catalog book, with rapidfuzz.

"The Great Gatsbi" or "Harry Poter and the sorcerors stone" name no title exactly, so the
planner cannot read "books like X" and the fallback's `get_similar_books` asks here. The
title's folded words are compared with every catalog title's (`key_of`) by rapidfuzz's
normalised edit similarity (`fuzz.ratio`, 0-100), whole, and with the title's first words
as many as were given ("Mistborne" and "Mistborn Trilogy Boxed Set"). Under the cutoff
nothing is close: an unknown book stays unknown rather than becoming a random one.

`spelt_like` lists every book a title may name at a given cutoff (each edition and each
book sharing the title), so search can ask "which one?" when they are by different authors
and offer the near titles of a book the catalog does not hold.
"""

from __future__ import annotations

from cachetools import TTLCache
from rapidfuzz import fuzz, process

from lectern.application.understanding import TitleEntry, Vocabulary, key_of
from lectern.domain.search import (
    EXACT_TITLE_SIMILARITY,
    NEAR_TITLE_SIMILARITY,
    SAME_TITLE_SIMILARITY,
)

CUTOFF = SAME_TITLE_SIMILARITY
"""The least similarity that counts as the same title: one slip in ten letters or so."""
CLOSE = 1.0
"""Titles within this many points of the best are told apart by popularity."""
_CANDIDATES = 8
EXACT = EXACT_TITLE_SIMILARITY
"""`spelt_like(title, EXACT)` looks up the title and the titles starting with it."""
_RECENT = 256
_RECENT_SECONDS = 300.0


def _bare(key: tuple[str, ...]) -> tuple[str, ...]:
    return key[1:] if key[:1] == ("the",) and len(key) > 1 else key


class RapidfuzzTitleMatcher:
    """Closest catalog title by spelling (the `TitleMatcher` port)."""

    def __init__(self, vocabulary: Vocabulary, *, cutoff: float = CUTOFF) -> None:
        """Index the vocabulary's titles (folded, a leading "the" dropped)."""
        self.cutoff = cutoff
        self._keys: list[tuple[str, ...]] = []
        self._entries: list[TitleEntry] = []
        self._all: list[tuple[TitleEntry, ...]] = []
        for key, entries in vocabulary.titles.items():
            if entries:
                self._keys.append(_bare(key))
                self._entries.append(entries[0])
                self._all.append(tuple(entries))
        self._whole = [" ".join(k) for k in self._keys]
        self._by_first: dict[str, list[int]] = {}
        for index, key in enumerate(self._keys):
            if key:
                self._by_first.setdefault(key[0], []).append(index)
        self._starts: dict[int, list[str]] = {}
        self._floor = min(cutoff, NEAR_TITLE_SIMILARITY)
        # A search asks about its "like X" and the fallback's tool about the same X again.
        self._recent: TTLCache[str, dict[int, float]] = TTLCache(_RECENT, _RECENT_SECONDS)

    def _scored(self, title: str, cutoff: float) -> dict[int, float]:
        """Index of each title at least `cutoff` similar, whole or by its first words."""
        wanted = _bare(key_of(title.strip(" \"'“”")))
        if not wanted:
            return {}
        if cutoff >= EXACT:
            # The same words, whole or as the title's start: a lookup, not a scan.
            size = len(wanted)
            return {
                i: EXACT
                for i in self._by_first.get(wanted[0], ())
                if self._keys[i][:size] == wanted
            }
        text = " ".join(wanted)
        floor = min(cutoff, self._floor)
        scored = self._recent.get(text) if floor == self._floor else None
        if scored is None:
            scored = self._extract(text, len(wanted), floor)
            if floor == self._floor:
                self._recent[text] = scored
        return {i: score for i, score in scored.items() if score >= cutoff}

    def _extract(self, text: str, size: int, cutoff: float) -> dict[int, float]:
        starts = self._starts.get(size)
        if starts is None:
            starts = self._starts[size] = [" ".join(k[:size]) for k in self._keys]
        scored: dict[int, float] = {}
        for choices in (self._whole, starts):
            for _, score, index in process.extract(
                text, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=_CANDIDATES
            ):
                scored[index] = max(score, scored.get(index, 0.0))
        return scored

    def closest(self, title: str) -> str | None:
        """The id of the most popular book among the closest titles, or None under the cutoff."""
        scored = self._scored(title, self.cutoff)
        if not scored:
            return None
        best = max(scored.values())
        close = [i for i, score in scored.items() if best - score <= CLOSE]
        chosen = min(
            close,
            key=lambda i: (-self._entries[i].popularity, -scored[i], self._entries[i].book_id),
        )
        return self._entries[chosen].book_id

    def spelt_like(self, title: str, cutoff: float) -> tuple[str, ...]:
        """Ids of every book whose title is at least `cutoff` similar, closest then most read.

        Every book of each such title is listed (editions, and other books of the same
        name), most read first; the caller tells the books and their authors apart.
        """
        scored = self._scored(title, cutoff)
        ranked = sorted(
            (-scored[i], -entry.popularity, entry.book_id) for i in scored for entry in self._all[i]
        )
        return tuple(dict.fromkeys(book_id for _, _, book_id in ranked))
