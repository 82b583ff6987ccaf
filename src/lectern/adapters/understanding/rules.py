"""The offline query understanding: rules over the catalog's own vocabulary.

Each rule family reports what it recognised with the span of the query it came from:
- languages, named in several languages ("Spanish", "en español", "auf Deutsch"), when a
  cue says they are the book's language ("in", "written in", "en", or a book word after);
- years ("after 2010", "from the 90s", "before 1950", "between 1990 and 2000", "recent");
- categories and their spellings, from the catalog's shelves (plural forms, "sci-fi");
- authors present in the catalog (full names; a surname alone when it is distinctive);
- titles in quotes, or a query that is exactly a catalog title;
- "books like X", resolved to the catalog's most popular book titled X.
Strategy: names (titles, authors) -> lexical_heavy; "like X" and moods -> vector_heavy;
otherwise balanced. Nothing recognised (gibberish) -> no filters, balanced.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lectern.application.understanding import (
    Token,
    Vocabulary,
    key_of,
    repaired_filters,
    tokens_of,
    validate_plan,
)
from lectern.domain.search import (
    MAX_QUERY_CHARS,
    Intent,
    QueryPlan,
    Recognition,
    RecognitionKind,
    Strategy,
)

NAME = "rules-v1"

LANGUAGE_NAMES: dict[str, str] = {
    name: code
    for code, names in {
        "en": "english ingles anglais englisch inglese",
        "es": "spanish espanol castellano espagnol spanisch spagnolo",
        "fr": "french frances francais franzosisch francese",
        "de": "german aleman allemand deutsch deutschen deutsche tedesco",
        "it": "italian italiano italien italienisch",
        "pt": "portuguese portugues portugais portugiesisch portoghese",
        "ja": "japanese japones japonais japanisch giapponese",
        "zh": "chinese chino chinois chinesisch cinese mandarin",
        "ar": "arabic arabe arabisch arabo",
        "ru": "russian ruso russe russisch russo",
        "nl": "dutch neerlandes hollandais niederlandisch olandese",
        "sv": "swedish sueco suedois schwedisch svedese",
        "id": "indonesian indonesio",
        "fa": "persian farsi",
        "fi": "finnish finlandes finnois finnisch",
        "pl": "polish polaco polonais polnisch",
        "tr": "turkish turco turc turkisch",
        "ko": "korean coreano coreen koreanisch",
        "el": "greek griego grec griechisch",
        "he": "hebrew hebreo hebreu hebraisch",
    }.items()
    for name in names.split()
}
"""Names of languages in English, Spanish, French, German and Italian, folded."""
LANGUAGE_CUES = frozenset(
    ["in", "en", "auf", "im", "into", "written", "language", "idioma", "langue", "sprache"]
)
BOOK_WORDS = frozenset(
    [
        "book",
        "books",
        "novel",
        "novels",
        "novela",
        "novelas",
        "roman",
        "romane",
        "romans",
        "romanen",
        "libro",
        "libros",
        "livre",
        "livres",
        "buch",
        "bucher",
        "literature",
        "literatura",
        "litterature",
        "letteratura",
        "fiction",
        "ficcion",
        "stories",
        "poetry",
        "poesia",
        "poems",
        "authors",
        "writers",
        "edition",
        "editions",
        "translation",
        "translations",
        "text",
        "texts",
        "classics",
    ]
)
TRANSLATION_WORDS = frozenset(("translation", "translations", "translated", "edition", "editions"))
SETTING_WORDS = frozenset(
    [
        "civil",
        "war",
        "wars",
        "history",
        "inquisition",
        "armada",
        "revolution",
        "empire",
        "cuisine",
        "food",
        "cooking",
        "art",
        "culture",
        "conquest",
        "army",
        "navy",
        "kings",
        "queens",
        "royal",
        "court",
        "monarchy",
    ]
)
"""After a language word these say it is a setting ("Spanish civil war"), not a language."""
MOOD_WORDS = frozenset(
    [
        "dark",
        "cozy",
        "cosy",
        "heartwarming",
        "sad",
        "funny",
        "uplifting",
        "atmospheric",
        "scary",
        "creepy",
        "feelgood",
        "lighthearted",
        "moving",
        "haunting",
        "emotional",
        "whimsical",
        "bleak",
        "hopeful",
        "gritty",
        "quirky",
        "melancholy",
        "wholesome",
        "tense",
        "gripping",
        "eerie",
        "comforting",
        "mood",
        "vibe",
        "vibes",
        "something",
        "anything",
    ]
)
EXPLORATORY_CUES = (
    ("history", "of"),
    ("introduction", "to"),
    ("guide", "to"),
    ("how", "to"),
    ("learn",),
    ("learning",),
    ("understanding",),
    ("understand",),
    ("philosophy", "of"),
    ("science", "of"),
    ("the", "life", "of"),
)
QUESTION_WORDS = frozenset(["who", "what", "when", "which", "where"])
CATEGORY_STOP = frozenset(
    (
        "fiction",
        "novels",
        "novel",
        "adult",
        "adult fiction",
        "general fiction",
        "general",
        "literature",
        "book",
        "books",
        "stories",
        "authors",
        "author",
        "writers",
        "reads",
        "english",
        "american",
        "british",
        "french",
        "german",
        "spanish",
        "russian",
        "japanese",
        "italian",
        "novela",
        "novelas",
        "roman",
        "romans",
        "romane",
        "ficcion",
        "literatura",
        "litterature",
    )
)
"""Shelves too generic to mean a genre, or that are languages."""
CATEGORY_SYNONYMS: dict[tuple[str, ...], str] = {
    key_of(k): v
    for k, v in {
        "sci fi": "science fiction",
        "scifi": "science fiction",
        "sf": "science fiction",
        "ya": "young adult",
        "whodunit": "mystery",
        "whodunnit": "mystery",
        "mysteries": "mystery",
        "detective stories": "mystery",
        "rom com": "romance",
        "romcom": "romance",
        "romantic": "romance",
        "love story": "romance",
        "love stories": "romance",
        "scary": "horror",
        "ghost stories": "horror",
        "biographies": "biography",
        "memoirs": "memoir",
        "comic": "comics",
        "graphic novel": "graphic novels",
        "misterio": "mystery",
        "novela negra": "crime",
        "policiaca": "mystery",
        "policiacas": "mystery",
        "policier": "mystery",
        "roman policier": "mystery",
        "krimi": "mystery",
        "krimis": "mystery",
        "fantasia": "fantasy",
        "ciencia ficcion": "science fiction",
        "science fiction": "science fiction",
        "liebesroman": "romance",
        "novela romantica": "romance",
        "terror": "horror",
        "poesia": "poetry",
        "poesie": "poetry",
        "historia": "history",
        "thrillers": "thriller",
        "dystopian": "dystopia",
        "apocalyptic": "post apocalyptic",
        "post apocalyptic": "post apocalyptic",
        "zombie": "zombies",
        "vampire": "vampires",
        "dragon": "dragons",
        "werewolf": "werewolves",
    }.items()
}
"""Spellings readers use for the catalog's shelves, including other languages' genre names.
Only those whose target shelf the catalog has are used: the rest are derived from the
catalog (each shelf, its plural or singular, hyphens as spaces)."""
_YEAR = r"(1[0-9]{3}|20[0-9]{2})"
YEAR_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), kind)
    for pattern, kind in (
        (rf"\b(?:between|from)\s+{_YEAR}\s+(?:and|to|until)\s+{_YEAR}\b", "range"),
        (rf"\b{_YEAR}\s*(?:-|–|to)\s*{_YEAR}\b", "range"),
        (
            rf"\b(?:published\s+|written\s+|released\s+)?(?:after|post|newer than|later than)"
            rf"\s+{_YEAR}\b",
            "after",
        ),
        (
            rf"\b(?:published\s+|written\s+|released\s+)?(?:since|from)\s+{_YEAR}"
            r"(?:\s+on(?:wards?)?)?\b(?!\s*(?:-|–|to|and|until))",
            "since",
        ),
        (
            rf"\b(?:published\s+|written\s+|released\s+)?(?:before|pre|prior to|older than|"
            rf"earlier than)\s+{_YEAR}\b",
            "before",
        ),
        (
            rf"\b(?:published\s+|written\s+|released\s+)?(?:until|up to|through)\s+{_YEAR}\b",
            "until",
        ),
        (rf"\b(?:published|written|released|came out)\s+in\s+{_YEAR}\b", "in"),
        (r"\b(?:from\s+|in\s+|of\s+)?(?:the\s+)?(1[0-9]|20)([0-9])0['’]?s\b", "decade4"),
        (r"\b(?:from\s+|in\s+|of\s+)?the\s+['’]?([0-9])0['’]?s\b", "decade2"),
        (
            r"\b(?:from\s+|in\s+|of\s+)?the\s+(twenties|thirties|forties|fifties|sixties|"
            r"seventies|eighties|nineties)\b",
            "decade_word",
        ),
        (r"\b(?:recent|recently\s+published|new\s+releases?|newest|latest)\b", "recent"),
    )
)
DECADE_WORDS = {
    "twenties": 1920,
    "thirties": 1930,
    "forties": 1940,
    "fifties": 1950,
    "sixties": 1960,
    "seventies": 1970,
    "eighties": 1980,
    "nineties": 1990,
}
RECENT_YEARS = 5
"""'Recent' means the catalog's newest five years of publication."""
LIKE_RULES = tuple(
    re.compile(pattern, re.I)
    for pattern in (
        r"\b(?:books?|novels?|something|anything|stuff|more|reads?|series)?\s*(?:just\s+)?"
        r"(?:like|similar\s+to|in\s+the\s+vein\s+of|comparable\s+to|reminiscent\s+of|"
        r"along\s+the\s+lines\s+of)\s+(?P<x>.+)",
        r"\bif\s+i\s+(?:liked|loved|enjoyed)\s+(?P<x>.+)",
        r"\bfans?\s+of\s+(?P<x>.+)",
        r"\bread[\s-]?alikes?\s+(?:for|to)\s+(?P<x>.+)",
    )
)
LIKE_TAIL = re.compile(
    r"\s*(?:,|\bbut\b|\bwhat\b|\bwhich\b|\bthen\b|\bfor\s+(?:adults|kids|teens|children)\b|"
    r"\bwith\b|\bexcept\b|\bonly\b|\bthat\b|\bnot\b|\bshould\b|\bplease\b|[?.!]).*$",
    re.I,
)
_QUOTED = re.compile(r"[\"“”«]([^\"“”«»]{2,120})[\"“”»]")
RESIDUAL_STOP = frozenset(
    [
        "published",
        "written",
        "released",
        "books",
        "book",
        "novels",
        "novel",
        "in",
        "from",
        "after",
        "before",
        "since",
        "the",
        "a",
    ]
)
"""Words left over once filters are taken out that no longer say anything."""
NOTE_RULES = (
    (
        re.compile(r"\bnot too long\b|\bshort\b|\bquick read\b", re.I),
        "length was asked for, but the catalog records no page counts",
    ),
    (
        re.compile(r"\bfor adults\b", re.I),
        "'for adults' noted: the catalog has no age rating; adult shelves are not a filter",
    ),
)


def _number_forms(key: tuple[str, ...]) -> list[tuple[str, ...]]:
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


@dataclass
class _Found:
    recognised: list[Recognition]
    used: set[int]
    """Indexes of tokens already explained by a rule."""
    notes: list[str]
    dropped: set[int]
    """Tokens of constraints that were not kept (a second language): not search words."""


class RuleBasedUnderstanding:
    """`QueryUnderstanding` by rules; deterministic, a few hundred microseconds a query."""

    name = NAME

    def __init__(self, vocabulary: Vocabulary) -> None:
        """The vocabulary comes from the catalog (`Vocabulary.build`)."""
        self.vocabulary = vocabulary
        self._synonyms = {
            k: v for k, v in CATEGORY_SYNONYMS.items() if v in vocabulary.category_books
        }
        self._longest = max((len(k) for k in vocabulary.categories), default=1)

    def plan(self, query: str) -> QueryPlan:
        """Recognise what the rules can; the validator repairs what the catalog lacks."""
        text = query[:MAX_QUERY_CHARS]  # spans index the query exactly as the reader typed it
        tokens = tokens_of(text)
        found = _Found([], set(), [], set())
        like = self._like(text, tokens, found)
        title = None if like else self._title(text, tokens, found)
        language = self._language(tokens, found)
        min_year, max_year = self._years(text, tokens, found)
        authors = self._authors(tokens, found)
        categories = self._categories(tokens, found)
        for pattern, note in NOTE_RULES:
            if pattern.search(text):
                found.notes.append(note)
        intent = self._intent(tokens, title is not None, authors, categories, like is not None)
        strategy, reason = self._strategy(tokens, found, title, authors, like)
        variations = self._variations(text, tokens, found, categories, authors, like)
        plan = QueryPlan(
            original_query=query,
            intent=intent,
            filters=repaired_filters(language, None, min_year, max_year, found.notes),
            variations=tuple(variations),
            strategy=strategy,
            strategy_reason=reason,
            categories=tuple(categories),
            authors=tuple(authors),
            like_book_id=like[0] if like else None,
            like_title=like[1] if like else None,
            recognised=tuple(sorted(found.recognised, key=lambda r: (r.start, r.kind))),
            notes=tuple(found.notes),
            source=NAME,
        )
        return validate_plan(plan, self.vocabulary)

    # --- rule families ---------------------------------------------------------------------

    def _like(self, text: str, tokens: list[Token], found: _Found) -> tuple[str, str] | None:
        for pattern in LIKE_RULES:
            match = pattern.search(text)
            if match is None:
                continue
            raw = LIKE_TAIL.sub("", match.group("x")).strip(" \"'“”«»")
            author = None
            by = re.search(r"\s+by\s+(.+)$", raw, re.I)
            if by:
                author, raw = by.group(1), raw[: by.start()]
            key = key_of(raw)
            bare = key[1:] if key[:1] == ("the",) else key
            entry = (
                self.vocabulary.best_title(key)
                or self.vocabulary.best_title(bare)
                or self.vocabulary.best_title(("the", *bare))
                or self.vocabulary.best_title_starting(bare)
            )
            start = match.start("x")
            end = start + len(match.group("x"))
            if entry is None:
                found.notes.append(
                    f"could not find {raw!r} in the catalog: searching for its words instead"
                )
                return None
            found.recognised.append(Recognition("like", entry.title, match.start(), end))
            found.used.update(i for i, t in enumerate(tokens) if match.start() <= t.start < end)
            if author:
                found.notes.append(f"'by {author}' used to read the title {entry.title!r}")
            return entry.book_id, entry.title
        return None

    def _title(self, text: str, tokens: list[Token], found: _Found) -> str | None:
        for match in _QUOTED.finditer(text):
            entry = self.vocabulary.best_title(key_of(match.group(1)))
            if entry is not None:
                found.recognised.append(
                    Recognition("title", entry.title, match.start(1), match.end(1))
                )
                found.used.update(
                    i for i, t in enumerate(tokens) if match.start() <= t.start < match.end()
                )
                return entry.title
        key = tuple(t.text for t in tokens)
        if key in self.vocabulary.authors or (len(key) == 1 and key[0] in self.vocabulary.surnames):
            return None  # "tolkien" asks for the author, not the biography titled "Tolkien"
        for skip in (0, 1, 2):  # "the book Dune", "who wrote Dune"
            entry = self.vocabulary.best_title(key[skip:]) if key[skip:] else None
            if entry is not None and (skip == 0 or key[0] in QUESTION_WORDS | {"the", "book"}):
                span = tokens[skip:]
                found.recognised.append(
                    Recognition("title", entry.title, span[0].start, span[-1].end)
                )
                found.used.update(range(skip, len(tokens)))
                return entry.title
        return None

    def _language(self, tokens: list[Token], found: _Found) -> str | None:
        candidates: list[tuple[int, int, str]] = []  # (strength, position, code)
        for index, token in enumerate(tokens):
            code = LANGUAGE_NAMES.get(token.text)
            if code is None or index in found.used:
                continue
            before = tokens[index - 1].text if index else ""
            after = [t.text for t in tokens[index + 1 : index + 4]]
            if after[:1] and after[0] in SETTING_WORDS:
                continue
            strength = 0
            if before in LANGUAGE_CUES or (after[:1] and after[0] in TRANSLATION_WORDS):
                strength = 2  # "in Spanish", "English translations of ..."
            elif any(word in BOOK_WORDS for word in after[:3]):
                strength = 1
            if strength:
                candidates.append((strength, index, code))
        if not candidates:
            return None
        strength, index, code = max(candidates)
        token = tokens[index]
        cue_before = strength == 2 and index > 0 and tokens[index - 1].text in LANGUAGE_CUES
        start = tokens[index - 1].start if cue_before else token.start
        found.recognised.append(Recognition("language", code, start, token.end))
        found.used.update({index, index - 1} if cue_before else {index})
        others = sorted({c for _, _, c in candidates if c != code})
        found.dropped.update(i for _, i, c in candidates if c != code)
        if others:
            found.notes.append(
                f"several languages asked ({', '.join([code, *others])}): kept {code}, named "
                + ("as the language written in" if strength == 2 else "last")
                + "; a book has one language"
            )
        return code

    def _years(
        self, text: str, tokens: list[Token], found: _Found
    ) -> tuple[int | None, int | None]:
        low: int | None = None
        high: int | None = None
        newest = self.vocabulary.max_year
        for pattern, kind in YEAR_RULES:
            for match in pattern.finditer(text):
                if any(
                    r.kind == "years" and r.start <= match.start() < r.end for r in found.recognised
                ):
                    continue
                values = self._year_values(kind, match, newest)
                if values is None:
                    continue
                start_year, end_year, label = values
                low = start_year if start_year is not None else low
                high = end_year if end_year is not None else high
                found.recognised.append(Recognition("years", label, match.start(), match.end()))
                found.used.update(
                    i for i, t in enumerate(tokens) if match.start() <= t.start < match.end()
                )
                if kind == "recent":
                    found.notes.append(
                        f"'recent' read as published {start_year} or later (the newest book in "
                        f"the catalog is from {newest})"
                    )
        return low, high

    @staticmethod
    def _year_values(
        kind: str, match: re.Match[str], newest: int | None
    ) -> tuple[int | None, int | None, str] | None:
        groups = match.groups()
        if kind == "range":
            first, second = int(groups[0]), int(groups[1])
            return first, second, f"{first}-{second}"
        if kind == "after":
            year = int(groups[0]) + 1
            return year, None, f"{year}-"
        if kind == "since":
            return int(groups[0]), None, f"{groups[0]}-"
        if kind == "before":
            year = int(groups[0]) - 1
            return None, year, f"-{year}"
        if kind == "until":
            return None, int(groups[0]), f"-{groups[0]}"
        if kind == "in":
            return int(groups[0]), int(groups[0]), groups[0]
        if kind == "decade4":
            start = int(groups[0]) * 100 + int(groups[1]) * 10
            return start, start + 9, f"{start}s"
        if kind == "decade2":
            start = 1900 + int(groups[0]) * 10
            return start, start + 9, f"{start}s"
        if kind == "decade_word":
            start = DECADE_WORDS[groups[0].casefold()]
            return start, start + 9, f"{start}s"
        if kind == "recent" and newest is not None:
            start = newest - RECENT_YEARS + 1
            return start, None, f"{start}-"
        return None

    def _authors(self, tokens: list[Token], found: _Found) -> list[str]:
        def author(key: tuple[str, ...]) -> str | None:
            if len(key) == 1:  # a surname alone only when it is distinctive
                return self.vocabulary.surnames.get(key[0])
            return self.vocabulary.authors.get(key)

        return self._scan(tokens, found, "author", (4, 3, 2, 1), author)

    def _categories(self, tokens: list[Token], found: _Found) -> list[str]:
        sizes = tuple(range(min(self._longest, 4), 0, -1))
        return self._scan(tokens, found, "category", sizes, self._category_for)

    def _scan(
        self,
        tokens: list[Token],
        found: _Found,
        kind: RecognitionKind,
        sizes: tuple[int, ...],
        lookup: Callable[[tuple[str, ...]], str | None],
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
                    self._mark(kind, value, tokens, index, index + size, found)
                    index += size
                    break
            else:
                index += 1
        return list(dict.fromkeys(values))

    def _category_for(self, key: tuple[str, ...]) -> str | None:
        if " ".join(key) in CATEGORY_STOP:
            return None
        name = None
        for form in _number_forms(key):  # as typed, singular, plural
            name = self._synonyms.get(form) or self.vocabulary.categories.get(form)
            if name is not None:
                break
        if name is None or name in CATEGORY_STOP:
            return None
        return name

    @staticmethod
    def _mark(
        kind: RecognitionKind, value: str, tokens: list[Token], start: int, end: int, found: _Found
    ) -> None:
        found.recognised.append(Recognition(kind, value, tokens[start].start, tokens[end - 1].end))
        found.used.update(range(start, end))

    # --- intent, strategy, variations ------------------------------------------------------

    @staticmethod
    def _intent(
        tokens: list[Token], title: bool, authors: list[str], categories: list[str], like: bool
    ) -> Intent:
        words = [t.text for t in tokens]
        if like:
            return "recommendation"
        if title or (words[:1] and words[0] in QUESTION_WORDS):
            return "factual"
        if authors and len(words) <= len(authors) * 3 + 2:
            return "factual"
        for cue in EXPLORATORY_CUES:
            size = len(cue)
            if any(tuple(words[i : i + size]) == cue for i in range(len(words))):
                return "exploratory"
        if "about" in words and not categories:
            return "exploratory"
        return "recommendation"

    def _strategy(
        self,
        tokens: list[Token],
        found: _Found,
        title: str | None,
        authors: list[str],
        like: tuple[str, str] | None,
    ) -> tuple[Strategy, str]:
        if title is not None:
            return "lexical_heavy", f"names the title {title!r}: exact words matter most"
        if like is not None:
            return "vector_heavy", f"books like {like[1]!r} are found by meaning"
        if authors:
            return "lexical_heavy", f"names the author {authors[0]}: exact words matter most"
        words = [t.text for t in tokens]
        known = [
            w for w in words if w in self.vocabulary.words or w in LANGUAGE_NAMES or w in MOOD_WORDS
        ]
        if not words or not known:
            return "balanced", "nothing in the query is a catalog word: no strategy preferred"
        moods = [
            t.text for i, t in enumerate(tokens) if t.text in MOOD_WORDS and i not in found.used
        ]
        if moods:
            return "vector_heavy", f"a mood ({', '.join(moods[:3])}) is matched by meaning"
        return "balanced", "topic words: both exact words and meaning"

    def _variations(
        self,
        text: str,
        tokens: list[Token],
        found: _Found,
        categories: list[str],
        authors: list[str],
        like: tuple[str, str] | None,
    ) -> list[str]:
        variations: list[str] = []
        filter_spans = [r for r in found.recognised if r.kind in ("language", "years", "like")]
        if filter_spans:
            residual = [
                text[t.start : t.end]
                for i, t in enumerate(tokens)
                if not any(r.start <= t.start < r.end for r in filter_spans)
                and t.text not in RESIDUAL_STOP
                and i not in found.dropped
            ]
            if residual:
                variations.append(" ".join(residual))
        if like is not None:
            entry = self.vocabulary.best_title(key_of(like[1]))
            if entry is not None and entry.categories:
                shelves = [c for c in entry.categories if c not in CATEGORY_STOP][:4]
                if shelves:
                    variations.append(" ".join(shelves))
        if categories and " ".join(categories) not in variations:
            variations.append(" ".join(categories))
        variations += authors
        return variations
