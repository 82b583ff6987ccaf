"""`ReactSearchFallback`: the search fallback as LangChain's prebuilt ReAct agent.

LangGraph 1.x moved its prebuilt `create_react_agent` to `langchain.agents.create_agent`
(the old name is deprecated and warns); this is that agent: a model node that may call
tools, a tool node, and the loop between them until the model answers. The bound on tool
calls is LangChain's own `ToolCallLimitMiddleware` (`run_limit`, exit "end": a call over
the limit is not run and the run stops). The model is any LangChain chat model with
`bind_tools`: the offline `FallbackRulePolicy`, or a provider's model from `providers.py`.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import ToolCallLimitMiddleware
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import StructuredTool
from pydantic import BaseModel

from lectern.adapters.llm.tool_calling import from_langchain
from lectern.application.fallback.ports import AgentRun, AgentStep, AgentTool
from lectern.errors import LLMError, ToolError


class _StepTimer(BaseCallbackHandler):
    """Times each model call of one run (LangChain calls these hooks around it)."""

    def __init__(self) -> None:
        self.started: dict[uuid.UUID, float] = {}
        self.latencies: list[float] = []

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: Any, *, run_id: uuid.UUID, **kwargs: Any
    ) -> None:
        del serialized, messages, kwargs
        self.started[run_id] = time.perf_counter()

    def on_llm_end(self, response: Any, *, run_id: uuid.UUID, **kwargs: Any) -> None:
        del response, kwargs
        start = self.started.pop(run_id, None)
        if start is not None:
            self.latencies.append(round((time.perf_counter() - start) * 1000, 3))


def _structured(tool: AgentTool) -> StructuredTool:
    """An AgentTool as a LangChain tool: its errors go back to the model as data."""
    model: type[BaseModel] = tool.input_model

    def call(**arguments: Any) -> str:
        try:
            data = tool.run(model.model_validate(arguments))
        except ToolError as error:
            return json.dumps({"error": str(error)})
        return json.dumps(data, ensure_ascii=False)

    return StructuredTool.from_function(
        func=call, name=tool.name, description=tool.description, args_schema=model
    )


class ReactSearchFallback:
    """`SearchFallbackAgent` on `create_agent` (the prebuilt ReAct agent) over a chat model."""

    def __init__(self, model: Any, model_id: str) -> None:
        """`model`: a LangChain `BaseChatModel` that supports `bind_tools`."""
        self.model = model
        self.model_id = model_id

    def run(
        self, *, system: str, request: str, tools: Sequence[AgentTool], max_tool_calls: int
    ) -> AgentRun:
        """Build the agent over this run's tools, run it, and report each model call.

        The graph is built per run (about a millisecond) because the tools record this
        run's calls; it has no checkpointer, so nothing outlives the call.
        """
        agent = create_agent(
            self.model,
            [_structured(t) for t in tools],
            system_prompt=system,
            middleware=[ToolCallLimitMiddleware(run_limit=max_tool_calls, exit_behavior="end")],
        )
        timer = _StepTimer()
        try:
            state = agent.invoke(
                {"messages": [HumanMessage(content=request)]},
                config={"callbacks": [timer], "recursion_limit": 4 * max_tool_calls + 8},
            )
        except Exception as error:  # noqa: BLE001 - any provider or graph failure is one error
            raise LLMError(f"{self.model_id} failed: {type(error).__name__}: {error}") from error
        # The model's messages come first; with the limit hit, the middleware appends one
        # message of its own (not a model call), so only as many as were timed count.
        replies = [m for m in state["messages"] if isinstance(m, AIMessage)]
        steps: list[AgentStep] = []
        for message, latency in zip(replies, timer.latencies, strict=False):
            response = from_langchain(message, self.model_id)
            steps.append(
                AgentStep(
                    latency,
                    response.tool_calls,
                    response.text,
                    response.usage.input_tokens,
                    response.usage.output_tokens,
                )
            )
        asked = sum(len(step.tool_calls) for step in steps)
        stopped = asked > max_tool_calls
        answer = "" if stopped or not steps else steps[-1].text
        return AgentRun(answer, tuple(steps), self.model_id, stopped_at_limit=stopped)
