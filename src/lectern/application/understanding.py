"""Query understanding's shared parts: the catalog's vocabulary and the plan validator.

Both planners (the offline rules and the LLM graph) end in `validate_plan`: a language the
catalog has no book in, a category it does not know, years that contradict each other, too
many or empty variations are repaired (mapped to the nearest catalog value) or dropped,
and every change is written into the plan's notes, so a reader sees what happened.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from lectern.application.ports import BookNames, QueryUnderstanding
from lectern.domain.exclusions import author_excluded, shelf_excluded
from lectern.domain.normalize import (
    MAX_PAGES,
    fold_accents,
    is_iso_639_1,
    is_youth_shelf,
    normalize_category,
)
from lectern.domain.search import (
    PLAN_FIELDS,
    Exclusion,
    QueryPlan,
    SearchFilters,
    with_exclusions,
)

MIN_CATEGORY_BOOKS = 5
"""A shelf on fewer books than this is too rare to be a reader's genre word."""
MAX_VARIATIONS = 3
MAX_VARIATION_CHARS = 200
_WORD = re.compile(r"\w+(?:['’]\w+)*", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Token:
    """A word of the query: its folded form and where it is in the original text."""

    text: str
    start: int
    end: int


def fold_word(word: str) -> str:
    """Case-folded, accents removed, apostrophes dropped: "Español" -> "espanol"."""
    return fold_accents(word).replace("'", "").replace("’", "")


def tokens_of(text: str) -> list[Token]:
    """The words of a text with their character spans."""
    return [Token(fold_word(m.group()), m.start(), m.end()) for m in _WORD.finditer(text)]


def key_of(text: str) -> tuple[str, ...]:
    """The folded word sequence of a name, title or category: the lookup key."""
    return tuple(t.text for t in tokens_of(text))


ARTICLES = ("the", "a", "an")
"""Leading words a reader may drop from a title or add to it ("Wrinkle in Time")."""


def title_forms(key: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The keys a title may be filed under: as written, without its article, with one.

    As written first, so the first form the catalog holds decides; "the" is tried before
    "a" and "an" (the commonest in titles).
    """
    bare = key[1:] if key[:1] and key[0] in ARTICLES and len(key) > 1 else key
    forms = (key, bare, *((article, *bare) for article in ARTICLES))
    return tuple(dict.fromkeys(form for form in forms if form))


def author_key(name: str) -> tuple[str, ...]:
    """An author's lookup key: folded words without initials ("J.R.R. Tolkien" -> tolkien)."""
    return tuple(w for w in key_of(name) if len(w) > 1 or w.isdigit())


@dataclass(frozen=True, slots=True)
class TitleEntry:
    """A book a title names, with what ranks editions: popularity."""

    book_id: str
    title: str
    popularity: int
    categories: tuple[str, ...]


@dataclass
class Vocabulary:
    """What the catalog holds, as lookup tables for understanding queries."""

    languages: frozenset[str]
    categories: dict[tuple[str, ...], str] = field(default_factory=dict)
    category_books: dict[str, int] = field(default_factory=dict)
    authors: dict[tuple[str, ...], str] = field(default_factory=dict)
    surnames: dict[str, str] = field(default_factory=dict)
    """A surname that alone names one author, for search ("tolkien"); strict."""
    last_names: frozenset[str] = frozenset()
    """The last word of every author's name: a book said as "the Hosseini" is a writer's."""
    titles: dict[tuple[str, ...], list[TitleEntry]] = field(default_factory=dict)
    main_titles: dict[tuple[str, ...], list[TitleEntry]] = field(default_factory=dict)
    """A subtitled title's words before its colon ("the devil in the white city" for "The
    Devil in the White City: Murder, Magic, and Madness ..."): read only where a title
    argument is resolved (`book_lookup`), never to find titles in a message."""
    words: frozenset[str] = frozenset()
    """Every folded word of titles, authors and categories (what the catalog can match)."""
    shelf_words: frozenset[str] = frozenset()
    """Every folded word of the catalog's shelves (a topic an exclusion can rule out)."""
    youth_shelves: tuple[str, ...] = ()
    """The catalog's shelves for young readers (`is_youth_shelf`) on 5 or more books, most
    used first: what a plan shows; the filter (`exclude_youth`) rules out every one."""
    max_year: int | None = None
    min_year: int | None = None

    @classmethod
    def build(
        cls,
        names: Iterable[BookNames],
        languages: Iterable[str],
        *,
        min_year: int | None = None,
        max_year: int | None = None,
    ) -> Vocabulary:
        """Index titles, authors and categories of every book."""
        vocabulary = cls(frozenset(languages), min_year=min_year, max_year=max_year)
        author_books: Counter[str] = Counter()
        surname_owners: dict[str, Counter[str]] = {}
        title_words: Counter[str] = Counter()
        own_titles: Counter[str] = Counter()
        """Per surname: titles containing it by an author of that surname ("Tolkien")."""
        words: set[str] = set()
        for book in names:
            for name in book.categories:
                vocabulary.category_books[name] = vocabulary.category_books.get(name, 0) + 1
            for author in book.authors:
                author_books[author] += 1
            title_key = vocabulary._add_title(book)
            if title_key:
                title_words.update(set(title_key))
                words.update(title_key)
                for author in book.authors:
                    last = key_of(author)[-1:] if key_of(author) else ()
                    if last and last[0] in title_key:
                        own_titles[last[0]] += 1
        vocabulary._sort_titles()
        shelf_words: set[str] = set()
        for name, count in vocabulary.category_books.items():
            key = key_of(name)
            words.update(key)
            shelf_words.update(key)
            if count >= MIN_CATEGORY_BOOKS and key:
                vocabulary.categories.setdefault(key, name)
        last_names: set[str] = set()
        for author, count in author_books.items():
            key = author_key(author)
            if not key:
                continue
            last_names.add(key[-1])
            words.update(key)
            vocabulary.authors.setdefault(key, author)
            if count >= 3:  # "J.R.R. Tolkien" is keyed ("tolkien",): initials say nothing
                surname_owners.setdefault(key[-1], Counter())[author] += count
        # A surname alone names an author when one author with three or more books holds
        # most (60%) of the surname's books, and other authors' titles use the word less
        # than half as often as the surname's owners have books: "king" is in 90 titles by
        # others against 171 books by Kings (a common word); "tolkien" in 17 against 56.
        for surname, owners in surname_owners.items():
            others = title_words[surname] - own_titles[surname]
            common = others >= 5 and others >= 0.5 * sum(owners.values())
            author, books = owners.most_common(1)[0]
            if not common and books >= 0.6 * sum(owners.values()):
                vocabulary.surnames[surname] = author
        vocabulary.last_names = frozenset(last_names)
        vocabulary.words = frozenset(words)
        vocabulary.shelf_words = frozenset(shelf_words)
        vocabulary.youth_shelves = tuple(
            sorted(
                (
                    n
                    for n, count in vocabulary.category_books.items()
                    if count >= MIN_CATEGORY_BOOKS and is_youth_shelf(n)
                ),
                key=lambda n: (-vocabulary.category_books[n], n),
            )
        )
        return vocabulary

    @classmethod
    def of_titles(cls, names: Iterable[BookNames]) -> Vocabulary:
        """Only the title tables and the words of titles: what known-item search reads.

        A fraction of `build`'s cost (no authors, shelves or surnames), from facts search has
        already loaded, so a one-off search does not read the whole catalog again.
        """
        vocabulary = cls(frozenset())
        words: set[str] = set()
        for book in names:
            words.update(vocabulary._add_title(book))
        vocabulary._sort_titles()
        vocabulary.words = frozenset(words)
        return vocabulary

    def _add_title(self, book: BookNames) -> tuple[str, ...]:
        """File the book under its title's key (and its words before a colon); the key."""
        title_key = key_of(book.title)
        if title_key:
            entry = TitleEntry(book.id, book.title, book.popularity, book.categories)
            self.titles.setdefault(title_key, []).append(entry)
            main_key = key_of(book.title.split(":", 1)[0]) if ":" in book.title else ()
            if main_key and main_key != title_key:
                self.main_titles.setdefault(main_key, []).append(entry)
        return title_key

    def _sort_titles(self) -> None:
        """Each title's books most read first (then most shelved), as lookups expect."""
        for entries in (*self.titles.values(), *self.main_titles.values()):
            entries.sort(key=lambda e: (-e.popularity, -len(e.categories), e.book_id))

    def nearest_category(self, name: str) -> str | None:
        """The catalog's category for a name: itself, a spelling variant, or the closest."""
        normal = normalize_category(name)
        if normal is None:
            return None
        if normal in self.category_books and self.category_books[normal] >= MIN_CATEGORY_BOOKS:
            return normal
        known = [n for n, c in self.category_books.items() if c >= MIN_CATEGORY_BOOKS]
        close = difflib.get_close_matches(normal, known, n=1, cutoff=0.85)
        return close[0] if close else None

    def best_title(self, key: tuple[str, ...]) -> TitleEntry | None:
        """The most popular book with exactly this title key."""
        entries = self.titles.get(key)
        return entries[0] if entries else None

    def best_main_title(self, key: tuple[str, ...]) -> TitleEntry | None:
        """The most popular subtitled book whose title before its colon is this key."""
        entries = self.main_titles.get(key)
        return entries[0] if entries else None

    def entries_titled(self, key: tuple[str, ...]) -> list[TitleEntry]:
        """Every book titled `key` in one of its forms, else titled so before a colon.

        The forms of `title_forms`, the first the catalog holds deciding. A subtitle may be left
        out ("The Devil in the White City") only when no title is the words themselves: "The
        Hunger Games" is Collins's novel, not "The Hunger Games: Official Illustrated Movie
        Companion" (as `book_lookup` reads a title). Most read first.
        """
        for table in (self.titles, self.main_titles):
            for form in title_forms(key):
                if table.get(form):
                    return list(table[form])
        return []

    def best_title_starting(self, key: tuple[str, ...]) -> TitleEntry | None:
        """The most popular book whose title starts with these words ("Harry Potter")."""
        if len(key) < 2 and not (key and len(key[0]) > 4):
            return None
        size = len(key)
        matches = [entries[0] for title, entries in self.titles.items() if title[:size] == key]
        if not matches:
            return None
        return min(matches, key=lambda e: (-e.popularity, -len(e.categories), e.book_id))


def repaired_filters(
    language: str | None,
    category: str | None,
    min_year: int | None,
    max_year: int | None,
    notes: list[str],
    *,
    min_pages: int | None = None,
    max_pages: int | None = None,
) -> SearchFilters:
    """Filters from raw planned values; contradictory ranges are dropped (with a note)."""
    if min_year is not None and max_year is not None and min_year > max_year:
        notes.append(f"dropped the years: {min_year} is after {max_year}, nothing can match")
        min_year = max_year = None
    pages = []
    for name, value in (("min_pages", min_pages), ("max_pages", max_pages)):
        if value is not None and not 1 <= value <= MAX_PAGES:
            notes.append(f"dropped {name} {value}: not a page count (1 to {MAX_PAGES:,})")
            value = None
        pages.append(value)
    min_pages, max_pages = pages
    if min_pages is not None and max_pages is not None and min_pages > max_pages:
        notes.append(
            f"dropped the page limits: at least {min_pages} and at most {max_pages} pages "
            "cannot both hold"
        )
        min_pages = max_pages = None
    return SearchFilters(
        language, category, min_year, max_year, min_pages=min_pages, max_pages=max_pages
    )


def validated_exclusions(
    exclusions: Sequence[Exclusion], vocabulary: Vocabulary, notes: list[str]
) -> tuple[Exclusion, ...]:
    """Exclusions the catalog can apply; empty or repeated ones dropped.

    Authors in the catalog's spelling, shelves normalised, the audience's shelves read from
    the catalog.
    """
    kept: dict[tuple[str, str], Exclusion] = {}
    for exclusion in exclusions:
        label = " ".join(exclusion.label.split())[:MAX_VARIATION_CHARS]
        values: tuple[str, ...]
        if exclusion.scope == "audience":
            values, label = vocabulary.youth_shelves, label or "young readers"
        elif exclusion.scope == "author":
            names = []
            for name in exclusion.values:
                known = vocabulary.authors.get(author_key(name))
                if known is None:
                    notes.append(
                        f"excluded author {name!r} is not in the catalog: nothing to rule out"
                    )
                names.append(known or name)
            values = tuple(dict.fromkeys(names))
        elif exclusion.scope == "category":
            values = tuple(
                dict.fromkeys(n for n in (normalize_category(v) for v in exclusion.values) if n)
            )
        else:
            values = tuple(
                dict.fromkeys(" ".join(v.split()) for v in exclusion.values if v.strip())
            )
        if not values and exclusion.scope != "audience":
            continue
        kept.setdefault(
            (exclusion.scope, label.casefold()), Exclusion(exclusion.scope, label, values)
        )
    return tuple(kept.values())


def validate_plan(plan: QueryPlan, vocabulary: Vocabulary) -> QueryPlan:
    """Repair or drop what the catalog cannot serve; say so in the notes."""
    notes = list(plan.notes)
    filters = plan.filters
    language = filters.language
    if language is not None:
        code = language.strip().casefold()
        if not is_iso_639_1(code):
            notes.append(f"dropped language {language!r}: not an ISO 639-1 code")
            language = None
        elif code not in vocabulary.languages:
            notes.append(f"dropped language {code}: the catalog has no book in it")
            language = None
        else:
            language = code
    min_year, max_year = filters.min_year, filters.max_year
    if vocabulary.max_year is not None and min_year is not None and min_year > vocabulary.max_year:
        notes.append(
            f"kept 'from {min_year}', but the newest book in the catalog is from "
            f"{vocabulary.max_year}: expect no results"
        )
    category = filters.category
    if category is not None:
        mapped = vocabulary.nearest_category(category)
        if mapped is None:
            notes.append(f"dropped category filter {category!r}: not in the catalog")
        elif mapped != category:
            notes.append(f"category {category!r} read as the catalog's {mapped!r}")
        category = mapped
    categories: list[str] = []
    for name in plan.categories:
        mapped = vocabulary.nearest_category(name)
        if mapped is None:
            notes.append(f"dropped category {name!r}: not in the catalog")
        elif mapped not in categories:
            if mapped != name:
                notes.append(f"category {name!r} read as the catalog's {mapped!r}")
            categories.append(mapped)
    authors: list[str] = []
    for name in plan.authors:
        known = vocabulary.authors.get(author_key(name))
        if known is None:
            notes.append(f"author {name!r} is not in the catalog: kept as words only")
        elif known not in authors:
            authors.append(known)
    exclusions = validated_exclusions(plan.exclusions, vocabulary, notes)
    categories, authors, category, exclusions = _without_contradictions(
        categories, authors, category, exclusions, notes
    )
    variations = _clean_variations(plan.variations, plan.original_query, notes)
    filters = repaired_filters(
        language,
        category,
        min_year,
        max_year,
        notes,
        min_pages=filters.min_pages,
        max_pages=filters.max_pages,
    )
    return replace(
        plan,
        filters=with_exclusions(filters, exclusions),
        exclusions=exclusions,
        categories=tuple(categories),
        authors=tuple(authors),
        variations=variations,
        intent=plan.intent
        if plan.intent in ("recommendation", "factual", "exploratory")
        else "recommendation",
        strategy=plan.strategy
        if plan.strategy in ("lexical_heavy", "vector_heavy", "balanced")
        else "balanced",
        notes=tuple(dict.fromkeys(notes)),
    )


def _without_contradictions(
    categories: list[str],
    authors: list[str],
    category: str | None,
    exclusions: tuple[Exclusion, ...],
    notes: list[str],
) -> tuple[list[str], list[str], str | None, tuple[Exclusion, ...]]:
    """What is both wanted and ruled out is not wanted: exclusions win, with a note."""
    shelves = [v for e in exclusions if e.scope == "category" for v in e.values]
    youth = any(e.scope == "audience" for e in exclusions)

    def ruled_out(shelf: str) -> bool:
        return any(shelf_excluded(x, shelf) for x in shelves) or (youth and is_youth_shelf(shelf))

    for name in [c for c in categories if ruled_out(c)]:
        notes.append(f"dropped category {name!r}: the query also rules it out")
        categories.remove(name)
    if category is not None and ruled_out(category):
        notes.append(f"dropped category filter {category!r}: the query also rules it out")
        category = None
    excluded_authors = [v for e in exclusions if e.scope == "author" for v in e.values]
    for name in [a for a in authors if any(author_excluded(x, a) for x in excluded_authors)]:
        notes.append(f"dropped author {name!r}: the query also rules them out")
        authors.remove(name)
    return categories, authors, category, exclusions


EXCLUSION_PREFIX = "not:"
"""`ignore` names one exclusion as `not:<label>` ("not:Stephen King")."""


def plan_query(
    understanding: QueryUnderstanding, text: str, ignore: Iterable[str] = ()
) -> QueryPlan:
    """The plan of a reader's words, minus the parts the reader asked to leave out.

    `ignore` holds plan fields (`PLAN_FIELDS`: "language", "pages", "exclusions", ...) and
    single exclusions by label, as `not:<label>`.
    """
    plan = understanding.plan(text)
    ignored = tuple(dict.fromkeys(ignore))
    fields = [i for i in ignored if i in PLAN_FIELDS]
    labels = [i[len(EXCLUSION_PREFIX) :] for i in ignored if i.startswith(EXCLUSION_PREFIX)]
    return plan.without(*fields, exclusions=labels) if fields or labels else plan


def _clean_variations(
    variations: Sequence[str], original: str, notes: list[str]
) -> tuple[str, ...]:
    seen = {" ".join(original.casefold().split())}
    kept: list[str] = []
    for variation in variations:
        text = " ".join(str(variation).split())[:MAX_VARIATION_CHARS]
        key = text.casefold()
        if not text or key in seen:
            continue
        seen.add(key)
        kept.append(text)
    if len(kept) > MAX_VARIATIONS:
        notes.append(f"kept the first {MAX_VARIATIONS} of {len(kept)} variations")
    return tuple(kept[:MAX_VARIATIONS])
