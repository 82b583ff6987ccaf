"""The part of a book message that asks, when the writer tells why before asking.

Readers explain first: "Since I keep forgetting which books my friends have lent me, can you
make a list called Borrowed?", "One of my patrons only reads in Portuguese and has gone
through our shelf. Could you find her some novels written in Portuguese?", "Lovely weather
today. Please add Circe to my TBR", "so my therapist (long story) suggested I keep track of
the books that cheer me up, which is a good idea, could you start a list called Comfort
Reads". Read whole, the telling became a search of its own, an off-topic reply, or lent its
capitalised words to the book ("Big fan of the app. Could you add Circe ..." asked about
*Big*). When every part before a later one only tells (no question, no request's verb or
"please") and that later part asks, the request is read from there; what was told is kept
only for which book "it" is: the title it names ("Because I loved The Song of Achilles, please
add it to Favourites"), unless it points at the page's book after the title ("Since I adored
Jane Eyre, I think I'll love this one too - please add it to Classics" is the page's book).
A search whose request says nothing of its own ("could you find her something?") keeps what
was told: that is what it searches for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.scaffold import Request, quotes_hidden

_LEAD = (
    r"(?:(?:please|pls|kindly|so|ok(?:ay)?|now|anyway|then|but|and|"
    r"(?:can|could|would|will)\s+(?:you|u)(?:\s+please)?|i\s+(?:need|want)\s+you\s+to)[\s,]+)*"
)
_VERB = (
    r"(?:add|put|pop|stick|remove|take|delete|rename|rate|give|create|make|start|move|drop|"
    r"show|list|find|search|look\s+up|recommend|suggest|tell|mark|change|correct|fix|update|"
    r"let\s+me\s+see|pull\s+up|set\s+(?:me\s+|us\s+)?up)\b"
)
_ASKS = re.compile(rf"^{_LEAD}{_VERB}", re.I)
"""A part that asks: a request's verb after the words that soften it."""
_ASKING_LEAD = re.compile(
    rf"^(?:(?:please|pls|kindly|so|(?:can|could|would|will)\s+(?:you|u))[\s,]+){_LEAD}{_VERB}",
    re.I,
)
"""A clause that asks after a comma or dash: its verb led by "please", "could you", "so"."""
_ASKS_ANYWHERE = re.compile(
    r"\?|\b(?:please|pls|could\s+you|can\s+you|would\s+you|will\s+you|i['’]?d\s+like|"
    r"let['’]?s|i\s+(?:want|need)\s+(?:to|you)|add|put|remove|rate|rename|delete)\b",
    re.I,
)
"""Words that ask, said in a part: it is then a request of its own."""

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")
_CLAUSE = re.compile(r"\s*(?:[,:;]|\s[-–—]+)\s+(?=\S)")
"""Where a clause ends inside a sentence: a comma, a colon, a dash."""


_POINTS_AT_PAGE = re.compile(r"\bthis\s+(?:one|book|novel|title)\b|\bthis\b\s*$", re.I)
"""A telling that points at the book in view ("I think I'll love this one too")."""

_SEARCH = re.compile(
    r"^(?:(?:please|pls|kindly|so|(?:can|could|would|will)\s+(?:you|u))[\s,]+)*"
    r"(?:find|search|look\s+for|recommend|suggest)\b",
    re.I,
)
_NOTHING_OF_ITS_OWN = re.compile(
    r"\b(?:please|pls|kindly|so|can|could|would|will|you|u|find|search|look|for|recommend|"
    r"suggest|me|her|him|them|us|my|our|a|an|the|some|something|anything|few|couple|of|"
    r"good|great|nice|new|more|other|else|books?|novels?|titles?|reads?|stories|similar|"
    r"like|that|this|it|one|too|also|as\s+well|to|read|might|enjoy|love|would)\b|[^\w\s]",
    re.I,
)
"""The words of a search that say nothing of what to search for ("find her something")."""


_CORRECTS = re.compile(
    rf"^{_LEAD}(?:correct|fix|amend)\b|^{_LEAD}(?:change|update)\s+(?:it|that|this|its|the\s+"
    r"(?:year|date|author|authors|language|pages|title))\b",
    re.I,
)
"""A correction asked after what is wrong was told ("... it was first published in 1943,
could you fix the year"): what was told is the correction, so the message is read whole."""

_SIMILAR = re.compile(r"\bsimilar\b|\blike\s+(?:it|this|that)\b", re.I)
"""A search for books like the one told of: what was told is which book, not the topic."""

_ANY_IT = re.compile(r"\bit\b", re.I)
_IT = re.compile(r"\bit\b(?!['’]\w)(?!\s+(?:is|was|has|had|will|would)\b)", re.I)


def with_title(request: str, title: str | None) -> str:
    """The request with the title told before said in place of each "it"."""
    return request if title is None else _IT.sub(title, request)


_CONTINUES = re.compile(
    # "... deserves one star less than I gave it. Make it three.": the grade of the rating told
    r"^(?:make|change)\s+(?:it|that)\s+(?:to\s+|a\s+)?\w+(?:\s+stars?)?\W*$|"
    r"^(?:and|also|plus)\b|\b(?:too|as\s+well|also)\W*(?:please|pls|thanks)?\W*$",
    re.I,
)
"""A request that goes on from one said before it ("... it's only Stella Gibbons. And add it
to Classics too"): what came first asked something too (a correction stated as a fact), so
the message is read whole, as a compound."""

_REASON = re.compile(r"^(?:since|because|as|cause|['’]cause|seeing\s+as|now\s+that)\s+", re.I)
"""The word that opens a reason ("Since Rebecca gave me chills"): no title's first word."""


def _cuts(text: str) -> list[int]:
    """Where the message's parts start: after sentences, and clauses that ask."""
    hidden = quotes_hidden(text)
    cuts = [m.end() for m in _SENTENCE.finditer(hidden)]
    cuts += [m.end() for m in _CLAUSE.finditer(hidden) if _ASKING_LEAD.match(hidden[m.end() :])]
    return sorted(set(cuts))


_UNMARKED_QUESTION = re.compile(
    r"^\W*(?:what|which|how\s+many|who|where|do\s+you\s+have)\b(?!\s+an?\b)", re.I
)
"""A question typed without its mark ("what categories. list them"): it asks, and the part
after it only says the asking again; "what a week." is no question."""


def _tells(part: str) -> bool:
    return (
        not _ASKS.match(part)
        and not _ASKS_ANYWHERE.search(part)
        and not _UNMARKED_QUESTION.match(part)
    )


def book_request(text: str, lists: Sequence[str] = ()) -> Request | None:
    """The request told after what only tells, or None when the message is not so shaped.

    None when the message opens with its request, when a part before it asks too (a compound
    reads those), when what was told names a stored list (the request's "it" may be the list),
    when a correction is asked (what was told says what is wrong), or when a search asks for
    nothing of its own.
    """
    for cut in _cuts(text):
        told, request = text[:cut].strip(), text[cut:].strip()
        if not _tells(told):
            return None
        if not _ASKS.match(request):
            continue
        if any(re.search(rf"\b{re.escape(n)}\b", told, re.I) for n in lists if n.strip()):
            return None
        if _CORRECTS.match(request) or _CONTINUES.search(request):
            return None
        if (
            _SEARCH.match(request)
            and not _SIMILAR.search(request)
            and not _NOTHING_OF_ITS_OWN.sub(" ", request).strip()
        ):
            return None
        return Request(told.rstrip(" ,:;-–—"), request[:1].upper() + request[1:])
    return None


def book_told(
    told: str, is_title: Callable[[str], bool], title_in: Callable[[str], str | None]
) -> str | None:
    """The catalog title what was told names for the request's "it", or None.

    None when the telling points at the book in view after the title ("Since I adored Jane
    Eyre, I think I'll love this one too"): "it" is then the page's book.
    """
    from lectern.adapters.understanding.said_before import title_said_before

    told = _REASON.sub("", told)
    named = title_said_before(f"{told} it", is_title, title_in)
    if named is None:
        return None
    after = told[told.casefold().rfind(named.casefold()) + len(named) :]
    return None if _POINTS_AT_PAGE.search(after) else named


class Alone(NamedTuple):
    """The request to read alone, and the book its "it" is."""

    request: str
    """The request, with the title told before in place of "it"."""
    said: str | None
    """The catalog title what was told names, when it names one."""


def asked_alone(text: str, names: Names, is_title: Callable[[str], bool] | None) -> Alone | None:
    """The request to read without what was told before it, or None when read whole."""
    from lectern.adapters.understanding.book_plan import title_in

    found = book_request(text, names.of("list"))
    if found is None:
        return None
    said = book_told(found.circumstances, is_title, title_in) if is_title is not None else None
    if (
        said is None
        and _ANY_IT.search(found.request)
        and not _POINTS_AT_PAGE.search(found.circumstances)
    ):
        # "... recommended a novel called The Thirteenth Story. Before I commit to buying it,
        # could you tell me what it is about": "it" is told in words no title holds
        return None
    return Alone(with_title(found.request, said), said)
