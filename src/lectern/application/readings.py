"""Nothing fits, and which one: what a search says when the catalog cannot simply answer.

`nothing_fits` names the request's words that no catalog book uses (the results are then
only the nearest the catalog has). `Readings` offers the two or three books a short,
ambiguous request may mean ("Dune", "the hunger one") or the X of "books like X" may mean,
one per first author. `BookSearchService` (`search.py`) puts both on its response.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lectern.application.book_filters import BookFilterIndex
from lectern.application.ports import LexicalIndex, TitleMatcher
from lectern.application.understanding import key_of
from lectern.domain.answering_words import STOP_WORDS
from lectern.domain.exclusions import name_words
from lectern.domain.fallback import unresolved_like
from lectern.domain.normalize import fold, singular
from lectern.domain.retrieval import FusedHit
from lectern.domain.search import (
    EXACT_TITLE_SIMILARITY,
    MAX_READINGS,
    NEAR_TITLE_SIMILARITY,
    NothingFits,
    QueryPlan,
    Reading,
    SearchResult,
    reading_title,
    reading_words,
)

MIN_UNKNOWN_WORD = 4
"""Shorter words are not checked against the catalog's vocabulary ("nothing fits")."""
READING_CANDIDATES = 50
"""Candidates an ambiguous request's readings are chosen from."""


def nothing_fits(
    text: str, results: Sequence[SearchResult], lexical: LexicalIndex
) -> NothingFits | None:
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
    unknown = tuple(w for w in words if singular(w) not in shown and not lexical.search(w, 1))
    return NothingFits(unknown) if unknown else None


@dataclass(frozen=True, slots=True)
class Readings:
    """Which books a request may mean, one per first author, at most `MAX_READINGS`."""

    filters: BookFilterIndex
    """Each book's title, series and first author."""
    titles: TitleMatcher | None
    """Reads titles by spelling; without it, only the candidates' titles are read."""

    def of_request(
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
        readings = self.by_authors([*by_title, *holding])
        return readings if len(readings) >= 2 else ()

    def of_like(self, plan: QueryPlan) -> tuple[tuple[Reading, ...], str | None]:
        """Which books the X of "books like X" may mean, and X when the catalog lacks it.

        A found X whose exact title other authors' books share ("Hunger": Hamsun's, Gay's)
        offers them, the planned one first. An X the planner did not find is read by
        spelling: titles within two slips are offered ("did you mean"); when none is within
        one slip, X is not in the catalog and the results are only the nearest it has.
        Without a title matcher, nothing is said.
        """
        matcher = self.titles
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
            readings = self.by_authors([*first, *ids])
            return (readings if len(readings) >= 2 else ()), None
        title = unresolved_like(plan.notes)
        if title is None:
            return (), None
        readings = self.by_authors(matcher.spelt_like(title, NEAR_TITLE_SIMILARITY))
        return readings, None if matcher.closest(title) is not None else title

    def by_authors(self, ids: Sequence[str]) -> tuple[Reading, ...]:
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


def of_the_title(readings: tuple[Reading, ...], known: Sequence[str]) -> tuple[Reading, ...]:
    """The readings left to offer when the request is a catalog title (`known`: its books).

    "Dune" typed whole names the novel, and the page leads with it: "Children of Dune" is no
    reading to offer. Books that share the title are (Herbert's or another writer's "Dune"),
    when there are two or more of them.
    """
    if not known:
        return readings
    same = tuple(r for r in readings if r.book_id in known)
    return same if len(same) > 1 else ()
