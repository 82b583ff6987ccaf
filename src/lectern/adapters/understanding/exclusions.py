"""Rule families for what a reader rules out: length, audience, and negations with scope.

- Length: page numbers ("under 300 pages", "between 200 and 350 pages") and length words
  ("short", "quick read", "not too long", "long", "doorstopper"), with the thresholds of
  `negation_data` (documented in the README, "Exclusions, audience and length").
- Audience: "for adults", "grown-up", "not for kids", "no YA" rule out every shelf for
  young readers the catalog has (`Vocabulary.youth_shelves`).
- Negations: a cue ("not", "no", "without", "other than", "except", "sin", "ohne", ...)
  rules out what follows it, read as the longest thing the catalog names there: young
  readers, an author, a title (or series), a shelf, or else one topic word; lists continue
  it ("no Asimov or Clarke"). A cue inside a title is not a negation: a catalog title that
  spans it ("Not Without My Daughter", "No Country for Old Men"), or words in title case
  around a small word ("No Country for Old Men" when the catalog lacks it).
Each family marks its tokens used, so later rules (categories, authors) never read an
excluded word as wanted.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.lexicon import Found, Lexicon
from lectern.adapters.understanding.lexicon_data import QUOTED
from lectern.adapters.understanding.negation_data import (
    ADULT_AUDIENCE,
    AUDIENCE_FILLERS,
    CONNECTORS,
    LENGTH_RULES,
    LIST_JOINERS,
    NEGATION_CUES,
    NOT_LENGTH_AFTER,
    NOT_NEGATING,
    PAGE_RULES,
    SCOPE_FILLERS,
    YOUTH_WORDS,
)
from lectern.application.understanding import Token, Vocabulary, key_of
from lectern.domain.normalize import MAX_PAGES
from lectern.domain.search import (
    Exclusion,
    ExclusionScope,
    Recognition,
    RecognitionKind,
    describe_page_limit,
)

AUDIENCE_LABEL = "young readers"
MAX_FILLERS = 4
"""Filler words read past between a cue and what it rules out."""
MAX_NAME_WORDS = 6
TITLE_SMALL_WORDS = frozenset(
    ["for", "of", "the", "and", "a", "an", "in", "on", "to", "with", "at", "from", "my", "by"]
)
_CUE_STARTS = {cue[0] for cue in NEGATION_CUES}


class ExclusionRules:
    """Length, audience and negation rules over one catalog's vocabulary."""

    def __init__(self, vocabulary: Vocabulary, lexicon: Lexicon) -> None:
        """Index the titles that contain a negation cue (they must not become exclusions)."""
        self.vocabulary = vocabulary
        self.lexicon = lexicon
        self.cue_titles: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        for key in vocabulary.titles:
            if len(key) < 2:
                continue
            for offset, word in enumerate(key):
                if word in _CUE_STARTS:
                    self.cue_titles.setdefault(word, []).append((key, offset))

    # --- length ----------------------------------------------------------------------------

    def pages(self, text: str, tokens: list[Token], found: Found) -> tuple[int | None, int | None]:
        """Page limits from numbers and length words; contradictions are dropped."""
        low: int | None = None
        high: int | None = None
        for pattern, kind in PAGE_RULES:
            for match in pattern.finditer(text):
                limits = _page_limits(kind, match)
                if limits is None or not self._free(tokens, found, match.start(), match.end()):
                    continue
                if not all(v is None or 1 <= v <= MAX_PAGES for v in limits):
                    found.notes.append(f"ignored {match.group()!r}: not a page count")
                    continue
                low, high = _tighter(low, high, limits)
                self._take(
                    tokens, found, "pages", describe_page_limit(*limits), match.start(), match.end()
                )
        for pattern, limits in LENGTH_RULES:
            for match in pattern.finditer(text):
                if NOT_LENGTH_AFTER.match(text, match.start()):
                    continue
                named = [g for g in match.groupdict() if match.group(g)]
                start, end = match.span(named[0]) if named else match.span()
                if not self._free(tokens, found, start, end):
                    continue
                stated = (low, high)
                both = _tighter(low, high, limits)
                if both[0] is not None and both[1] is not None and both[0] > both[1]:
                    # "under 300 pages (people moan about long ones)": a number said beats a
                    # length word it would contradict (both had been dropped)
                    found.notes.append(
                        f"{text[start:end]!r} not read as a length: "
                        f"{describe_page_limit(*stated)} was said"
                    )
                    continue
                low, high = _tighter(low, high, limits)
                found.notes.append(
                    f"{text[start:end]!r} read as {describe_page_limit(*limits)}; books of unknown "
                    "length are kept, after those known to fit"
                )
                self._take(tokens, found, "pages", describe_page_limit(*limits), start, end)
        return low, high

    # --- audience --------------------------------------------------------------------------

    def audience(self, text: str, tokens: list[Token], found: Found) -> Exclusion | None:
        """Rule out the catalog's shelves for young readers on "for adults", "grown-up"."""
        said = []
        for pattern in ADULT_AUDIENCE:
            for match in pattern.finditer(text):
                if self._free(tokens, found, match.start(), match.end()):
                    said.append(match.group())
                    start = _with_connectors(text, tokens, found, match.start())
                    self._take(tokens, found, "audience", AUDIENCE_LABEL, start, match.end())
        if not said:
            return None
        found.notes.append(self._audience_note(said[0]))
        return Exclusion("audience", AUDIENCE_LABEL, self.vocabulary.youth_shelves)

    def _audience_note(self, said: str) -> str:
        shelves = self.vocabulary.youth_shelves
        more = f" and {len(shelves) - 4} more" if len(shelves) > 4 else ""
        shown = ", ".join(shelves[:4]) + more if shelves else "none in the catalog"
        return f"{said!r} read as: no books shelved for young readers ({shown})"

    # --- negations -------------------------------------------------------------------------

    def exclusions(self, text: str, tokens: list[Token], found: Found) -> list[Exclusion]:
        """Everything a negation cue rules out, with the span from the cue to its scope's end."""
        words = [t.text for t in tokens]
        exclusions: list[Exclusion] = []
        index = 0
        while index < len(tokens):
            cue = self._cue_at(words, index, found)
            if cue is None or self._in_title(text, tokens, index):
                index += 1
                continue
            position, items = index + len(cue), []
            while True:
                item = self._scope_item(text, tokens, found, position)
                if item is None:
                    break
                items.append(item)
                position = item[3]
                follow = self._list_continues(text, tokens, words, position, found)
                if follow is None:
                    break
                position = follow
            if not items:
                index += len(cue)
                continue
            end = items[-1][3]
            first = index
            while first > 0 and first - 1 not in found.used and words[first - 1] in CONNECTORS:
                first -= 1  # "but", "that", "with": part of the negation, not search words
            span_start, span_end = tokens[first].start, tokens[end - 1].end
            for scope, label, values, _ in items:
                exclusions.append(Exclusion(scope, label, values))
                shelf = self.lexicon.category(key_of(label)) if scope == "title" else None
                if shelf is not None:  # "Star Wars" is a series and a shelf
                    exclusions.append(Exclusion("category", label, (shelf,)))
                kind: RecognitionKind = "audience" if scope == "audience" else "exclude"
                found.recognised.append(Recognition(kind, label, span_start, span_end))
            found.used.update(range(first, end))
            said = text[span_start:span_end]
            for scope, label, _, _ in items:
                if scope == "audience":
                    found.notes.append(self._audience_note(said))
                elif scope == "category" and not self._shelf_words_known(label):
                    found.notes.append(
                        f"{said!r}: no shelf, author or title of the catalog is named {label!r}; "
                        "its words are left out of the search"
                    )
            index = end
        return exclusions

    def _cue_at(self, words: list[str], index: int, found: Found) -> tuple[str, ...] | None:
        if index in found.used or words[index] not in _CUE_STARTS:
            return None
        for phrase in NOT_NEGATING:
            if tuple(words[index : index + len(phrase)]) == phrase:
                return None
        cues = [c for c in NEGATION_CUES if tuple(words[index : index + len(c)]) == c]
        if not cues:
            return None
        cue = max(cues, key=len)
        if any(i in found.used for i in range(index, index + len(cue))):
            return None
        return cue

    def _in_title(self, text: str, tokens: list[Token], index: int) -> bool:
        """True when the cue at `index` is a word of a title, not a negation."""
        cue = tokens[index]
        if text[cue.end : cue.end + 1] == "-":  # "no-nonsense", "non-stop"
            return True
        if any(m.start(1) <= cue.start < m.end(1) for m in QUOTED.finditer(text)):
            return True  # inside quotes: a title the reader names
        words = tuple(t.text for t in tokens)
        for key, offset in self.cue_titles.get(cue.text, ()):
            start = index - offset
            if start < 0 or words[start : start + len(key)] != key:
                continue
            span = tokens[start : start + len(key)]
            if len(key) >= 3 or all(
                text[t.start].isupper() for t in span if t.text not in TITLE_SMALL_WORDS
            ):
                return True
        return _title_cased(text, tokens, index)

    def _scope_item(
        self, text: str, tokens: list[Token], found: Found, position: int
    ) -> tuple[ExclusionScope, str, tuple[str, ...], int] | None:
        """(scope, label, values, end) of what the cue rules out from `position`, or None."""
        words = [t.text for t in tokens]
        skipped = 0
        while (
            position < len(tokens)
            and (words[position] in SCOPE_FILLERS or words[position] in AUDIENCE_FILLERS)
            and skipped < MAX_FILLERS
            and position not in found.used
        ):
            position += 1
            skipped += 1
        if position >= len(tokens) or position in found.used:
            return None
        for size in range(min(MAX_NAME_WORDS, len(tokens) - position), 0, -1):
            if any(i in found.used for i in range(position, position + size)):
                continue
            key = tuple(words[position : position + size])
            said = text[tokens[position].start : tokens[position + size - 1].end]
            if key in YOUTH_WORDS:
                return "audience", AUDIENCE_LABEL, self.vocabulary.youth_shelves, position + size
            named = tuple(w for w in key if len(w) > 1 or w.isdigit())  # "George R.R. Martin"
            author = self.lexicon.author(key) or (
                self.lexicon.author(named) if len(named) > 1 and named[-1] == key[-1] else None
            )
            if author is not None:
                return "author", author, (author,), position + size
            shelf = self.lexicon.category(key)
            title = None
            if said[:1].isupper():  # a name: "Twilight", "Harry Potter", "Star Wars"
                title = self.vocabulary.best_title(key) or (
                    self.vocabulary.best_title_starting(key) if size > 1 else None
                )
            elif size > 1:
                # "not harry potter", "not the hunger games": a series or a title said in
                # lower case, as the catalog's titles start (a shelf of it is left out too)
                title = (
                    self.vocabulary.best_title(key)
                    or self.vocabulary.best_title(("the", *key))
                    or self.vocabulary.best_title_starting(key)
                )
            if title is not None and (size > 1 or shelf is None or said[:1].isupper()):
                return "title", said, (said,), position + size
            if shelf is not None:
                return "category", shelf, (shelf,), position + size
        word = words[position]
        if len(word) < 3 or word in SCOPE_FILLERS or word.isdigit():
            return None
        singular = word[:-1] if len(word) > 3 and word.endswith("s") else word
        label = singular if singular in self.vocabulary.shelf_words else word
        return "category", label, (label,), position + 1

    def _list_continues(
        self, text: str, tokens: list[Token], words: list[str], position: int, found: Found
    ) -> int | None:
        """Where the next item of a list starts ("or Clarke", ", no Koontz"), or None."""
        if position >= len(tokens) or position in found.used:
            return None
        between = text[tokens[position - 1].end : tokens[position].start]
        if words[position] in LIST_JOINERS:
            follow = position + 1
        elif "," in between:
            follow = position
        else:
            return None
        if follow < len(tokens) and self._cue_at(words, follow, found) is not None:
            return None  # the next cue starts its own exclusion
        item = self._scope_item(text, tokens, found, follow)
        if item is None or (item[0] == "category" and not self._names_a_shelf(item)):
            return None
        return follow

    def _names_a_shelf(self, item: tuple[ExclusionScope, str, tuple[str, ...], int]) -> bool:
        return self.lexicon.category(tuple(item[1].split())) is not None

    def _shelf_words_known(self, label: str) -> bool:
        return (
            self.lexicon.category(tuple(label.split())) is not None
            or label in self.vocabulary.shelf_words
        )

    # --- helpers ---------------------------------------------------------------------------

    @staticmethod
    def _free(tokens: list[Token], found: Found, start: int, end: int) -> bool:
        return not any(i in found.used for i, t in enumerate(tokens) if start <= t.start < end)

    @staticmethod
    def _take(
        tokens: list[Token], found: Found, kind: RecognitionKind, value: str, start: int, end: int
    ) -> None:
        found.recognised.append(Recognition(kind, value, start, end))
        found.used.update(i for i, t in enumerate(tokens) if start <= t.start < end)


def _with_connectors(text: str, tokens: list[Token], found: Found, start: int) -> int:
    """The start of a span moved back over connectors before it ("but for adults")."""
    before = [i for i, t in enumerate(tokens) if t.end <= start]
    while before and before[-1] not in found.used and tokens[before[-1]].text in CONNECTORS:
        start = tokens[before.pop()].start
    del text
    return start


def _page_limits(kind: str, match: re.Match[str]) -> tuple[int | None, int | None] | None:
    numbers = [int(g) for g in match.groups() if g is not None]
    if kind == "range":
        low, high = sorted(numbers[:2])
        return low, high
    # "under 300 pages" is read as "at most 300" and "over 500" as "at least 500": readers
    # include the number they name (`PAGE_RULES`)
    if kind == "at_most":
        return None, numbers[0]
    if kind == "at_least":
        return numbers[0], None
    return None


def _tighter(
    low: int | None, high: int | None, limits: tuple[int | None, int | None]
) -> tuple[int | None, int | None]:
    new_low, new_high = limits
    if new_low is not None:
        low = new_low if low is None else max(low, new_low)
    if new_high is not None:
        high = new_high if high is None else min(high, new_high)
    return low, high


def _title_cased(text: str, tokens: list[Token], index: int) -> bool:
    """True for a cue in title case that starts a run like "No Country for Old Men".

    The cue and the next word are capitalised and a small word ("for", "of") sits between
    capitalised words further on: a name ("Not Stephen King") has no small word inside.
    """
    run = tokens[index : index + MAX_NAME_WORDS]
    if len(run) < 4 or not all(text[t.start].isupper() for t in run[:2]):
        return False
    for before, small, after in zip(run[1:], run[2:], run[3:], strict=False):
        if not text[before.start].isupper():
            return False
        if (
            small.text in TITLE_SMALL_WORDS
            and text[small.start].islower()
            and text[after.start].isupper()
        ):
            return True
    return False
