"""`SessionStore` in this process's memory, with a time to live and a size bound."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

from lectern.domain.assistant import Message

MAX_TURNS = 40
"""Turns kept per conversation: the oldest go first."""
MAX_CONVERSATIONS = 10_000


class InMemorySessions:
    """Text turns per (user, conversation), forgotten `ttl_seconds` after the last write."""

    def __init__(
        self,
        ttl_seconds: float = 86_400.0,
        *,
        max_turns: int = MAX_TURNS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """Keep at most `max_turns` turns of at most 10,000 conversations."""
        self.ttl_seconds = ttl_seconds
        self.max_turns = max_turns
        self._now = monotonic
        self._store: OrderedDict[tuple[str, str], tuple[float, list[Message]]] = OrderedDict()
        self._lock = threading.Lock()

    def history(self, user: str, conversation: str) -> list[Message]:
        """The stored turns, oldest first."""
        key = (user, conversation)
        with self._lock:
            found = self._store.get(key)
            if found is None:
                return []
            written, messages = found
            if self._now() - written > self.ttl_seconds:
                del self._store[key]
                return []
            return list(messages)

    def append(self, user: str, conversation: str, messages: Sequence[Message]) -> None:
        """Add text turns (tool calls are not kept) and renew the time to live."""
        key = (user, conversation)
        kept = [
            Message(m.role, m.content)
            for m in messages
            if m.role in ("user", "assistant") and not m.tool_calls
        ]
        with self._lock:
            _, current = self._store.pop(key, (0.0, []))
            self._store[key] = (self._now(), [*current, *kept][-self.max_turns :])
            while len(self._store) > MAX_CONVERSATIONS:
                self._store.popitem(last=False)
