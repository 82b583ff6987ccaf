"""What an exclusion rules out: the one definition filters and checks share.

Names are compared as folded words (`fold`: case, accents and punctuation dropped), with a
plural 's' folded ("vampires" rules out "vampire fiction"):
- a shelf rules out every shelf containing it as a phrase ("romance" rules out "paranormal
  romance", never "romantic comedy");
- an author rules out that author, initials ignored ("J.R.R. Tolkien" = "JRR Tolkien");
- a title rules out books whose title or series contains it as a phrase ("Twilight" rules
  out "Twilight: The Graphic Novel" and "New Moon" of the series "Twilight"), leading
  articles ignored; a title of one short word (under four letters) only an equal title.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lectern.domain.normalize import fold, is_youth_shelf, singular
from lectern.domain.search import SearchFilters

_ARTICLES = frozenset({"the", "a", "an"})


def name_words(text: str) -> tuple[str, ...]:
    """Folded words in the singular ("Cozy Mysteries" -> ("cozy", "mystery"))."""
    return tuple(singular(word) for word in fold(text).split())


def contains_phrase(words: Sequence[str], phrase: Sequence[str]) -> bool:
    """True when `phrase` occurs in `words` as consecutive words."""
    size = len(phrase)
    if not size or size > len(words):
        return False
    first = phrase[0]
    return any(
        words[i] == first and tuple(words[i : i + size]) == tuple(phrase)
        for i in range(len(words) - size + 1)
    )


def shelf_excluded(excluded: str, shelf: str) -> bool:
    """True when an excluded shelf name rules out this shelf."""
    return contains_phrase(name_words(shelf), name_words(excluded))


def author_words(name: str) -> tuple[str, ...]:
    """An author's folded words without initials: "J.R.R. Tolkien" -> ("tolkien",)."""
    return tuple(w for w in fold(name).split() if len(w) > 1 or w.isdigit())


def author_excluded(excluded: str, author: str) -> bool:
    """True when an excluded author is this author."""
    key = author_words(excluded)
    return bool(key) and key == author_words(author)


def title_key(title: str) -> tuple[str, ...]:
    """A title's folded words without a leading article."""
    words = name_words(title)
    return words[1:] if len(words) > 1 and words[0] in _ARTICLES else words


def title_excluded(excluded: str, title: str, series: str | None) -> bool:
    """True when an excluded title rules out a book with this title and series."""
    key = title_key(excluded)
    if not key:
        return False
    if len(key) == 1 and len(key[0]) < 4:
        return title_key(title) == key
    return contains_phrase(name_words(title), key) or (
        series is not None and contains_phrase(name_words(series), key)
    )


def excludes(
    filters: SearchFilters,
    *,
    categories: Iterable[str],
    authors: Iterable[str],
    title: str,
    series: str | None,
) -> bool:
    """True when any exclusion of the filters rules out a book with these names."""
    shelves = list(categories)
    if filters.exclude_youth and any(is_youth_shelf(s) for s in shelves):
        return True
    if any(shelf_excluded(x, s) for x in filters.exclude_categories for s in shelves):
        return True
    if any(author_excluded(x, a) for x in filters.exclude_authors for a in authors):
        return True
    return any(title_excluded(x, title, series) for x in filters.exclude_titles)
