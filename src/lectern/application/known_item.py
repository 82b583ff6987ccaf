"""Known-item search: a request that is a catalog title shows the book(s) of that title first.

A reader who types "Dune" or "the devil in the white city" means that book; BM25 favours
short documents that repeat the word, and the vectors rank sequels and companions as high,
so the book itself could sit 13th. `KnownItems` reads the request as the vocabulary reads a
title (`Vocabulary.entries_titled`, over the title tables `book_lookup` resolves the
assistant's titles with, built by the same code): exact after folding case, accents and
punctuation, with or without a leading article, with or without the subtitle. One dict
lookup per request. Failing that, a near-exact spelling ("the hitchhikers guide to the
galxy"): the `Spelling` port over the titles of the search's own candidates only, at a high
cutoff, and only when a word of the request is in no catalog title (a slip), so a topic of
title words never passes for a near title.

Only the whole request counts: "love stories" is not "Love", and "war" names the book
"War" only when "war" is all that was typed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from lectern.application.ports import Spelling
from lectern.application.understanding import ARTICLES, Vocabulary, key_of
from lectern.domain.search import SAME_TITLE_SIMILARITY

SPELLING_CUTOFF = SAME_TITLE_SIMILARITY
"""The least similarity (0-100) a misspelt request needs: about one slip in ten letters, so
a title of fewer than ten letters is found only as spelt."""
SPELLING_CANDIDATES = 200
"""How many of a search's candidates (one per work, fused order) are compared by spelling."""


def _bare(key: tuple[str, ...]) -> tuple[str, ...]:
    return key[1:] if key[:1] and key[0] in ARTICLES and len(key) > 1 else key


@dataclass(frozen=True, slots=True)
class _Titles:
    """The title tables, and each book's title as a slip is compared with it."""

    vocabulary: Vocabulary
    spellings: dict[str, tuple[str, ...]]
    """Book id -> its folded title without article, whole and before its colon."""


def _tables(vocabulary: Vocabulary) -> _Titles:
    """Spellings read off the keys the vocabulary already folded: no title is parsed again."""
    spellings: dict[str, list[str]] = {}
    for table in (vocabulary.titles, vocabulary.main_titles):
        for key, entries in table.items():
            spelling = " ".join(_bare(key))
            for entry in entries:
                known = spellings.setdefault(entry.book_id, [])
                if spelling not in known:
                    known.append(spelling)
    return _Titles(vocabulary, {i: tuple(found) for i, found in spellings.items()})


class KnownItems:
    """The books a request names by title, exactly or by a near spelling."""

    def __init__(
        self,
        vocabulary: Callable[[], Vocabulary],
        spelling: Spelling | None = None,
        *,
        cutoff: float = SPELLING_CUTOFF,
        candidates: int = SPELLING_CANDIDATES,
    ) -> None:
        """`vocabulary` is called once, on the first request (its title tables and words)."""
        self._build = vocabulary
        self._built: _Titles | None = None
        self._lock = threading.Lock()
        self.spelling = spelling
        self.cutoff = cutoff
        self.candidates = candidates

    def _titles(self) -> _Titles:
        if self._built is None:
            with self._lock:
                if self._built is None:
                    self._built = _tables(self._build())
        return self._built

    def titled(self, text: str) -> tuple[str, ...]:
        """Ids of every book whose title is the request's words, most read first."""
        key = key_of(text.strip(" \"'“”"))
        if not key:
            return ()
        return tuple(e.book_id for e in self._titles().vocabulary.entries_titled(key))

    def spelt(self, text: str, candidates: Callable[[], Iterable[str]]) -> tuple[str, ...]:
        """Ids among `candidates` (the search's, one per work, in order) spelt like the request.

        `candidates` is asked only when a word of the request is in no catalog title. Only
        the best similarity counts, at or above the cutoff; ties keep the candidates' order.
        """
        if self.spelling is None:
            return ()
        key = key_of(text.strip(" \"'“”"))
        tables = self._titles()
        if not key or all(word in tables.vocabulary.words for word in key):
            # Every word is a title word: "time travel" is a topic, not "Time Traveler"
            # misspelt. A slip almost always makes a word no catalog title has.
            return ()
        ids: list[str] = []
        choices: list[str] = []
        for number, book_id in enumerate(candidates()):
            if number == self.candidates:
                break
            for spelling in tables.spellings.get(book_id, ()):
                ids.append(book_id)
                choices.append(spelling)
        wanted = " ".join(_bare(key))
        scores = self.spelling.similarities(wanted, choices, self.cutoff) if choices else {}
        if not scores:
            return ()
        best = max(scores.values())
        return tuple(dict.fromkeys(ids[i] for i in sorted(scores) if scores[i] == best))

    def named_by(self, text: str, candidates: Callable[[], Iterable[str]]) -> tuple[str, ...]:
        """The books the request names: by exact title, else by spelling among `candidates`."""
        return self.titled(text) or self.spelt(text, candidates)
