"""What a book request points at: "it", "this book", "these", "the Christie novel".

"It" and "this book" mean the page's book, else the last book a reply cited; in a later
clause of a compound request, the book an earlier clause named. "These" (several books)
and "the Ishiguro one" (an author, not a title) are never guessed: the resolver raises
`_NoReferent`, and `which_book` is the question to ask instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lectern.adapters.understanding.layer import Clarification, name_it
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.scaffold import clean as _clean
from lectern.domain.assistant import Message

_BOOK_ID = re.compile(r"book:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})#")
_PAGE_BOOK = re.compile(r"on a book page.*?\(id ([0-9a-f-]{36})\)")
_IT = re.compile(
    r"^(?:it|this|this book|that|that book|that one|this one|the book)$"
    # "the year here is wrong", "the date on this page": the book in view
    r"|^(?:(?:on\s+)?here|(?:on\s+)?(?:this|the)\s+page)$"
    # "that one you mentioned", "the book you suggested": the one the talk so far named
    r"|^(?:that|this|the)\s+(?:one|book|novel|title)\s+(?:you|u)\s+(?:just\s+)?"
    r"(?:mentioned|said|suggested|recommended|showed|listed|named|found|gave)\b.*$",
    re.I,
)
_POINTER_THEN_MARK = re.compile(
    r"^(?P<pointer>it|this|that|(?:this|that)\s+(?:book|one|novel))\s*[?!.,;:]+(?:\s|$)", re.I
)
"""A pointer the sentence ends after ("this?? asking for my book club"): the pointer alone,
never a catalog title that starts with its words (*This is Where I Leave You*)."""
_THESE = re.compile(
    r"^(?:these|those|them|these books|those books|all of them|them all|both|both of them|"
    r"them both|the two of them|both books|the two|all (?P<count>two|three|four|five|six)"
    r"(?: of them)?)$",
    re.I,
)
"""Several books meant by pointing: the books of the list just shown, else asked."""
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


_ANY = re.compile(
    r"^(?:a|an|one|some|any|another)\s+(?:other\s+)?(?:book|novel|title|read)$|^something$"
    # "the other one": which other is never guessed
    r"|^(?:the\s+)?other\s+(?:one|book|novel|title)$|^another\s+one$",
    re.I,
)
"""A book not yet chosen ("move a book from X to Y"): which one is asked, never a title."""
_BY_AUTHOR = re.compile(
    r"^the\s+(?P<who>[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*)\s+(?:one|book|novel)$"
)
"""A book named by its author's name ("the Christie novel"), not by a title."""


_SHOWN_LIST = re.compile(r"^Your list (?P<q>['\"])(?P<name>.+?)(?P=q):\s*$", re.M)
_ROW = re.compile(r"^\d+\.\s+(?P<title>.+?)\s*$", re.M)
PLACES = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
    "fifth": 5,
    "5th": 5,
    "sixth": 6,
    "6th": 6,
    "seventh": 7,
    "7th": 7,
    "eighth": 8,
    "8th": 8,
    "ninth": 9,
    "9th": 9,
    "tenth": 10,
    "10th": 10,
}
"""A place said as a word, and the place it is: the one home of place words."""
PLACE_WORD = "|".join([*PLACES, "last"])
"""A place said as a word, for a pattern ("the second one", "the last task")."""
_ORDINAL = re.compile(
    rf"^(?:the\s+)?(?P<nth>{PLACE_WORD})"
    r"(?:\s+(?:one|book|novel|title|entry|on\s+(?:the|that|my)\s+list))?"
    # "the first one, Gilead": the reader named it as well
    r"(?:\s*[,(:–—-]\s*(?P<named>[^,()]+?)\)?)?$"
    r"|^(?:number|no\.?|#)\s*(?P<n>[1-9])$",
    re.I,
)
"""A book pointed at by its place in what was just shown ("the second one", "number 3")."""


def _last_reply(history: Sequence[Message]) -> str | None:
    return next((m.content for m in reversed(history) if m.role == "assistant"), None)


def shown_list(history: Sequence[Message]) -> tuple[str, list[str]] | None:
    """The list the last reply showed, with its books in order, or None.

    After "what's on my Austen list?", "take Emma off it" and "remove the second one" mean
    that list and its second book.
    """
    reply = _last_reply(history)
    found = _SHOWN_LIST.search(reply or "")
    if reply is None or found is None:
        return None
    rows = [row.group("title") for row in _ROW.finditer(reply[found.end() :])]
    return found.group("name"), rows


_MADE_LIST = re.compile(
    r"^(?:\d+\.|Done:)\s+(?:Create the reading list|Rename the list (?P<q0>['\"]).+?(?P=q0) to)\s+"
    r"(?P<q>['\"])(?P<name>.+?)(?P=q)",
    re.M,
)
"""A list the last reply proposed (or, approved, made) or renamed to, in the preview's words."""


def list_in_view(history: Sequence[Message]) -> str | None:
    """The list the last reply showed, else the one list it proposed to make or rename to.

    After "create a list called Cosy", "add The Rosie Project to it" means Cosy.
    """
    shown = shown_list(history)
    if shown is not None:
        return shown[0]
    made = {m.group("name") for m in _MADE_LIST.finditer(_last_reply(history) or "")}
    return made.pop() if len(made) == 1 else None


_TRAILED_OFF = re.compile(
    r"(?:\.\.\.|…)\s*(?:\w+\W*){0,3}?\b(?:you\s+know|ugh|um+|erm|whatsit|thingy|"
    r"what['’]?s\s+it\s+called|whatever\s+it['’]?s\s+called|i\s+forget|can['’]?t\s+remember)\b"
    # "the one with the white whale": a book told by what is in it, not the title *The One*
    r"|^(?-i:the\s+one)\s+(?:with|where|about|that|who|in\s+which)\b",
    re.I,
)
"""A name the reader trailed off from ("the one with the... ugh. you know.") or left unsaid,
telling the book by what happens in it."""


class _NoReferent(Exception):
    """'it' or 'this book' with nothing it can mean, or 'the Ishiguro one': ask, never guess."""


class SameTitle(_NoReferent):
    """A title that books by different authors share ("Night Watch"): which one is asked."""

    def __init__(self, title: str, authors: Sequence[str]) -> None:
        """`authors`: the first author of each book of that title, most read first."""
        super().__init__(title)
        self.question = Clarification(
            f"Which {title!r} do you mean: " + " or ".join(f"{a}'s" for a in authors) + "?",
            tuple(f"{title} by {a}" for a in authors),
        )


class NotInCatalog(_NoReferent):
    """A change's book that names no catalog title ("the book my friend recommended").

    Proposing it would fail at the tool ("no book titled ..."), or worse: which book is
    asked, with the title it is spelt like when there is one.
    """

    def __init__(self, said: str, spelt_like: str | None) -> None:
        """`spelt_like`: the catalog title `said` may misspell, if any."""
        super().__init__(said)
        if spelt_like:
            text = f"I can't find {said!r} in the catalog. Did you mean {spelt_like!r}?"
        else:
            text = f"I can't find a book called {said!r} in the catalog. Which book do you mean?"
        self.question = Clarification(text, (spelt_like,) if spelt_like else ())


class Several(_NoReferent):  # noqa: N818 - a referent that is several books, not an error
    """Books meant together ("both of them") right after a list was shown: each of them."""

    def __init__(self, reference: str, books: Sequence[str]) -> None:
        """`books`: the shown list's titles, in order."""
        super().__init__(reference)
        self.books = tuple(books)


class Unnamed(_NoReferent):
    """A book the reader could not name, or told by what is in it: which title is asked."""


def _how_many(reference: str) -> int | None:
    """How many books "both" or "all three" points at; None for "them" or "these"."""
    found = _THESE.match(reference)
    if found is None:
        return None
    if found["count"]:
        return _COUNTS[found["count"].casefold()]
    return 2 if re.search(r"\b(?:both|two)\b", reference, re.I) else None


def which_book(error: _NoReferent) -> Clarification:
    """The question for a book the reader pointed at but did not name."""
    if isinstance(error, (SameTitle, NotInCatalog)):
        return error.question
    who = str(error)
    if isinstance(error, Unnamed):
        return Clarification(
            "Which book do you mean? Tell me its title (or its author), and I'll use that one.",
            (),
        )
    if _IT.match(who):
        return name_it("book", "use")
    if _THESE.match(who):
        return Clarification("Which books do you mean? Name their titles.", ())
    return Clarification(f"Which book by {who} do you mean? Name its title.", ())


_BY_WRITER = re.compile(r"^the\s+(?P<who>[\w.'’-]+(?:\s+[\w.'’-]+)?)\s+(?:one|book|novel)$", re.I)
"""A book named by a writer in any case ("the murakami book"): asked about when the catalog
knows the writer."""
_THE_WRITER = re.compile(r"the\s+(?P<who>[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)?)")
"""A book said as "the" and a name ("the Hosseini"): a writer's, when the name is one."""
_ADVERB_AFTER = re.compile(r"[\s,]+(?:instead|too|as\s+well|also|then|now|itself)$", re.I)


def _part_of(reference: str, title: str) -> bool:
    """Whether `reference` is a shortening of `title` ("the Falcon" of The Maltese Falcon)."""
    said = re.findall(r"[\w'’]+", reference.casefold())
    said = said[1:] if said[:1] == ["the"] else said
    words = re.findall(r"[\w'’]+", title.casefold())
    return bool(said) and len(said) < len(words) and all(w in words for w in said)


def book_resolver(
    history: Sequence[Message],
    system: str,
    text: str = "",
    referent: str | None = None,
    authors: Callable[[str], bool] | None = None,
    title_in: Callable[[str], str | None] = lambda _: None,
    wrote: Callable[[str, str], bool] | None = None,
) -> Callable[[str], str]:
    """'it' and 'this book' mean the page's book, else the book the talk last named.

    "the Austen one" just after a list was shown is the one book of the list `wrote` says
    that writer wrote (`wrote(title, writer)`); with none or several, which one is asked.

    The book the talk last named: the last one a reply cited, else the title the reader's
    last message named (never one of their lists), as `title_in` reads titles.

    In a later clause of a compound request, `referent` (the book an earlier clause
    named) comes first. "It" written with a capital inside a sentence with nothing to
    point at is Stephen King's novel, not a pronoun ("drop It from the horror list").
    """
    page = _PAGE_BOOK.search(system)
    titled_it = re.search(r"(?<=\S\s)It\b", text) is not None
    last: str | None = None
    for message in reversed(history):
        if message.role == "assistant":
            found = _BOOK_ID.findall(message.content)
            if found:
                last = found[0]
                break

    if last is None:
        # "I've just finished Life After Life" answered with no citation, then "rate it":
        # the book the reader's own last message named.
        said = next((m.content for m in reversed(history) if m.role == "user"), "")
        named = title_in(said) if said else None
        lists = {n.casefold() for n in names_from_prompt(system).of("list")}
        last = named if named and named.casefold() not in lists else None
    shown = shown_list(history)
    cited = _BOOK_ID.findall(_last_reply(history) or "")

    def resolve(reference: str) -> str:
        quoted = reference.strip()[:1] in "\"'“‘"
        ended = None if quoted else _POINTER_THEN_MARK.match(reference.strip())
        reference = ended["pointer"] if ended else _clean(reference)
        place = _ORDINAL.match(reference)
        if place and place.group("named"):
            return place.group("named").strip()
        if place and not quoted:
            # "remove the second one": the book at that place in what the last reply showed.
            rows = shown[1] if shown else list(dict.fromkeys(cited))
            nth = place.group("nth")
            at = int(place.group("n") or 0) or PLACES.get((nth or "").casefold(), len(rows))
            if not rows or at > len(rows):
                raise _NoReferent("it")
            return rows[at - 1]
        if not quoted:
            # "add Foundation instead", "and Emma too": the adverb is no part of the title.
            reference = _ADVERB_AFTER.sub("", reference) or reference
        if _THESE.match(reference) and shown and shown[1]:
            count = _how_many(reference)
            if count is None or count == len(shown[1]):
                # "rate both of them 5" after a list was shown: each of its books.
                raise Several(reference, shown[1])
        if _THESE.match(reference) or _ANY.match(reference):
            raise _NoReferent(reference)
        if not quoted and _TRAILED_OFF.search(reference):
            # "add the... the one with the... ugh. you know. to bedtime": the reader could not
            # name it; the catalog's *The One* is no answer to a name left unsaid.
            raise Unnamed(reference)
        if _IT.match(reference):
            if referent:
                return referent
            if reference == "It" and titled_it:
                return reference
            if page is not None:
                return page.group(1)
            if last is not None:
                return last
            # "rate it 4 stars" with no book on the page or in the talk so far.
            raise _NoReferent(reference)
        if referent and _part_of(reference, referent):
            # "add The Maltese Falcon to it and rate the Falcon 4": the title just named.
            return referent
        by_author = _BY_AUTHOR.match(reference)
        if by_author:
            # "the Ishiguro one": an author, not a title; which of their books is open.
            raise _NoReferent(by_author.group("who"))
        by_writer = _BY_WRITER.match(reference)
        if by_writer and authors is not None and authors(by_writer.group("who")):
            # "the murakami book", written in lower case: a writer the catalog knows.
            raise _NoReferent(by_writer.group("who"))
        writer = _THE_WRITER.fullmatch(reference)
        if writer and authors is not None and authors(writer.group("who")):
            # "take the Brontë off my list": a writer the catalog knows, and no title.
            raise _NoReferent(writer.group("who"))
        return reference

    def resolved(reference: str) -> str:
        head = re.split(r"\s*[,;–—]\s*", reference.strip(), maxsplit=1)[0]
        if head != reference.strip() and _BY_AUTHOR.match(_clean(head)):
            reference = head  # "remove the Dickens one, too gloomy": the remark is no part
        try:
            return resolve(reference)
        except _NoReferent as error:
            # "remove the Austen one" just after the list was shown: its one Austen
            theirs = (
                [row for row in shown[1] if wrote(row, str(error))]
                if shown and wrote is not None and type(error) is _NoReferent and str(error)
                else []
            )
            if len(theirs) == 1:
                return theirs[0]
            raise

    return resolved
