"""Books named by their place in a series: "the second Hunger Games", "Discworld book 1".

A reader names a sequel by its place ("the first Discworld book, onto Fantasy", "rate the
third book in the Hunger Games series 3", "put the first and second Hunger Games on
Weekend", "Hunger Games #2"). The series title alone is a book too (*The Hunger Games*), so
read as written the request changed book one of the series: a wrong book rated. Before the
rules read the request, each place said of a series the catalog numbers
(`application.series_books`) is written as the title of the book at that place; a place the
catalog holds no book at, or several books at, is asked about, naming the series' books. An
ordinal before a catalog title that is no numbered series ("the second Dune") is asked too,
never read as the title. A title that holds an ordinal itself ("The Second Sex", "The First
Fifteen Lives of Harry August") is left as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.scaffold import NUMBER_WORDS
from lectern.application.book_lookup import RIVAL_SHARE
from lectern.application.series_books import SeriesBook

ASKED_NAMES = 4
"""How many of the series' books a question names."""
LONGEST_SERIES = 6
"""The most words a series name is looked for in."""

_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
_ORD = (
    r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d{1,2}(?:st|nd|rd|th))"
)
_WORD = r"[\w'’:.-]+"
_PLACES_BEFORE = re.compile(
    rf"\b(?P<the>(?:the|that|this)\s+)?(?P<ords>{_ORD}(?:\s*(?:,|and|&|n|\+)\s*(?:the\s+)?{_ORD})*)"
    rf"\s+(?:(?:book|novel|one|instal?lment|part|volume|entry)s?\s+(?:of|in|from)\s+)?"
    rf"(?:the\s+)?(?P<rest>{_WORD}(?:\s+{_WORD}){{0,{LONGEST_SERIES}}})",
    re.I,
)
"""Places said before the series: "the first and second Hunger Games", "the third book in
the Hunger Games series"."""
_NUMBER = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
_PLACE_OF = re.compile(
    rf"\b(?:book|novel|volume|part|instal?lment|no\.?|number|#)\s*(?P<n>{_NUMBER})\s+"
    rf"(?:of|in|from)\s+(?:the\s+)?(?P<rest>{_WORD}(?:\s+{_WORD}){{0,{LONGEST_SERIES}}})",
    re.I,
)
"""A place said before "of" the series: "book two of the Hunger Games"."""
_PLACE_AFTER = re.compile(
    rf"(?:\s+(?:book|novel|volume|part|instal?lment|no\.?|number)\s*|\s*#\s*)(?P<n>{_NUMBER})\b",
    re.I,
)
"""A place said after the series: "Hunger Games book 2", "Discworld #1"."""
_AFTER_SERIES = re.compile(r"^\s+(?:book|novel|series|one|trilogy|saga|installment)s?\b", re.I)
"""What may follow the series' name: "the first Discworld book"."""


class SeriesShelf(Protocol):
    """The catalog's numbered series (`application.series_books.CatalogSeries`)."""

    def named(self, words: str) -> str | None:
        """The catalog's name of the numbered series the words name, or None."""
        ...

    def books_of(self, words: str) -> Sequence[SeriesBook]:
        """The series' books by place, most read first at each place."""
        ...


def _place(word: str) -> int:
    word = word.casefold()
    if word in _ORDINALS:
        return _ORDINALS[word]
    digits = re.match(r"\d+", word)
    return int(digits.group()) if digits else NUMBER_WORDS.get(word, 0)


class _Ask(Exception):
    def __init__(self, question: Clarification) -> None:
        super().__init__(question.question)
        self.question = question


def _book_at(series: str, books: Sequence[SeriesBook], place: int) -> str:
    """The title at `place`, or raises `_Ask` naming the series' books."""
    there = [b for b in books if b.place == place]
    rivals: dict[str, SeriesBook] = {}
    for book in there:
        if book.popularity >= RIVAL_SHARE * there[0].popularity:
            rivals.setdefault(book.title.casefold(), book)
    if len(rivals) == 1:
        return there[0].title
    if rivals:
        names = [b.title for b in rivals.values()][:ASKED_NAMES]
        text = f"Which book of {series} do you mean: {_either(names)}?"
        raise _Ask(Clarification(text, tuple(names)))
    first: dict[int, SeriesBook] = {}
    for book in books:
        first.setdefault(book.place, book)
    held = list(first.values())[:ASKED_NAMES]
    names = [f"{b.title} (book {b.place})" for b in held]
    text = f"I don't know which book is number {place} of {series}. Is it one of {_either(names)}?"
    raise _Ask(Clarification(text, tuple(b.title for b in held)))


def _either(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def _series_at_start(rest: str, shelf: SeriesShelf) -> tuple[str, int] | None:
    """The series named by the first words of `rest`, and how many characters it takes."""
    words = list(re.finditer(r"\S+", rest))
    for count in range(min(len(words), LONGEST_SERIES), 0, -1):
        end = words[count - 1].end()
        said = rest[:end].rstrip(",.;:!?")
        name = shelf.named(said)
        after = _AFTER_SERIES.match(rest[len(said) :])
        if name is not None and (count > 1 or after or said[:1].isupper()):
            # One word in lower case ("the first one", "the second time") is a series only
            # when "book" or "series" follows it ("the first discworld book").
            return name, len(said) + (after.end() if after else 0)
    return None


def _series_at_end(before: str, shelf: SeriesShelf) -> tuple[str, int] | None:
    """The series named by the last words of `before`, and where in it the name starts."""
    words = list(re.finditer(r"\S+", before))
    for count in range(min(len(words), LONGEST_SERIES), 0, -1):
        start = words[-count].start()
        name = shelf.named(before[start:])
        if name is not None:
            lead = re.search(r"(?:\bthe\s+)$", before[:start], re.I)
            return name, lead.start() if lead else start
    return None


def series_said(
    text: str, shelf: SeriesShelf, is_title: Callable[[str], bool]
) -> str | Clarification | None:
    """`text` with each book said by its place in a series as its title, a question, or None.

    None when the text names no place in a series. `is_title` says whether words are a
    catalog title: a title holding an ordinal is no place, and an ordinal before a title
    that is no numbered series is asked about.
    """
    try:
        return _rewritten(text, shelf, is_title)
    except _Ask as ask:
        return ask.question


def _rewritten(text: str, shelf: SeriesShelf, is_title: Callable[[str], bool]) -> str | None:
    places: list[tuple[int, int, str, list[int]]] = []
    for found in _PLACES_BEFORE.finditer(text):
        rest_at = found.start("rest")
        series = _series_at_start(text[rest_at:], shelf)
        if series is None:
            _ask_if_title(found["ords"], found["rest"], is_title)
            continue
        name, length = series
        if is_title(text[found.start() : rest_at + length]) or is_title(
            text[found.start("ords") : rest_at + length]
        ):
            continue  # "The Second Sex": a title that holds an ordinal
        said = [_place(w) for w in re.findall(_ORD, found["ords"], re.I)]
        places.append((found.start(), rest_at + length, name, said))
    for found in _PLACE_OF.finditer(text):
        series = _series_at_start(text[found.start("rest") :], shelf)
        if series is not None:
            name, length = series
            places.append((found.start(), found.start("rest") + length, name, [_place(found["n"])]))
    for found in _PLACE_AFTER.finditer(text):
        series = _series_at_end(text[: found.start()], shelf)
        if series is not None and not _STARS.match(text[found.end() :]):
            name, start = series
            places.append((start, found.end(), name, [_place(found["n"])]))
    if not places:
        return None
    written, at = [], 0
    for start, end, name, said in sorted(places, key=lambda p: (p[0], -p[1])):
        if start < at:
            continue  # "the 2nd Hunger Games book": read once, as the place before it
        titles = [_book_at(name, shelf.books_of(name), place) for place in said]
        written.append(text[at:start] + " and ".join(titles))
        at = end
    return "".join(written) + text[at:]


_STARS = re.compile(r"^\s*(?:stars?|/\s*5|out\s+of)\b", re.I)
"""A number that is a rating ("the 2nd Hunger Games book 5 stars"), not a place."""


def _ask_if_title(ords: str, rest: str, is_title: Callable[[str], bool]) -> None:
    """Raise `_Ask` when an ordinal stands before a catalog title that is no numbered series.

    "the second Dune": the catalog cannot tell which book that is, and *Dune* is not it.
    """
    words = rest.split()
    for count in range(min(len(words), LONGEST_SERIES), 0, -1):
        said = " ".join(words[:count]).rstrip(",.;:!?")
        if not re.search(r"[A-Z]", said) and count == 1:
            continue  # "the first one", "the second book": no name
        if is_title(said) and not is_title(f"{ords} {said}") and not is_title(f"the {ords} {said}"):
            text = f"Which book of the {said} series do you mean? Please tell me its title."
            raise _Ask(Clarification(text, ()))
