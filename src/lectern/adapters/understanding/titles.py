"""`RapidfuzzTitleMatcher`: a misspelt title resolved to a catalog book, with rapidfuzz.

"The Great Gatsbi" or "Harry Poter and the sorcerors stone" name no title exactly, so the
planner cannot read "books like X" and the fallback's `get_similar_books` asks here. The
title's folded words are compared with every catalog title's (`key_of`) by rapidfuzz's
normalised edit similarity (`fuzz.ratio`, 0-100), whole, and with the title's first words
as many as were given ("Mistborne" and "Mistborn Trilogy Boxed Set"). Under the cutoff
nothing is close: an unknown book stays unknown rather than becoming a random one.
"""

from __future__ import annotations

from rapidfuzz import fuzz, process

from lectern.application.understanding import TitleEntry, Vocabulary, key_of

CUTOFF = 90.0
"""The least similarity that counts as the same title: one slip in ten letters or so."""
CLOSE = 1.0
"""Titles within this many points of the best are told apart by popularity."""
_CANDIDATES = 8


def _bare(key: tuple[str, ...]) -> tuple[str, ...]:
    return key[1:] if key[:1] == ("the",) and len(key) > 1 else key


class RapidfuzzTitleMatcher:
    """Closest catalog title by spelling (the `TitleMatcher` port)."""

    def __init__(self, vocabulary: Vocabulary, *, cutoff: float = CUTOFF) -> None:
        """Index the vocabulary's titles (folded, a leading "the" dropped)."""
        self.cutoff = cutoff
        self._keys: list[tuple[str, ...]] = []
        self._entries: list[TitleEntry] = []
        for key, entries in vocabulary.titles.items():
            if entries:
                self._keys.append(_bare(key))
                self._entries.append(entries[0])
        self._whole = [" ".join(k) for k in self._keys]

    def closest(self, title: str) -> str | None:
        """The id of the most popular book among the closest titles, or None under the cutoff."""
        wanted = _bare(key_of(title.strip(" \"'“”")))
        if not wanted:
            return None
        text = " ".join(wanted)
        starts = [" ".join(k[: len(wanted)]) for k in self._keys]
        scored: dict[int, float] = {}
        for choices in (self._whole, starts):
            for _, score, index in process.extract(
                text, choices, scorer=fuzz.ratio, score_cutoff=self.cutoff, limit=_CANDIDATES
            ):
                scored[index] = max(score, scored.get(index, 0.0))
        if not scored:
            return None
        best = max(scored.values())
        close = [i for i, score in scored.items() if best - score <= CLOSE]
        chosen = min(
            close,
            key=lambda i: (-self._entries[i].popularity, -scored[i], self._entries[i].book_id),
        )
        return self._entries[chosen].book_id
