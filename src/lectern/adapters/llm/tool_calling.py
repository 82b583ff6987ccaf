"""`LangChainToolModel`: the `ChatModel` port over any LangChain chat model's `bind_tools`.

Providers come from `providers.make_chat_model` (openai, azure-openai, openai-compatible,
anthropic, bedrock, gemini); the wire format of tool calls is each provider package's
business, this module only maps our messages to LangChain's and back.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from lectern.domain.assistant import AIResponse, Message, TokenUsage, ToolCall, ToolSpec
from lectern.errors import LLMError


def to_langchain(messages: Sequence[Message], system: str) -> list[BaseMessage]:
    """Our conversation as LangChain messages, the system prompt first."""
    converted: list[BaseMessage] = [SystemMessage(content=system)]
    for message in messages:
        if message.role == "user":
            converted.append(HumanMessage(content=message.content))
        elif message.role == "assistant":
            converted.append(
                AIMessage(
                    content=message.content,
                    tool_calls=[
                        {"id": c.id, "name": c.name, "args": dict(c.arguments), "type": "tool_call"}
                        for c in message.tool_calls
                    ],
                )
            )
        elif message.role == "tool":
            converted.append(
                ToolMessage(
                    content=message.content,
                    tool_call_id=message.tool_call_id or "",
                    name=message.name,
                )
            )
        else:
            converted.append(SystemMessage(content=message.content))
    return converted


def openai_tool(spec: ToolSpec) -> dict[str, Any]:
    """A tool in the OpenAI function format, which `bind_tools` of every provider reads."""
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": dict(spec.input_schema),
        },
    }


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content blocks (anthropic, gemini)
        return "".join(
            str(block.get("text", "")) if isinstance(block, dict) else str(block)
            for block in content
            if not isinstance(block, dict) or block.get("type") in (None, "text")
        )
    return str(content)


def from_langchain(message: Any, model_id: str) -> AIResponse:
    """A LangChain AI message as our response; arguments that are not JSON are refused."""
    calls = []
    for raw in getattr(message, "tool_calls", None) or []:
        arguments = raw.get("args") or {}
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                arguments = {}
        if not isinstance(arguments, dict):
            arguments = {}
        calls.append(
            ToolCall(str(raw.get("id") or f"call-{uuid.uuid4().hex[:12]}"), raw["name"], arguments)
        )
    usage = getattr(message, "usage_metadata", None) or {}
    return AIResponse(
        _text(message.content),
        tuple(calls),
        model_id,
        TokenUsage(usage.get("input_tokens"), usage.get("output_tokens")),
    )


class LangChainToolModel:
    """A LangChain chat model that calls tools (the provider's native tool calling)."""

    def __init__(self, model: Any, model_id: str) -> None:
        """Wrap a LangChain `BaseChatModel` (anything with `bind_tools` and `invoke`)."""
        self.model = model
        self.model_id = model_id

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        """One model call with the tools bound; the provider's errors become LLMError."""
        del temperature, max_tokens  # set on the provider's model by the factory
        runnable = self.model.bind_tools([openai_tool(t) for t in tools]) if tools else self.model
        try:
            message = runnable.invoke(to_langchain(messages, system))
        except Exception as error:  # noqa: BLE001 - any provider failure is one error to us
            raise LLMError(f"{self.model_id} failed: {type(error).__name__}: {error}") from error
        return from_langchain(message, self.model_id)
