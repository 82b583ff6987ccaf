"""One assistant turn on a worker thread, heard from the event loop as it happens.

The assistant is synchronous (tools search, the model may call a provider); the HTTP layer
runs its turn on anyio's worker threads and receives what it reports through a queue:
tool calls and results as they happen, a decision, then the finished (guarded) reply or
the error that ended it. Stopping the runner (the client went away) makes the turn end
with ChatCancelledError at its next step.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import anyio.to_thread

from lectern.application.assistant.ports import TurnListener
from lectern.application.assistant.service import ChatReply
from lectern.domain.assistant import PendingAction, ToolCall
from lectern.domain.books import JSONValue


@dataclass(frozen=True, slots=True)
class ToolCalled:
    """The model asked for a tool; it runs next."""

    call: ToolCall


@dataclass(frozen=True, slots=True)
class ToolReturned:
    """A tool's result (`outcome`: ok, error, preview)."""

    call: ToolCall
    content: JSONValue
    outcome: str


@dataclass(frozen=True, slots=True)
class Decided:
    """An approval or rejection took effect; the model continues next."""

    action: PendingAction
    result: JSONValue


@dataclass(frozen=True, slots=True)
class Finished:
    """The turn's reply, after the guardrails: nothing of it was sent before this."""

    reply: ChatReply


@dataclass(frozen=True, slots=True)
class Failed:
    """The turn ended with an error."""

    error: BaseException


TurnEvent = ToolCalled | ToolReturned | Decided | Finished | Failed
Work = Callable[[TurnListener | None], ChatReply]
"""A turn: given a listener when it is heard as it happens, None when only its end counts."""


class TurnRunner:
    """Runs `work(listener)` on a worker thread; `next()` hands over what it reports."""

    def __init__(self) -> None:
        """Bind to the running event loop (create it inside a request)."""
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[TurnEvent] = asyncio.Queue()
        self._stop = threading.Event()
        self._task: asyncio.Task[None] | None = None

    # --- TurnListener (called on the worker thread) -----------------------------------------

    def tool_call(self, call: ToolCall) -> None:
        """Report a tool call."""
        self._put(ToolCalled(call))

    def tool_result(self, call: ToolCall, content: JSONValue, outcome: str) -> None:
        """Report a tool result."""
        self._put(ToolReturned(call, content, outcome))

    def decided(self, action: PendingAction, result: JSONValue) -> None:
        """Report a decision."""
        self._put(Decided(action, result))

    def cancelled(self) -> bool:
        """True once the runner was stopped."""
        return self._stop.is_set()

    # --- the event loop side ----------------------------------------------------------------

    def start(self, work: Work) -> None:
        """Start the turn; its events queue up until read."""

        def run() -> None:
            try:
                reply = work(self)
            except BaseException as error:  # noqa: BLE001 - handed to the loop, re-raised there
                self._put(Failed(error))
            else:
                self._put(Finished(reply))

        async def on_worker() -> None:
            await anyio.to_thread.run_sync(run)

        self._task = self._loop.create_task(on_worker())

    async def next(self) -> TurnEvent:
        """The next event (waits for it)."""
        return await self._queue.get()

    def stop(self) -> None:
        """Nobody listens any more: the turn stops at its next step."""
        self._stop.set()

    async def events(self, first: TurnEvent | None = None) -> AsyncIterator[TurnEvent]:
        """Every event up to and including the last (Finished or Failed); stops on exit.

        `first`: an event already taken with `next()`, handed out first.
        """
        try:
            event = first if first is not None else await self.next()
            while True:
                yield event
                if isinstance(event, Finished | Failed):
                    return
                event = await self.next()
        finally:
            self.stop()

    def _put(self, event: TurnEvent) -> None:
        self._loop.call_soon_threadsafe(self._queue.put_nowait, event)


def text_chunks(text: str, size: int = 48) -> list[str]:
    """The checked text in pieces of about `size` characters, cut after whitespace."""
    chunks: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = text.rfind(" ", start + 1, end + 1)
            if cut > start:
                end = cut + 1
        chunks.append(text[start:end])
        start = end
    return chunks
