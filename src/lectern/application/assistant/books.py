"""Books as the assistant names them (by id or by title) and the evidence its replies may quote.

What a model is shown of a book is `application/book_view.py`, shared with the fallback.
"""

from __future__ import annotations

import uuid

from lectern.application.assistant.tools import ToolDeps
from lectern.application.book_view import book_fields
from lectern.application.understanding import key_of
from lectern.domain.assistant import book_source
from lectern.domain.books import Book
from lectern.domain.search import SearchQuery
from lectern.errors import InvalidQueryError, ToolError


def resolve_book(deps: ToolDeps, reference: str) -> Book:
    """The book a reference names: a book id, else a title (the most popular edition)."""
    text = reference.strip()
    if not text:
        raise ToolError("name a book by its id or its title")
    try:
        book = deps.catalog.get(uuid.UUID(text))
    except ValueError:
        book = None
    else:
        if book is None:
            raise ToolError(f"no book with id {text} in the catalog")
        return book
    book = _by_title(deps, text)
    if book is None:
        raise ToolError(f"no book titled {text!r} in the catalog")
    return book


def _by_title(deps: ToolDeps, title: str) -> Book | None:
    key = key_of(title.strip(" \"'“”"))
    if not key:
        return None
    bare = key[1:] if key[:1] == ("the",) else key
    if deps.vocabulary is not None:
        vocabulary = deps.vocabulary
        entry = (
            vocabulary.best_title(key)
            or vocabulary.best_title(bare)
            or vocabulary.best_title(("the", *bare))
        )
        if entry is not None:
            return deps.catalog.get(uuid.UUID(entry.book_id))
    try:
        found = deps.searcher().search(SearchQuery(text=title, max_results=10), mmr_lambda=None)
    except (InvalidQueryError, ToolError):
        return None
    for result in found.results:  # an exact title first, then one that starts with it
        if key_of(result.book.title) in (key, bare, ("the", *bare)):
            return result.book
    for result in found.results:
        if key_of(result.book.title)[: len(bare)] == bare:
            return result.book
    return None


def book_evidence(book: Book) -> dict[str, str]:
    """Source key -> text for every field shown: what a reply may quote."""
    return {book_source(str(book.id), name): text for name, text in book_fields(book).items()}
