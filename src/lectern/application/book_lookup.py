"""Which book a model means: one lookup for every model-facing tool.

The assistant's tools (`assistant/books.py`) and the search fallback's `get_similar_books`
(`fallback/tools.py`) both take "a book id or its title" from a model; both read it here:
a book id (optionally `book:`-prefixed), else the title as the vocabulary knows it (with
and without a leading "The", the most read edition; a subtitled title by its words before
the colon when no title is those words), else a search whose results hold that
title exactly or as their first words, else (only when a `TitleMatcher` is given) the
closest title by spelling. The assistant passes no matcher: its actions change a reader's
lists, and a misspelt title read as another book would be a guess acted on.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence

from lectern.application.ports import BookCatalog, TitleMatcher
from lectern.application.search import BookSearchService
from lectern.application.understanding import TitleEntry, Vocabulary, key_of
from lectern.domain.books import Book
from lectern.domain.search import SearchQuery
from lectern.errors import InvalidQueryError, ToolError

SEARCH_DEPTH = 10
"""How many search results are read for the title."""


def resolve_book(
    reference: str,
    catalog: BookCatalog,
    search: Callable[[], BookSearchService],
    vocabulary: Vocabulary | None = None,
    titles: TitleMatcher | None = None,
) -> Book:
    """The book `reference` names, or a ToolError that says what to do instead."""
    text = reference.strip().removeprefix("book:").strip()
    if not text:
        raise ToolError("name a book by its id or its title")
    try:
        book_id = uuid.UUID(text[:36])
    except ValueError:
        pass
    else:
        book = catalog.get(book_id)
        if book is None:
            raise ToolError(f"no book with id {text} in the catalog")
        return book
    book = _by_title(text, catalog, search, vocabulary)
    if book is None and titles is not None:
        closest = titles.closest(text)
        book = catalog.get(uuid.UUID(closest)) if closest is not None else None
    if book is None:
        raise ToolError(f"no book titled {text!r} in the catalog: search for it first")
    return book


def names_a_title(title: str, vocabulary: Vocabulary) -> bool:
    """Whether `title` is, word for word, a catalog title (a leading "the" aside)."""
    key = key_of(title.strip(" \"'“”"))
    if not key:
        return False
    bare = key[1:] if key[:1] == ("the",) else key
    return any(vocabulary.best_title(k) is not None for k in (key, bare, ("the", *bare)))


def names_an_author(name: str, vocabulary: Vocabulary) -> bool:
    """Whether `name` is a catalog author (in full, or a surname alone) and no title.

    "the Hosseini" names a writer, not a book: which of their books is then asked.
    """
    key = key_of(name.strip(" \"'“”"))
    if not key or names_a_title(name, vocabulary):
        return False
    bare = key[1:] if key[:1] == ("the",) else key
    if not bare:
        return False
    return bare in vocabulary.authors or (len(bare) == 1 and bare[0] in vocabulary.last_names)


def books_titled(
    title: str, vocabulary: Vocabulary, catalog: BookCatalog
) -> tuple[tuple[str, str, int], ...]:
    """(catalog title, first author, readers) of each book `title` names word for word.

    Most read first, one per first author, so editions of one book are one entry and "Night
    Watch" (Pratchett's and Lukyanenko's) is two; the key is read as `_by_title` reads it (as
    written, without a leading "the", with one), and the first form the catalog holds decides.
    """
    key = key_of(title.strip(" \"'“”"))
    if not key:
        return ()
    bare = key[1:] if key[:1] == ("the",) else key
    forms = (key, bare, ("the", *bare))
    entries = next((vocabulary.titles[k] for k in forms if vocabulary.titles.get(k)), [])
    if not entries:
        return ()
    books = {str(b.id): b for b in catalog.get_many([uuid.UUID(e.book_id) for e in entries])}
    found: dict[str, tuple[str, str, int]] = {}
    for entry in sorted(entries, key=lambda e: (-e.popularity, e.book_id)):
        book = books.get(entry.book_id)
        if book is None:
            continue
        author = book.authors[0] if book.authors else ""
        found.setdefault(" ".join(key_of(author)), (book.title, author, entry.popularity))
    return tuple(found.values())


def _by_title(
    title: str,
    catalog: BookCatalog,
    search: Callable[[], BookSearchService],
    vocabulary: Vocabulary | None,
) -> Book | None:
    key = key_of(title.strip(" \"'“”"))
    if not key:
        return None
    bare = key[1:] if key[:1] == ("the",) else key
    if vocabulary is not None:
        forms = (key, bare, ("the", *bare))
        entry = next(filter(None, map(vocabulary.best_title, forms)), None)
        if entry is None:
            entry = next(filter(None, map(vocabulary.best_main_title, forms)), None)
            if entry is not None:
                _one_main_title(title, vocabulary.entries_titled(key), catalog)
        if entry is not None:
            found = catalog.get(uuid.UUID(entry.book_id))
            if found is not None:
                return found
    try:
        results = search().search(SearchQuery(title, max_results=SEARCH_DEPTH), mmr_lambda=None)
    except (InvalidQueryError, ToolError):
        return None
    for result in results.results:  # an exact title first, then one that starts with it
        if key_of(result.book.title) in (key, bare, ("the", *bare)):
            return result.book
    # A subtitled title said without its subtitle: "The Devil in the White City" names "The
    # Devil in the White City: Murder, Magic, ...", with its "The" or without.
    for result in results.results:
        words = key_of(result.book.title)
        if any(words[: len(form)] == form for form in (key, bare, ("the", *bare))):
            return result.book
    return None


RIVAL_SHARE = 0.03
"""A book sharing a title (or a main title, or a place in a series) with the most read one is
its rival, and which is meant is asked, when it has at least this share of its readers:
Lukyanenko's *Night Watch* (a third of Pratchett's) is, and so are Erin Hunter's *Into the
Wild* (7% of Krakauer's) and Coben's *The Stranger* (8% of Camus's). The one source of the
rule: the rules' readers (`catalog_spelling`, `series_said`, `described_books`) import it."""


def by_several_writers(books: Sequence[tuple[str, float]]) -> bool:
    """Whether books sharing a main title, as (first author, readers), are by several writers.

    Only rivals count (`RIVAL_SHARE`): "Harry Potter" is *Film Wizardry* and *A Pop-Up Book*,
    by two writers; editions of one book (one writer) are that book.
    """
    if not books:
        return False
    top = max(popularity for _, popularity in books)
    return len({author for author, popularity in books if popularity >= RIVAL_SHARE * top}) > 1


def _one_main_title(said: str, entries: Sequence[TitleEntry], catalog: BookCatalog) -> None:
    """Raise a ToolError when the words said begin the titles of books by different writers.

    "Harry Potter" is the title before the colon of *Film Wizardry* (Sibley) and of *A Pop-Up
    Book* (Williamson), and no book's whole title: the more read one had been added to a list.
    Editions of one book (one writer) are that book.
    """
    if len(entries) < 2:
        return
    books = {str(b.id): b for b in catalog.get_many([uuid.UUID(e.book_id) for e in entries])}
    read = [(books[e.book_id], e.popularity) for e in entries if e.book_id in books]
    written = [(b.authors[0] if b.authors else "", p) for b, p in read]
    if not by_several_writers(written):
        return
    top = max(p for _, p in read)
    by_writer: dict[str, Book] = {}
    for book, popularity in read:  # most read first: each writer's most read book names them
        if popularity >= RIVAL_SHARE * top:
            by_writer.setdefault(book.authors[0] if book.authors else "", book)
    named = "; ".join(f"'{b.title}' ({writer})" for writer, b in list(by_writer.items())[:4])
    raise ToolError(f"{said!r} begins the titles of several books ({named}): say which one")


def spelt_title(title: str, titles: TitleMatcher, catalog: BookCatalog) -> str | None:
    """The catalog title `title` misspells ("the dispossesed"), or None when none is close.

    For look-ups only: a guess read by spelling is never acted on (see the module's note).
    """
    closest = titles.closest(title.strip(" \"'“”"))
    book = catalog.get(uuid.UUID(closest)) if closest is not None else None
    return book.title if book is not None else None


def books_spelt_like(
    title: str, cutoff: float, titles: TitleMatcher, catalog: BookCatalog
) -> tuple[tuple[str, str], ...]:
    """(catalog title, first author) of each book whose title is `cutoff` like `title`.

    Closest first; the rules read an author said beside a misremembered title with it ("The
    Thirteenth Story by Diane Setterfield"), and tell a slip of one title from two alike.
    """
    ids = titles.spelt_like(title.strip(" \"'“”"), cutoff)
    books = {str(b.id): b for b in catalog.get_many([uuid.UUID(i) for i in ids])}
    return tuple(
        (books[i].title, books[i].authors[0] if books[i].authors else "") for i in ids if i in books
    )
