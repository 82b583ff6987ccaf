"""`HybridPolicy`: the rule policy answers where it is confident, a model decides the rest.

The rule policy marks the questions it asks because the understanding layer's reading is
under its confidence floor (or no plan could be filled from it) as `unsure`; only those
messages reach the model, with the same conversation. The model is offered only the tools
behind the question's likeliest readings (`AIResponse.readings`), so it chooses among what
the layer found plausible rather than among every tool. Its call stands when it names one of
those tools and every name-like argument it gives is found in what the reader said or was
shown (`grounded`); otherwise, or when it would only write text, the layer's question is the
reply (with its suggested readings), because a question costs less than a guess. Once the
model has called a tool in this turn, the rest of the turn is the model's, with every tool,
so its answer from the results is kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz

from lectern.application.assistant.ports import ChatModel
from lectern.domain.assistant import AIResponse, Message, ToolCall, ToolSpec

GROUNDED = 80
"""The least `partial_ratio` (0-100) of a name-like argument against what was said or shown:
"summer list" for "my Summer reading list" passes, a title the reader never wrote fails."""
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def _model_acted(messages: Sequence[Message]) -> bool:
    """Whether a tool was called since the reader's last message."""
    last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    return any(m.role == "tool" for m in messages[last_user + 1 :])


def _property(spec: ToolSpec, name: str) -> Mapping[str, Any]:
    properties = spec.input_schema.get("properties", {})
    found = properties.get(name, {}) if isinstance(properties, Mapping) else {}
    return found if isinstance(found, Mapping) else {}


def grounded(call: ToolCall, spec: ToolSpec, messages: Sequence[Message], system: str) -> bool:
    """Whether every name-like string argument of `call` is in what the reader said or saw.

    What the reader said (their messages), the page and context the system prompt carries,
    and the tool results of this conversation are the places a name may come from; a value
    from the schema's choices (`enum`), a date, or a number is not a name. A model's call is
    data to check, never taken on trust: an argument it made up ("Dune 4", a list the
    reader never named) keeps the layer's question instead.
    """
    seen = " ".join(
        [system, *(m.content for m in messages if m.role in ("user", "tool"))]
    ).casefold()
    for name, value in call.arguments.items():
        if not isinstance(value, str) or not value.strip():
            continue
        schema = _property(spec, name)
        if "enum" in schema or "format" in schema or _DATE.match(value.strip()):
            continue
        if fuzz.partial_ratio(value.strip().casefold(), seen) < GROUNDED:
            return False
    return True


class HybridPolicy:
    """A `ChatModel`: `rules` where they are sure, `model` among their readings otherwise."""

    def __init__(self, rules: ChatModel, model: ChatModel) -> None:
        """`rules` marks the replies it is unsure of; `model` decides those messages."""
        self.rules = rules
        self.model = model
        self.model_id = f"hybrid:{rules.model_id}+{model.model_id}"
        self.deferred = 0
        """How many steps the model decided (for figures and tests)."""
        self.refused = 0
        """How many of its calls were refused: a tool outside the readings, or an argument
        not found in what the reader said or saw (the layer's question stood instead)."""

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
        acted = _model_acted(messages)
        offered = list(tools) if acted else [t for t in tools if t.name in ruled.readings]
        if not offered:
            # No tool among the likeliest readings (a greeting or an aside): nothing to decide.
            return ruled
        self.deferred += 1
        decided = self.model.complete_with_tools(
            messages, offered, system=system, temperature=temperature, max_tokens=max_tokens
        )
        if acted:
            return decided
        specs = {t.name: t for t in offered}
        if decided.tool_calls and all(
            c.name in specs and grounded(c, specs[c.name], messages, system)
            for c in decided.tool_calls
        ):
            return decided
        self.refused += bool(decided.tool_calls)
        return ruled
