"""The offline default `LLMClient`: explains by quoting, never by writing claims of its own.

It finds the query's words (Snowball-stemmed) in the book's title, authors, categories and
description, quotes the best spans as citations, and writes one or two plain sentences
saying which query words each quoted field supports. With an embedder, when no field shares
a word with the query, it quotes the description sentence closest in meaning instead.
Deterministic and fast; grounded by construction, and still passed through the validator.
"""

from __future__ import annotations

import json
import math
import re
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import Stemmer
from pydantic import BaseModel

from lectern.adapters.llm.prompts import PROMPT_VERSIONS
from lectern.adapters.llm.schemas import GroundedAnswerLLM, GroundedExplanationLLM, JudgmentLLM
from lectern.application.ports import Embedder, LLMTracer
from lectern.domain.answering_words import STOP_WORDS
from lectern.domain.books import Book, ChunkField, JSONValue
from lectern.domain.evaluation import RubricJudgment, RubricScore
from lectern.domain.grounding import (
    LOW_CONFIDENCE_PREFIX,
    MAX_SNIPPET_CHARS,
    Answer,
    Citation,
    Explanation,
    Judgment,
    PassageCitation,
    bound_indexes,
    explanation_json,
    match_words,
    validate_grounded_answer,
    validate_grounded_explanation,
)
from lectern.domain.sentences import CAPITALISED, sentence_spans
from lectern.domain.tracing import LLMCallTrace
from lectern.errors import LLMError

MODEL_ID = "extractive-v1"
SIMILAR_SENTENCE = 0.45
"""Cosine a description sentence needs to be quoted on meaning alone."""
MEANING_SENTENCES = 3
"""Description sentences compared by meaning when no word matches: the first ones, where
blurbs put the premise, each cut to a 200-character window (about 10 ms to embed)."""
MAX_CATEGORY_QUOTES = 3
MAX_DESCRIPTION_QUOTES = 2

FILLER = frozenset(
    " ".join(
        (
            "a an and are as at be but by for if in into is it no not of on or such that the",
            "their then there these they this to was will with about like want looking",
            "something me my i book books novel novels story stories read reading good great",
            "recommend some any from after before set where who which what when how its our",
            "we you your one",
        )
    ).split()
)
"""Words of a request that say nothing about the book wanted."""
EXPLANATION_WORDS = frozenset(
    [
        "it",
        "its",
        "matches",
        "match",
        "matching",
        "your",
        "search",
        "searched",
        "on",
        "in",
        "title",
        "titles",
        "author",
        "authors",
        "category",
        "categories",
        "description",
        "descriptions",
        "record",
        "field",
        "fields",
        "close",
        "closest",
        "meaning",
        "quoted",
        "quote",
        "quotes",
        "says",
        "mentions",
    ]
)
"""Words an explanation uses to point at the evidence; they claim nothing about the book."""
NOT_ASKED = STOP_WORDS | frozenset(
    " ".join(
        (
            "similar liked next",  # "books similar to X", "if I liked X what should I read next"
            "de del la las el los para por en un una unos unas al lo",  # Spanish
            "le les du des et ou dans au aux une sur avec",  # French
            "der das dem des und oder für mit von im ein eine einen zu auf",  # German
            "il di per nel della delle dei gli",  # Italian
        )
    ).split()
)
"""Words of a request that name nothing wanted: the judge's relevance does not look for them.

A request's frame ("similar", "liked") and the function words of the catalog's other
languages ("novelas de ciencia ficción": "de") are in no book's evidence however good the
book; counting them marked good results down. Not used to write explanations."""
CLEAR_SENTENCE_WORDS = 35
"""A sentence longer than this is hard to take in at a glance."""

_WORD = re.compile(r"\w+", re.UNICODE)

SchemaT = TypeVar("SchemaT")


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int


class _Terms:
    """The content words of a query, stemmed, with the words the reader typed."""

    def __init__(self, stemmer: Any, text: str, skip: frozenset[str] = frozenset()) -> None:
        self.typed = match_words(text)
        self.words: dict[str, str] = {}
        for match in _WORD.finditer(text.casefold()):
            word = match.group()
            if word in FILLER or word in skip or word.isdigit() or len(word) < 2:
                continue
            self.words.setdefault(stemmer.stemWord(word), word)

    @property
    def stems(self) -> frozenset[str]:
        return frozenset(self.words)

    def in_query_order(self, stems: set[str]) -> list[str]:
        """The reader's words for these stems, in the order they typed them."""
        return [word for stem, word in self.words.items() if stem in stems]


def _sentences(text: str) -> list[_Span]:
    return [_Span(start, end) for start, end in sentence_spans(text, CAPITALISED, trim=False)]


def _window(text: str, span: _Span, focus: int) -> str:
    """At most MAX_SNIPPET_CHARS of the span around `focus`, cut at word boundaries."""
    if span.end - span.start <= MAX_SNIPPET_CHARS:
        return text[span.start : span.end].strip()
    start = max(span.start, min(focus - MAX_SNIPPET_CHARS // 3, span.end - MAX_SNIPPET_CHARS))
    end = min(span.end, start + MAX_SNIPPET_CHARS)
    if start > span.start:
        space = text.find(" ", start, end)
        start = space + 1 if space != -1 else start
    if end < span.end:
        space = text.rfind(" ", start, end)
        end = space if space > start else end
    return text[start:end].strip()


def _cover(candidates: list[tuple[str, set[str]]], most: int) -> list[tuple[str, set[str]]]:
    """Greedy set cover: each next quote adds the most query words not quoted yet.

    Ties go to the earlier candidate, so the result is deterministic.
    """
    chosen: list[tuple[str, set[str]]] = []
    covered: set[str] = set()
    remaining = [c for c in candidates if c[1]]
    while remaining and len(chosen) < most:
        best = max(remaining, key=lambda c: (len(c[1] - covered), -remaining.index(c)))
        if not best[1] - covered:
            break
        chosen.append(best)
        covered |= best[1]
        remaining.remove(best)
    return chosen


class ExtractiveLLM:
    """Quotes the record; the same port as generative models, so callers never branch."""

    model_id = MODEL_ID

    def __init__(
        self,
        *,
        tracer: LLMTracer | None = None,
        embedder: Embedder | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        """The embedder is optional: without it, only shared words are quoted."""
        self._stemmer = Stemmer.Stemmer("english")
        self._tracer = tracer
        self._embedder = embedder
        self._clock = clock

    # --- explain ---------------------------------------------------------------------------

    def explain(self, query: str, book: Book, *, run_id: str | None = None) -> Explanation:
        """Quotes of the book's fields that share the query's words, validated."""
        started = time.perf_counter()
        draft = self._draft(query, book)
        result = validate_grounded_explanation(draft, book)
        self._trace(
            "explain",
            PROMPT_VERSIONS["explain"],
            {"query": query, "book_id": str(book.id)},
            raw=json.dumps(explanation_payload(draft), ensure_ascii=False),
            parsed=explanation_payload(result),
            started=started,
            run_id=run_id,
        )
        return result

    def _draft(self, query: str, book: Book) -> Explanation:
        terms = _Terms(self._stemmer, query)
        citations: list[Citation] = []
        supported: dict[str, list[str]] = {}
        if terms.stems:
            for field in ("title", "authors", "categories"):
                for snippet, hit in self._field_quotes(book, field, terms):
                    citations.append(Citation(book.id, field, snippet, self._share(hit, terms)))
                    supported.setdefault(field, []).extend(terms.in_query_order(hit))
            for snippet, hit in self._description_quotes(book, terms):
                citations.append(Citation(book.id, "description", snippet, self._share(hit, terms)))
                supported.setdefault("description", []).extend(terms.in_query_order(hit))
        meaning = None
        if not citations:  # the last resort before "no grounded explanation": it costs
            meaning = self._closest_sentence(query, book)  # an embedding call per book
            if meaning is not None:
                citations.append(Citation(book.id, "description", meaning[0], meaning[1]))
        covered = {s for c in citations for _, s in self._claimable(c.snippet, terms)}
        covered &= terms.stems
        confidence = len(covered) / len(terms.stems) if terms.stems else 0.0
        if meaning is not None:
            confidence = max(confidence, meaning[1])
        return Explanation(
            book_id=book.id,
            query_text=query,
            text=self._sentence(supported, meaning is not None),
            citations=tuple(citations),
            model=self.model_id,
            created_at=self._clock(),
            confidence=round(confidence, 3),
            grounded=bool(citations),
        )

    def _claimable(self, text: str, terms: _Terms) -> list[tuple[int, str]]:
        """(offset, stem) of the text's words that can support a claim of a match.

        Whole words only, and not a word inside a phrase that means something else when the
        query lacks the phrase (`BOUND_PHRASES`: "adults" is no match for "young adult").
        """
        found = [(m.start(), m.group()) for m in _WORD.finditer(text.casefold())]
        bound = bound_indexes([w for _, w in found], terms.typed)
        return [
            (offset, self._stemmer.stemWord(word))
            for index, (offset, word) in enumerate(found)
            if index not in bound
        ]

    def _stems_of(self, text: str) -> set[str]:
        return {self._stemmer.stemWord(w) for w in _WORD.findall(text.casefold())}

    @staticmethod
    def _share(hit: set[str], terms: _Terms) -> float:
        """Relevance of a quote: the square root of the share of query words it contains.

        One word of a five-word query (0.45) is modest evidence; one of twenty (0.22) is
        weak, and the validator's 0.3 rule then caps the explanation's confidence.
        """
        return round(math.sqrt(len(hit) / len(terms.stems)), 3)

    def _field_quotes(
        self, book: Book, field: ChunkField, terms: _Terms
    ) -> list[tuple[str, set[str]]]:
        if field == "title":
            values = [book.field_text("title")]
        elif field == "authors":
            values = list(book.authors)
        else:
            values = list(book.categories)
        candidates = [
            (
                _window(value, _Span(0, len(value)), 0),
                {stem for _, stem in self._claimable(value, terms)} & terms.stems,
            )
            for value in values
            if value.strip()
        ]
        return _cover(candidates, MAX_CATEGORY_QUOTES if field == "categories" else 1)

    def _description_quotes(self, book: Book, terms: _Terms) -> list[tuple[str, set[str]]]:
        text = book.description or ""
        scored = []
        for span in _sentences(text):
            words = [
                (offset + span.start, stem)
                for offset, stem in self._claimable(text[span.start : span.end], terms)
            ]
            hit = {stem for _, stem in words if stem in terms.stems}
            if not hit:
                continue
            focus = next(pos for pos, stem in words if stem in terms.stems)
            scored.append((_window(text, span, focus), hit))
        return _cover(scored, MAX_DESCRIPTION_QUOTES)

    def _closest_sentence(self, query: str, book: Book) -> tuple[str, float] | None:
        text = book.description or ""
        if self._embedder is None or not text:
            return None
        spans = _sentences(text)[:MEANING_SENTENCES]
        snippets = [_window(text, s, s.start) for s in spans]
        vectors = self._embedder.embed([query, *snippets])
        best, score = None, SIMILAR_SENTENCE
        for snippet, vector in zip(snippets, vectors[1:], strict=True):
            cosine = sum(a * b for a, b in zip(vectors[0], vector, strict=True))
            if cosine >= score:
                best, score = snippet, cosine
        return (best, round(min(score, 1.0), 3)) if best else None

    @staticmethod
    def _sentence(supported: Mapping[str, list[str]], by_meaning: bool) -> str:
        parts = []
        for field, words in supported.items():
            unique = list(dict.fromkeys(words))
            quoted = ", ".join(f"“{w}”" for w in unique)
            parts.append(f"{quoted} in its {field}")
        text = ""
        if parts:
            text = "It matches your search on " + "; ".join(parts) + "."
        if by_meaning:
            text += (" " if text else "") + "Its description is close in meaning to your search."
        return text or "Nothing in this book's record matches the search."

    # --- answer and judge ------------------------------------------------------------------

    def answer(
        self, question: str, passages: Mapping[str, str], *, run_id: str | None = None
    ) -> Answer:
        """The passage sentences sharing most of the question's words, quoted."""
        started = time.perf_counter()
        terms = _Terms(self._stemmer, question)
        found = []
        for passage_id, text in passages.items():
            for span in _sentences(text):
                hit = self._stems_of(text[span.start : span.end]) & terms.stems
                if hit:
                    found.append((len(hit), passage_id, _window(text, span, span.start), hit))
        found.sort(key=lambda f: (-f[0], f[1]))
        best = found[:3]
        covered = set().union(*(f[3] for f in best)) if best else set()
        draft = Answer(
            question=question,
            text=" ".join(snippet for _, _, snippet, _ in best)
            or "The passages do not answer this question.",
            citations=tuple(
                PassageCitation(pid, snippet, self._share(hit, terms))
                for _, pid, snippet, hit in best
            ),
            model=self.model_id,
            confidence=round(len(covered) / len(terms.stems), 3) if terms.stems else 0.0,
            grounded=bool(best),
        )
        result = validate_grounded_answer(draft, passages)
        self._trace(
            "answer",
            PROMPT_VERSIONS["answer"],
            {"question": question, "passages": list[JSONValue](sorted(passages))},
            raw=json.dumps(asdict(draft), default=str),
            parsed=json.loads(json.dumps(asdict(result), default=str)),
            started=started,
            run_id=run_id,
        )
        return result

    def judge(
        self, question: str, output: str, evidence: Sequence[str], *, run_id: str | None = None
    ) -> Judgment:
        """Share of the output's content words that the evidence contains.

        Words that only point at the evidence ("matches", "its categories") are not claims.
        An output with no content word claims nothing: supported when there is evidence.
        """
        started = time.perf_counter()
        said = _Terms(self._stemmer, output, EXPLANATION_WORDS).stems
        known = set().union(*(self._stems_of(e) for e in evidence)) if evidence else set()
        if said:
            score = round(len(said & known) / len(said), 3)
            reasoning = (
                f"{len(said & known)} of {len(said)} content words of the output are in the "
                "evidence"
            )
        else:
            score = 1.0 if known else 0.0
            reasoning = "the output claims nothing beyond pointing at the evidence"
        verdict = (
            "supported"
            if score >= 0.8
            else "partially_supported"
            if score >= 0.4
            else "unsupported"
        )
        result = Judgment(score, verdict, reasoning, self.model_id)
        self._trace_computed(
            "judge", {"question": question, "output": output}, asdict(result), started, run_id
        )
        return result

    def grade_explanation(
        self, query: str, output: str, evidence: Sequence[str], *, run_id: str | None = None
    ) -> RubricJudgment:
        """A deterministic heuristic grade, marked as such (no model reads anything).

        - groundedness: share of the output's content words found in the evidence;
        - relevance: share of the query's content words the evidence contains;
        - clarity: 5, minus a point each for sentences over 35 words, more than three
          sentences, a low-confidence flag, and two for an output under four words.
        """
        started = time.perf_counter()
        known = set().union(*(self._stems_of(e) for e in evidence)) if evidence else set()
        said = _Terms(self._stemmer, output, EXPLANATION_WORDS).stems
        asked = _Terms(self._stemmer, query, NOT_ASKED).stems
        if said:
            grounded = len(said & known) / len(said)
            grounded_reason = f"{len(said & known)} of {len(said)} claimed words are in the quotes"
        elif known:
            grounded, grounded_reason = 1.0, "claims nothing beyond the quoted evidence"
        else:
            grounded, grounded_reason = 0.0, "no evidence quoted"
        if asked:
            relevant = len(asked & known) / len(asked)
            relevance_reason = (
                f"the quotes contain {len(asked & known)} of {len(asked)} query content words"
            )
        else:
            relevant, relevance_reason = 0.5, "the query has no content words to match"
        result = RubricJudgment(
            groundedness=RubricScore(1 + round(4 * grounded), grounded_reason),
            clarity=_clarity(output),
            relevance=RubricScore(1 + round(4 * relevant), relevance_reason),
            model=f"{self.model_id} heuristic judge",
            heuristic=True,
        )
        self._trace_computed(
            "grade_explanation", {"query": query, "output": output}, asdict(result), started, run_id
        )
        return result

    def complete(
        self,
        prompt_id: str,
        variables: Mapping[str, str],
        schema: type[SchemaT],
        *,
        run_id: str | None = None,
    ) -> SchemaT:
        """Only the task prompts: a free-form completion needs a generative model."""
        value: BaseModel
        if prompt_id == "judge" and schema is JudgmentLLM:
            judged = self.judge(
                variables["question"], variables["output"], [variables["evidence"]], run_id=run_id
            )
            value = JudgmentLLM(
                score=judged.score, verdict=judged.verdict, reasoning=judged.reasoning
            )
        elif prompt_id == "answer" and schema is GroundedAnswerLLM:
            answered = self.answer(variables["question"], {"0": variables["passages"]})
            value = GroundedAnswerLLM.model_validate(
                {
                    "text": answered.text,
                    "confidence": answered.confidence,
                    "citations": [
                        {
                            "passage_id": c.passage_id,
                            "snippet": c.snippet,
                            "relevance": c.relevance_score,
                        }
                        for c in answered.citations
                    ],
                }
            )
        elif prompt_id == "explain" and schema is GroundedExplanationLLM:
            raise LLMError("use explain(query, book): the extractive model needs the Book itself")
        else:
            raise LLMError(
                f"the extractive model cannot complete prompt {prompt_id!r}: set LECTERN_LLM to a "
                "generative provider"
            )
        return value  # type: ignore[return-value]

    # --- tracing ---------------------------------------------------------------------------

    def _trace_computed(
        self,
        operation: str,
        variables: Mapping[str, JSONValue],
        result: Mapping[str, object],
        started: float,
        run_id: str | None,
    ) -> None:
        """Trace an answer computed here, with no model reply behind it."""
        parsed = json.loads(json.dumps(result))
        self._trace(
            operation,
            PROMPT_VERSIONS[operation],
            variables,
            raw=None,
            parsed=parsed,
            started=started,
            run_id=run_id,
        )

    def _trace(
        self,
        operation: str,
        version: str,
        variables: Mapping[str, JSONValue],
        *,
        raw: str | None,
        parsed: JSONValue,
        started: float,
        run_id: str | None,
    ) -> None:
        if self._tracer is None:
            return
        self._tracer.record(
            LLMCallTrace(
                trace_id=uuid.uuid4().hex,
                time=self._clock(),
                operation=operation,
                prompt_version=version,
                model=self.model_id,
                temperature=None,
                prompt_variables=dict(variables),
                raw_response=raw,
                parsed_output=parsed,
                parse_error=None,
                latency_ms=round((time.perf_counter() - started) * 1000, 3),
                input_tokens=None,
                output_tokens=None,
                run_id=run_id,
            )
        )


def _clarity(output: str) -> RubricScore:
    """Short plain sentences score 5; each problem found costs points (see grade_explanation)."""
    text = output.strip()
    flagged = text.startswith(LOW_CONFIDENCE_PREFIX.strip())
    if flagged:
        text = text[len(LOW_CONFIDENCE_PREFIX.strip()) :].strip()
    sentences = [text[x.start : x.end] for x in _sentences(text)] if text else []
    words = len(text.split())
    score, problems = 5, list[str]()
    if any(len(s.split()) > CLEAR_SENTENCE_WORDS for s in sentences):
        score, problems = score - 1, [*problems, f"a sentence over {CLEAR_SENTENCE_WORDS} words"]
    if len(sentences) > 3:
        score, problems = score - 1, [*problems, f"{len(sentences)} sentences"]
    if flagged:
        score, problems = score - 1, [*problems, "flagged low confidence"]
    if words < 4:
        score, problems = score - 2, [*problems, f"only {words} words"]
    reason = "; ".join(problems) if problems else f"{len(sentences)} short plain sentence(s)"
    return RubricScore(max(score, 1), reason[:200])


def explanation_payload(explanation: Explanation) -> dict[str, JSONValue]:
    """An explanation as the JSON a model would have returned (for traces)."""
    return {k: v for k, v in explanation_json(explanation).items() if k != "model"}
