"""The plumbing every offline policy shares: a turn's results so far, stages, clean text.

A request becomes a short plan of stages; on each call a policy finds how many stages the
tool results already cover and takes the next one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from lectern.domain.assistant import AIResponse, ToolCall

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a couple of": 2,
    "a couple": 2,
    "a pair of": 2,
    "a few": 3,
    "several": 3,
}
NUMBER = (
    r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|a pair of|"
    r"a few)"
)
ASKING = re.compile(
    r"^(?:please\s+)?(?:(?:can|could|would|will) you\s+(?:(?:possibly|kindly|perhaps|maybe)\s+)?)?"
    r"(?:please\s+)?",
    re.I,
)
"""How a request is asked ("could you possibly ..."): not the request's words."""
ASKING_U = re.compile(
    r"^(?:please\s+)?(?:can|could|would|will)\s+(?:u|ya|yu)\s+(?:please\s+)?(?=\S)", re.I
)
"""A request asked with "u" for "you" ("could u chuck X onto Y"): not the request's words."""
WISH = re.compile(
    r"^(?:i'?d|i\s+would)\s+(?:like|love)\s+(?:you\s+)?to\s+(?!know\b)|"
    r"^i\s+(?:want|need)\s+you\s+to\s+|^let'?s\s+",
    re.I,
)
"""A wish that leads a book request ("I'd like to begin a new list ..."): not the request."""
POLITE = re.compile(
    # "rename tbr → TBR 2026 thx": the thanks as typed in chat is no part of the new name
    r"[\s,]+(?:please|pls|plz|thanks|thank\s+(?:you|u)|thx|thnx|thanx|tysm)\W*$",
    re.I,
)
QUOTES = "\"'“”‘’«»"


@dataclass(frozen=True, slots=True)
class Done:
    """The tool calls this turn already made and their results, in order."""

    calls: list[ToolCall]
    results: list[Any]


Step = Callable[[Done], "AIResponse | list[ToolCall]"]
"""One stage of a plan: given the results so far, the next calls or the final reply."""


def clean(value: str | None) -> str:
    """A span of the message without politeness, quotes and end punctuation."""
    raw = POLITE.sub("", (value or "").strip()).strip()
    # "'Kindred':" - the colon or comma after a quoted title is no part of it
    text = raw.strip(QUOTES).strip().rstrip("?.!:;,").strip()
    # "to 'Book a date with HR first'?": the quote closes before the question mark
    return text.strip(QUOTES).strip() if raw[:1] in QUOTES else text


def number(word: str | None, default: int) -> int:
    """A count written in digits or words (1..20), else `default`."""
    if not word:
        return default
    word = word.casefold()
    if word.isdigit():
        return max(1, min(20, int(word)))
    return NUMBER_WORDS.get(word, default)


_QUOTED = re.compile(r"[\"“‘][^\"“”‘’]*[\"”’]|(?<!\w)'[^']+'(?!\w)")


def quotes_hidden(text: str) -> str:
    """`text` with each quoted span blanked to as many NULs: a stop inside quotes ends nothing.

    Positions in the result are positions in `text`, so cuts found in it cut `text`.
    """
    return _QUOTED.sub(lambda m: "\0" * len(m.group()), text)


class Request(NamedTuple):
    """A message split into what it tells and what it asks."""

    circumstances: str
    """The telling sentences before the request, as written."""
    request: str
    """The request, from its sentence to the end of the message."""
