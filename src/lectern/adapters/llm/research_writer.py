"""The research writer over a model: versioned templates, tolerant parsing, no exceptions.

A reply that is JSON (even wrapped in a code fence or a sentence, with numbers as words) is
read into the template's schema; one that is not is kept as an uncited answer marked
unparsed (the schemas' `from_unparsed`); a model that fails gives a draft with `error` set.
"""

from __future__ import annotations

from collections.abc import Sequence

from lectern.adapters.llm.answering_schemas import RESEARCH_SCHEMAS
from lectern.adapters.llm.prompts import PROMPTS, with_feedback
from lectern.application.ports import LLMClient
from lectern.domain.research import ContextBlock, ResearchDraft, ResearchTemplate, render_context
from lectern.errors import LecternError


class LLMResearchWriter:
    """`ResearchWriter` through `LLMClient.complete` and the three research prompts."""

    def __init__(self, llm: LLMClient) -> None:
        """Write with this model."""
        self.llm = llm
        self.model_id = llm.model_id

    def prompt_version(self, template: ResearchTemplate) -> str:
        """The registered prompt's version (`research-query-v1`, ...)."""
        return PROMPTS[template].version

    def write(
        self,
        template: ResearchTemplate,
        question: str,
        blocks: Sequence[ContextBlock],
        *,
        run_id: str,
        feedback: str | None = None,
    ) -> ResearchDraft:
        """The model's draft, or a draft that says why there is none.

        With `feedback` (why the last draft lost citations) the template's retry prompt is used.
        """
        schema = RESEARCH_SCHEMAS[template]
        variables = {"question": question, "context": render_context(blocks)}
        prompt_id: str = template
        if feedback:
            prompt_id = with_feedback(PROMPTS[template]).id
            variables["feedback"] = feedback
        try:
            parsed = self.llm.complete(prompt_id, variables, schema, run_id=run_id)
        except LecternError as error:
            return ResearchDraft(
                answer="",
                cited=(),
                confidence=0.0,
                model=self.model_id,
                parsed=False,
                error=str(error)[:300],
            )
        return parsed.to_draft(self.model_id)
