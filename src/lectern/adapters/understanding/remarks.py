"""What is said beside a request that asks nothing, and a rating whose grade is left unsaid.

People close a change with why they want it ("could u take the hobbit off my tbr, already
read it ages ago", "pop Dune into Summer, saw it at the shop"): the list's name had run on
into the remark, so a list the reader has, named without the word "list", was no longer
one of theirs and the whole message was read by meaning. A rating's review is what the
reader wrote about the book; a reason or another request after the grade ("give it five
stars, and since I have now read it, take it off my To Read list") is neither, and had been
stored as the review. A rating asked with no grade ("rate The Secret History") had been read
by meaning as a look-up; it asks how many stars. Why told in a sentence of its own after a
change ("remove the last one. she hated it") is no part of the book, and a change that goes
straight from its verb to the list ("remove from TBR") means the book in view.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.book_patterns import ADD_VERB, REASON_WORDS, REMOVE_VERB
from lectern.adapters.understanding.compound import ACTION_VERB, LOOKUP_VERB
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.slots import stars_of

_REQUEST_OPENS = re.compile(
    r"^(?:(?:and|then|also|now|so|but|please|pls|plz|just|ok(?:ay)?)\W+)*"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+|i['’]?d\s+like\s+(?:you\s+)?to\s+)?"
    rf"(?:{ACTION_VERB}|{LOOKUP_VERB})\b",
    re.I,
)
"""A clause that opens with a request of its own ("and also rate it 4", "can you show ...")."""
_REMARK_AFTER = re.compile(r"^(?P<head>.+?)\s*[,;]\s*(?P<remark>[^,;]+?)\W*$")
"""The last clause after a comma or semicolon."""


def remark_after(text: str) -> tuple[str, str] | None:
    """(the request, the remark) when `text` ends with a clause asking nothing, or None.

    The caller decides whether the head is a whole request (a list of the reader's must end
    it); here only a clause that is a request of its own is refused.
    """
    found = _REMARK_AFTER.match(text.strip())
    if found is None or _REQUEST_OPENS.match(found["remark"].strip()):
        return None
    return found["head"], found["remark"]


_REVIEW_ENDS = re.compile(
    r"(?:^|[,;.!?]\s*|\s+)(?:and\s+|but\s+|so\s+)?(?:"
    # "and since I have now read it": why the reader asks, not what they think of the book
    r"(?:since|because|as|now\s+that|seeing\s+(?:as|that)|cos|coz)\s+(?:i|we|it|she|he|they)\b|"
    # "..., take it off my To Read list": another request
    rf"(?:(?:can|could|would|will)\s+(?:you|u)\s+|please\s+|pls\s+)?(?:{ACTION_VERB})\s+"
    r"(?:it|this|that|them|my|the|a)\b)",
    re.I,
)


def review_told(review: str) -> str | None:
    """What of `review` is the reader's opinion: cut before a reason or a request, or None."""
    found = _REVIEW_ENDS.search(review)
    kept = review[: found.start()] if found else review
    kept = kept.strip(" ,;:-—–")
    return kept or None


_UNGRADED = re.compile(
    r"^(?:please\s+|pls\s+)?(?:(?:can|could|would)\s+(?:you|u|i)\s+|i['’]?d\s+like\s+to\s+|"
    r"i\s+(?:want|wanna|need)\s+(?:to\s+)?|let\s+me\s+|i['’]?ll\s+)?(?:rate|grade|score)\s+"
    r"(?P<book>(?:(?!\b(?:stars?|out\s+of|a\s+(?:book|list)|books|lists|rating)\b)[^\d,;.!?])+?)"
    r"(?:\s+(?:please|pls|now|for\s+me))?\W*$",
    re.I,
)
"""A rating asked for with its grade left unsaid ("rate The Secret History")."""
_POINTING = re.compile(r"^(?:it|this|that|this\s+(?:one|book)|that\s+(?:one|book))$", re.I)


def ungraded(text: str) -> Clarification | None:
    """The question for a rating asked without its stars, or None when they are said."""
    found = _UNGRADED.match(text.strip())
    if found is None or stars_of(text) is not None:
        return None
    book = found["book"].strip()
    named = "it" if _POINTING.match(book) else book
    return Clarification(
        f"How many stars (1 to 5) should I give {named}?", ("5 stars", "4 stars", "3 stars")
    )


_REASON_SENTENCE = re.compile(rf"[.!?]+\s+{REASON_WORDS}\b.*$", re.I)
"""Why, told in a sentence of its own after the request ("remove the last one. she hated it")."""
_BOOKLESS = re.compile(
    rf"^\W*(?:please\s+|pls\s+)?(?:{ADD_VERB}|{REMOVE_VERB})\s+(?:from|off|out\s+of|to|onto|into|on)\b",
    re.I,
)
"""A change whose verb goes straight to the list ("remove from TBR"): its book is unsaid."""


def without_reason_told(text: str) -> str:
    """`text` without a sentence after it that only says why ("... . she hated it")."""
    return _REASON_SENTENCE.sub("", text)


def book_unsaid(text: str) -> bool:
    """Whether a change to a list leaves its book unsaid: the book in view is meant."""
    return _BOOKLESS.match(text) is not None
