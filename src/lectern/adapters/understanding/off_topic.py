"""Requests outside books, lists and the workspace: the weather, sums, "write me a poem".

A subject that is off topic alone may still be what books are asked about ("anything about
football"): those stay a search. Asking to ignore the rules, or to write something, is off
topic always.
"""

from __future__ import annotations

import re

OFF_TOPIC = re.compile(
    r"\b(?:weather|forecast|stock price|stocks?|bitcoin|crypto|joke|password|capital of|"
    r"football|recipe for|what time is it|who won|lottery|horoscope|translate|"
    r"ignore (?:all |your |the )?(?:previous |prior )?(?:instructions|rules)|system prompt|"
    r"write (?:me )?(?:a |an |some )?(?:code|python|program|script|essay|poem|haiku|song|limerick|"
    r"joke|cover letter))\b"
    # Arithmetic, but not the numbers of an identifier ("CVE-2024-24919?" is no subtraction).
    # Nor a rating ("4/5", "Gone Girl 7/10").
    r"|(?<![\w-])\d+(?!\s*/\s*(?:5|10)\b)\s*(?:[-+*/x]|times|plus|minus|divided\s+by)\s*\d+\s*(?:=|\?|$)",
    re.I,
)


_TOPICS = re.compile(
    r"weather|forecast|stock price|stocks?|bitcoin|crypto|joke|football|lottery|horoscope", re.I
)
"""Off-topic words that may also be what a book is about ("a novel about football")."""
_BOOKS_ON = re.compile(
    r"\b(?:books?|novels?|stories|fiction|memoirs?|biograph\w*|poems|poetry|reads|anything|"
    r"something)\s+(?:about|on|set\s+(?:in|around)|featuring|involving|around)\b",
    re.I,
)
"""Books asked for on a subject ("anything about football")."""


_WRITING_FOR_THE_READER = re.compile(
    r"\b(?:write|draft|compose|word|phrase|proofread)\s+(?:me\s+|up\s+)?(?:a|an|the|my|our|this|"
    r"that|some)?\s*(?:\w+\s+)?(?:e-?mails?|letters?|messages?|texts?|notes?\s+to|speech|cv|"
    r"r[eé]sum[eé]|homework|assignment|invitations?|complaint|application)\b",
    re.I,
)
"""A piece of the reader's own writing asked for ("help me write the email to the school",
"draft a letter to my landlord"): the assistant writes no such thing, whatever it is about."""
_SAID_NOT_BOOKS = re.compile(
    r"\b(?:it'?s|its|it\s+is|this\s+is|this'?s|that'?s|question\s+is)\s+(?:not|nothing)\s+"
    r"(?:about|to\s+do\s+with|related\s+to|on)\s+(?:books?|reading|literature)\b|"
    r"\b(?:not|nothing)\s+(?:a\s+)?book[\s-]related\b|\bunrelated\s+to\s+books\b",
    re.I,
)
"""The reader saying the request is not about books ("it's not about books")."""


def off_topic(text: str) -> bool:
    """Whether a message asks for something outside books and lists.

    "Anything about football, nothing for kids" asks for books on a subject that is off
    topic on its own; a request to ignore the rules or write a letter is off topic always.
    """
    if _SAID_NOT_BOOKS.search(text) or _WRITING_FOR_THE_READER.search(text):
        return True
    found = [m.group(0) for m in OFF_TOPIC.finditer(text)]
    if not found:
        return False
    return not _BOOKS_ON.search(text) or any(not _TOPICS.fullmatch(f) for f in found)
