"""What a model must return for each task, as Pydantic models.

They are converted to domain objects here, at the boundary, and nowhere else.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from lectern.domain.evaluation import MAX_REASON_CHARS, RubricJudgment, RubricScore
from lectern.domain.grounding import (
    Answer,
    Citation,
    Explanation,
    Judgment,
    PassageCitation,
)
from lectern.domain.search import Exclusion, ExclusionScope


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False)


class CitationLLM(_Strict):
    """One quote of one field of the book."""

    field: str = Field(description="title, authors, categories or description")
    snippet: str = Field(description="an exact copy of at most 200 characters of the field")
    relevance: float = Field(ge=0.0, le=1.0)


class GroundedExplanationLLM(_Strict):
    """Why a book matches a query, with quotes."""

    text: str = Field(min_length=1, max_length=2_000)
    confidence: float = Field(ge=0.0, le=1.0)
    citations: list[CitationLLM] = Field(default_factory=list, max_length=20)

    def to_domain(self, book_id: uuid.UUID, query: str, model: str, now: datetime) -> Explanation:
        """The unvalidated domain explanation (validation is the caller's next step)."""
        return Explanation(
            book_id=book_id,
            query_text=query,
            text=self.text,
            citations=tuple(
                Citation(book_id, c.field, c.snippet, c.relevance) for c in self.citations
            ),
            model=model,
            created_at=now,
            confidence=self.confidence,
            grounded=bool(self.citations),
        )


class PassageCitationLLM(_Strict):
    """One quote of one passage."""

    passage_id: str
    snippet: str
    relevance: float = Field(ge=0.0, le=1.0)


class GroundedAnswerLLM(_Strict):
    """An answer from passages, with quotes."""

    text: str = Field(min_length=1, max_length=4_000)
    confidence: float = Field(ge=0.0, le=1.0)
    citations: list[PassageCitationLLM] = Field(default_factory=list, max_length=20)

    def to_domain(self, question: str, model: str) -> Answer:
        """The unvalidated domain answer."""
        return Answer(
            question=question,
            text=self.text,
            citations=tuple(
                PassageCitation(c.passage_id, c.snippet, c.relevance) for c in self.citations
            ),
            model=model,
            confidence=self.confidence,
            grounded=bool(self.citations),
        )


class JudgmentLLM(_Strict):
    """A grade."""

    score: float = Field(ge=0.0, le=1.0)
    verdict: str = Field(pattern="^(supported|partially_supported|unsupported)$")
    reasoning: str = Field(max_length=2_000)

    def to_domain(self, model: str) -> Judgment:
        """The domain judgment."""
        return Judgment(self.score, self.verdict, self.reasoning, model)


class RubricScoreLLM(_Strict):
    """One dimension of a graded explanation."""

    score: int = Field(ge=1, le=5)
    reason: str = Field(max_length=MAX_REASON_CHARS)


class RubricLLM(_Strict):
    """An explanation graded on groundedness, clarity and relevance."""

    groundedness: RubricScoreLLM
    clarity: RubricScoreLLM
    relevance: RubricScoreLLM

    def to_domain(self, model: str) -> RubricJudgment:
        """The domain judgment, marked as a generative model's."""
        return RubricJudgment(
            groundedness=RubricScore(self.groundedness.score, self.groundedness.reason),
            clarity=RubricScore(self.clarity.score, self.clarity.reason),
            relevance=RubricScore(self.relevance.score, self.relevance.reason),
            model=model,
            heuristic=False,
        )


class IntentLLM(_Strict):
    """The intent node's reply (checked against the allowed values by `validate`)."""

    intent: str = Field(max_length=40)
    reason: str = Field(default="", max_length=300)


class FiltersLLM(_Strict):
    """The filter node's reply: raw values, repaired by `validate`."""

    language: str | None = Field(default=None, max_length=40)
    min_year: int | None = None
    max_year: int | None = None
    categories: list[str] = Field(default_factory=list, max_length=10)
    authors: list[str] = Field(default_factory=list, max_length=10)
    exclude_categories: list[str] = Field(default_factory=list, max_length=10)
    exclude_authors: list[str] = Field(default_factory=list, max_length=10)
    exclude_titles: list[str] = Field(default_factory=list, max_length=10)
    audience: str | None = Field(default=None, max_length=20)
    min_pages: int | None = None
    max_pages: int | None = None

    def exclusions(self) -> list[Exclusion]:
        """What the reply rules out, as domain exclusions (validated by the caller)."""
        kinds: tuple[tuple[ExclusionScope, list[str]], ...] = (
            ("category", self.exclude_categories),
            ("author", self.exclude_authors),
            ("title", self.exclude_titles),
        )
        found = [
            Exclusion(scope, name.strip(), (name.strip(),))
            for scope, names in kinds
            for name in names
            if isinstance(name, str) and name.strip()
        ]
        if (self.audience or "").strip().casefold() in ADULT_AUDIENCES:
            found.insert(0, Exclusion("audience", "young readers", ()))
        return found


ADULT_AUDIENCES = frozenset({"adult", "adults", "grown-up", "grown-ups", "mature"})
"""What a model may answer for books for adults (every youth shelf ruled out)."""


class VariationsLLM(_Strict):
    """The variations node's reply."""

    variations: list[str] = Field(default_factory=list, max_length=10)


class StrategyLLM(_Strict):
    """The strategy node's reply."""

    strategy: str = Field(max_length=40)
    reason: str = Field(default="", max_length=300)


class StandaloneQuestionLLM(_Strict):
    """A follow-up rewritten so that it stands alone (prompt guide-rewrite-v1)."""

    question: str = Field(min_length=1, max_length=1_000)


class RankingLLM(_Strict):
    """Passage numbers best first (prompt rerank-listwise-v1)."""

    order: list[int] = Field(max_length=200)
