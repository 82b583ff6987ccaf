"""Every call a model makes, checked: was it an offered tool, with arguments that tool takes?

`CheckedCalls` wraps the `ChatModel` under evaluation (the local model, alone or behind
`hybrid`) and counts its steps, calls, refused calls and seconds; the tool registry's own
input models are the judge, the same check the assistant's loop applies before a tool runs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from lectern.application.assistant.ports import ChatModel
from lectern.application.assistant.registry import ToolRegistry
from lectern.domain.assistant import AIResponse, Message, ToolCall, ToolSpec
from lectern.errors import LecternError


@dataclass
class CallTally:
    """What one model did over a run."""

    steps: int = 0
    calls: int = 0
    invalid: list[str] = field(default_factory=list)
    """One line per refused call: the tool and what was wrong."""
    seconds: float = 0.0

    def figures(self) -> dict[str, float | int | None]:
        """Steps, calls, the share of valid calls, and seconds per step."""
        return {
            "model_steps": self.steps,
            "model_calls": self.calls,
            "valid_call_rate": (
                round((self.calls - len(self.invalid)) / self.calls, 4) if self.calls else None
            ),
            "model_seconds_per_step": round(self.seconds / self.steps, 1) if self.steps else None,
        }


class CheckedCalls:
    """A `ChatModel` that passes every step through and checks the calls that come back."""

    def __init__(self, model: ChatModel, registry: ToolRegistry) -> None:
        """`registry`: the tools whose input models judge the arguments."""
        self.model = model
        self.registry = registry
        self.model_id = model.model_id
        self.tally = CallTally()

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        """The wrapped model's step, tallied."""
        started = time.perf_counter()
        try:
            return self._checked(
                self.model.complete_with_tools(
                    messages, tools, system=system, temperature=temperature, max_tokens=max_tokens
                ),
                {t.name for t in tools},
            )
        finally:
            self.tally.steps += 1
            self.tally.seconds += time.perf_counter() - started

    def _checked(self, response: AIResponse, offered: set[str]) -> AIResponse:
        for call in response.tool_calls:
            self.tally.calls += 1
            problem = self._problem(call, offered)
            if problem is not None:
                self.tally.invalid.append(f"{call.name}: {problem}")
        return response

    def _problem(self, call: ToolCall, offered: set[str]) -> str | None:
        tool = self.registry.get(call.name)
        if call.name not in offered or tool is None:
            return "not an offered tool"
        try:
            tool.parse(call.arguments)
        except LecternError as error:
            return str(error)
        return None
