"""A turn heard as it happens (the streams' source), stopped midway, or run on a history the
caller holds; and the small helpers of the streamed routes."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from lectern.domain.assistant import Message, PendingAction, ToolCall
from lectern.domain.books import JSONValue
from lectern.entrypoints.http.middleware import is_chat_turn, presented_key
from lectern.entrypoints.http.turns import text_chunks
from lectern.errors import ChatCancelledError
from tests.assistant_world import make_world


@dataclass
class RecordingListener:
    stop_after_results: int | None = None
    heard: list[tuple[str, str]] = field(default_factory=list)

    def tool_call(self, call: ToolCall) -> None:
        self.heard.append(("call", call.name))

    def tool_result(self, call: ToolCall, content: JSONValue, outcome: str) -> None:
        del content
        self.heard.append((f"result:{outcome}", call.name))

    def decided(self, action: PendingAction, result: JSONValue) -> None:
        del result
        self.heard.append(("decided", action.status))

    def cancelled(self) -> bool:
        results = sum(1 for kind, _ in self.heard if kind.startswith("result"))
        return self.stop_after_results is not None and results >= self.stop_after_results


def test_the_listener_hears_each_call_before_its_result_in_order() -> None:
    world = make_world()
    listener = RecordingListener()
    reply = world.service.chat(
        "alice",
        "find two cozy mysteries and add them to a new list called Autumn",
        listener=listener,
    )
    assert listener.heard == [
        ("call", "search_books"),
        ("result:ok", "search_books"),
        ("call", "create_list"),
        ("result:preview", "create_list"),
        ("call", "add_to_list"),
        ("result:preview", "add_to_list"),
        ("call", "add_to_list"),
        ("result:preview", "add_to_list"),
    ]
    assert len(reply.actions) == 3


def test_a_stopped_turn_ends_at_its_next_step_and_stores_nothing() -> None:
    world = make_world()
    listener = RecordingListener(stop_after_results=1)
    with pytest.raises(ChatCancelledError):
        world.service.chat(
            "alice",
            "find two cozy mysteries and add them to a new list called Autumn",
            conversation="c-stopped",
            listener=listener,
        )
    assert listener.heard == [("call", "search_books"), ("result:ok", "search_books")]
    assert world.sessions.history("alice", "c-stopped") == []
    assert world.actions.list("alice") == []  # the step that would propose never ran


def test_a_decision_is_heard_before_the_turn_continues() -> None:
    world = make_world()
    (action,) = world.service.chat("alice", "create a list called Summer").actions
    listener = RecordingListener()
    reply = world.service.approve("alice", action.id, listener=listener)
    assert listener.heard[0] == ("decided", "executed")
    assert reply.text.startswith("Done")


def test_a_given_history_is_used_and_nothing_is_stored() -> None:
    world = make_world()
    history = [
        Message("user", "who wrote Dune?"),
        Message("assistant", 'Dune was written by "Frank Herbert" [book:x#authors].'),
    ]
    reply = world.service.chat(
        "alice", "find books like Dune", conversation="c-given", history=history
    )
    assert reply.citations
    assert world.sessions.history("alice", "c-given") == []


def test_text_chunks_cut_after_spaces_and_lose_nothing() -> None:
    text = "A reply with " + "several words " * 20 + '"a quote" [book:x#title]'
    chunks = text_chunks(text, size=20)
    assert "".join(chunks) == text
    assert all(len(c) <= 21 for c in chunks[:-1])
    assert all(c.endswith(" ") for c in chunks[:-1])
    assert text_chunks("") == []
    assert text_chunks("x" * 50, size=20) == ["x" * 20, "x" * 20, "x" * 10]


def test_keys_come_from_x_api_key_or_a_bearer_token() -> None:
    assert presented_key({"x-api-key": "k1", "authorization": "Bearer k2"}) == "k1"
    assert presented_key({"authorization": "Bearer k2"}) == "k2"
    assert presented_key({"authorization": "bearer  k3 "}) == "k3"
    assert presented_key({"authorization": "Basic k4"}) is None
    assert presented_key({"authorization": "Bearer "}) is None
    assert presented_key({}) is None


def test_chat_turns_are_the_posts_that_run_the_assistant() -> None:
    assert is_chat_turn("POST", "/assistant/chat")
    assert is_chat_turn("POST", "/assistant/actions/abc/approve")
    assert is_chat_turn("POST", "/assistant/actions/abc/reject")
    assert is_chat_turn("POST", "/v1/chat/completions")
    assert not is_chat_turn("GET", "/assistant/actions")
    assert not is_chat_turn("POST", "/assistant/actions/a/b/approve")
    assert not is_chat_turn("POST", "/assistant/chat/")
    assert not is_chat_turn("POST", "/search")
