"""Categories: which shelves and subjects say what a book is about, and one name per topic."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from lectern.domain.normalize.category_data import (
    CATEGORY_SYNONYMS,
    NON_TOPICAL_PATTERNS,
    NON_TOPICAL_SHELVES,
    NON_TOPICAL_SUBJECTS,
    SHELF_SHORTHAND,
    YOUTH_HEADS,
    YOUTH_MARKERS,
)
from lectern.domain.normalize.text import collapse_whitespace, fold, singular


def is_topical_shelf(shelf: str) -> bool:
    """True when a reader's shelf name describes what the book is about."""
    name = shelf.strip().casefold()
    if not name or name in NON_TOPICAL_SHELVES:
        return False
    return not any(p.search(name) for p in NON_TOPICAL_PATTERNS)


_NAME_FILLERS = frozenset({"the", "a", "an", "of", "and", "series", "trilogy", "saga", "books"})


def names_the_book(shelf: str, words_of_book: Iterable[str]) -> bool:
    """True when every word of a shelf is a word of the book's title, series or authors.

    Such a shelf (`hunger-games`, `suzanne-collins`, `a-song-of-ice-and-fire`) names the book
    rather than saying what it is about.
    """
    book = {w for text in words_of_book for w in re.findall(r"\w+", fold(text))}
    words = {w for w in re.findall(r"\w+", fold(shelf)) if w not in _NAME_FILLERS}
    return bool(words) and words <= book


def is_topical_subject(subject: str) -> bool:
    """True when an Open Library subject describes a topic, not a format or a list."""
    name = subject.strip().casefold()
    if not name or len(name) > 80:
        return False
    return not any(p.search(name) for p in NON_TOPICAL_SUBJECTS)


def normalize_category(raw: str) -> str | None:
    """One spelling per topic: lower case, single spaces, no '-' or '_' separators."""
    text = raw.strip()
    text = re.sub(r"\s*\((genre|fiction|novel|literature)\)\s*$", "", text, flags=re.I)
    text = re.sub(r",\s*general$", "", text, flags=re.I)
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("&", " and ")
    text = re.sub(r"[-_/]+", " ", text)
    text = re.sub(r"[^\w\s',.]", " ", text)
    text = collapse_whitespace(text).strip(" ,.")
    if not text or len(text) < 2 or text.isdigit():
        return None
    return CATEGORY_SYNONYMS.get(text, text)


_LONGEST_SHORTHAND = max(len(k) for k in SHELF_SHORTHAND)


def shelf_key(name: str) -> tuple[str, ...]:
    """The words a shelf name stands for, however it is spelt: one key per shelf.

    Folded, a possessive's lone "s" joined back ("children s lit"), each word singular,
    readers' shorthand written out (`SHELF_SHORTHAND`): "children's literature",
    "childrens lit" and "children s lit" share a key, as do "world war 2", "world war ii"
    and "wwii", and "biography" and "biographies".
    """
    words: list[str] = []
    for word in fold(name).split():
        if word == "s" and words:
            words[-1] += "s"
        else:
            words.append(word)
    words = [singular(w) for w in words]
    key: list[str] = []
    index = 0
    while index < len(words):
        for size in range(min(_LONGEST_SHORTHAND, len(words) - index), 0, -1):
            written = SHELF_SHORTHAND.get(tuple(words[index : index + size]))
            if written is not None:
                key.extend(written)
                index += size
                break
        else:
            key.append(words[index])
            index += 1
    return tuple(key)


def merge_categories(*groups: Iterable[str]) -> tuple[str, ...]:
    """Normalise and de-duplicate categories, keeping first-seen order."""
    seen: dict[str, None] = {}
    for group in groups:
        for raw in group:
            name = normalize_category(raw)
            if name and name not in seen:
                seen[name] = None
    return tuple(seen)


_YOUTH_KEYS = tuple(tuple(fold(marker).split()) for marker in YOUTH_MARKERS)


def is_youth_shelf(shelf: str) -> bool:
    """True when a shelf's name says its books are for young readers (`YOUTH_MARKERS`)."""
    words = fold(shelf).split()
    if words and words[0] in YOUTH_HEADS and words[1:2] not in (["of"], ["with"], ["and"], ["in"]):
        return True
    for key in _YOUTH_KEYS:
        size = len(key)
        if any(tuple(words[i : i + size]) == key for i in range(len(words) - size + 1)):
            return True
    return False
