"""Cited answers: scoring sentences, extractive drafts, rendering, the grounding check."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lectern.domain.answering.sources import KnowledgeIndex, KnowledgeSource
from lectern.domain.answering.terms import WORD, content_terms
from lectern.domain.grounding import MAX_SNIPPET_CHARS, is_valid_snippet, match_form
from lectern.domain.sentences import KB, sentence_spans

MIN_SENTENCE_SHARE = 0.5
"""Sentences from other sources than the best sentence's must score at least this share of
it: a second source adds a sentence only when it covers the question nearly as well."""
TITLE_WEIGHT = 0.25
"""Inside one source, question words of its title weigh this much: every sentence of a page
about General Hospital is about General Hospital; the rest of the question picks the one."""


def coverage(
    question_terms: Sequence[str],
    text: str,
    index: KnowledgeIndex,
    discounted: frozenset[str] = frozenset(),
) -> float:
    """The IDF-weighted share of the question's terms that occur in the text, 0..1.

    Terms in `discounted` (the source's title, when choosing among its sentences) weigh
    `TITLE_WEIGHT` of their IDF.
    """
    if not question_terms:
        return 0.0
    present = set(content_terms(text))
    weights = {t: index.idf(t) * (TITLE_WEIGHT if t in discounted else 1.0) for t in question_terms}
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    return sum(w for t, w in weights.items() if t in present) / total


@dataclass(frozen=True, slots=True)
class SelectedSource:
    """A source chosen to answer from, with how relevant selection found it (0..1)."""

    source: KnowledgeSource
    relevance: float


@dataclass(frozen=True, slots=True)
class LoadedSource:
    """A selected source with its text."""

    source: KnowledgeSource
    text: str
    relevance: float


@dataclass(frozen=True, slots=True)
class AnswerSentence:
    """One sentence of an answer, the source it comes from, and the quote that supports it."""

    text: str
    source_id: str
    quote: str
    """A literal piece (at most 200 characters) of the source's text."""


@dataclass(frozen=True, slots=True)
class DraftAnswer:
    """An answer before it is checked: cited sentences and how well they cover the question."""

    sentences: tuple[AnswerSentence, ...]
    support: float
    """Offline: the best sentence's IDF-weighted coverage of the question; a model: 1."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The verification step's judgement of a draft."""

    passed: bool
    reason: str


CHANGE_LOG_REFERENCES = 10
"""A text naming this many pull requests ("PR #11698 by @mwb-u") is a change log; an
advisory naming the pull request of its fix ("merged in PR #103") is not."""
_PULL_REQUEST = re.compile(r"\b(?:PR|pull request) \[?#\d+", re.I)


def is_change_log(text: str) -> bool:
    """Whether a text is a change log: its lines say what changed, not how to do anything.

    "Add article to External Links: How to continuously deploy a FastAPI to AWS Lambda"
    names a task without answering it; quoted, it reads as an answer to "how do I deploy
    to AWS Lambda?", which the documentation does not give.
    """
    for found, _ in enumerate(_PULL_REQUEST.finditer(text), start=1):
        if found >= CHANGE_LOG_REFERENCES:
            return True
    return False


def quote_of(sentence: str, limit: int = MAX_SNIPPET_CHARS) -> str:
    """The sentence itself, or its first words up to `limit` characters (a literal prefix)."""
    text = " ".join(sentence.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut or text[:limit]


def extractive_answer(
    question: str,
    sources: Sequence[LoadedSource],
    index: KnowledgeIndex,
    max_chars: int,
    *,
    max_sentences: int = 3,
) -> DraftAnswer | None:
    """The best-covering sentences of the sources, within `max_chars` with their labels.

    A sentence's score is its IDF-weighted coverage of the question's terms, weighted down
    for lower-ranked sources (1, 0.8, 0.6, ...). None when no sentence holds a question term.
    """
    terms = content_terms(question)
    if not terms or not sources:
        return None
    candidates: list[tuple[float, float, int, int, str, str]] = []
    for rank, loaded in enumerate(sources):
        if is_change_log(loaded.text):
            continue
        weight = max(0.2, 1.0 - 0.2 * rank)
        title = frozenset(content_terms(loaded.source.title))
        for position, (start, end) in enumerate(sentence_spans(loaded.text, KB)):
            sentence = " ".join(loaded.text[start:end].split())
            covered = coverage(terms, sentence, index, title)
            if covered > 0 and len(WORD.findall(sentence)) >= 3:
                candidates.append(
                    (covered * weight, covered, rank, position, sentence, loaded.source.source_id)
                )
    if not candidates:
        return None
    candidates.sort(key=lambda c: (-c[0], c[2], c[3]))
    best_source, floor = candidates[0][5], candidates[0][0] * MIN_SENTENCE_SHARE
    candidates = [c for c in candidates if c[5] == best_source or c[0] >= floor]
    chosen: list[tuple[float, float, int, int, str, str]] = []
    used = 0
    for candidate in candidates:
        if len(chosen) >= max_sentences:
            break
        sentence, source_id = candidate[4], candidate[5]
        cost = len(sentence) + len(source_id) + 4
        if used + cost > max_chars:
            if chosen:
                continue
            room = max_chars - len(source_id) - 4
            if room < 40:
                return None
            sentence = quote_of(sentence, room - 1) + "…"
            candidate = (*candidate[:4], sentence, source_id)
            cost = len(sentence) + len(source_id) + 4
        chosen.append(candidate)
        used += cost
    chosen.sort(key=lambda c: (c[2], c[3]))
    sentences = tuple(
        AnswerSentence(text=c[4], source_id=c[5], quote=quote_of(c[4].rstrip("…"))) for c in chosen
    )
    return DraftAnswer(sentences, support=max(c[1] for c in chosen))


def render_reply(sentences: Sequence[AnswerSentence], sources: Sequence[KnowledgeSource]) -> str:
    """Sentences each followed by their label, then a Links section for web sources."""
    body = " ".join(f"{s.text} [{s.source_id}]" for s in sentences)
    by_id = {s.source_id: s for s in sources}
    links: list[str] = []
    for sentence in sentences:
        url = by_id[sentence.source_id].url if sentence.source_id in by_id else None
        if url and url not in links:
            links.append(url)
    if not links:
        return body
    return body + "\n\nLinks:\n" + "\n".join(f"- {url}" for url in links)


def grounding_problems(
    sentences: Sequence[AnswerSentence], sources: Sequence[LoadedSource], max_chars: int
) -> list[str]:
    """Why a draft may not be sent (empty list: it may).

    Every sentence names a loaded source, its quote is a literal piece of that source's
    text, and the sentences with their labels fit in `max_chars`.
    """
    if not sentences:
        return ["the answer has no sentence"]
    texts = {loaded.source.source_id: loaded.text for loaded in sources}
    problems = []
    for number, sentence in enumerate(sentences, start=1):
        text = texts.get(sentence.source_id)
        if text is None:
            problems.append(f"sentence {number} cites {sentence.source_id!r}, which was not loaded")
        elif not sentence.text.strip():
            problems.append(f"sentence {number} is empty")
        elif not is_valid_snippet(sentence.quote, text):
            problems.append(f"sentence {number}: its quote is not in {sentence.source_id}")
    length = sum(len(s.text) + len(s.source_id) + 3 for s in sentences) + len(sentences) - 1
    if length > max_chars:
        problems.append(f"the answer has {length} characters; at most {max_chars} are allowed")
    return problems


def verify_extractive(
    question: str, draft: DraftAnswer, sources: Sequence[LoadedSource]
) -> Verdict:
    """The deterministic verification: every sentence is its source's own words.

    Stricter than the quote rule: a sentence (not only its quote) must occur in the source,
    and the cited sentences together must hold a content word of the question.
    """
    texts = {loaded.source.source_id: match_form(loaded.text) for loaded in sources}
    for sentence in draft.sentences:
        own = match_form(sentence.text.rstrip("…"))
        if own not in texts.get(sentence.source_id, ""):
            return Verdict(False, f"a sentence is not in {sentence.source_id}")
    terms = set(content_terms(question))
    if not terms & {t for s in draft.sentences for t in content_terms(s.text)}:
        return Verdict(False, "no sentence holds a word of the question")
    return Verdict(True, "every sentence is a sentence of its source")
