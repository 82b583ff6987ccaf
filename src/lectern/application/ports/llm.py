"""Ports of the language models: the LLM client, its tracer, caches and query plans."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from lectern.domain.books import (
    Book,
)
from lectern.domain.evaluation import RubricJudgment
from lectern.domain.grounding import Answer, Explanation, Judgment
from lectern.domain.search import QueryPlan
from lectern.domain.tracing import LLMCallTrace

SchemaT = TypeVar("SchemaT")


class LLMClient(Protocol):
    """A language model, by task. Every output is validated by the caller's domain rules.

    Adapters: `ExtractiveLLM` (offline default), `LangChainLLM` (hosted and local chat
    models), `LlamaCppLLM` (an in-process GGUF model).
    """

    model_id: str

    def explain(self, query: str, book: Book, *, run_id: str | None = None) -> Explanation:
        """Why this book answers the query, quoting its fields (validated before return)."""
        ...

    def answer(
        self, question: str, passages: Mapping[str, str], *, run_id: str | None = None
    ) -> Answer:
        """An answer from these passages (id -> text), quoting them (validated)."""
        ...

    def judge(
        self, question: str, output: str, evidence: Sequence[str], *, run_id: str | None = None
    ) -> Judgment:
        """How right and supported an output is, 0..1."""
        ...

    def grade_explanation(
        self, query: str, output: str, evidence: Sequence[str], *, run_id: str | None = None
    ) -> RubricJudgment:
        """Groundedness, clarity and relevance of an explanation, 1..5 each with reasons."""
        ...

    def complete(
        self,
        prompt_id: str,
        variables: Mapping[str, str],
        schema: type[SchemaT],
        *,
        run_id: str | None = None,
    ) -> SchemaT:
        """A structured completion of a versioned prompt, parsed into `schema`."""
        ...


class LLMTracer(Protocol):
    """Where every LLM call is recorded."""

    def record(self, trace: LLMCallTrace) -> None:
        """Append one trace; never raises into the caller's path."""
        ...

    def last(self, count: int) -> list[LLMCallTrace]:
        """The newest traces, oldest first."""
        ...


class ExplanationCache(Protocol):
    """Explanations keyed by (book, query, prompt version, model)."""

    def get(
        self, book_id: uuid.UUID, query: str, prompt_version: str, model: str
    ) -> Explanation | None:
        """The stored explanation, or None."""
        ...

    def put(self, explanation: Explanation, prompt_version: str) -> None:
        """Store an explanation (replacing an older one with the same key)."""
        ...


class QueryUnderstanding(Protocol):
    """Turns a reader's words into a plan: intent, filters, variations, strategy."""

    name: str

    def plan(self, query: str) -> QueryPlan:
        """The plan for this query; never raises for odd text (it plans less instead)."""
        ...


class TitleMatcher(Protocol):
    """The catalog book a misspelt title most likely names ("The Great Gatsbi")."""

    def closest(self, title: str) -> str | None:
        """The id of the book spelt closest to `title`, or None when no title is close."""
        ...

    def spelt_like(self, title: str, cutoff: float) -> tuple[str, ...]:
        """Ids of the books whose titles are at least `cutoff` (0-100) like `title`, best first."""
        ...


class Spelling(Protocol):
    """How alike a typed title is to a few candidate titles, by spelling (0-100)."""

    def similarities(self, text: str, choices: Sequence[str], cutoff: float) -> dict[int, float]:
        """Index and similarity of each choice at least `cutoff` like `text`.

        The caller bounds `choices` (a search's candidates, not the catalog), so this is a
        scan of a few hundred short strings at most.
        """
        ...
