"""A book argument as the catalog spells it, and a change's book the catalog does not hold.

The rule policy writes a book's title from the reader's words; before a call leaves, the
title is read the way the catalog spells it ("the tigers wife" -> *The Tiger's Wife*, "lot
forty nine" -> *Lot 49*, the title inside "Finished Water for Elephants"), books by
different writers sharing it are asked about (`SameTitle`), and a change whose book names
no catalog title at all ("the book my friend recommended") is asked about too
(`NotInCatalog`), never sent to fail at the tool. A book the catalog does not hold is first
read from the catalog and the message (`settled`): a close title the author said beside it
confirms, a slip of one title by a plural, a space or a letter, or the title the message holds
where the words taken for the book are none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from lectern.adapters.understanding.compound import title_within, titles_held, titles_in
from lectern.adapters.understanding.described_books import (
    WhichOfTheirs,
    also_named,
    described_book,
    points_at_writer,
)
from lectern.adapters.understanding.described_books import WriterShelf as WriterShelf
from lectern.adapters.understanding.referents import NotInCatalog, SameTitle, Unnamed
from lectern.adapters.understanding.scaffold import number
from lectern.adapters.understanding.slots import name_ended
from lectern.adapters.understanding.spoken import said_forms, with_subtitle
from lectern.application.book_lookup import RIVAL_SHARE, by_several_writers
from lectern.application.understanding import key_of
from lectern.domain.assistant import Message, ToolCall
from lectern.domain.search import SAME_TITLE_SIMILARITY

CatalogBooks = Callable[[str], Sequence[tuple[str, str, int]]]
"""(title, first author, readers) of each catalog book a title names word for word."""
NearBooks = Callable[[str, float], Sequence[tuple[str, str]]]
"""(title, first author) of each catalog book whose title is at least so alike (0-100)."""
BOOK_ID = re.compile(r"^(?:book:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
LOOKUPS = frozenset({"get_book_details", "similar_books"})
"""Book tools that change nothing: the only ones a title read by its spelling may reach."""
CATALOG_BOOK = frozenset({"add_to_list", "rate_book", "propose_correction"})
"""Changes whose book must be a catalog book: one that names none is asked about, not sent."""
_DESCRIBED = re.compile(
    r"^(?:the|that|this)\s+(?:one|book|novel|story)\s+(?:(?:that|which|who)\s+)?"
    r"(?:my|i|you|he|she|they|we|his|her|our|their|someone|somebody|everyone|[\w-]+['’]s)\s+\w",
    re.I,
)
"""A book described, not named: "the one my sister liked", "the book you recommended". The
words after "the one" are who said or did what about it, so no title is looked for inside
("put the one my sister liked on Summer" added the book *The One*, found trying it by hand):
which book is asked."""
_IT_SAID = re.compile(r"^(?:it|this|that|this book|that book|this one|that one)$", re.I)


class CatalogSpelling:
    """What the catalog makes of a book argument (without a catalog, the words as said)."""

    def __init__(
        self,
        books: CatalogBooks | None,
        spelt: Callable[[str], str | None] | None,
        near: NearBooks | None = None,
        writers: WriterShelf | None = None,
        is_writer: Callable[[str], bool] | None = None,
    ) -> None:
        """`books` names catalog books word for word; `spelt` reads a misspelt title.

        `near` lists the books a misremembered title may mean (`settled` reads them);
        `writers` and `is_writer` read a book said by its writer and what it is about.
        """
        self.books_titled = books
        self.spelt = spelt
        self.near = near
        self._read: set[str] = set()
        """Titles the spelling matcher gave: catalog titles, so bounded by the catalog."""
        self.writers = writers
        self.is_writer = is_writer
        self._which: dict[str, NotInCatalog] = {}
        """The question for each described book of the calls `settled` last read."""

    def as_argument(self, tool: str, book: str) -> str:
        """The book argument of `tool` as the catalog spells it.

        A misspelling is read for a look-up only; a change takes only a title said whole
        without its subtitle ("Team of Rivals" for "Team of Rivals: The ...").
        """
        spelt = self.as_catalog_spells(book)
        if self.spelt is not None and not self.holds(spelt) and not self._points_at_writer(book):
            read = self.spelt(spelt)
            told = _RUN_ON.search(spelt) if tool in LOOKUPS and read is None else None
            if told is not None and told.start() > 0:
                # "how many pages is anna karen nina i need to know what im getting into":
                # the reader's own clause runs on after the title, unpunctuated
                read = self.spelt(spelt[: told.start()])
            ended = name_ended(spelt) if tool in LOOKUPS and read is None else spelt
            if ended != spelt:
                # "who wrote Good Omens again?? I can never remember ...": the title ends
                # at the reminder and the sentence after it
                read = self.spelt(ended)
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
            if call.name in MISREMEMBERED and isinstance(book, str) and book in self._which:
                return self._which[book]  # "the Ishiguro butler one": which of theirs is asked
            if call.name not in CATALOG_BOOK or not isinstance(book, str):
                continue
            if book in self._read or self.holds(book) or _IT_SAID.match(book):
                continue
            like = self.spelt(book) if self.spelt else None
            if like is not None and key_of(like)[: len(key_of(book))] == key_of(book):
                continue  # "Ready Player" for *Ready Player One*: the tool reads a title's start
            return NotInCatalog(book, like)
        return None

    def settled(self, calls: Sequence[ToolCall], said: str) -> list[ToolCall]:
        """The calls about to leave, each book the catalog does not hold read from `said`.

        Read on the calls the plan settled on, as `not_in_catalog` is: a close title its
        author, said beside it, confirms ("The Distant Hour by Kate Morton"); a title slipped
        by a plural, a space or one letter in a long title ("the poisonwood bibles"); or the
        catalog title the message holds where the words taken for the book are none
        ("crucible we finished"). Anything less plain is left to be asked about.
        """
        if self.books_titled is None:
            return list(calls)
        settled: list[ToolCall] = []
        self._which = {}
        for call in calls:
            book, named = call.arguments.get("book"), call.arguments.get("list")
            read = None
            if call.name in MISREMEMBERED and isinstance(book, str) and not self._named(book):
                read = (
                    self._described(book, said)
                    or self._by_author(book, said)
                    or self._alike(book)
                    or self._held(book, said, named if isinstance(named, str) else "")
                )
            arguments = call.arguments if read is None else {**call.arguments, "book": read}
            settled.append(ToolCall(call.id, call.name, arguments))
            more = also_named(book) if read is not None and isinstance(book, str) else None
            also = self._one_book(more) if more else None
            if also:
                # "put the Gaiman graveyard one and Coraline on Kids": Coraline too
                settled.append(ToolCall(f"{call.id}-and", call.name, {**arguments, "book": also}))
        return settled

    def looked_up_unnamed(self, calls: Sequence[ToolCall]) -> Unnamed | None:
        """The first look-up whose book names no catalog title, read by meaning, or None.

        "I think I'd like to clear the decks and try afresh" read nearest `similar_books`
        sent its words as the book: a look-up of no book answers nothing, so which book is
        asked. Called on the calls `settled` has read (a book it could read is a catalog
        title by then), for a plan the layer read by meaning; a pattern's look-up of an
        unknown title is left to the tool's own "no book titled ...".
        """
        for call in calls:
            book = call.arguments.get("book")
            if call.name in LOOKUPS and isinstance(book, str) and not self._named(book):
                return Unnamed(book)  # its words are no title: not quoted back as one
        return None

    def wrote(self, title: str, writer: str) -> bool:
        """Whether a catalog book titled `title` is by `writer` ("Austen": Jane Austen)."""
        named = set(key_of(writer))
        if not named or self.books_titled is None:
            return False
        return any(named <= set(key_of(author)) for _, author, _ in self.books_titled(title))

    def _named(self, book: str) -> bool:
        """Whether `book` needs no reading.

        A catalog title (or id), a pointer ("it"), or a book described ("the one with the
        whale": read, or asked, later).
        """
        return (
            self.books_titled is None
            or book in self._read
            or self.holds(book)
            or bool(_IT_SAID.match(book) or _DESCRIBED.match(book))
        )

    def _points_at_writer(self, book: str) -> bool:
        """Whether `book` is a writer's name and words about it: no title is read inside."""
        if self.writers is None or self.is_writer is None:
            return False
        return points_at_writer(book, self.writers, self.is_writer, self.holds)

    def _described(self, book: str, said: str) -> str | None:
        """The writer's book `book` describes ("the Orwell farm one"), or None.

        Several of their books fitting, or none, leave the question `not_in_catalog` asks.
        """
        if self.writers is None or self.is_writer is None:
            return None
        try:
            return described_book(book, said, self.writers, self.is_writer, self.holds)
        except WhichOfTheirs as which:
            self._which[book] = which
            return None

    def _by_author(self, book: str, said: str) -> str | None:
        """The one title by the author said beside `book` that is like it, or None."""
        found = _TITLE_BY.match(book) or re.search(
            rf"(?P<title>{re.escape(book)})\s+by\s+(?P<author>{_AUTHOR})", said
        )
        if found is None or self.books_titled is None:
            return None
        wrote = set(key_of(found["author"])) - {"and"}

        def by_them(author: str) -> bool:
            return bool(wrote) and wrote <= set(key_of(author))

        exact = [t for t, author, _ in self.books_titled(found["title"]) if by_them(author)]
        if exact:
            return exact[0]
        near = self.near(found["title"], AUTHOR_CONFIRMS) if self.near else ()
        theirs: dict[tuple[str, ...], tuple[float, str]] = {}
        for title, author in near:
            if by_them(author) and _main_key(title) not in theirs:
                theirs[_main_key(title)] = (_likeness(found["title"], title), title)
        ranked = sorted(theirs.values(), reverse=True)
        if not ranked or (len(ranked) > 1 and ranked[0][0] - ranked[1][0] < AUTHOR_MARGIN):
            return None  # two of the writer's books alike: which one is asked
        return ranked[0][1]

    def slips_to_one(self, words: str) -> bool:
        """Whether `words` slip from one catalog title by a plural, a space or a letter."""
        return self.books_titled is not None and self._alike(words) is not None

    def _alike(self, book: str) -> str | None:
        """The one title `book` slips from by a plural, a space or a letter, or None."""
        if self.near is None:
            return None
        tail = _CAPITALISED_END.sub(r"\g<title>", book)
        for said in dict.fromkeys([book] if self.holds(tail) else [book, tail]):
            slip = _loose(said)
            alike = [t for t, _ in self.near(said, SAME_TITLE_SIMILARITY) if _slipped(slip, t)]
            if len({_main_key(t) for t in alike}) == 1 and not self._by_several(alike):
                return self._one_book(alike[0])
        return None

    def _by_several(self, titles: Sequence[str]) -> bool:
        """Whether titles sharing a main title are books by different authors, not editions.

        "Harry Potter" is the main title of *Film Wizardry* (Sibley) and of *A Pop-Up Book*
        (Reinhart): one of them had been added for "add Harry Potter to TBR".
        """
        if self.books_titled is None:
            return False
        books_titled = self.books_titled
        found = [books_titled(t) for t in dict.fromkeys(titles)]
        return by_several_writers([(f[0][1], f[0][2]) for f in found if f])

    def _held(self, book: str, said: str, named: str) -> str | None:
        """The catalog title the message holds where `book` is no title, or None.

        The title holding the book's first word ("the crucible" for "crucible we
        finished"), else, when none does, the one title of two words or more written in
        capitals ("Special Topics in Calamity Physics"), never one a comparison names
        ("like The Secret History"); a common word alone ("We", "It") is no title here.
        """
        assert self.books_titled is not None
        books_titled = self.books_titled
        listed = set(key_of(named))
        words = said.split()

        def counts(part: str) -> bool:
            content = [w for w in key_of(part) if w not in _COMMON]
            return bool(content) and not set(content) <= listed and bool(books_titled(part))

        found = titles_held(said, counts)
        first = next((w for w in key_of(book) if w not in _COMMON), None)
        holding = [part for _, _, part in found if first in key_of(part)]
        if not holding:
            holding = [
                part
                for start, _, part in found
                if _IN_CAPITALS.fullmatch(part)
                and len([w for w in key_of(part) if w not in _COMMON]) >= 2
                and not (start and _COMPARED.fullmatch(words[start - 1].strip(",")))
            ]
        if len({_main_key(books_titled(p)[0][0]) for p in holding}) != 1:
            return None
        return self._one_book(holding[0])

    def _one_book(self, title: str) -> str | None:
        """The catalog's spelling of `title` when one widely read book has it, else None."""
        found = self.books_titled(title) if self.books_titled else ()
        rivals = [b for b in found if b[2] >= RIVAL_SHARE * found[0][2]]
        return found[0][0] if len(rivals) == 1 else None

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

        def is_or_slips(words: str) -> bool:
            return is_title(words) or self.slips_to_one(words)

        if (
            not found
            and not _DESCRIBED.match(book)
            and not self._points_at_writer(book)
            and len(titles_in(book, is_or_slips)) == 1
            and not self.slips_to_one(book)
        ):
            # Not a run of several titles ("The Shining and Carrie"): one title and more words;
            # nor a slip of one ("the remains of the days" holds *Days*, but means the Day).
            inside = title_within(book, is_title)
            if inside is not None and inside.casefold() in ("it", "this", "that", "them"):
                inside = None  # "who translated it to english": a pointer, though *It* is a title
            found = books_titled(inside) if inside else ()
        if not found:
            return book
        rivals = [b for b in found if b[2] >= RIVAL_SHARE * found[0][2]]
        if len(rivals) > 1:
            raise SameTitle(found[0][0], [b[1] for b in rivals])
        return found[0][0]


_RUN_ON = re.compile(
    r"\s+(?:i|im|i['’]m|ive|i['’]ve|i['’]d|i['’]ll|we|we['’]re|my|cuz|cause|because|since)\s+",
    re.I,
)
"""Where the reader's own clause starts after a title said without a stop: a subject."""
MISREMEMBERED = CATALOG_BOOK | LOOKUPS | {"remove_from_list"}
"""Tools whose book a misremembered title or a span of extra words is read for."""
AUTHOR_CONFIRMS = 70.0
"""How alike a title must be for the author said beside it to confirm it ("The Thirteenth
Story by Diane Setterfield" is 77 like *The Thirteenth Tale*)."""
AUTHOR_MARGIN = 8.0
"""How much closer than the writer's next book the one confirmed must be ("The Distant Hour"
is 96 like *The Distant Hours*; another of Kate Morton's as like would be asked about)."""
_AUTHOR = r"[A-Z](?:\.|[\w'’-]+)(?:\s+[A-Z](?:\.|[\w'’-]+)){0,3}"
"""A writer's name after "by": capitalised words or initials, up to a sentence's end."""
_TITLE_BY = re.compile(r"^(?P<title>.+?)\s+by\s+(?P<author>[^,;]+?)\W*$", re.I)
_CAPITALISED_END = re.compile(
    r"^[a-z][\w\s'’]*?(?<!\blike)(?<!\bthan)(?<!\bby)\s(?P<title>[A-Z].*)$"
)
"""Lower-case words before a capitalised title ("please Don Quijote")."""
_IN_CAPITALS = re.compile(
    r"(?:[A-Z0-9][\w'’-]*)(?:\s+(?:(?:of|the|and|in|a|an|to|on|for|at|with|from|upon)\s+)*"
    r"[A-Z0-9][\w'’-]*)*"
)
_COMPARED = re.compile(
    r"like|than|unlike|as|not|after|of|to|about|similar|by|new|newest|latest|last|next|other|"
    r"another|more",
    re.I,
)
"""A word before a title that compares with it, names it as another's or as a writer's ("by
Stephen King", "the new Stephen King"): not the book meant."""
_COMMON_WORDS = (
    "the a an of and or to in on at for with from by my your our it its this that these those "
    "i me we you he she they them is was be do did have has had not no so but if as all one "
    "book books list lists add put remove take rate read finished"
)
_COMMON = frozenset(_COMMON_WORDS.split())
"""Words too common to make a title held in a message on their own ("We", "It")."""


def _main_key(title: str) -> tuple[str, ...]:
    return key_of(title.split(":")[0])


def _likeness(said: str, title: str) -> float:
    """How alike a title said is to a catalog title by spelling (0-100), articles aside."""
    bare = [_bare(words) for words in (said, title.split(":")[0])]
    return float(fuzz.ratio(*bare))


def _bare(title: str) -> str:
    return " ".join(w for w in key_of(title) if w not in ("the", "a", "an"))


def _loose(title: str) -> str:
    """A title's letters without articles, spaces, hyphens or a closing plural "s"."""
    words = [w for w in key_of(title) if w not in ("the", "a", "an")]
    return "".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words)


def _slipped(slip: str, title: str) -> bool:
    """Whether `slip` is `title` but for plurals and spaces, or one letter in a long title."""
    other = _loose(title.split(":")[0])
    return slip == other or (
        min(len(slip), len(other)) >= 10 and Levenshtein.distance(slip, other) <= 1
    )


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
    graded = _graded_answer(history[-1].content, history[-2].content, answer)
    if graded is not None:
        return graded
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


_STARS_ASKED = re.compile(
    r"^(?:How many stars \(1 to 5\) should I give .+?\?|"
    r"Which book, and how many stars \(1 to 5\)\?)"
)
"""The questions the rules ask when a rating's grade is unsaid (`remarks.ungraded`,
`book_plan`): their suggested replies are "5 stars", "4 stars", "3 stars"."""
_GRADE_ALONE = re.compile(
    r"^\W*(?:(?:i['’]?d\s+say|make\s+it|give\s+it|maybe|just|um+|uh+)\s+)?"
    r"(?P<n>[1-5]|one|two|three|four|five)(?:\s*(?:stars?|/\s*5|out\s+of\s+(?:5|five)))?"
    r"(?:\s*,?\s*(?:please|pls|thanks|thank\s+you))?\W*$",
    re.I,
)
"""A grade answered alone ("4", "four stars please"): an answer naming a book too ("Dune, 4
stars") is a request of its own, read whole, never cut to its grade."""


def _graded_answer(asked: str, request: str, answer: str) -> str | None:
    """The rating request completed with the stars answered to the question after it.

    "rate the secret history" was asked back ("How many stars (1 to 5) should I give the
    secret history?"); "4 stars", "4" or the suggested reply rates it: "rate the secret
    history 4 stars". None when the question was another, or the answer is no grade alone.
    """
    said = answer.strip()
    if not _STARS_ASKED.match(asked) or len(said.split()) > 6 or _NEW_REQUEST.match(said):
        return None
    alone = _GRADE_ALONE.match(said)
    stars = number(alone.group("n"), 0) if alone else 0
    if not stars:
        return None
    return f"{request.strip().rstrip('.!?')} {stars} stars"
