"""The catalog's books by writer and by title word: for books named by what they are.

"The Ishiguro butler one" and "that Gatsby book" name no title; the rules read which book
they mean from the writer's books (their titles, shelves and descriptions) or from the one
title that holds the word (`adapters/understanding/described_books.py`). The index is built
from `book_names` on first use, so a process that never meets such a book never pays for it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from lectern.application.ports import BookCatalog, BookNames
from lectern.application.understanding import author_key, key_of

SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
"""Words after a surname that are no surname ("Kurt Vonnegut Jr.")."""
MOST_READ = 80
"""How many of a writer's books (most read first) are read with their descriptions."""


@dataclass(frozen=True, slots=True)
class WrittenBook:
    """One of a writer's books, with what says what it is about."""

    title: str
    author: str
    categories: tuple[str, ...]
    description: str
    popularity: int


def surname_of(name: str) -> str | None:
    """The folded surname of an author's name, suffixes aside ("Kurt Vonnegut Jr." -> vonnegut)."""
    words = [w for w in author_key(name) if w not in SUFFIXES]
    return words[-1] if words else None


class CatalogWriters:
    """The catalog's books by writer, and its titles by word, read from `book_names`."""

    def __init__(self, catalog: BookCatalog) -> None:
        """Nothing is read until the first look-up."""
        self.catalog = catalog
        self._by_surname: dict[str, list[BookNames]] | None = None
        self._by_word: dict[str, list[BookNames]] = {}

    def _index(self) -> dict[str, list[BookNames]]:
        if self._by_surname is None:
            by_surname: dict[str, list[BookNames]] = {}
            for book in self.catalog.book_names():
                for author in book.authors:
                    surname = surname_of(author)
                    if surname:
                        by_surname.setdefault(surname, []).append(book)
                for word in set(key_of(book.title)):
                    self._by_word.setdefault(word, []).append(book)
            self._by_surname = by_surname
        return self._by_surname

    def books_by(self, name: str) -> tuple[WrittenBook, ...]:
        """The books of the writer `name` (a surname alone, or a fuller name), most read first.

        Every writer of that surname when only the surname is said; their most read
        `MOST_READ` books carry their descriptions.
        """
        said = [w for w in author_key(name) if w not in SUFFIXES]
        if not said:
            return ()
        theirs: dict[str, tuple[BookNames, str]] = {}
        for book in self._index().get(said[-1], ()):
            author = next(
                (a for a in book.authors if set(said) <= set(author_key(a))),
                None,
            )
            if author is not None and surname_of(author) == said[-1]:
                theirs.setdefault(book.id, (book, author))
        ranked = sorted(theirs.values(), key=lambda pair: (-pair[0].popularity, pair[0].id))
        ranked = ranked[:MOST_READ]
        found = {str(b.id): b for b in self.catalog.get_many([uuid.UUID(b.id) for b, _ in ranked])}
        return tuple(
            WrittenBook(
                book.title,
                author,
                tuple(book.categories),
                (found[book.id].description or "") if book.id in found else "",
                book.popularity,
            )
            for book, author in ranked
        )

    def titled_with(self, word: str) -> Sequence[tuple[str, int]]:
        """(title, readers) of every catalog book whose title holds the word, most read first."""
        key = key_of(word)
        if len(key) != 1:
            return ()
        self._index()
        books = self._by_word.get(key[0], ())
        return [(b.title, b.popularity) for b in sorted(books, key=lambda b: -b.popularity)]
