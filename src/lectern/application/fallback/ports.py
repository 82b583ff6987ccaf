"""The fallback agent's port: a tool-calling agent over tools this package gives it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel

from lectern.domain.assistant import ToolCall
from lectern.domain.books import JSONValue


@dataclass(frozen=True, slots=True)
class AgentTool:
    """A tool the agent may call: the model sees name, description and the input's schema.

    `run` takes the checked input and returns JSON data; a `ToolError` it raises goes back
    to the model as an error it can correct.
    """

    name: str
    description: str
    input_model: type[BaseModel]
    run: Callable[[BaseModel], JSONValue]


@dataclass(frozen=True, slots=True)
class AgentStep:
    """One model call of an agent run."""

    latency_ms: float
    tool_calls: tuple[ToolCall, ...] = ()
    text: str = ""
    input_tokens: int | None = None
    output_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class AgentRun:
    """What an agent run did: its final message and each model call."""

    answer: str
    steps: tuple[AgentStep, ...]
    model_id: str
    stopped_at_limit: bool = False
    """True when the agent asked for more tool calls than it may make."""


class SearchFallbackAgent(Protocol):
    """A ReAct agent: the model calls tools (at most `max_tool_calls`), then answers.

    Adapter: `ReactSearchFallback` (LangChain's `create_agent`, the successor of LangGraph's
    prebuilt ReAct agent) over the offline `FallbackRulePolicy` or a provider's model.
    """

    model_id: str

    def run(
        self, *, system: str, request: str, tools: Sequence[AgentTool], max_tool_calls: int
    ) -> AgentRun:
        """Run the agent on one request; a provider failure raises LLMError."""
        ...
