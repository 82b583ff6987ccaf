"""How a book becomes a passage for the lexical index and for the embedder.

Order is most signal first: title and subtitle, authors, categories, then the description.
The embedder's window is 256 word pieces; the embed text keeps the first
`EMBED_DESCRIPTION_WORDS` words of the description so that title, authors and categories
are never the part that gets cut. The lexical text keeps the whole description.
"""

from __future__ import annotations

from dataclasses import dataclass

from lectern.domain.books import Book
from lectern.domain.normalize import edition_group
from lectern.domain.retrieval import Passage

EMBED_DESCRIPTION_WORDS = 150
"""About 200 word pieces of description after ~40 of title, authors and categories."""
MAX_AUTHORS = 3
MAX_CATEGORIES = 40
"""The lexical text keeps the specific shelves (`heist`) that come after the common ones."""
EMBED_CATEGORIES = 12
"""The embed text keeps the most used ones, so the description still fits the window."""


@dataclass(frozen=True, slots=True)
class FieldWeights:
    """How many times each field is written into the lexical text (BM25F by repetition).

    BM25 has one field; repeating a field multiplies its term frequencies, which weights it
    the way BM25F's per-field boosts do (saturated by k1, and lengthening the passage).
    The embed text never repeats anything.
    """

    title: int = 1
    authors: int = 1
    categories: int = 1


LEXICAL_FIELD_WEIGHTS = FieldWeights(title=1, authors=2, categories=2)
"""Chosen on the shelf benchmark's dev split (docs/evaluation.md): authors and shelves twice
lift plain BM25's nDCG@10 0.484 -> 0.504 and the default search's 0.399 -> 0.424; the title
twice costs (0.483)."""


def _with_categories(head: str, categories: tuple[str, ...]) -> str:
    return f"{head}. Categories: {', '.join(categories)}" if categories else head


def book_passage(book: Book, weights: FieldWeights = LEXICAL_FIELD_WEIGHTS) -> Passage:
    """The passage of a book: id is the book id, group its edition group."""
    title = f"{book.title}: {book.subtitle}" if book.subtitle else book.title
    parts = [title]
    by = "by " + ", ".join(book.authors[:MAX_AUTHORS]) if book.authors else ""
    if by:
        parts.append(by)
    head = ". ".join(parts)
    embed_prefix = _with_categories(head, book.categories[:EMBED_CATEGORIES])
    lexical_parts = [title] * weights.title + ([by] * weights.authors if by else [])
    lexical_prefix = ". ".join(lexical_parts)
    for _ in range(weights.categories):
        lexical_prefix = _with_categories(lexical_prefix, book.categories[:MAX_CATEGORIES])
    description = book.description or ""
    lexical = f"{lexical_prefix}. {description}" if description else lexical_prefix
    words = description.split()
    short = " ".join(words[:EMBED_DESCRIPTION_WORDS])
    embed = f"{embed_prefix}. {short}" if short else embed_prefix
    group = edition_group(book.title, book.authors[0] if book.authors else None)
    return Passage(id=str(book.id), text=lexical, embed_text=embed, group=group)
