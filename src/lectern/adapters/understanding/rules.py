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

from lectern.adapters.understanding.exclusions import ExclusionRules
from lectern.adapters.understanding.lexicon import Found, Lexicon
from lectern.adapters.understanding.lexicon_data import (
    BOOK_WORDS,
    CATEGORY_STOP,
    DECADE_WORDS,
    EXPLORATORY_CUES,
    LANGUAGE_CUES,
    LIKE_RULES,
    LIKE_TAIL,
    MOOD_WORDS,
    NOTE_RULES,
    QUESTION_WORDS,
    QUOTED,
    RECENT_YEARS,
    RESIDUAL_STOP,
    SETTING_WORDS,
    TRANSLATION_WORDS,
    YEAR_RULES,
)
from lectern.application.understanding import (
    Token,
    Vocabulary,
    key_of,
    repaired_filters,
    tokens_of,
    validate_plan,
)
from lectern.domain.exclusions import shelf_excluded
from lectern.domain.normalize import is_youth_shelf
from lectern.domain.search import (
    MAX_QUERY_CHARS,
    Exclusion,
    Intent,
    QueryPlan,
    Recognition,
    Strategy,
    with_exclusions,
)

NAME = "rules-v2"
FILTER_SPAN_KINDS = frozenset({"language", "years", "like", "pages", "audience", "exclude"})
"""Spans that are not search words: filters, exclusions, and the X of "like X"."""


def _ruled_out(shelf: str, exclusions: list[Exclusion]) -> bool:
    """True when an exclusion of the plan rules out this shelf (X's shelves in "like X")."""
    for exclusion in exclusions:
        if exclusion.scope == "audience" and is_youth_shelf(shelf):
            return True
        if exclusion.scope == "category" and any(
            shelf_excluded(v, shelf) for v in exclusion.values
        ):
            return True
    return False


TITLE_LEADS = QUESTION_WORDS | {"the", "book", "wrote", "is", "was"}
"""Words that may come before a title in a query ("who wrote Dune", "the book Dune")."""


class RuleBasedUnderstanding:
    """`QueryUnderstanding` by rules; deterministic, a few hundred microseconds a query."""

    name = NAME

    def __init__(self, vocabulary: Vocabulary) -> None:
        """The vocabulary comes from the catalog (`Vocabulary.build`)."""
        self.vocabulary = vocabulary
        self.lexicon = Lexicon(vocabulary)
        self.exclusion_rules = ExclusionRules(vocabulary, self.lexicon)

    def plan(self, query: str) -> QueryPlan:
        """Recognise what the rules can; the validator repairs what the catalog lacks."""
        text = query[:MAX_QUERY_CHARS]  # spans index the query exactly as the reader typed it
        tokens = tokens_of(text)
        found = Found()
        # What the reader rules out is read first: "like X but for adults, not too long"
        # keeps its limits, and an excluded word is never read as a wanted one.
        min_pages, max_pages = self.exclusion_rules.pages(text, tokens, found)
        audience = self.exclusion_rules.audience(text, tokens, found)
        exclusions = self.exclusion_rules.exclusions(text, tokens, found)
        if audience is not None:
            exclusions.insert(0, audience)
        like = self._like(text, tokens, found)
        title = None if like else self._title(text, tokens, found)
        language = self._language(tokens, found)
        min_year, max_year = self._years(text, tokens, found)
        authors = self.lexicon.authors(tokens, found)
        categories = self.lexicon.categories(tokens, found)
        for pattern, note in NOTE_RULES:
            if pattern.search(text):
                found.notes.append(note)
        intent = self._intent(tokens, title is not None, authors, categories, like is not None)
        strategy, reason = self._strategy(tokens, found, title, authors, like)
        variations = self._variations(text, tokens, found, categories, authors, like, exclusions)
        filters = repaired_filters(
            language,
            None,
            min_year,
            max_year,
            found.notes,
            min_pages=min_pages,
            max_pages=max_pages,
        )
        plan = QueryPlan(
            original_query=query,
            intent=intent,
            filters=with_exclusions(filters, exclusions),
            exclusions=tuple(exclusions),
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

    def _like(self, text: str, tokens: list[Token], found: Found) -> tuple[str, str] | None:
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

    def _title(self, text: str, tokens: list[Token], found: Found) -> str | None:
        for match in QUOTED.finditer(text):
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
            # Only a question or "the book" may lead a title: "the hunger one" is no "One".
            if entry is not None and all(w in TITLE_LEADS for w in key[:skip]):
                span = tokens[skip:]
                found.recognised.append(
                    Recognition("title", entry.title, span[0].start, span[-1].end)
                )
                found.used.update(range(skip, len(tokens)))
                return entry.title
        return None

    def _language(self, tokens: list[Token], found: Found) -> str | None:
        candidates: list[tuple[int, int, str]] = []  # (strength, position, code)
        for index, token in enumerate(tokens):
            code = self.lexicon.language(token.text)
            if code is None or index in found.used:
                continue
            before = tokens[index - 1].text if index else ""
            after = [t.text for t in tokens[index + 1 : index + 4]]
            if after[:1] and after[0] in SETTING_WORDS:
                continue
            if _set_aside(tokens, index):
                # "french novels that aren't in english": the language said not to be wanted
                # is no filter (it was kept as the one written in); the other one is.
                found.used.add(index)
                found.notes.append(f"{token.text!r} is set aside (not asked for): no filter")
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

    def _years(self, text: str, tokens: list[Token], found: Found) -> tuple[int | None, int | None]:
        low: int | None = None
        high: int | None = None
        newest = self.vocabulary.max_year
        for pattern, kind in YEAR_RULES:
            for match in pattern.finditer(text):
                if any(
                    r.kind in ("years", "pages") and r.start <= match.start() < r.end
                    for r in found.recognised
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
            century = -100 if (groups[0] or "").casefold() == "eighteen" else 0
            start = DECADE_WORDS[groups[1].casefold()] + century
            return start, start + 9, f"{start}s"
        if kind == "recent" and newest is not None:
            start = newest - RECENT_YEARS + 1
            return start, None, f"{start}-"
        return None

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
        found: Found,
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
        known = [w for w in words if self.lexicon.knows(w)]
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
        found: Found,
        categories: list[str],
        authors: list[str],
        like: tuple[str, str] | None,
        exclusions: list[Exclusion],
    ) -> list[str]:
        variations: list[str] = []
        filter_spans = [r for r in found.recognised if r.kind in FILTER_SPAN_KINDS]
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
                shelves = [
                    c
                    for c in entry.categories
                    if c not in CATEGORY_STOP and not _ruled_out(c, exclusions)
                ][:4]
                if shelves:
                    variations.append(" ".join(shelves))
        if categories and " ".join(categories) not in variations:
            variations.append(" ".join(categories))
        variations += authors
        return variations


_DENIALS = frozenset(("not", "non", "no", "without", "arent", "isnt", "never", "except"))
"""Words before a language (or its "in") that say it is not the one wanted."""


def _set_aside(tokens: list[Token], index: int) -> bool:
    """Whether the language at `index` is denied: "not english", "aren't in english"."""
    before = [t.text for t in tokens[max(0, index - 2) : index]]
    if before[-1:] and before[-1] in _DENIALS:
        return True
    return len(before) == 2 and before[1] in LANGUAGE_CUES and before[0] in _DENIALS
