"""The lexicon: the catalog's vocabulary and the planner's word tables, as lookups.

It answers "what does this run of words name?" for languages, categories and authors, and
finds category and author names in a query, longest match first. A shelf is named by its
own words (singular or plural), by a spelling in the domain's one synonym table (the one
ingestion folds shelves with), or by a query-only reading (`SHELF_READINGS`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from lectern.adapters.understanding.lexicon_data import (
    CATEGORY_STOP,
    LANGUAGE_NAMES,
    MOOD_WORDS,
    SHELF_READINGS,
)
from lectern.application.understanding import MIN_CATEGORY_BOOKS, Token, Vocabulary, key_of
from lectern.domain.normalize import CATEGORY_SYNONYMS, shelf_key
from lectern.domain.search import Recognition, RecognitionKind

Lookup = Callable[[tuple[str, ...]], str | None]


@dataclass
class Found:
    """What the rules have recognised in one query so far."""

    recognised: list[Recognition] = field(default_factory=list)
    used: set[int] = field(default_factory=set)
    """Indexes of tokens already explained by a rule."""
    notes: list[str] = field(default_factory=list)
    dropped: set[int] = field(default_factory=set)
    """Tokens of constraints that were not kept (a second language): not search words."""

    def mark(
        self, kind: RecognitionKind, value: str, tokens: list[Token], start: int, end: int
    ) -> None:
        """Record that tokens[start:end] name `value`, and take them out of later rules."""
        self.recognised.append(Recognition(kind, value, tokens[start].start, tokens[end - 1].end))
        self.used.update(range(start, end))


def number_forms(key: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The key, then its last word made singular ("mysteries", "policiers"), then plural."""
    last, head = key[-1], key[:-1]
    forms = [key]
    if last.endswith("ies") and len(last) > 4:
        forms.append((*head, last[:-3] + "y"))
    if last.endswith("s") and len(last) > 3:
        forms.append((*head, last[:-1]))
    if len(key) > 1 and key[0].endswith("s") and len(key[0]) > 3:  # "romans policiers"
        forms.append((key[0][:-1], *key[1:-1], last[:-1] if last.endswith("s") else last))
    forms.append((*head, last + "s"))
    return forms


def category_synonyms(vocabulary: Vocabulary) -> dict[tuple[str, ...], str]:
    """Spellings and readings of shelves keyed as queries are, where the catalog has the shelf.

    The spellings are the domain's synonym table, the one ingestion folds shelves with;
    the readings (`SHELF_READINGS`) apply to queries only.
    """
    return {
        key_of(words): name
        for words, name in (*CATEGORY_SYNONYMS.items(), *SHELF_READINGS.items())
        if name in vocabulary.category_books
    }


class Lexicon:
    """Lookups over one catalog's vocabulary: languages, categories, authors."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        """The vocabulary comes from the catalog (`Vocabulary.build`)."""
        self.vocabulary = vocabulary
        self.synonyms = category_synonyms(vocabulary)
        self.spellings: dict[tuple[str, ...], str] = {}
        """A shelf's key (`shelf_key`) -> its most held name: "british lit" is read as
        the catalog's "british literature"."""
        for name, count in sorted(vocabulary.category_books.items(), key=lambda i: -i[1]):
            if count >= MIN_CATEGORY_BOOKS:
                self.spellings.setdefault(shelf_key(name), name)
        self.longest_category = max((len(k) for k in vocabulary.categories), default=1)

    @staticmethod
    def language(word: str) -> str | None:
        """The ISO 639-1 code a folded language name stands for ("espanol" -> "es")."""
        return LANGUAGE_NAMES.get(word)

    def knows(self, word: str) -> bool:
        """True when the catalog or the word tables give the folded word a meaning."""
        return word in self.vocabulary.words or word in LANGUAGE_NAMES or word in MOOD_WORDS

    def category(self, key: tuple[str, ...]) -> str | None:
        """The catalog shelf these words name, as typed, singular or plural; None if generic."""
        if " ".join(key) in CATEGORY_STOP:
            return None
        name = None
        for form in number_forms(key):
            name = self.synonyms.get(form) or self.vocabulary.categories.get(form)
            if name is not None:
                break
        if name is None:
            name = self.spellings.get(shelf_key(" ".join(key)))
        if name is None or name in CATEGORY_STOP:
            return None
        return name

    def author(self, key: tuple[str, ...]) -> str | None:
        """The catalog author these words name; a surname alone only when it is distinctive."""
        if len(key) == 1:
            return self.vocabulary.surnames.get(key[0])
        return self.vocabulary.authors.get(key)

    def categories(self, tokens: list[Token], found: Found) -> list[str]:
        """Every shelf the query names, longest phrase first."""
        sizes = tuple(range(min(self.longest_category, 4), 0, -1))
        return scan(tokens, found, "category", sizes, self.category)

    def authors(self, tokens: list[Token], found: Found) -> list[str]:
        """Every catalog author the query names, longest name first."""
        return scan(tokens, found, "author", (4, 3, 2, 1), self.author)


def scan(
    tokens: list[Token],
    found: Found,
    kind: RecognitionKind,
    sizes: tuple[int, ...],
    lookup: Lookup,
) -> list[str]:
    """Longest match first, left to right, over words no earlier rule explained."""
    values: list[str] = []
    words = [t.text for t in tokens]
    index = 0
    while index < len(tokens):
        for size in sizes:
            key = tuple(words[index : index + size])
            if len(key) < size or any(i in found.used for i in range(index, index + size)):
                continue
            value = lookup(key)
            if value is not None:
                values.append(value)
                found.mark(kind, value, tokens, index, index + size)
                index += size
                break
        else:
            index += 1
    return list(dict.fromkeys(values))
