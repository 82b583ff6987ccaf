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


BARE_NUMBER = re.compile(r"(?<![\w.:/-])\d{2,}(?![\w.:/-])")
"""A number written on its own ("201", not "localhost:3000", "v2.1" or "2024-01")."""
_YEAR = re.compile(r"1[0-9]{3}|20[0-9]{2}")


def bare_numbers(text: str) -> list[str]:
    """The numbers a text writes on their own, years left out, in order, without repeats."""
    return list(dict.fromkeys(n for n in BARE_NUMBER.findall(text) if not _YEAR.fullmatch(n)))


def number_names(numbers: Iterable[str], texts: Iterable[str], *, most: int = 3) -> list[str]:
    """The words the texts write beside the numbers, most passages first.

    "how do I return 201 instead of 200?" names nothing but numbers; the documentation
    writes them as "status code 201" and "HTTP 200". A word counts once per text, within
    five words of a number, and only when at least two texts write it there.
    """
    wanted = set(numbers)
    counts: dict[str, int] = {}
    for text in texts:
        words = WORD.findall(text)
        near: set[str] = set()
        for index, word in enumerate(words):
            if word not in wanted:
                continue
            for other in words[max(0, index - 5) : index + 6]:
                folded = other.casefold()
                if folded.isalpha() and len(folded) > 2 and folded not in STOP_WORDS:
                    near.add(term_key(folded))
        for term in near:
            counts[term] = counts.get(term, 0) + 1
    ranked = sorted((t for t, n in counts.items() if n >= 2), key=lambda t: (-counts[t], t))
    return ranked[:most]
