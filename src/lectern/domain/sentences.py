"""Where a text's sentences begin and end: one splitter, each caller's rule named here.

Every place that splits text into sentences calls `sentence_breaks` (or a wrapper of it) with
one of the rules below. The rules differ on purpose: each feeds measured figures (citation
checks, grounding counts, review claims), so a caller changes rule only with a new
measurement. Citations are verified against character offsets, so the splitter works in
offsets; `sentences` is the thin wrapper for callers that want stripped strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from lectern.domain.answering_words import ABBREVIATIONS

_LAST_WORD = re.compile(r"(\w+)\s*\.$")
_ABBREVIATION_REACH = 12
"""How many characters before a break the word before a full stop is looked for."""


@dataclass(frozen=True, slots=True)
class SentenceRule:
    """How one caller's sentences end: the punctuation, what may follow, and line ends."""

    ends: str = ".!?"
    """Characters that end a sentence when whitespace follows them."""
    starts: str = ""
    """A regular expression the next sentence must begin with; empty: anything."""
    lines: str = ""
    """A regular expression for line breaks that end a sentence by themselves; empty: none."""
    abbreviations: frozenset[str] = frozenset()
    """Words (compared case-folded) whose full stop ends no sentence; single letters too when
    the set is not empty ("Dr. Monica", "J. K. Rowling", "e.g. this")."""


PROSE = SentenceRule()
"""Any `.`, `!` or `?` before whitespace: the claims of an explanation (grounding checks)."""

LINES = SentenceRule(lines=r"\n+")
"""Prose sentences, and every line end too: review comments and the documents they quote."""

LABELLED_LINES = SentenceRule(starts=r"[\"'(\[A-Z0-9*-]", lines=r"\n+")
"""A sentence starts like one (or as a bullet) and every line ends one; a label such as
`5.1.1.2` stays with its sentence: the number check of guideline answers."""

CAPITALISED = SentenceRule(starts=r"[\"'“(\[]?[A-Z0-9]")
"""A sentence starts with a capital or digit, maybe after an opening quote or bracket: the
spans an extractive explanation quotes from a book."""

SNIPPET = SentenceRule(ends=".!?;:", lines=r"\n\s*\n")
"""`;` and `:` end a piece too, and so does a blank line: where a shown snippet may start."""

GUIDELINE = SentenceRule(ends=".!?;", starts=r'[A-Z0-9"(]')
"""`;` ends a sentence too when a capital, digit, quote or bracket follows: the pieces the
offline guideline policy quotes (normative text strings its rules with semicolons)."""

KB = SentenceRule(
    starts=r"[\"'(\[]?[A-Z0-9]",
    lines=r"\n\s*\n|\n(?=[ \t]*[-*#>|\"'(\[A-Z0-9])",
    abbreviations=ABBREVIATIONS,
)
"""Knowledge-base text: abbreviation-aware, and a list item or heading on a new line is a
sentence of its own: lead sentences, extractive replies and research notes."""


@cache
def _pattern(ends: str, starts: str, lines: str) -> re.Pattern[str]:
    pattern = rf"(?<=[{re.escape(ends)}])\s+"
    if starts:
        pattern += f"(?={starts})"
    if lines:
        pattern += f"|{lines}"
    return re.compile(pattern)


def sentence_breaks(text: str, rule: SentenceRule) -> list[tuple[int, int]]:
    """(start, end) of each run of whitespace that ends one sentence and begins the next."""
    breaks = []
    for match in _pattern(rule.ends, rule.starts, rule.lines).finditer(text):
        if rule.abbreviations:
            start = match.start()
            before = _LAST_WORD.search(text, max(0, start - _ABBREVIATION_REACH), start)
            if before is not None and (
                before.group(1).casefold() in rule.abbreviations or len(before.group(1)) == 1
            ):
                continue
        breaks.append(match.span())
    return breaks


def sentence_spans(text: str, rule: SentenceRule, trim: bool = True) -> list[tuple[int, int]]:
    """(start, end) of each sentence that holds more than whitespace, in order.

    Trimmed of the whitespace at either end unless `trim` is False; then a span runs from
    one break to the next, so the first keeps whatever whitespace begins the text.
    """
    spans = []
    start = 0
    for begin, end in sentence_breaks(text, rule):
        spans.append((start, begin))
        start = end
    spans.append((start, len(text)))
    found = []
    for begin, end in spans:
        if trim:
            begin, end = trimmed_span(text, begin, end)
            if end > begin:
                found.append((begin, end))
        elif text[begin:end].strip():
            found.append((begin, end))
    return found


def trimmed_span(text: str, start: int, end: int) -> tuple[int, int]:
    """`text[start:end]` without the whitespace at either end, as offsets."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def sentences(text: str, rule: SentenceRule) -> list[str]:
    """The sentences of a text, stripped, in order."""
    return [text[start:end] for start, end in sentence_spans(text, rule)]
