"""The assistant over HTTP: streamed chat, the caller's actions and conversations.

`POST /assistant/chat` answers with Server-Sent Events when asked for `text/event-stream`,
with the AI SDK's UI message stream when asked with `?protocol=ui-message-stream` or the
request header `x-vercel-ai-ui-message-stream: v1`, and with one JSON object otherwise.
Approving or rejecting an action continues its conversation the same way. Errors that
happen before a stream starts (expired, already decided, changed since the preview, not
yours) are problem responses; after it starts, an `error` event.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response
from sse_starlette import EventSourceResponse
from starlette.concurrency import run_in_threadpool

from lectern.application.assistant.ports import TurnListener
from lectern.application.assistant.service import ChatReply, Verdict
from lectern.bootstrap import Services
from lectern.domain.assistant import PageContext
from lectern.entrypoints.http.assistant_schemas import (
    ActionOut,
    ChatReplyOut,
    ChatRequest,
    ConversationOut,
    DecisionRequest,
)
from lectern.entrypoints.http.deps import (
    AppServices,
    CurrentUser,
    enabled_assistant,
    require_assistant,
)
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.schemas import json_response
from lectern.entrypoints.http.streams import (
    EVENT_NAMES,
    UI_MESSAGE_STREAM_HEADER,
    UI_MESSAGE_STREAM_VERSION,
    lectern_events,
    sse_event_schema,
    ui_message_events,
)
from lectern.entrypoints.http.turns import Failed, TurnEvent, TurnRunner, Work
from lectern.errors import NotFoundError

router = APIRouter(
    prefix="/assistant",
    tags=["assistant"],
    responses=documented(400, 401, 404, 413, 422, 429, 503),
)

StreamFormat = Literal["json", "events", "ui"]
ProtocolQuery = Annotated[
    Literal["ui-message-stream"] | None,
    Query(description="`ui-message-stream`: answer as a Vercel AI SDK UI message stream."),
]
TURN_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The turn: JSON, or a stream of events (`Accept: text/event-stream`: "
        "tool_call, tool_result, action_preview, text, error, done; "
        "`?protocol=ui-message-stream`: the AI SDK's UI message stream).",
        "content": {"text/event-stream": {"schema": sse_event_schema(EVENT_NAMES)}},
    },
    **documented(409),
}


def stream_format(request: Request, protocol: str | None) -> StreamFormat:
    """How the caller asked to be answered."""
    if (
        protocol == "ui-message-stream"
        or request.headers.get(UI_MESSAGE_STREAM_HEADER) == UI_MESSAGE_STREAM_VERSION
    ):
        return "ui"
    if "text/event-stream" in request.headers.get("accept", "").lower():
        return "events"
    return "json"


def _page(body: ChatRequest | DecisionRequest | None) -> PageContext | None:
    return body.page_context.to_domain() if body and body.page_context else None


def event_stream(
    request: Request, runner: TurnRunner, fmt: StreamFormat, first: TurnEvent | None = None
) -> EventSourceResponse:
    """The running turn as Lectern's event stream or the AI SDK's, with heartbeats.

    `first`: the decision already taken from the runner; the stream continues a turn.
    """
    request_id = getattr(request.state, "request_id", None)
    services: Services = request.app.state.services
    events = runner.events(first)
    if fmt == "ui":
        return EventSourceResponse(
            ui_message_events(events, request_id, continuing=first is not None),
            ping=services.settings.sse_heartbeat_seconds,
            headers={UI_MESSAGE_STREAM_HEADER: UI_MESSAGE_STREAM_VERSION},
        )
    return EventSourceResponse(
        lectern_events(events, request_id), ping=services.settings.sse_heartbeat_seconds
    )


async def answer(
    request: Request, fmt: StreamFormat, work: Work, *, decided_first: bool
) -> Response:
    """Run the turn: whole as JSON, or streamed as it happens.

    With `decided_first`, the stream starts only once the decision took effect, so that a
    refused decision (expired, already decided, ...) is a problem response, not an event.
    """
    if fmt == "json":
        reply: ChatReply = await run_in_threadpool(work, None)
        return json_response(ChatReplyOut.of(reply))
    runner = TurnRunner()
    runner.start(work)
    first = None
    if decided_first:
        first = await runner.next()
        if isinstance(first, Failed):
            runner.stop()
            raise first.error
    return event_stream(request, runner, fmt, first)


@router.post("/chat", response_model=ChatReplyOut, responses=TURN_RESPONSES)
async def chat(
    body: ChatRequest,
    request: Request,
    services: AppServices,
    user: CurrentUser,
    protocol: ProtocolQuery = None,
) -> Response:
    """One chat turn: the assistant searches, answers with checked quotes, proposes changes.

    The reply's text is checked whole (citations validated, guardrails applied) before its
    first piece is sent.
    """
    assistant = await enabled_assistant(services)
    page = _page(body)

    def work(listener: TurnListener | None) -> ChatReply:
        return assistant.chat(
            user, body.message, conversation=body.conversation_id, page=page, listener=listener
        )

    return await answer(request, stream_format(request, protocol), work, decided_first=False)


@router.get("/actions")
def actions(
    services: AppServices,
    user: CurrentUser,
    include_decided: Annotated[
        bool, Query(description="Also list approved, rejected, expired and failed actions.")
    ] = False,
) -> list[ActionOut]:
    """The caller's pending actions (overdue ones are marked expired and left out)."""
    assistant = require_assistant(services)
    found = assistant.actions(user) if include_decided else assistant.pending(user)
    return [ActionOut.of(a) for a in found]


@router.get("/actions/{action_id}")
def action(action_id: str, services: AppServices, user: CurrentUser) -> ActionOut:
    """One of the caller's actions (404 for an unknown id or another user's)."""
    return ActionOut.of(require_assistant(services).get_action(user, action_id))


async def _decide(
    verdict: Verdict,
    action_id: str,
    request: Request,
    services: Services,
    user: str,
    body: DecisionRequest | None,
    protocol: str | None,
) -> Response:
    assistant = await enabled_assistant(services)
    page = _page(body)

    def work(listener: TurnListener | None) -> ChatReply:
        return assistant.decide(user, action_id, verdict, page=page, listener=listener)

    return await answer(request, stream_format(request, protocol), work, decided_first=True)


@router.post("/actions/{action_id}/approve", response_model=ChatReplyOut, responses=TURN_RESPONSES)
async def approve(
    action_id: str,
    request: Request,
    services: AppServices,
    user: CurrentUser,
    body: DecisionRequest | None = None,
    protocol: ProtocolQuery = None,
) -> Response:
    """Run the action (once, as previewed, before it expires), then continue the turn."""
    return await _decide("approved", action_id, request, services, user, body, protocol)


@router.post("/actions/{action_id}/reject", response_model=ChatReplyOut, responses=TURN_RESPONSES)
async def reject(
    action_id: str,
    request: Request,
    services: AppServices,
    user: CurrentUser,
    body: DecisionRequest | None = None,
    protocol: ProtocolQuery = None,
) -> Response:
    """Do not run the action; the assistant is told and continues the turn."""
    return await _decide("rejected", action_id, request, services, user, body, protocol)


@router.get("/conversations/{conversation_id}")
def conversation(conversation_id: str, services: AppServices, user: CurrentUser) -> ConversationOut:
    """The caller's conversation: its text turns and the changes proposed in it."""
    assistant = require_assistant(services)
    messages = assistant.sessions.history(user, conversation_id)
    proposed = [a for a in assistant.actions(user) if a.conversation == conversation_id]
    if not messages and not proposed:
        raise NotFoundError(f"no conversation {conversation_id!r}")
    return ConversationOut.of(conversation_id, messages, proposed)
