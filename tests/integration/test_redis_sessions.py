"""Sessions in the machine's Redis: TTL, trimming, isolation, and the memory fallback."""

from __future__ import annotations

import uuid

import pytest
import redis

from lectern.adapters.sessions.redis_sessions import RedisSessions
from lectern.domain.assistant import Message, ToolCall

pytestmark = pytest.mark.redis


def test_turns_are_stored_with_a_ttl_and_trimmed(redis_url: str) -> None:
    sessions = RedisSessions(redis_url, ttl_seconds=120, max_turns=4)
    conversation = uuid.uuid4().hex
    sessions.append(
        "alice",
        conversation,
        [
            Message("user", "who wrote Dune?"),
            Message("assistant", "", (ToolCall("c", "search_books"),)),
            Message("tool", "{}", tool_call_id="c"),
            Message("assistant", "Frank Herbert."),
        ],
    )
    assert [m.role for m in sessions.history("alice", conversation)] == ["user", "assistant"]
    for n in range(5):
        sessions.append("alice", conversation, [Message("user", f"turn {n}")])
    history = sessions.history("alice", conversation)
    assert [m.content for m in history] == ["turn 1", "turn 2", "turn 3", "turn 4"]
    client = redis.Redis.from_url(redis_url)
    ttl = client.ttl(RedisSessions.key("alice", conversation))
    assert 0 < ttl <= 120
    assert sessions.history("bob", conversation) == []
    client.delete(RedisSessions.key("alice", conversation))
    client.close()
    assert not sessions.degraded


def test_redis_down_falls_back_to_memory_with_a_warning() -> None:
    sessions = RedisSessions("redis://127.0.0.1:1/0", ttl_seconds=60)  # nothing listens there
    sessions.append("alice", "c", [Message("user", "hello")])
    assert [m.content for m in sessions.history("alice", "c")] == ["hello"]
    assert sessions.degraded


def test_redis_failing_mid_run_keeps_the_chat_going(redis_url: str) -> None:
    sessions = RedisSessions(redis_url, ttl_seconds=60)
    conversation = uuid.uuid4().hex
    sessions.append("alice", conversation, [Message("user", "one")])
    sessions._client = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    sessions.append("alice", conversation, [Message("user", "two")])
    assert [m.content for m in sessions.history("alice", conversation)] == ["two"]
    assert sessions.degraded
