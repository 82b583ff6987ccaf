"""Book assistant requests the patterns missed, read by meaning and filled from the message.

The book comes from the message (what is left once the request's own words are taken out)
or the page ("this", "it"); a reading list from the reader's own lists (`mentions.py`).
A request missing what it needs gets a question instead of a guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lectern.adapters.understanding.layer import Clarification, name_it, which_of
from lectern.adapters.understanding.mentions import Names, resolve
from lectern.adapters.understanding.scaffold import clean
from lectern.adapters.understanding.slots import list_name_of, stars_of
from lectern.domain.assistant import ToolCall

CallMaker = Callable[..., ToolCall]
_REQUEST_WORDS = re.compile(
    r"\b(?:who(?:'s| is)?|what(?:'s| is)?|when|the|writer|author|novelist|of|wrote|did|does|"
    r"was|is|about|plot|summary|tell|me|more|give|details?|for|on|how|many|pages|have|has|"
    r"come|out|published|year|please|pls|rate|rating|my|stars?|give|i'd|i|would|loved|"
    r"deserves|put|down|add|to|list|on|in|onto|into|from|off|remove|take|drop|pop|stick|"
    r"throw|save|it|this|book|one|a|an|and|by|similar|like|more|out of|\d)\b|[?!.,:/]",
    re.I,
)
_DEICTIC = re.compile(r"\b(?:this|it|that)(?:\s+(?:one|book))?\b", re.I)
_WORD = r"(?:[A-Z][\w'’-]*|\d+)"
_TITLE = re.compile(
    rf"{_WORD}(?:\s+(?:(?:of|the|and|in|a|an|to|on|for|at|with|from|upon|&)\s+)*{_WORD})*"
)
_ARTICLES = ("The", "A", "An")


def title_in(text: str) -> str | None:
    """The first capitalised run that is not the request's own words.

    "I loved The Shining, what next?" -> "The Shining": a title keeps its article and its
    inner small words.
    """
    for found in _TITLE.finditer(text):
        words = found.group(0).split()
        while words and _REQUEST_WORDS.fullmatch(words[0]):
            if words[0] in _ARTICLES and len(words) > 1 and not _REQUEST_WORDS.fullmatch(words[1]):
                break
            words.pop(0)
        while words and _REQUEST_WORDS.fullmatch(words[-1]):
            words.pop()
        if words:
            return " ".join(words)
    return None


_BY_AUTHOR = re.compile(r"\bthe\s+[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)*\s+(?:one|book|novel)\b")
"""A book named by its author ("the Christie novel"): `it` refuses it, and the policy asks."""


def _book(text: str, it: Callable[[str], str]) -> str | None:
    by_author = _BY_AUTHOR.search(text)
    if by_author:
        return it(by_author.group(0))
    if text != text.casefold():
        title = title_in(text)
        if title is not None:
            return title
    core = " ".join(_REQUEST_WORDS.sub(" ", text).split())
    if core:
        return core
    if _DEICTIC.search(text):
        resolved = it("it")
        return None if resolved == "it" else resolved
    return None


def _list(text: str, names: Names) -> str | Clarification | None:
    lists = names.of("list")
    for name in lists:
        if re.search(rf"\b{re.escape(name)}\b", text, re.I):
            return name
    words = re.findall(r"[A-Za-z][\w'-]+", text)
    found = None
    for word in words:
        candidate = resolve(word, lists, cutoff=85)
        if candidate.name is not None:
            found = candidate.name
    if found is not None:
        return found
    if len(lists) > 1:
        return which_of("list", lists)
    return lists[0] if lists else None


_AFTER_LIST = re.compile(
    r"\blist\b\s*[:,-]?\s*(?!(?:for|of|to|with|about|my|me|the|a|an|please|pls)\b)"
    r"(?P<name>[\w'’&-]+(?:\s+(?!(?:with|and|that|which|for|please|pls)\b)[\w'’&-]+)*)",
    re.I,
)
_CALL_INSTEAD = re.compile(
    r"\b(?:call|name)\s+(?:it|(?:my|the)\s+.+?\s+list)\s+(?P<named>.+?)\s+instead\b", re.I
)
"""Read first: in "I want to call the Halloween list Horror instead" the "to" is not the name's."""
_NEW_NAME = re.compile(
    r"(?:\b(?:to|as|into)\b|->)\s*(?P<name>[^,.!?]+?)\s*(?:\b(?:instead|please|pls)\b)?[.!?]*$",
    re.I,
)
_YEAR = re.compile(r"\b(?P<year>1[0-9]{3}|20[0-9]{2})\b")
_YEAR_WORDS = re.compile(r"\b(?:year|published|publication|came\s+out|released|printed)\b", re.I)


def _named_after_list(text: str) -> str | None:
    """A new list's name written straight after "list" ("new list: Book Club")."""
    found = _AFTER_LIST.search(text)
    return clean(found.group("name")) or None if found else None


def _rename(text: str, names: Names, call: CallMaker) -> list[ToolCall] | Clarification:
    """Which list, and its new name ("rename Summer to Holiday", "call X list Y instead")."""
    found = _CALL_INSTEAD.search(text) or _NEW_NAME.search(text)
    if found is None:
        return Clarification("Which list should I rename, and what should it be called?", ())
    group = "named" if "named" in found.groupdict() else "name"
    new_name = clean(re.sub(r"^(?:rename\s+)?(?:to|as)\s+", "", found.group(group), flags=re.I))
    if not new_name:
        return Clarification("Which list should I rename, and what should it be called?", ())
    chosen = _list(text[: found.start(group)], names)
    if chosen is None:
        return name_it("list", "rename")
    if isinstance(chosen, Clarification):
        return chosen
    return [call("rename_list", list=chosen, new_name=new_name)]


def _correction(text: str, it: Callable[[str], str], call: CallMaker) -> list[ToolCall] | None:
    """A year the message says a book was published in ("its year should be 1897")."""
    year = _YEAR.search(text)
    if year is None or not _YEAR_WORDS.search(text):
        return None
    book = it("it") if _DEICTIC.search(text) else title_in(text)
    if book is None or book == "it":
        return None
    return [call("propose_correction", book=book, published_year=int(year.group("year")))]


def plan_books(
    intent: str, text: str, names: Names, it: Callable[[str], str], call: CallMaker
) -> list[ToolCall] | Clarification | None:
    """The calls for `intent` read from `text`, a question, or None."""
    if intent in ("get_reading_lists", "catalog_facets"):
        return [call(intent)]
    if intent in ("get_book_details", "similar_books"):
        book = _book(text, it)
        if book is None:
            return name_it("book", "look up")
        return [call(intent, book=book)]
    if intent == "rate_book":
        stars = stars_of(text)
        book = _book(text, it)
        if stars is None or book is None:
            return Clarification(
                "Which book, and how many stars (1 to 5)?",
                ("5 stars", "4 stars", "3 stars") if book else (),
            )
        return [call(intent, book=book, stars=stars)]
    if intent in ("add_to_list", "remove_from_list", "get_list_details", "delete_list"):
        chosen = _list(text, names)
        if chosen is None:
            return name_it("list", "use")
        if isinstance(chosen, Clarification):
            return chosen
        if intent in ("get_list_details", "delete_list"):
            return [call(intent, list=chosen)]
        rest = re.sub(rf"\b{re.escape(chosen)}\b", " ", text, flags=re.I)
        book = _book(rest, it)
        if book is None:
            return name_it("book", "add" if intent == "add_to_list" else "remove")
        return [call(intent, list=chosen, book=book)]
    if intent == "rename_list":
        return _rename(text, names, call)
    if intent == "propose_correction":
        return _correction(text, it, call)
    if intent == "create_list":
        name = list_name_of(text) or _named_after_list(text)
        if not name:
            return Clarification("What should the new list be called?", ())
        return [call(intent, name=clean(name))]
    return None
