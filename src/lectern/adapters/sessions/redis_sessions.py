"""`SessionStore` in Redis: one list per conversation with a TTL, memory when Redis fails.

Keys: `lectern:chat:<user>:<conversation>`, a Redis list of JSON turns `{"role", "content"}`,
trimmed to the last 40 and expiring `ttl_seconds` after the last write. When Redis cannot be
reached (at start-up or mid-run) the turn is served from memory and a warning is logged: a
chat never fails because its history could not be stored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import redis
import structlog

from lectern.adapters.sessions.memory import MAX_TURNS, InMemorySessions
from lectern.domain.assistant import Message

log = structlog.get_logger(__name__)
PREFIX = "lectern:chat:"


class RedisSessions:
    """Conversation history in Redis, with an in-memory fallback."""

    def __init__(
        self,
        url: str,
        ttl_seconds: float = 86_400.0,
        *,
        max_turns: int = MAX_TURNS,
        fallback: InMemorySessions | None = None,
        client: Any = None,
    ) -> None:
        """Connect lazily to `url`; `fallback` serves while Redis is down."""
        self.ttl_seconds = int(ttl_seconds)
        self.max_turns = max_turns
        self.fallback = fallback or InMemorySessions(ttl_seconds, max_turns=max_turns)
        self._client = client or redis.Redis.from_url(
            url, socket_connect_timeout=1.0, socket_timeout=1.0
        )
        self.degraded = False
        """True after Redis failed at least once (the fallback served)."""

    @staticmethod
    def key(user: str, conversation: str) -> str:
        """The Redis key of a conversation."""
        return f"{PREFIX}{user}:{conversation}"

    def history(self, user: str, conversation: str) -> list[Message]:
        """Stored turns from Redis; from memory when Redis fails."""
        try:
            raw = self._client.lrange(self.key(user, conversation), 0, -1)
        except redis.RedisError as error:
            self._warn("read", error)
            return self.fallback.history(user, conversation)
        messages = []
        for item in raw:
            try:
                data = json.loads(item)
                messages.append(Message(data["role"], str(data["content"])))
            except (ValueError, KeyError, TypeError):
                continue  # a damaged turn is skipped, not fatal
        return messages or self.fallback.history(user, conversation)

    def append(self, user: str, conversation: str, messages: Sequence[Message]) -> None:
        """Push text turns, trim, renew the TTL in one transaction; memory when Redis fails."""
        kept = [
            json.dumps({"role": m.role, "content": m.content}, ensure_ascii=False)
            for m in messages
            if m.role in ("user", "assistant") and not m.tool_calls
        ]
        if not kept:
            return
        key = self.key(user, conversation)
        try:
            pipeline = self._client.pipeline(transaction=True)
            pipeline.rpush(key, *kept)
            pipeline.ltrim(key, -self.max_turns, -1)
            pipeline.expire(key, self.ttl_seconds)
            pipeline.execute()
        except redis.RedisError as error:
            self._warn("write", error)
            self.fallback.append(user, conversation, messages)

    def _warn(self, operation: str, error: Exception) -> None:
        self.degraded = True
        log.warning(
            "redis sessions unavailable: using memory",
            operation=operation,
            error=f"{type(error).__name__}: {error}",
        )
