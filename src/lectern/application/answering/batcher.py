"""A quiet-window batcher for chat platforms: a burst of messages becomes one turn.

People type a question over several messages ("hi", "quick question", "how do I ..."). Each
message from one user in one channel (re)starts a wait of `window_seconds`; when the wait
ends with no new message, the messages so far go to the handler as one batch. Debug logs
say when a wait is scheduled, when it is reset, and when a batch starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import structlog

from lectern.domain.answering import ConversationMessage

log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class Batch:
    """The messages one user sent in one channel within the quiet window."""

    channel: str
    author: str
    messages: tuple[ConversationMessage, ...]

    def as_message(self) -> ConversationMessage:
        """The batch as one message: texts joined by new lines, the last one's time."""
        return ConversationMessage(
            self.author,
            "\n".join(m.text for m in self.messages if m.text.strip()),
            self.messages[-1].time if self.messages else None,
        )


class QuietWindowBatcher:
    """Groups each (channel, user)'s messages until `window_seconds` pass without one."""

    def __init__(self, window_seconds: float, handler: Callable[[Batch], Awaitable[None]]) -> None:
        """`handler` receives each batch once its window is quiet."""
        if window_seconds < 0:
            raise ValueError("the quiet window cannot be negative")
        self.window_seconds = window_seconds
        self.handler = handler
        self._pending: dict[tuple[str, str], list[ConversationMessage]] = {}
        self._waits: dict[tuple[str, str], asyncio.Task[None]] = {}

    async def add(self, channel: str, message: ConversationMessage) -> None:
        """Hold the message and (re)start its user's wait in this channel."""
        key = (channel, message.author)
        self._pending.setdefault(key, []).append(message)
        waiting = self._waits.get(key)
        if waiting is not None:
            waiting.cancel()
            log.debug(
                "kb.batch.wait_reset",
                channel=channel,
                user=message.author,
                held=len(self._pending[key]),
                seconds=self.window_seconds,
            )
        else:
            log.debug(
                "kb.batch.wait_scheduled",
                channel=channel,
                user=message.author,
                seconds=self.window_seconds,
            )
        self._waits[key] = asyncio.create_task(self._after_quiet(key))

    async def _after_quiet(self, key: tuple[str, str]) -> None:
        await asyncio.sleep(self.window_seconds)
        await self._release(key)

    async def _release(self, key: tuple[str, str]) -> None:
        # Taken out before the handler runs: a message arriving meanwhile starts a new batch.
        messages = self._pending.pop(key, [])
        self._waits.pop(key, None)
        if not messages:
            return
        channel, author = key
        log.debug("kb.batch.start", channel=channel, user=author, messages=len(messages))
        await self.handler(Batch(channel, author, tuple(messages)))

    def holds(self, channel: str, author: str) -> bool:
        """Whether a batch of this user in this channel is waiting for its quiet window."""
        return (channel, author) in self._pending

    @property
    def waiting(self) -> int:
        """How many (channel, user) pairs have messages held."""
        return len(self._pending)

    async def flush(self) -> None:
        """Release every held batch now (at shutdown)."""
        for key in list(self._waits):
            task = self._waits.get(key)
            if task is not None:
                task.cancel()
            await self._release(key)
