"""Look books up the way people name them: an ISBN in any form, or a book id."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from lectern.application.ports import BookCatalog
from lectern.domain.books import Book, CatalogEntry
from lectern.domain.normalize import parse_isbn_query
from lectern.errors import BookNotFoundError


@dataclass(frozen=True, slots=True)
class BookView:
    """A catalog entry shaped for display."""

    entry: CatalogEntry

    def fields(self) -> list[tuple[str, str]]:
        """(field, value) pairs of the fields that have a value, in reading order."""
        book = self.entry.book
        rows = [
            ("id", str(book.id)),
            ("title", book.title),
            ("subtitle", book.subtitle or ""),
            ("authors", ", ".join(book.authors)),
            ("published_year", "" if book.published_year is None else str(book.published_year)),
            ("pages", "" if book.pages is None else str(book.pages)),
            ("language", book.language or ""),
            ("isbn13", book.isbn13 or ""),
            ("isbn10", book.isbn10 or ""),
            ("categories", ", ".join(book.categories)),
            ("description", book.description or ""),
        ]
        rows.extend((f"metadata.{k}", str(v)) for k, v in sorted(book.metadata.items()))
        return [(name, value) for name, value in rows if value]

    def to_json(self) -> dict[str, object]:
        """A JSON-ready form with the book, identifiers, provenance and sources."""
        book = self.entry.book
        return {
            "book": {**asdict(book), "id": str(book.id), "metadata": dict(book.metadata)},
            "identifiers": list(self.entry.identifiers),
            "provenance": [asdict(p) for p in self.entry.provenance],
            "sources": [asdict(s) for s in self.entry.sources],
        }


def find_book(catalog: BookCatalog, isbn_or_id: str) -> BookView:
    """The book named by an ISBN-10, ISBN-13 (hyphens allowed) or a book id."""
    text = isbn_or_id.strip()
    if not text or len(text) > 64:
        raise BookNotFoundError("give an ISBN-10, an ISBN-13 or a book id")
    book = None
    try:
        book = catalog.get(uuid.UUID(text))
    except ValueError:
        if parse_isbn_query(text) is None:
            raise BookNotFoundError(
                f"{text!r} is neither a valid ISBN (check digit included) nor a book id"
            ) from None
        book = catalog.get_by_isbn(text)
    entry = catalog.get_entry(book.id) if book else None
    if entry is None:
        raise BookNotFoundError(f"no book in the catalog matches {text!r}")
    return BookView(entry)


def books_by_id(catalog: BookCatalog, ids: Iterable[str]) -> dict[str, Book]:
    """The catalog's books among these ids, by id (ids that are not UUIDs are skipped)."""
    parsed = []
    for text in dict.fromkeys(ids):
        try:
            parsed.append(uuid.UUID(text))
        except ValueError:
            continue
    return {str(book.id): book for book in catalog.get_many(parsed)} if parsed else {}
