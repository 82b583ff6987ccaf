"""Snippets: where a quoted piece stands in a text, and the piece of a text a query points at.

A snippet is a literal piece of its text under the citation rule's folding (case-folded,
whitespace runs as one space: `domain/grounding.is_valid_snippet`), so `locate_snippet` finds
a quote's offsets and `best_snippet` picks the sentence with most of a query's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lectern.domain.sentences import SNIPPET, sentence_breaks, trimmed_span

_WORD = re.compile(r"\w+", re.UNICODE)
SNIPPET_CHARS = 200
"""A shown snippet is at most this long (the citation rule's own limit)."""


def _folded_with_positions(text: str) -> tuple[str, list[int]]:
    """`text` case-folded with whitespace runs as one space, and each character's origin."""
    chars: list[str] = []
    origin: list[int] = []
    in_space = False
    for position, char in enumerate(text):
        if char.isspace():
            if not in_space:
                chars.append(" ")
                origin.append(position)
            in_space = True
            continue
        in_space = False
        for folded in char.casefold():
            chars.append(folded)
            origin.append(position)
    return "".join(chars), origin


def locate_snippet(
    text: str, snippet: str, start: int = 0, end: int | None = None
) -> tuple[int, int] | None:
    """Where the snippet occurs in `text[start:end]` under the citation rule's folding.

    Returns offsets into `text`, or None when the snippet is not a literal piece of it.
    """
    stop = len(text) if end is None else end
    wanted = " ".join(snippet.casefold().split())
    if not wanted:
        return None
    folded, origin = _folded_with_positions(text[start:stop])
    found = folded.find(wanted)
    if found < 0:
        return None
    last = found + len(wanted) - 1
    return start + origin[found], start + origin[last] + 1


def query_terms(query: str) -> list[str]:
    """The words of a query worth highlighting (3+ letters, folded, in order, no repeats)."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(query.casefold()):
        if len(word) >= 3 and word not in _STOP:
            seen.setdefault(word, None)
    return list(seen)


def _matches(word: str, term: str) -> bool:
    """A word matches a query term when they share a stem-like head ("forecast"/"forecasting")."""
    if word == term:
        return True
    head = max(4, min(len(term), len(word)) - 3)
    return len(word) >= 4 and len(term) >= 4 and word[:head] == term[:head]


@dataclass(frozen=True, slots=True)
class Snippet:
    """A literal piece of a passage around the query's words, with where they occur."""

    start: int
    """Offset of the snippet in the passage's text."""
    end: int
    text: str
    highlights: tuple[tuple[int, int], ...]
    """Offsets, within the snippet, of words matching the query."""


def best_snippet(text: str, query: str, limit: int = SNIPPET_CHARS) -> Snippet:
    """The sentence (or window of at most `limit` characters) holding most query words."""
    terms = query_terms(query)
    bounds = [0]
    bounds.extend(end for _, end in sentence_breaks(text, SNIPPET))
    if bounds[-1] != len(text):
        bounds.append(len(text))
    best: tuple[int, int, int] | None = None
    for index in range(len(bounds) - 1):
        start = bounds[index]
        stop = min(bounds[index + 1], start + limit)
        words = {w.casefold() for w in _WORD.findall(text[start:stop])}
        score = sum(1 for t in terms if any(_matches(w, t) for w in words))
        if best is None or score > best[0]:
            best = (score, start, stop)
    _, start, stop = best or (0, 0, min(len(text), limit))
    start, stop = trimmed_span(text, start, stop)
    piece = text[start:stop]
    highlights = tuple(
        (m.start(), m.end())
        for m in _WORD.finditer(piece)
        if any(_matches(m.group().casefold(), t) for t in terms)
    )
    return Snippet(start, stop, piece, highlights)


_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "all",
        "any",
        "can",
        "her",
        "was",
        "one",
        "our",
        "out",
        "has",
        "have",
        "had",
        "his",
        "how",
        "its",
        "who",
        "what",
        "when",
        "where",
        "which",
        "why",
        "with",
        "this",
        "that",
        "these",
        "those",
        "from",
        "into",
        "than",
        "then",
        "them",
        "they",
        "their",
        "there",
        "does",
        "did",
        "doing",
        "been",
        "being",
        "would",
        "could",
        "should",
        "about",
        "over",
        "under",
        "also",
    ]
)
