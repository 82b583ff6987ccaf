"""The catalog's books by series and place: for books named by their place in a series.

"the second Hunger Games", "the first Discworld book" name no title; the rules read which
book they mean from the series the catalog records (`domain.series`). The index is built from
`book_facts` on first use, so a process that never meets such a book never pays for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lectern.application.ports import BookCatalog
from lectern.application.understanding import key_of
from lectern.domain.series import series_places


@dataclass(frozen=True, slots=True)
class SeriesBook:
    """A book at one place of a series."""

    title: str
    place: int
    popularity: int


def series_key(name: str) -> tuple[str, ...]:
    """The folded words of a series name, a leading article aside ("The Hunger Games")."""
    key = key_of(name)
    return key[1:] if key[:1] in (("the",), ("a",), ("an",)) else key


class CatalogSeries:
    """The catalog's numbered series, read from `book_facts`."""

    def __init__(self, catalog: BookCatalog) -> None:
        """Nothing is read until the first look-up."""
        self.catalog = catalog
        self._series: dict[tuple[str, ...], tuple[str, list[SeriesBook]]] | None = None

    def _index(self) -> dict[tuple[str, ...], tuple[str, list[SeriesBook]]]:
        if self._series is None:
            series: dict[tuple[str, ...], tuple[str, list[SeriesBook]]] = {}
            for facts in self.catalog.book_facts():
                for name, place in series_places(facts.title, facts.series, facts.series_number):
                    key = series_key(name)
                    if key:
                        _, books = series.setdefault(key, (name, []))
                        books.append(SeriesBook(facts.title, place, facts.popularity))
            for _, books in series.values():
                books.sort(key=lambda b: (b.place, -b.popularity, b.title))
            # A "series" of one numbered book tells no order ("Foo, #3" alone).
            self._series = {k: v for k, v in series.items() if len({b.place for b in v[1]}) > 1}
        return self._series

    def named(self, words: str) -> str | None:
        """The catalog's name of the numbered series `words` names, or None."""
        found = self._index().get(series_key(words))
        return found[0] if found else None

    def books_of(self, words: str) -> Sequence[SeriesBook]:
        """The books of the series `words` names, by place, most read first at each place."""
        found = self._index().get(series_key(words))
        return tuple(found[1]) if found else ()
