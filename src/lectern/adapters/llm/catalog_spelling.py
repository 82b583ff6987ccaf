"""A book argument as the catalog spells it, and a change's book the catalog does not hold.

The rule policy writes a book's title from the reader's words; before a call leaves, the
title is read the way the catalog spells it ("the tigers wife" -> *The Tiger's Wife*, "lot
forty nine" -> *Lot 49*, the title inside "Finished Water for Elephants"), books by
different writers sharing it are asked about (`SameTitle`), and a change whose book names
no catalog title at all ("the book my friend recommended") is asked about too
(`NotInCatalog`), never sent to fail at the tool.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lectern.adapters.understanding.compound import title_within, titles_in
from lectern.adapters.understanding.referents import NotInCatalog, SameTitle
from lectern.adapters.understanding.spoken import said_forms, with_subtitle
from lectern.application.understanding import key_of
from lectern.domain.assistant import Message, ToolCall

CatalogBooks = Callable[[str], Sequence[tuple[str, str, int]]]
"""(title, first author, readers) of each catalog book a title names word for word."""
BOOK_ID = re.compile(r"^(?:book:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
LOOKUPS = frozenset({"get_book_details", "similar_books"})
"""Book tools that change nothing: the only ones a title read by its spelling may reach."""
CATALOG_BOOK = frozenset({"add_to_list", "rate_book", "propose_correction"})
"""Changes whose book must be a catalog book: one that names none is asked about, not sent."""
_IT_SAID = re.compile(r"^(?:it|this|that|this book|that book|this one|that one)$", re.I)
RIVAL_SHARE = 0.03
"""A book sharing a title is asked about when it has at least this share of the most read
one's readers: Lukyanenko's *Night Watch* (a third of Pratchett's) is, and so are Erin
Hunter's *Into the Wild* (7% of Krakauer's) and Coben's *The Stranger* (8% of Camus's): a
list given the wrong one is a wrong change. Charlotte Brontë's *Emma* fragment (1% of
Austen's) is not. (No book the dev splits expect acted on has a rival between 1% and 25%.)"""


class CatalogSpelling:
    """What the catalog makes of a book argument (without a catalog, the words as said)."""

    def __init__(
        self, books: CatalogBooks | None, spelt: Callable[[str], str | None] | None
    ) -> None:
        """`books` names catalog books word for word; `spelt` reads a misspelt title."""
        self.books_titled = books
        self.spelt = spelt
        self._read: set[str] = set()
        """Titles the spelling matcher gave: catalog titles, so bounded by the catalog."""

    def as_argument(self, tool: str, book: str) -> str:
        """The book argument of `tool` as the catalog spells it.

        A misspelling is read for a look-up only; a change takes only a title said whole
        without its subtitle ("Team of Rivals" for "Team of Rivals: The ...").
        """
        spelt = self.as_catalog_spells(book)
        if self.spelt is not None and not self.holds(spelt):
            read = self.spelt(spelt)
            if read and (tool in LOOKUPS or with_subtitle(read, spelt)):
                self._read.add(read)
                return read
        return spelt

    def not_in_catalog(self, calls: Sequence[ToolCall]) -> NotInCatalog | None:
        """The first change about to be proposed whose book names no catalog title.

        Read on the calls the plan settled on, not while matchers try readings: a matcher
        that tries "Americanah and Homegoing" as one book before splitting it asks nothing.
        """
        if self.books_titled is None:
            return None
        for call in calls:
            book = call.arguments.get("book")
            if call.name not in CATALOG_BOOK or not isinstance(book, str):
                continue
            if book in self._read or self.holds(book) or _IT_SAID.match(book):
                continue
            like = self.spelt(book) if self.spelt else None
            if like is not None and key_of(like)[: len(key_of(book))] == key_of(book):
                continue  # "Ready Player" for *Ready Player One*: the tool reads a title's start
            return NotInCatalog(book, like)
        return None

    def holds(self, book: str) -> bool:
        """Whether the catalog holds `book` as written (or it is an id): no spelling to read."""
        return bool(BOOK_ID.match(book)) or bool(self.books_titled and self.books_titled(book))

    def as_catalog_spells(self, book: str) -> str:
        """The title as the catalog spells it, found inside what was said about it if need be.

        Raises `SameTitle` when books by different authors, each widely read, share it: which
        one is asked, never the more popular one guessed.
        """
        if self.books_titled is None or BOOK_ID.match(book):
            return book
        books_titled = self.books_titled

        def is_title(words: str) -> bool:
            return bool(books_titled(words))

        found = books_titled(book)
        for said in () if found else said_forms(book):
            found = books_titled(said)  # "lot forty nine" for *Lot 49*, and the like
            if found:
                break
        if not found and "&" in book:
            # "Crime & Punishment": an ampersand written for the title's "and".
            book = re.sub(r"\s*&\s*", " and ", book)
            found = books_titled(book)
        if not found and len(titles_in(book, is_title)) == 1:
            # Not a run of several titles ("The Shining and Carrie"): one title and more words.
            inside = title_within(book, is_title)
            found = books_titled(inside) if inside else ()
        if not found:
            return book
        rivals = [b for b in found if b[2] >= RIVAL_SHARE * found[0][2]]
        if len(rivals) > 1:
            raise SameTitle(found[0][0], [b[1] for b in rivals])
        return found[0][0]


_ASKED = re.compile(
    r"^I can't find (?:a book called )?(?P<q>['\"])(?P<said>.+?)(?P=q) in the catalog\. "
    r"(?:Did you mean (?P<q2>['\"])(?P<like>.+?)(?P=q2)\?|Which book do you mean\?)"
)
"""The question `NotInCatalog` asks (its quotes are Python's: a title with an apostrophe is in
double quotes)."""
_YES = re.compile(r"^(?:y|yes|yeah|yep|yup|sure|ok|okay|correct|right|that one|exactly)\W*$", re.I)
_NEW_REQUEST = re.compile(
    r"^(?:no|nope|never\s*mind|forget\s+it|cancel|stop|add|put|rate|remove|delete|show|find|"
    r"search|recommend|tell|what|who|which|how|list|create|make|rename|give|get|open|can|could|"
    r"please)\b",
    re.I,
)
"""An answer that is no title: a refusal, or a request of its own."""


def answered_request(history: Sequence[Message], answer: str) -> str | None:
    """The request a which-book question was about, with the book the reader answered.

    "add the secret histery to Gifts" was asked back ("Did you mean 'The Secret History'?");
    "yes", or the title offered as a suggested reply, or another title, completes that
    request: "add The Secret History to Gifts". None when the last reply asked nothing of
    the kind, or the answer is a refusal or a request of its own.
    """
    if len(history) < 2 or history[-1].role != "assistant" or history[-2].role != "user":
        return None
    asked = _ASKED.match(history[-1].content)
    said = answer.strip()
    if asked is None or not said or len(said.split()) > 12 or _NEW_REQUEST.match(said):
        return None
    if _YES.match(said):
        if not asked["like"]:
            return None
        said = asked["like"]
    request = history[-2].content
    where = request.casefold().find(asked["said"].casefold())
    if where < 0:
        return None
    return request[:where] + said.strip(" .!?") + request[where + len(asked["said"]) :]
