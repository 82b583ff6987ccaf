"""OpenAI-compatible chat: `POST /v1/chat/completions` (whole or streamed), `GET /v1/models`.

The assistant answers with its query tools only (no action is offered here). The client
holds the conversation: earlier user and assistant messages are the history, the last user
message is the turn, nothing is stored; the client's system messages are not used (the
assistant keeps its own rules). Authentication is the API key as `Authorization: Bearer`.
Citations are `url_citation` annotations whose indexes span the quoted snippet in the
content; grounding flags are in the extra field `lectern`.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from typing import Any

from fastapi import APIRouter, Request, Response
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from lectern.application.assistant.ports import TurnListener
from lectern.application.assistant.service import AssistantService, ChatReply
from lectern.application.assistant.tools import QueryTool
from lectern.application.catalog_queries import books_by_id
from lectern.domain.assistant import ChatCitation, Message
from lectern.entrypoints.http.assistant_schemas import CitationOut, ToolCallOut
from lectern.entrypoints.http.deps import AppServices, CurrentUser, enabled_assistant
from lectern.entrypoints.http.openai_schemas import (
    ASSISTANT_MODEL,
    AnnotationOut,
    AssistantMessageOut,
    ChatCompletionOut,
    ChatCompletionRequest,
    ChoiceOut,
    LecternExtraOut,
    MessageIn,
    ModelListOut,
    ModelOut,
    UrlCitationOut,
)
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.schemas import json_response
from lectern.entrypoints.http.streams import error_message, sse_event_schema
from lectern.entrypoints.http.turns import Failed, Finished, TurnRunner, text_chunks
from lectern.errors import ChatCancelledError, InvalidQueryError, ModelNotFoundError

router = APIRouter(prefix="/v1", tags=["openai-compatible"])


def _text(message: MessageIn) -> str:
    if message.content is None:
        return ""
    if isinstance(message.content, str):
        return message.content
    kinds = {part.type for part in message.content} - {"text"}
    if kinds:
        raise InvalidQueryError(f"only text content is read; this message has {sorted(kinds)}")
    return "\n".join(part.text or "" for part in message.content)


def turn_of(messages: Sequence[MessageIn]) -> tuple[str, list[Message]]:
    """The last user message, and the user and assistant turns before it."""
    last = messages[-1]
    if last.role != "user":
        raise InvalidQueryError("the last message must be the user's")
    text = _text(last).strip()
    if not text:
        raise InvalidQueryError("the last user message is empty")
    history = [Message(m.role, _text(m)) for m in messages[:-1] if m.role in ("user", "assistant")]
    return text, history


def query_tools(assistant: AssistantService) -> list[str]:
    """The tools offered here: the read-only ones."""
    registry = assistant.registry
    return [name for name in registry.names if isinstance(registry.get(name), QueryTool)]


def url_citations(reply: ChatReply, base: str, titles: dict[str, str]) -> list[AnnotationOut]:
    """A `url_citation` per citation, spanning its snippet in the reply's text."""
    found: list[AnnotationOut] = []
    cursor = 0
    for citation in reply.citations:
        marker = f'"{citation.snippet}" [{citation.source}]'
        at = reply.text.find(marker, cursor)
        if at < 0:
            at = reply.text.find(marker)
        if at < 0:
            continue
        start = at + 1
        cursor = at + len(marker)
        url = CitationOut.of(citation, base).url
        if url is None:
            continue
        found.append(
            AnnotationOut(
                url_citation=UrlCitationOut(
                    url=url,
                    title=_title(citation, titles),
                    start_index=start,
                    end_index=start + len(citation.snippet),
                )
            )
        )
    return found


def _title(citation: ChatCitation, titles: dict[str, str]) -> str:
    book_id, _, field = citation.source.removeprefix("book:").partition("#")
    return f"{titles.get(book_id, citation.source)} ({field.replace('_', ' ')})"


def _extra(reply: ChatReply, base: str) -> LecternExtraOut:
    return LecternExtraOut(
        grounding_flags=list(reply.grounding_flags),
        citations=[CitationOut.of(c, base) for c in reply.citations],
        tool_calls=[ToolCallOut.of(c) for c in reply.tool_calls],
    )


@router.get("/models")
def models() -> ModelListOut:
    """The model this server answers as."""
    return ModelListOut(data=[ModelOut(id=ASSISTANT_MODEL)])


@router.post(
    "/chat/completions",
    response_model=ChatCompletionOut,
    responses={
        200: {
            "description": "The completion; with `stream: true`, chat.completion.chunk events.",
            "content": {"text/event-stream": {"schema": sse_event_schema(())}},
        },
        **documented(400, 401, 404, 413, 422, 429, 503),
    },
)
async def chat_completions(
    body: ChatCompletionRequest, request: Request, services: AppServices, user: CurrentUser
) -> Response:
    """The assistant as an OpenAI chat model (query tools only; nothing is stored)."""
    if body.model != ASSISTANT_MODEL:
        raise ModelNotFoundError(f"no model {body.model!r}: this server serves {ASSISTANT_MODEL}")
    assistant = await enabled_assistant(services)
    text, history = turn_of(body.messages)
    allowed = query_tools(assistant)
    base = str(request.base_url).rstrip("/")
    completion_id = f"chatcmpl-{uuid.uuid4().hex}"
    created = int(time.time())

    def work(listener: TurnListener | None) -> ChatReply:
        return assistant.chat(user, text, history=history, only_tools=allowed, listener=listener)

    def cited_titles(reply: ChatReply) -> dict[str, str]:
        ids = [c.source.removeprefix("book:").split("#")[0] for c in reply.citations]
        return {i: b.field_text("title") for i, b in books_by_id(services.catalog, ids).items()}

    if not body.stream:
        reply = await run_in_threadpool(work, None)
        titles = await run_in_threadpool(cited_titles, reply)
        completion = ChatCompletionOut(
            id=completion_id,
            created=created,
            model=ASSISTANT_MODEL,
            choices=[
                ChoiceOut(
                    message=AssistantMessageOut(
                        content=reply.text, annotations=url_citations(reply, base, titles)
                    )
                )
            ],
            lectern=_extra(reply, base),
        )
        return json_response(completion)

    runner = TurnRunner()
    runner.start(work)

    def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> ServerSentEvent:
        payload = {
            "id": completion_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": ASSISTANT_MODEL,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
            **extra,
        }
        return ServerSentEvent(data=json.dumps(payload, ensure_ascii=False))

    async def chunks() -> AsyncIterator[ServerSentEvent]:
        yield chunk({"role": "assistant", "content": ""})
        request_id = getattr(request.state, "request_id", None)
        async for event in runner.events():
            if isinstance(event, Finished):
                reply = event.reply
                for piece in text_chunks(reply.text):
                    yield chunk({"content": piece})
                titles = await run_in_threadpool(cited_titles, reply)
                notes = [a.model_dump() for a in url_citations(reply, base, titles)]
                yield chunk(
                    {"annotations": notes},
                    "stop",
                    lectern=_extra(reply, base).model_dump(mode="json"),
                )
            elif isinstance(event, Failed):
                if isinstance(event.error, ChatCancelledError):
                    return
                message = error_message(event.error, request_id)
                yield ServerSentEvent(
                    data=json.dumps({"error": {"message": message, "type": "server_error"}})
                )
        yield ServerSentEvent(data="[DONE]")

    return EventSourceResponse(chunks(), ping=services.settings.sse_heartbeat_seconds)
