"""The guideline chat agent over HTTP, as its specification defines it.

`POST /chat` answers with one JSON object (`answer`, `citations`, `grounding_flags`);
`POST /chat/stream` runs the same turn unstreamed (the tool loop, then the guardrails on
the whole answer), then streams the checked answer as unnamed Server-Sent Events
`data: {"token": "..."}` and ends with `data: {"done": true, "citations": [...],
"grounding_flags": [...]}`. A comment line every LECTERN_SSE_HEARTBEAT_SECONDS keeps idle
streams open; a client that leaves stops the turn at its next step. Questions count
against LECTERN_RATE_LIMIT_CHAT_GUIDE per client address (the Guard middleware).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import Any

import anyio.to_thread
from fastapi import APIRouter, Request, Response
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from lectern.application.assistant.guideline import GuideAnswer, GuidelineAgent
from lectern.application.assistant.ports import TurnListener
from lectern.bootstrap import Services
from lectern.domain.assistant import PendingAction, ToolCall
from lectern.domain.books import JSONValue
from lectern.entrypoints.http.chat_schemas import (
    GuideChatRequest,
    GuideChatResponse,
    GuideProfileOut,
    done_event,
)
from lectern.entrypoints.http.deps import AppServices, CurrentUser
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.schemas import json_response
from lectern.entrypoints.http.streams import error_message, sse_event_schema
from lectern.errors import ChatCancelledError, CollectionNotFoundError

router = APIRouter(tags=["guideline chat"], responses=documented(400, 401, 404, 413, 422, 429, 503))
STREAM_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": 'Unnamed events: `{"token": "..."}` pieces of the checked answer, then '
        '`{"done": true, "citations": [...], "grounding_flags": [...], "session_id": "..."}`.',
        "content": {"text/event-stream": {"schema": sse_event_schema(())}},
    }
}
_TOKEN = re.compile(r"\S+\s*|\s+")


def answer_tokens(text: str) -> list[str]:
    """The answer in tokens as the stream sends them: each word with the space after it."""
    return _TOKEN.findall(text)


async def _agent(services: Services, profile: str | None) -> GuidelineAgent:
    """The agent, once the profile and its collection exist (problems before any stream)."""
    agent = await run_in_threadpool(services.guide)
    await run_in_threadpool(agent.ready, profile)
    return agent


@router.get("/chat/profiles")
async def profiles(services: AppServices) -> list[GuideProfileOut]:
    """The guideline agents: one per guidance collection, and whether it is added yet."""
    agent = await run_in_threadpool(services.guide)

    def available(collection: str) -> bool:
        try:
            agent.search.filters(collection)
        except CollectionNotFoundError:
            return False
        return True

    default = services.settings.guide_default_profile
    return [
        GuideProfileOut.of(p, available=available(p.collection), default=p.name == default)
        for p in agent.profiles.values()
    ]


@router.post("/chat", response_model=GuideChatResponse)
async def chat(body: GuideChatRequest, services: AppServices, user: CurrentUser) -> Response:
    """One question: the agent searches the guidance collection and answers, checked in code."""
    agent = await _agent(services, body.profile)
    answer = await run_in_threadpool(
        partial(
            agent.ask,
            user,
            body.message,
            profile=body.profile,
            session_id=body.session_id,
            top_k=body.top_k,
        )
    )
    return json_response(GuideChatResponse.of(answer))


@router.post("/chat/stream", response_class=EventSourceResponse, responses=STREAM_RESPONSES)
async def chat_stream(
    body: GuideChatRequest, request: Request, services: AppServices, user: CurrentUser
) -> EventSourceResponse:
    """The same question, the checked answer streamed as tokens, then `done`."""
    agent = await _agent(services, body.profile)

    def run(listener: TurnListener) -> GuideAnswer:
        return agent.ask(
            user,
            body.message,
            profile=body.profile,
            session_id=body.session_id,
            top_k=body.top_k,
            listener=listener,
        )

    request_id = getattr(request.state, "request_id", None)
    return EventSourceResponse(
        token_events(run, request_id), ping=services.settings.sse_heartbeat_seconds
    )


class _Stop:
    """A turn listener that only says when nobody waits for the answer any more."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def tool_call(self, call: ToolCall) -> None:
        """Tool calls are not part of this stream."""

    def tool_result(self, call: ToolCall, content: JSONValue, outcome: str) -> None:
        """Tool results are not part of this stream."""

    def decided(self, action: PendingAction, result: JSONValue) -> None:
        """The guideline agent has no actions."""

    def cancelled(self) -> bool:
        """True once the client went away."""
        return self.event.is_set()


def _data(payload: dict[str, Any]) -> ServerSentEvent:
    return ServerSentEvent(data=json.dumps(payload, ensure_ascii=False, separators=(",", ":")))


async def token_events(
    run: Callable[[TurnListener], GuideAnswer], request_id: str | None
) -> AsyncIterator[ServerSentEvent]:
    """The turn on a worker thread, then its checked answer token by token, then `done`."""
    stop = _Stop()
    try:
        try:
            answer = await anyio.to_thread.run_sync(run, stop, abandon_on_cancel=True)
        except ChatCancelledError:
            return
        except Exception as error:  # noqa: BLE001 - reported in the stream, which has begun
            yield _data(
                {
                    "error": error_message(error, request_id),
                    "done": True,
                    "citations": [],
                    "grounding_flags": ["model_error"],
                }
            )
            return
        for token in answer_tokens(answer.answer):
            yield _data({"token": token})
            await asyncio.sleep(0)  # each token its own write
        yield _data(done_event(answer))
    finally:
        stop.event.set()
