"""Books as the assistant names them and the evidence its replies may quote.

Which book a reference names is `application/book_lookup.py`, and what a model is shown of
a book is `application/book_view.py`: both shared with the search fallback.
"""

from __future__ import annotations

from lectern.application.assistant.tools import ToolDeps
from lectern.application.book_lookup import resolve_book as lookup
from lectern.application.book_view import book_fields
from lectern.domain.assistant import book_source
from lectern.domain.books import Book


def resolve_book(deps: ToolDeps, reference: str) -> Book:
    """The book a reference names: a book id, else a title (the most popular edition)."""
    return lookup(reference, deps.catalog, deps.searcher, deps.vocabulary)


def book_evidence(book: Book) -> dict[str, str]:
    """Source key -> text for every field shown: what a reply may quote."""
    return {book_source(str(book.id), name): text for name, text in book_fields(book).items()}
