"""A turn's events as Server-Sent Events: Lectern's own stream and the AI SDK's.

Lectern's events (DESIGN.md section 5): `tool_call`, `tool_result`, `action_preview`,
`text`, `error`, `done`. Buffer, check, then stream: tool events go out as they happen,
but the reply's text is only known once the guardrails and citation validation have run
on the whole of it; then it streams in chunks, and `done` closes the turn with its
citations and grounding flags.

The same turn as a Vercel AI SDK UI message stream (`x-vercel-ai-ui-message-stream: v1`):
`start`, `tool-input-available` / `tool-output-available` (or `tool-output-error`), for each
proposed change a `data-action-preview` part (the diff) and a `tool-approval-request`
(approval id = action id), `text-start` / `text-delta` / `text-end`, a `source-url` per
citation, `finish` (message metadata: conversation id and grounding flags), `[DONE]`.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import structlog
from sse_starlette import ServerSentEvent

from lectern.application.assistant.service import ChatReply
from lectern.domain.assistant import PendingAction
from lectern.domain.books import JSONValue
from lectern.entrypoints.http.assistant_schemas import ActionOut, CitationOut
from lectern.entrypoints.http.turns import (
    Decided,
    Failed,
    Finished,
    ToolCalled,
    ToolReturned,
    TurnEvent,
    text_chunks,
)
from lectern.errors import ChatCancelledError, LecternError

log = structlog.get_logger("lectern.http")
EVENT_NAMES = ("tool_call", "tool_result", "action_preview", "text", "error", "done")
"""Lectern's own events; the AI SDK's and OpenAI's streams send unnamed (`message`) ones."""


def sse_event_schema(names: tuple[str, ...]) -> dict[str, Any]:
    """OpenAPI schema of one Server-Sent Event as clients parse it (data is JSON text)."""
    return {
        "type": "object",
        "required": ["data"],
        "properties": {
            "event": {"type": "string", "enum": [*names, "message"]},
            "data": {"type": "string", "contentMediaType": "application/json"},
            "id": {"type": "string"},
            "retry": {"type": "integer", "minimum": 0},
        },
    }


UI_MESSAGE_STREAM_HEADER = "x-vercel-ai-ui-message-stream"
UI_MESSAGE_STREAM_VERSION = "v1"


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def error_message(error: BaseException, request_id: str | None) -> str:
    """What a stream says about an error: ours in words, anything else by request id."""
    if isinstance(error, LecternError):
        return str(error)
    log.error("http.stream_failed", error=type(error).__name__, request_id=request_id)
    return f"the assistant failed; the error was logged with request id {request_id}"


def _event(name: str, data: Any) -> ServerSentEvent:
    return ServerSentEvent(data=_json(data), event=name)


def _action_preview(action: PendingAction) -> dict[str, Any]:
    return {"action_id": action.id, **ActionOut.of(action).model_dump(mode="json")}


def done_payload(reply: ChatReply) -> dict[str, Any]:
    """The `done` event: conversation, checked citations, grounding flags, suggestions.

    `suggestions` are the readings a clarifying question offers, as replies to send back.
    """
    payload: dict[str, Any] = {
        "conversation_id": reply.conversation,
        "citations": [CitationOut.of(c).model_dump(mode="json") for c in reply.citations],
        "grounding_flags": list(reply.grounding_flags),
        "suggestions": list(reply.suggestions),
    }
    if reply.decision is not None:
        payload["decision"] = ActionOut.of(reply.decision.action).model_dump(mode="json")
    return payload


async def lectern_events(
    events: AsyncIterator[TurnEvent], request_id: str | None = None
) -> AsyncIterator[ServerSentEvent]:
    """Lectern's own event stream of one turn."""
    async for event in events:
        if isinstance(event, ToolCalled):
            yield _event(
                "tool_call",
                {"id": event.call.id, "tool": event.call.name, "input": dict(event.call.arguments)},
            )
        elif isinstance(event, ToolReturned):
            yield _event(
                "tool_result",
                {
                    "id": event.call.id,
                    "tool": event.call.name,
                    "outcome": event.outcome,
                    "output": event.content,
                },
            )
        elif isinstance(event, Decided):
            yield _event(
                "tool_result",
                {
                    "id": event.action.id,
                    "tool": event.action.preview.tool_name,
                    "outcome": event.action.status,
                    "output": event.result,
                },
            )
        elif isinstance(event, Finished):
            reply = event.reply
            for action in reply.actions:
                yield _event("action_preview", _action_preview(action))
            for chunk in text_chunks(reply.text):
                yield _event("text", {"content": chunk})
                await asyncio.sleep(0)  # each chunk its own write
            yield _event("done", done_payload(reply))
        elif isinstance(event, Failed):
            if isinstance(event.error, ChatCancelledError):
                return
            yield _event("error", {"message": error_message(event.error, request_id)})


def _message_id() -> str:
    return f"msg-{uuid.uuid4().hex}"


def _ui(chunk: dict[str, Any]) -> ServerSentEvent:
    return ServerSentEvent(data=_json(chunk))


async def ui_message_events(
    events: AsyncIterator[TurnEvent], request_id: str | None = None, *, continuing: bool = False
) -> AsyncIterator[ServerSentEvent]:
    """The turn as an AI SDK UI message stream, ending with `[DONE]`.

    `continuing` (after a decision): the stream adds to the client's last assistant message,
    so `start` names no new message id (a new id would make the client start over).
    """
    yield _ui({"type": "start"} if continuing else {"type": "start", "messageId": _message_id()})
    async for event in events:
        if isinstance(event, ToolCalled):
            continue  # sent with its result: an action's call is known by the action's id
        if isinstance(event, ToolReturned):
            for chunk in _ui_tool(event):
                yield _ui(chunk)
        elif isinstance(event, Decided):
            action = event.action
            if action.status == "rejected":
                yield _ui({"type": "tool-output-denied", "toolCallId": action.id})
            else:
                yield _ui(
                    {
                        "type": "tool-output-available",
                        "toolCallId": action.id,
                        "output": {"status": action.status, "result": event.result},
                    }
                )
        elif isinstance(event, Finished):
            for chunk in _ui_reply(event.reply):
                yield _ui(chunk)
                await asyncio.sleep(0)
        elif isinstance(event, Failed):
            if isinstance(event.error, ChatCancelledError):
                return
            yield _ui({"type": "error", "errorText": error_message(event.error, request_id)})
    yield ServerSentEvent(data="[DONE]")


def _ui_tool(event: ToolReturned) -> list[dict[str, Any]]:
    call = event.call
    call_id = call.id
    content: JSONValue = event.content
    if event.outcome == "preview" and isinstance(content, dict):
        action_id = content.get("action_id")
        if isinstance(action_id, str):
            call_id = action_id  # the approval and its outcome refer to the action's id
    chunks: list[dict[str, Any]] = [
        {
            "type": "tool-input-available",
            "toolCallId": call_id,
            "toolName": call.name,
            "input": dict(call.arguments),
            "dynamic": True,
        }
    ]
    if event.outcome == "error":
        message = content.get("error") if isinstance(content, dict) else None
        chunks.append(
            {"type": "tool-output-error", "toolCallId": call_id, "errorText": str(message)}
        )
    elif event.outcome != "preview":
        chunks.append({"type": "tool-output-available", "toolCallId": call_id, "output": content})
    return chunks


def _ui_reply(reply: ChatReply) -> list[dict[str, Any]]:
    chunks: list[dict[str, Any]] = []
    for action in reply.actions:
        chunks.append(
            {"type": "data-action-preview", "id": action.id, "data": _action_preview(action)}
        )
        chunks.append(
            {"type": "tool-approval-request", "approvalId": action.id, "toolCallId": action.id}
        )
    text_id = f"text-{uuid.uuid4().hex[:12]}"
    chunks.append({"type": "text-start", "id": text_id})
    chunks.extend(
        {"type": "text-delta", "id": text_id, "delta": chunk} for chunk in text_chunks(reply.text)
    )
    chunks.append({"type": "text-end", "id": text_id})
    for number, citation in enumerate(reply.citations, start=1):
        out = CitationOut.of(citation)
        if out.url is not None:
            chunks.append(
                {
                    "type": "source-url",
                    "sourceId": f"{citation.source}~{number}",
                    "url": out.url,
                    "title": citation.snippet,
                }
            )
    chunks.append(
        {
            "type": "finish",
            "finishReason": "stop",
            "messageMetadata": {
                "conversation_id": reply.conversation,
                "grounding_flags": list(reply.grounding_flags),
                "citations": [CitationOut.of(c).model_dump(mode="json") for c in reply.citations],
            },
        }
    )
    return chunks
