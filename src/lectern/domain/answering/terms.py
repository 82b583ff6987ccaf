"""Content terms: the folding and the document frequencies replies are scored by."""

from __future__ import annotations

import re
from collections.abc import Iterable

from lectern.domain.answering_words import (
    STOP_WORDS,
)

WORD = re.compile(r"\w+", re.UNICODE)
"""A word, as every term count and gate of a reply reads it."""


def term_key(word: str) -> str:
    """A word folded to the key the term statistics use: case-folded, plural cut.

    Harman's S-stemmer (1991): -ies -> -y, -es -> -e, -s -> "" (not after u, s, or in
    -aes, -ees, -oes). Lossless enough to keep "service" and "services" together without
    merging words that differ in meaning.
    """
    word = word.casefold()
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


def content_terms(text: str) -> list[str]:
    """The term keys of a text's content words, in order, without repeats."""
    seen: dict[str, None] = {}
    for word in WORD.findall(text):
        folded = word.casefold()
        if folded in STOP_WORDS or (len(folded) < 2 and not folded.isdigit()):
            continue
        seen.setdefault(term_key(folded), None)
    return list(seen)


def document_frequency(texts: Iterable[str]) -> dict[str, int]:
    """Term key -> number of texts holding it."""
    counts: dict[str, int] = {}
    for text in texts:
        for term in set(content_terms(text)):
            counts[term] = counts.get(term, 0) + 1
    return counts
