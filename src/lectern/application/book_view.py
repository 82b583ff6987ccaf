"""A book as a model sees it: the one view every model-facing tool shows.

The assistant's tools, the search fallback's tools and its request all show a book this
way, so a model (or an offline policy) reads the same field names and the same text
wherever it meets a book. Every value is the field's citable text (`Book.field_text`, the
description cut), which is what a reply may quote and what citations are checked on:

    {"book_id", "title", "authors": "A, B", "published_year": "1965", "language",
     "pages": "212", "categories": "Fiction, Classics", "description"}

Empty fields are left out (a book of unknown length has no `pages`: a page limit is not
known to hold for it).
"""

from __future__ import annotations

from lectern.domain.books import Book, JSONValue

DESCRIPTION_CHARS = 600
"""A description is cut here for the model; the cut text is what citations are checked on."""
MAX_CATEGORIES = 8
NAME_SEPARATOR = ", "
"""How `authors` and `categories` join their names (as `Book.field_text` does)."""


def book_fields(book: Book) -> dict[str, str]:
    """The citable text of each field a model is shown (description cut, empty ones left out)."""
    fields = {
        "title": book.field_text("title"),
        "authors": NAME_SEPARATOR.join(book.authors),
        "published_year": "" if book.published_year is None else str(book.published_year),
        "language": book.language or "",
        "pages": "" if book.pages is None else str(book.pages),
        "categories": NAME_SEPARATOR.join(book.categories[:MAX_CATEGORIES]),
        "description": _cut(book.description or ""),
    }
    return {name: value for name, value in fields.items() if value}


def book_json(book: Book, *, with_description: bool = True) -> dict[str, JSONValue]:
    """A book as a model sees it: its id and `book_fields` (without the description if asked)."""
    data: dict[str, JSONValue] = {"book_id": str(book.id)}
    for name, text in book_fields(book).items():
        if name == "description" and not with_description:
            continue
        data[name] = text
    return data


def _cut(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0]
