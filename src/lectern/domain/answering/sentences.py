"""Where a text's sentences and list items begin and end."""

from __future__ import annotations

import re

from lectern.domain.answering_words import (
    ABBREVIATIONS,
)

_SENTENCE_BREAK = re.compile(
    r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n\s*\n|\n(?=[ \t]*[-*#>|\"'(\[A-Z0-9])"
)
_LAST_WORD = re.compile(r"(\w+)\s*\.$")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence or list item of a text, whitespace trimmed."""
    spans = []
    start = 0
    for match in _SENTENCE_BREAK.finditer(text):
        before = _LAST_WORD.search(text, max(0, match.start() - 12), match.start())
        if before is not None and (
            before.group(1).casefold() in ABBREVIATIONS or len(before.group(1)) == 1
        ):
            continue  # "Dr. Monica", "J. K. Rowling", "e.g. this": not a sentence end
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    trimmed = []
    for begin, end in spans:
        while begin < end and text[begin].isspace():
            begin += 1
        while end > begin and text[end - 1].isspace():
            end -= 1
        if end > begin:
            trimmed.append((begin, end))
    return trimmed
