"""`HybridPolicy`: the rule policy answers where it is confident, a model decides the rest.

The rule policy marks the questions it asks because the understanding layer's reading is
under its confidence floor (or no plan could be filled from it) as `unsure`; only those
messages reach the model, with the same conversation and tools. When the model calls a tool,
its call stands; when it would only write text, the layer's question is the reply (with its
suggested readings), because a question costs less than a guess. Once the model has called
a tool in this turn, the rest of the turn is the model's, so its answer from the results is
kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from lectern.application.assistant.ports import ChatModel
from lectern.domain.assistant import AIResponse, Message, ToolSpec


def _model_acted(messages: Sequence[Message]) -> bool:
    """Whether a tool was called since the reader's last message."""
    last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    return any(m.role == "tool" for m in messages[last_user + 1 :])


class HybridPolicy:
    """A `ChatModel`: `rules` where they are sure, `model` where they would ask."""

    def __init__(self, rules: ChatModel, model: ChatModel) -> None:
        """`rules` marks the replies it is unsure of; `model` decides those messages."""
        self.rules = rules
        self.model = model
        self.model_id = f"hybrid:{rules.model_id}+{model.model_id}"
        self.deferred = 0
        """How many steps the model decided (for figures and tests)."""

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        """The rules' step, or the model's when the rules are unsure."""
        ruled = self.rules.complete_with_tools(
            messages, tools, system=system, temperature=temperature, max_tokens=max_tokens
        )
        if not ruled.unsure:
            return ruled
        self.deferred += 1
        decided = self.model.complete_with_tools(
            messages, tools, system=system, temperature=temperature, max_tokens=max_tokens
        )
        if decided.tool_calls or _model_acted(messages):
            return decided
        return ruled
