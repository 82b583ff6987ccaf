"""The offline reply steps: rules for the gate, retrieval for selection, extractive answers.

Deterministic: the same conversation over the same index always gets the same decision.
"""

from __future__ import annotations

from collections.abc import Sequence

from lectern.application.answering.ports import KnowledgeBaseView
from lectern.domain.answering import (
    DraftAnswer,
    GateDecision,
    LoadedSource,
    SelectedSource,
    Verdict,
    classify_turn,
    content_terms,
    extractive_answer,
    verify_extractive,
)


class RuleReplySteps:
    """`ReplySteps` without a model."""

    name = "rules"

    def __init__(self, max_answer_chars: int) -> None:
        """Answers are at most `max_answer_chars` long, labels included."""
        self.max_answer_chars = max_answer_chars

    def gate(self, turn: str, kb: KnowledgeBaseView, *, run_id: str) -> GateDecision:
        """A question or request whose words the knowledge base holds at least one of."""
        del run_id
        decision = classify_turn(turn)
        if decision.decision != "question":
            return decision
        terms = content_terms(decision.question)
        if terms and not any(kb.index.knows(t) for t in terms):
            return GateDecision(
                "off_topic",
                "no word of the question occurs in the knowledge base",
                decision.question,
            )
        return decision

    def select(
        self, question: str, kb: KnowledgeBaseView, limit: int, *, run_id: str
    ) -> tuple[SelectedSource, ...]:
        """The collection's search, keeping sources above the relevance floor."""
        del run_id
        return kb.select(question, limit)

    def generate(
        self,
        question: str,
        sources: Sequence[LoadedSource],
        kb: KnowledgeBaseView,
        *,
        run_id: str,
        feedback: str | None = None,
    ) -> DraftAnswer | None:
        """The sentences that cover the question best, each cited.

        The rules are deterministic: feedback cannot change their draft, so it is ignored.
        """
        del run_id, feedback
        return extractive_answer(question, sources, kb.index, self.max_answer_chars)

    def verify(
        self, question: str, draft: DraftAnswer, sources: Sequence[LoadedSource], *, run_id: str
    ) -> Verdict:
        """Every sentence is a sentence of its source and holds a word of the question."""
        del run_id
        return verify_extractive(question, draft, sources)
