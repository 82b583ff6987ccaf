"""A book named by its writer and what it is about, or by one word of its title.

"put the Ishiguro butler one on Book Club", "rate the Orwell farm one a 4", "what's that
Tartt one about, the one with the painting", "put that Gatsby book on my TBR": no title is
said. The writer's catalog books are read for the words said about the book: first their
titles ("farm" -> *Animal Farm*), then their shelves and descriptions ("war" ->
*Slaughterhouse-Five*, shelved "war", "world war ii", "war stories" ...). One clear book is
the book; several, or none, are asked about, naming the writer's books. A writer alone ("the
Christie novel") is still asked (`referents`), and a word of a title alone names a book only
when one widely read title holds it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.referents import NotInCatalog
from lectern.application.book_lookup import RIVAL_SHARE
from lectern.application.understanding import key_of
from lectern.application.writers_books import WrittenBook

CLEAR_LEAD = 3
"""How many times more of a book's shelves and description must hold the words than of any
rival's for it to be the one meant ("war": *Slaughterhouse-Five* on seven war shelves,
*Mother Night* on one)."""
ASKED_NAMES = 3
"""How many of the writer's books a question names."""

_POINTED = re.compile(
    r"^(?:the|that|this)\s+(?P<said>[\w.'’-]+(?:\s+[\w.'’-]+){0,5}?)\s+"
    r"(?:one|book|novel|story)\b(?P<after>.*)$",
    re.I,
)
"""A book pointed at by words before "one" ("the Ishiguro butler one", "that Gatsby book")."""
_ABOUT = re.compile(
    r"\b(?:the\s+one|one|book|novel)\s*,?\s+(?:about|with|where|set\s+in|that\s+has)\s+"
    r"(?P<what>[^,.;!?]+)",
    re.I,
)
"""What a book is said to be about after it: "..., the one with the painting"."""
_NOT_ABOUT_WORDS = (
    "the a an of about with where set in on that has is was my his her their some please "
    "one book novel story kids kid old new other"
)
_NOT_ABOUT = frozenset(_NOT_ABOUT_WORDS.split())
"""Words that say nothing of which book is meant."""


class WriterShelf(Protocol):
    """The catalog's books by writer and titles by word (`application.writers_books`)."""

    def books_by(self, name: str) -> Sequence[WrittenBook]:
        """The writer's books, most read first."""
        ...

    def titled_with(self, word: str) -> Sequence[tuple[str, int]]:
        """(title, readers) of every book whose title holds the word, most read first."""
        ...


class WhichOfTheirs(NotInCatalog):
    """A writer's book described so that several of their books, or none, fit: asked."""

    def __init__(self, author: str, books: Sequence[str], fits: bool) -> None:
        """`books`: the titles to name; `fits`: whether they fit the words, or are only theirs."""
        super().__init__(author, None)
        names = ", ".join(books[:-1]) + f" or {books[-1]}" if len(books) > 1 else books[0]
        if fits:
            text = f"Which book by {author} do you mean: {names}?"
        else:
            text = f"I can't tell which book by {author} you mean. Is it {names}, or another?"
        self.question = Clarification(text, tuple(books))


def _stem(word: str) -> str:
    word = re.sub(r"['’]s$", "", word.casefold())
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[\w'’]+", text)}


def _holds(text: str, words: Sequence[str]) -> bool:
    found = _stems(text)
    return all(w in found for w in words)


def _mentions(book: WrittenBook, words: Sequence[str]) -> int:
    """How many of a book's shelves hold the words, and how often its description does."""
    shelves = sum(1 for c in book.categories if _holds(c, words))
    told = [_stem(w) for w in re.findall(r"[\w'’]+", book.description)]
    return shelves + min(told.count(w) for w in words)


def _collapsed(books: Sequence[WrittenBook]) -> list[WrittenBook]:
    """One entry per title (its most read edition), without titles holding another whole.

    "Animal Farm / 1984" and "CliffsNotes on ... The Great Gatsby" hold a title that
    matches too: the book itself is meant.
    """
    keys = {key_of(b.title.split(":")[0]) for b in books}
    seen: set[tuple[str, ...]] = set()
    kept = []
    for book in sorted(books, key=lambda b: -b.popularity):
        key = key_of(book.title.split(":")[0])
        if key in seen or any(_within(other, key) for other in keys if other != key):
            continue
        seen.add(key)
        kept.append(book)
    return kept


def _within(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    size = len(short)
    return 0 < size < len(long) and any(
        long[i : i + size] == short for i in range(len(long) - size + 1)
    )


def _rivals(books: Sequence[WrittenBook]) -> list[WrittenBook]:
    if not books:
        return []
    top = max(b.popularity for b in books)
    return [b for b in books if b.popularity >= RIVAL_SHARE * top]


def fitting(words: Sequence[str], books: Sequence[WrittenBook]) -> list[WrittenBook]:
    """The writer's books the words fit, the one meant alone when one is clearly meant.

    A title holding the words ("farm") is meant unless a more widely read book's shelves or
    description hold them ("the Christie train one": *The Mystery of the Blue Train*, or
    *Murder on the Orient Express*? asked); else one book is meant when its mentions of the
    words lead every rival's `CLEAR_LEAD` times over.
    """
    stems = [_stem(w) for w in words]
    pool = _rivals(_collapsed([b for b in books if _holds(b.title, stems) or _mentions(b, stems)]))
    titled = [b for b in pool if _holds(b.title, stems)]
    if titled:
        above = [b for b in pool if b.popularity > titled[0].popularity and b not in titled]
        return sorted([*titled, *above], key=lambda b: -b.popularity)
    ranked = sorted(pool, key=lambda b: (-_mentions(b, stems), -b.popularity))
    if len(ranked) > 1 and _mentions(ranked[0], stems) >= CLEAR_LEAD * _mentions(ranked[1], stems):
        return ranked[:1]
    return ranked


def points_at_writer(
    book: str, shelf: WriterShelf, is_writer: Callable[[str], bool], is_title: Callable[[str], bool]
) -> bool:
    """Whether `book` is a writer's name and words about the book ("the Orwell farm one")."""
    pointed = _POINTED.match(book.strip())
    return pointed is not None and bool(_writer_said(pointed["said"], shelf, is_writer, is_title))


def _writer_said(
    said: str, shelf: WriterShelf, is_writer: Callable[[str], bool], is_title: Callable[[str], bool]
) -> str | None:
    """The writer's name `said` starts with, when words about the book follow it, or None.

    A name read only by its capital ("Tolkien") is followed by words in lower case, and no
    catalog title runs on from the name ("the Green Mile one" is *The Green Mile*).
    """
    words = said.split()
    writer = _writer(words, _writer_known(shelf, is_writer))
    if writer is None:
        return None
    size = len(writer.split())
    if not is_writer(writer) and any(w[:1].isupper() for w in words[size:]):
        return None  # "the Green Dragon one": words in capitals after a name are a title's
    if any(is_title(" ".join(words[:end])) for end in range(size + 1, len(words) + 1)):
        return None
    return writer


def also_named(book: str) -> str | None:
    """The book named after a described one ("the Gaiman graveyard one and Coraline")."""
    pointed = _POINTED.match(book.strip())
    more = re.match(r"^\s*,?\s*(?:and|&)\s+(?P<more>\S.*)$", pointed["after"]) if pointed else None
    return more["more"].strip() if more else None


def _writer(words: Sequence[str], is_writer: Callable[[str], bool]) -> str | None:
    """The writer's name the words start with, when more words follow it."""
    for size in (2, 1):
        if len(words) > size and is_writer(" ".join(words[:size])):
            return " ".join(words[:size])
    return None


def described_book(
    book: str,
    said: str,
    shelf: WriterShelf,
    is_writer: Callable[[str], bool],
    is_title: Callable[[str], bool],
) -> str | None:
    """The catalog title a book said by its writer and what it is about means, or None.

    None when `book` is not such a description (a title, "it"); `WhichOfTheirs` is raised
    when several of the writer's books fit the words, or none does.
    """
    pointed = _POINTED.match(book.strip())
    if pointed is None and is_writer(book):
        # "what's that Tartt one about, ...": the book was taken as the writer's name
        pointed = re.search(
            rf"\b(?:the|that|this)\s+(?P<said>{re.escape(book)})\s+(?:one|book|novel)\b(?P<after>.*)",
            said,
            re.I,
        )
    if pointed is None:
        return None
    words = pointed["said"].split()
    writer = pointed["said"] if is_writer(pointed["said"]) else None
    writer = writer or _writer_said(pointed["said"], shelf, is_writer, is_title)
    if writer is None:
        return _one_titled(words, shelf)
    rest = words[len(writer.split()) :]
    about = [w for w in key_of(" ".join(rest)) if w not in _NOT_ABOUT]
    if not about:
        after = _ABOUT.search(pointed["after"]) or _ABOUT.search(said)
        about = [w for w in key_of(after["what"]) if w not in _NOT_ABOUT] if after else []
    if not about:
        return None  # "the Christie novel": which of their books is asked as before
    theirs = shelf.books_by(writer)
    if not theirs:
        return None
    fit = fitting(about, theirs)
    if len(fit) == 1:
        return fit[0].title
    author = (fit or theirs)[0].author
    named = [b.title for b in (fit or _collapsed(theirs))[:ASKED_NAMES]]
    raise WhichOfTheirs(author, named, bool(fit))


def _writer_known(shelf: WriterShelf, is_writer: Callable[[str], bool]) -> Callable[[str], bool]:
    """`is_writer`, or a capitalised name the catalog holds books by ("the Tolkien dragon one").

    A surname that is also a title ("Tolkien", "King") is no writer to `names_an_author`;
    written with a capital before the words about the book, it is.
    """

    def known(name: str) -> bool:
        return is_writer(name) or (
            bool(re.fullmatch(r"[A-Z][\w.'’-]+", name)) and bool(shelf.books_by(name))
        )

    return known


def _one_titled(words: Sequence[str], shelf: WriterShelf) -> str | None:
    """The one widely read title holding the one capitalised word said ("that Gatsby book")."""
    if len(words) != 1 or not words[0][:1].isupper() or words[0].casefold() in _NOT_ABOUT:
        return None
    titles = shelf.titled_with(words[0])
    books = [WrittenBook(t, "", (), "", n) for t, n in titles]
    found = _rivals(_collapsed(books))
    return found[0].title if len(found) == 1 else None
