"""The reply graph's steps, `invoke_llm` and index summaries, asked of a model (`LLMClient`).

Each step sends its versioned prompt (`prompts.kb_prompt`: the configured instructions plus
the output format in code) and parses the reply into its schema. Anything the model returns
that does not fit raises, and the graph turns that into `should_reply=false`; quotes are
re-checked against the sources by the graph whatever the model says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast, get_args

from pydantic import BaseModel

from lectern.adapters.llm.answering_schemas import (
    GateLLM,
    KBAnswerLLM,
    LLMTextResult,
    SelectionLLM,
    SummaryLLM,
    VerificationLLM,
)
from lectern.adapters.llm.prompts import Prompt, json_prompt, kb_prompt, with_feedback
from lectern.application.answering.ports import KnowledgeBaseView
from lectern.application.ports import LLMClient
from lectern.domain.answering import (
    AnswerSentence,
    DraftAnswer,
    GateDecision,
    GateKind,
    LoadedSource,
    SelectedSource,
    Verdict,
    lead_summary,
)
from lectern.errors import LecternError, LLMError

SchemaT = TypeVar("SchemaT")
MAX_INDEX_LINES = 200
"""Larger indexes are cut to the lines of the sources search ranks first for the question."""
MAX_SOURCE_CHARS = 8_000
"""Longer sources are cut in the prompt (the quotes are checked against the whole text)."""
MAX_SUMMARY_INPUT = 3_000


@dataclass(frozen=True, slots=True)
class KBPrompts:
    """The four prompts of the graph, built from the configuration, and the answer's retry."""

    gate: Prompt
    select: Prompt
    answer: Prompt
    verify: Prompt
    answer_retry: Prompt
    """The answer prompt with the reason its last draft was rejected (self-reflection)."""

    @classmethod
    def build(
        cls,
        instructions: Mapping[str, str | None],
        *,
        project_introduction: str,
        max_sources: int,
        max_answer_chars: int,
    ) -> KBPrompts:
        """Register each step's prompt (configured instructions or the default)."""
        made = {
            step: kb_prompt(
                step,
                instructions.get(step),
                project_introduction=project_introduction,
                max_sources=max_sources,
                max_chars=max_answer_chars,
            )
            for step in ("gate", "select", "answer", "verify")
        }
        return cls(**made, answer_retry=with_feedback(made["answer"]))


def render_sources(sources: Sequence[LoadedSource]) -> str:
    """Each source as `[source_id]` then its text (cut when very long), separated by ---."""
    return "\n---\n".join(
        f"[{s.source.source_id}] {s.source.title}\n{s.text[:MAX_SOURCE_CHARS]}" for s in sources
    )


class LLMReplySteps:
    """`ReplySteps` by a language model through `LLMClient.complete`."""

    def __init__(self, llm: LLMClient, prompts: KBPrompts) -> None:
        """Ask this model with these (registered) prompts."""
        self.llm = llm
        self.prompts = prompts
        self.name = llm.model_id

    def gate(self, turn: str, kb: KnowledgeBaseView, *, run_id: str) -> GateDecision:
        """The model's decision; a decision it may not give is a failure."""
        del kb
        reply = self.llm.complete(self.prompts.gate.id, {"turn": turn}, GateLLM, run_id=run_id)
        decision = reply.decision.strip().casefold().replace(" ", "_").replace("-", "_")
        if decision not in get_args(GateKind):
            raise LLMError(f"the gate answered {reply.decision!r}, not one of its decisions")
        return GateDecision(cast(GateKind, decision), reply.reason[:200], turn)

    def select(
        self, question: str, kb: KnowledgeBaseView, limit: int, *, run_id: str
    ) -> tuple[SelectedSource, ...]:
        """Ids the model picked from the index lines, kept when the index has them."""
        sources = kb.index.sources
        if len(sources) > MAX_INDEX_LINES:
            found, _ = kb.candidates(question, MAX_INDEX_LINES // 2)
            sources = tuple(c.selected.source for c in found)
        lines = "\n".join(s.line() for s in sources)
        reply = self.llm.complete(
            self.prompts.select.id,
            {"question": question, "index": lines},
            SelectionLLM,
            run_id=run_id,
        )
        chosen: list[SelectedSource] = []
        for raw in reply.source_ids:
            source = kb.source(raw.strip().strip("[]`").strip())
            if source is not None and all(c.source != source for c in chosen):
                # The model gives no score: every source it picks counts as fully relevant.
                chosen.append(SelectedSource(source, 1.0))
        return tuple(chosen[:limit])

    def generate(
        self,
        question: str,
        sources: Sequence[LoadedSource],
        kb: KnowledgeBaseView,
        *,
        run_id: str,
        feedback: str | None = None,
    ) -> DraftAnswer | None:
        """The model's sentences with their sources and quotes (checked by the graph).

        With `feedback` (why the last draft was rejected) the retry prompt carries it.
        """
        del kb
        variables = {"question": question, "sources": render_sources(sources)}
        prompt = self.prompts.answer
        if feedback:
            prompt = self.prompts.answer_retry
            variables["feedback"] = feedback
        reply = self.llm.complete(prompt.id, variables, KBAnswerLLM, run_id=run_id)
        if not reply.can_answer or not reply.sentences:
            return None
        sentences = tuple(
            AnswerSentence(s.text.strip(), s.source_id.strip().strip("[]").strip(), s.quote.strip())
            for s in reply.sentences
        )
        return DraftAnswer(sentences, support=1.0)

    def verify(
        self, question: str, draft: DraftAnswer, sources: Sequence[LoadedSource], *, run_id: str
    ) -> Verdict:
        """Supported and on the question, in the model's judgement."""
        answer = " ".join(f"{s.text} [{s.source_id}]" for s in draft.sentences)
        reply = self.llm.complete(
            self.prompts.verify.id,
            {"question": question, "answer": answer, "sources": render_sources(sources)},
            VerificationLLM,
            run_id=run_id,
        )
        passed = reply.supported and reply.answers_question
        return Verdict(passed, reply.reason[:200] or ("passed" if passed else "failed"))


class LLMJsonModel:
    """`JsonModel`: a caller's system prompt and content, JSON back, on the shared model."""

    def __init__(self, llm: LLMClient) -> None:
        """Calls go through this model (traced like every other call)."""
        self.llm = llm
        self.model_id = llm.model_id

    def invoke(
        self, system_prompt: str, user_content: str, response_model: type[SchemaT]
    ) -> SchemaT:
        """Parse the reply into `response_model` (a Pydantic model class)."""
        if not (isinstance(response_model, type) and issubclass(response_model, BaseModel)):
            raise LLMError("invoke_llm needs a Pydantic model class as the response model")
        prompt = json_prompt(system_prompt)
        return self.llm.complete(prompt.id, {"content": user_content}, response_model)

    def invoke_text(self, system_prompt: str, user_content: str) -> str:
        """One string back (the reply parsed into `LLMTextResult`)."""
        return self.invoke(system_prompt, user_content, LLMTextResult).text


class LLMSummarizer:
    """`SourceSummarizer` by a model; the lead-sentence summary when the model fails."""

    def __init__(self, llm: LLMClient) -> None:
        """Summaries are cached by content hash under this summarizer's name."""
        self.llm = llm
        self.name = f"llm:{llm.model_id}"
        self.prompt = kb_prompt("summary")

    def summarize(self, title: str, headings: Sequence[str], text: str) -> str:
        """The model's one line, or the title and lead sentence."""
        try:
            reply = self.llm.complete(
                self.prompt.id,
                {
                    "title": title,
                    "headings": " > ".join(headings),
                    "text": text[:MAX_SUMMARY_INPUT],
                },
                SummaryLLM,
            )
        except LecternError:
            return lead_summary(title, headings, text)
        return " ".join(reply.summary.split())
