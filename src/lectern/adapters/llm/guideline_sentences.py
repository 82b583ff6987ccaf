"""The guideline policy's sentences: what `search_guidelines` returned, read and quoted.

Passages are read in blocks and sentences, each with the words it holds (acronyms expanded,
everyday names of the guidance's terms added); `adapters/llm/guideline_policy.py` scores them
against the question.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lectern.domain.assistant import Message
from lectern.domain.evidence import numbers_in
from lectern.domain.sentences import GUIDELINE, sentences

WORD = re.compile(r"[a-z0-9]+(?:[-/.][a-z0-9]+)*")

_ACRONYM = re.compile(r"(?P<words>(?:[A-Za-z][\w-]*\s+){1,6})\((?P<acronym>[A-Z]{2,6})\)")

_BULLET = re.compile(r"^(?:[*\u2022o-]|\d{1,2}[.)])\s+\S")
_MARKER = re.compile(r"^(?:[*\u2022-]|o(?=\s))\s+")
"""A list item's marker (RFCs use "o"), left out of the quote."""
SHORT_LINE = 55
"""A line shorter than this ends its block (a table row, a list item, a paragraph's end);
longer lines are hard-wrapped prose (plain-text RFCs) and join the next one."""

_REFERENCE_ENTRY = re.compile(r"^\[[^\]]{1,40}\]\s+\S")
_CITED_WORK = re.compile(r'",\s+(?:RFC|BCP|STD|FYI)\s?\d+,.*\b(?:19|20)\d{2}\b')
"""An RFC's reference entry without its tag ('Newman, "Date and Time on the Internet:
Timestamps", RFC 3339, July 2002.'): it names a document, it answers nothing."""

MAX_QUOTE_CHARS = 400


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence (or two consecutive ones) of a returned passage, with its label and words."""

    text: str
    label: str
    rank: int
    words: frozenset[str]
    passage_words: frozenset[str]
    """Every word of the passage the sentence is in (its context)."""
    passage: int = 0
    """Which passage (in the order returned) the sentence is from."""
    position: int = 0
    """Its place among all sentences, skipped ones counted: pairs must be adjacent."""
    pair: bool = False
    """Two consecutive sentences quoted together."""
    halves: tuple[str, ...] = ()
    """A pair's two sentences."""
    read_with: bool = False
    """From a passage the search did not find, read with its section's passage it did."""


def same_word(word: str, term: str) -> bool:
    """Forms of one word share a head ("reauthenticate", "reauthentication")."""
    if word == term:
        return True
    if len(word) < 4 or len(term) < 4 or any(c.isdigit() for c in term):
        return False
    head = max(4, min(len(term), len(word)) - 3)
    return word[:head] == term[:head]


def covers(words: frozenset[str], term: str) -> bool:
    """Whether `words` hold the term or a form of it."""
    return term in words or any(same_word(w, term) for w in words)


def candidates(sentences: Sequence[Sentence]) -> list[Sentence]:
    """Each sentence, and each two consecutive sentences of one passage quoted together."""
    out = list(sentences)
    for first, second in zip(sentences, sentences[1:], strict=False):
        adjacent = second.position == first.position + 1 and first.passage == second.passage
        if adjacent and len(first.text) + len(second.text) < 500:
            out.append(
                Sentence(
                    f"{first.text} {second.text}",
                    first.label,
                    first.rank,
                    first.words | second.words,
                    first.passage_words,
                    first.passage,
                    pair=True,
                    halves=(first.text, second.text),
                    read_with=first.read_with,
                )
            )
    return out


def words_of(text: str, expansions: dict[str, frozenset[str]]) -> frozenset[str]:
    """Folded words, hyphenated words also in parts, acronyms also as their expansion."""
    words: set[str] = set()
    for word in WORD.findall(text.casefold()):
        words.add(word)
        if "-" in word:
            words.update(part for part in word.split("-") if part)
        words |= expansions.get(word, frozenset())
    return frozenset(words)


def acronyms(text: str) -> dict[str, frozenset[str]]:
    """Acronyms a passage defines ("False Match Rate (FMR)") with the words they stand for."""
    found: dict[str, frozenset[str]] = {}
    for match in _ACRONYM.finditer(text):
        words, acronym = match.group("words").split(), match.group("acronym")
        initials = "".join(w[0] for w in words[-len(acronym) :]).upper()
        if len(words) >= len(acronym) and initials == acronym.upper():
            found[acronym.casefold()] = frozenset(w.casefold() for w in words[-len(acronym) :])
    return found


SaidAs = Sequence[tuple[frozenset[str], Sequence[str]]]
"""(everyday name's words, the guidance's term's words): "password" is met by "memorized
secret" where the search tool said the guidance calls it so (its `terms`, from the
collection's own "commonly referred to as")."""


def said_as_of(results: Sequence[Message]) -> SaidAs:
    """The search results' `terms`, as word sets."""
    return [
        (frozenset(name.split()), term.split())
        for message in results
        for name, term in (loaded(message.content).get("terms") or {}).items()
        if isinstance(name, str) and isinstance(term, str)
    ]


def with_everyday_names(words: frozenset[str], said_as: SaidAs) -> frozenset[str]:
    """`words` with the everyday names of the terms they hold."""
    extra = [name for name, term in said_as if all(covers(words, part) for part in term)]
    return words.union(*extra) if extra else words


def loaded(content: str) -> dict[str, Any]:
    """A tool result's JSON object, or an empty one."""
    try:
        data = json.loads(content)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def passages_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A search result's passages (objects only)."""
    passages = data.get("passages")
    return [p for p in passages if isinstance(p, dict)] if isinstance(passages, list) else []


def sentences_of(results: Sequence[Message], said_as: SaidAs = ()) -> list[Sentence]:
    """Every sentence of every passage the searches returned, with its label and rank."""
    found: list[Sentence] = []
    seen: set[str] = set()
    rank = 0
    position = 0
    results_data = [loaded(message.content) for message in results]

    def named_words(text: str, expansions: dict[str, frozenset[str]]) -> frozenset[str]:
        return with_everyday_names(words_of(text, expansions), said_as)

    # An acronym one passage defines ("False Match Rate (FMR)") reads the same in the others.
    expansions: dict[str, frozenset[str]] = {}
    for data in results_data:
        for passage in passages_of(data):
            expansions = {**acronyms(str(passage.get("text") or "")), **expansions}
    # A section cut into passages reads as one: the passage stating "In all cases, the
    # authentication SHALL be considered invalid if not completed within 10 minutes" is about
    # the push notification its section's first passage names (same label, same section).
    # Only a passage read with the one the search found (`read_with`) takes its section's
    # words; those the search found keep their own.
    section_words: dict[tuple[str, str], frozenset[str]] = {}
    for data in results_data:
        for passage in passages_of(data):
            label, text = passage.get("label"), passage.get("text")
            if not isinstance(label, str) or not isinstance(text, str):
                continue
            where = (label, str(passage.get("section") or ""))
            words = named_words(f"{text} {_context(passage)}", expansions)
            section_words[where] = section_words.get(where, frozenset()) | words
    for data in results_data:
        for passage in passages_of(data):
            label, text = passage.get("label"), passage.get("text")
            if not isinstance(label, str) or not isinstance(text, str):
                continue
            context = _context(passage)
            read_with = passage.get("read_with") is True
            around = (
                section_words[(label, str(passage.get("section") or ""))]
                if read_with
                else named_words(f"{text} {context}", expansions)
            )
            for block in blocks(text):
                for piece in sentences(block, GUIDELINE):
                    position += 1
                    sentence = _MARKER.sub("", " ".join(piece.split())).strip(" *-|")
                    key = sentence.casefold()
                    if (
                        len(sentence) < 20
                        or key in seen
                        or _REFERENCE_ENTRY.match(sentence)
                        or _CITED_WORK.search(sentence)
                    ):
                        continue
                    seen.add(key)
                    words = named_words(f"{sentence} {context}", expansions)
                    found.append(
                        Sentence(
                            sentence,
                            label,
                            rank,
                            words,
                            around,
                            rank,
                            position,
                            read_with=read_with,
                        )
                    )
                position += 1  # no pair spans two blocks
            rank += 1
    return found


def _context(passage: dict[str, Any]) -> str:
    """Where a passage lives: its section, document and label.

    The label names the document ("RFC 3339"): a question naming it by number is met by each
    of its passages, as one naming its title is.
    """
    return " ".join(str(passage.get(k) or "") for k in ("section", "document", "label"))


def states_number(text: str) -> bool:
    """Whether the text states a quantity ("the one requested" does not).

    `numbers_in` reads "one" as a number only where it counts ("once per 12 hours").
    """
    return any(not m.identifier for m in numbers_in(text))


def blocks(text: str) -> list[str]:
    """A passage's text in blocks: paragraphs, list items, table rows, prose lines joined.

    Plain-text RFCs wrap their prose at about 72 characters: such lines join the next.
    """
    out: list[str] = []
    current: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if current and (not stripped or _BULLET.match(stripped)):
            out.append(" ".join(current))
            current = []
        if not stripped:
            continue
        current.append(stripped)
        if len(stripped) < SHORT_LINE:
            out.append(" ".join(current))
            current = []
    if current:
        out.append(" ".join(current))
    return out


def quote(sentence: str) -> str:
    """The sentence in quotes, cut at a word boundary when long (a literal piece either way)."""
    if len(sentence) <= MAX_QUOTE_CHARS:
        return f'"{sentence}"'
    return f'"{sentence[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0]}" (…)'
