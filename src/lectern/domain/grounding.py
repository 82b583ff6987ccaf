"""Citations and explanations: the evidence behind every sentence we show.

A citation is valid only when its snippet is a literal piece of the named field of the book
it names, after case-folding and collapsing whitespace: no fuzzy matching, no paraphrase.
`validate_grounded_explanation` is the one gate every explanation passes, whichever model
wrote it; it fails closed.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from lectern.domain.books import CHUNK_FIELDS, Book, JSONValue

MAX_SNIPPET_CHARS = 200
"""A quote longer than this is a copy of the record, not evidence for one point."""
LOW_RELEVANCE = 0.3
"""Mean citation relevance under this caps confidence at this value."""
LOW_CONFIDENCE_PREFIX = "[LOW CONFIDENCE] "
UNGROUNDED_TEXT = "Unable to provide a grounded explanation. No valid evidence found."

_SPACE = re.compile(r"\s+")
_WORDS = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Citation:
    """A literal snippet of one field (chunk) of one book."""

    book_id: uuid.UUID
    chunk_id: str
    """The field quoted: one of `CHUNK_FIELDS` (title, description, categories, authors)."""
    snippet: str
    relevance_score: float
    """How strongly the snippet supports the explanation, 0..1."""

    def to_json(self) -> dict[str, JSONValue]:
        """The citation as readers and traces see it: field, snippet and relevance."""
        return {"field": self.chunk_id, "snippet": self.snippet, "relevance": self.relevance_score}


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why a book answers a query, with the citations that support it."""

    book_id: uuid.UUID
    query_text: str
    text: str
    citations: tuple[Citation, ...]
    model: str
    created_at: datetime
    confidence: float
    grounded: bool
    """True when at least one citation survived validation."""


def explanation_json(explanation: Explanation) -> dict[str, JSONValue]:
    """An explanation as JSON: text, model, confidence, grounded and its citations."""
    return {
        "text": explanation.text,
        "model": explanation.model,
        "confidence": explanation.confidence,
        "grounded": explanation.grounded,
        "citations": [c.to_json() for c in explanation.citations],
    }


def match_form(text: str) -> str:
    """The form snippets and fields are compared in: case-folded, whitespace collapsed."""
    return _SPACE.sub(" ", text.casefold()).strip()


def is_valid_snippet(snippet: str, field_text: str) -> bool:
    """True when the snippet is a non-empty literal piece of the field, at most 200 chars."""
    wanted = match_form(snippet)
    if not wanted or len(snippet.strip()) > MAX_SNIPPET_CHARS:
        return False
    return wanted in match_form(field_text)


def is_valid_citation(citation: Citation, book: Book) -> bool:
    """True when the citation names this book, an existing field, and a literal snippet."""
    if citation.book_id != book.id or citation.chunk_id not in CHUNK_FIELDS:
        return False
    if not 0.0 <= citation.relevance_score <= 1.0:
        return False
    return is_valid_snippet(citation.snippet, book.field_text(citation.chunk_id))


def validate_grounded_explanation(explanation: Explanation, book: Book) -> Explanation:
    """Keep only valid citations; no citation left means no explanation.

    - invalid citations are dropped;
    - none left: the text becomes `UNGROUNDED_TEXT`, confidence 0, `grounded` False;
    - mean relevance of the rest under 0.3: confidence is capped at 0.3;
    - confidence at or under 0.3: the text is prefixed with "[LOW CONFIDENCE]".
    """
    valid = tuple(c for c in explanation.citations if is_valid_citation(c, book))
    if not valid:
        return replace(
            explanation, text=UNGROUNDED_TEXT, citations=(), confidence=0.0, grounded=False
        )
    text, confidence = _confidence_rules(
        explanation.text, explanation.confidence, [c.relevance_score for c in valid]
    )
    return replace(explanation, text=text, citations=valid, confidence=confidence, grounded=True)


def _confidence_rules(text: str, confidence: float, relevances: list[float]) -> tuple[str, float]:
    """Cap confidence when citations are weak; flag low confidence in the text itself."""
    confidence = min(max(confidence, 0.0), 1.0)
    if sum(relevances) / len(relevances) < LOW_RELEVANCE:
        confidence = min(confidence, LOW_RELEVANCE)
    text = text.strip()
    if confidence <= LOW_RELEVANCE and not text.startswith(LOW_CONFIDENCE_PREFIX.strip()):
        text = LOW_CONFIDENCE_PREFIX + text
    return text, confidence


def without_excluded_citations(
    explanation: Explanation,
    book: Book,
    excluded_shelves: Sequence[str],
    excluded_authors: Sequence[str],
) -> Explanation:
    """The explanation without quotes of a shelf or author the reader excluded.

    A categories quote goes when it contains an excluded shelf's name as a phrase, an
    authors quote when it contains an excluded author's name; the rest is validated again
    (no quote left: no explanation).
    """
    shelves = [match_words(s) for s in excluded_shelves]
    authors = [match_words(a) for a in excluded_authors]

    def excluded(citation: Citation) -> bool:
        quoted = match_words(citation.snippet)
        names = shelves if citation.chunk_id == "categories" else authors
        if citation.chunk_id not in ("categories", "authors"):
            return False
        return any(_has_phrase(quoted, name) for name in names if name)

    kept = tuple(c for c in explanation.citations if not excluded(c))
    if len(kept) == len(explanation.citations):
        return explanation
    return validate_grounded_explanation(replace(explanation, citations=kept), book)


BOUND_PHRASES: tuple[tuple[str, ...], ...] = (
    ("young", "adult"),
    ("young", "adults"),
    ("new", "adult"),
    ("middle", "grade"),
    ("picture", "book"),
    ("picture", "books"),
    ("science", "fiction"),
    ("true", "crime"),
    ("space", "opera"),
    ("self", "help"),
    ("chick", "lit"),
    ("coming", "of", "age"),
    ("graphic", "novel"),
    ("graphic", "novels"),
    ("high", "fantasy"),
    ("new", "age"),
    ("hard", "boiled"),
)
"""Phrases whose words mean something else on their own: a reader asking for "adults" is
not matched by the shelf "young adult", nor one asking for "science" by "science fiction".
A word inside one of these supports a claim of a match only when the query has the whole
phrase."""


def bound_indexes(words: Sequence[str], query_words: Sequence[str]) -> set[int]:
    """Indexes of `words` inside a bound phrase the query does not contain whole.

    Both sequences are case-folded words (`match_words`).
    """
    query = tuple(query_words)
    bound: set[int] = set()
    for phrase in BOUND_PHRASES:
        if _has_phrase(query, phrase):
            continue
        size = len(phrase)
        for start in range(len(words) - size + 1):
            if tuple(words[start : start + size]) == phrase:
                bound.update(range(start, start + size))
    return bound


def match_words(text: str) -> tuple[str, ...]:
    """The words of a text, case-folded (punctuation dropped): for whole-word matching."""
    return tuple(_WORDS.findall(text.casefold()))


def _has_phrase(words: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(words[i : i + size] == phrase for i in range(len(words) - size + 1))


@dataclass(frozen=True, slots=True)
class PassageCitation:
    """A literal snippet of one passage (a knowledge-base section, an abstract)."""

    passage_id: str
    snippet: str
    relevance_score: float


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer to a question from passages, with the citations that support it."""

    question: str
    text: str
    citations: tuple[PassageCitation, ...]
    model: str
    confidence: float
    grounded: bool


@dataclass(frozen=True, slots=True)
class Judgment:
    """A graded verdict on an output (used by the evaluation harness)."""

    score: float
    """0 (wrong or unsupported) .. 1 (fully right and supported)."""
    verdict: str
    reasoning: str
    model: str


def validate_grounded_answer(answer: Answer, passages: Mapping[str, str]) -> Answer:
    """The same gate for answers: snippets must be literal pieces of the named passages."""
    valid = tuple(
        c
        for c in answer.citations
        if c.passage_id in passages
        and 0.0 <= c.relevance_score <= 1.0
        and is_valid_snippet(c.snippet, passages[c.passage_id])
    )
    if not valid:
        return replace(answer, text=UNGROUNDED_TEXT, citations=(), confidence=0.0, grounded=False)
    text, confidence = _confidence_rules(
        answer.text, answer.confidence, [c.relevance_score for c in valid]
    )
    return replace(answer, text=text, citations=valid, confidence=confidence, grounded=True)
