"""OpenAI-compatible request and response bodies (`/v1/chat/completions`, `/v1/models`).

The shapes of OpenAI's Chat Completions API, so that unmodified clients work. Citations are
`url_citation` annotations on the message; what has no place in OpenAI's shapes (grounding
flags, the checked citations with their sources, the tools that ran) is in the extra
top-level field `lectern`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from lectern.entrypoints.http.assistant_schemas import CitationOut, ToolCallOut

ASSISTANT_MODEL = "lectern-assistant"
"""The one model `/v1/models` lists: the assistant with its query tools."""


class TextPartIn(BaseModel):
    """A content part; only text parts are read."""

    model_config = ConfigDict(extra="ignore")

    type: str = Field(max_length=40)
    text: str | None = Field(default=None, max_length=20_000)


class MessageIn(BaseModel):
    """One message of the conversation the client holds."""

    model_config = ConfigDict(extra="ignore")

    role: Literal["system", "developer", "user", "assistant", "tool"]
    content: str | list[TextPartIn] | None = Field(default=None)
    name: str | None = Field(default=None, max_length=200)


class StreamOptionsIn(BaseModel):
    """Streaming options (usage is not counted by the offline policy)."""

    model_config = ConfigDict(extra="ignore")

    include_usage: bool = False


class ChatCompletionRequest(BaseModel):
    """A Chat Completions request; other OpenAI parameters are accepted and ignored."""

    model_config = ConfigDict(extra="ignore")

    model: str = Field(max_length=200, examples=[ASSISTANT_MODEL])
    messages: list[MessageIn] = Field(min_length=1, max_length=200)
    stream: bool = False
    stream_options: StreamOptionsIn | None = None
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    n: int = Field(default=1, ge=1, le=1, description="Only one choice is made.")
    user: str | None = Field(default=None, max_length=200)
    tools: list[Any] | None = Field(
        default=None,
        max_length=0,
        description="Client tools are not supported: the assistant's own query tools run.",
    )


class UrlCitationOut(BaseModel):
    """Where a cited span of the reply comes from."""

    url: str
    title: str
    start_index: int = Field(description="First character of the quote in the content.")
    end_index: int = Field(description="One past its last character.")


class AnnotationOut(BaseModel):
    """An OpenAI message annotation."""

    type: Literal["url_citation"] = "url_citation"
    url_citation: UrlCitationOut


class LecternExtraOut(BaseModel):
    """What OpenAI's shapes have no place for."""

    grounding_flags: list[str] = Field(
        description="What the guardrails noticed about this reply (empty: nothing)."
    )
    citations: list[CitationOut]
    tool_calls: list[ToolCallOut]


class AssistantMessageOut(BaseModel):
    """The assistant's message."""

    role: Literal["assistant"] = "assistant"
    content: str
    refusal: str | None = None
    annotations: list[AnnotationOut]


class ChoiceOut(BaseModel):
    """The one choice."""

    index: int = 0
    message: AssistantMessageOut
    finish_reason: Literal["stop"] = "stop"
    logprobs: None = None


class ChatCompletionOut(BaseModel):
    """A Chat Completions response."""

    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[ChoiceOut]
    lectern: LecternExtraOut


class ModelOut(BaseModel):
    """A model the server answers as."""

    id: str
    object: Literal["model"] = "model"
    created: int = 0
    owned_by: str = "lectern"


class ModelListOut(BaseModel):
    """The models."""

    object: Literal["list"] = "list"
    data: list[ModelOut]
