"""The real langchain-anthropic client driving the assistant against a scripted local server.

The server speaks Anthropic's Messages API (`POST /v1/messages`): replies are content blocks,
tool calls are `tool_use` blocks with ids, and tool results must come back as `tool_result`
blocks of a user message naming those ids. The model is built the way the application
builds it (`LECTERN_ASSISTANT_PROVIDER=anthropic`, `LECTERN_LLM_BASE_URL`), so the test
covers our provider wiring as well as the client.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from lectern.adapters.llm.providers import make_chat_model
from lectern.adapters.llm.tool_calling import LangChainToolModel
from lectern.bootstrap import provider_config
from lectern.settings import Settings
from tests.assistant_world import book_id, make_world

pytest.importorskip("langchain_anthropic")

Server = tuple[str, list[dict[str, Any]], list[dict[str, Any]], list[dict[str, str]]]


def _message(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-scripted",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 120, "output_tokens": 30},
    }


def _tool_use(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


@pytest.fixture
def server() -> Iterator[Server]:
    requests: list[dict[str, Any]] = []
    replies: list[dict[str, Any]] = []
    seen: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            length = int(self.headers.get("Content-Length", "0"))
            seen.append(
                {
                    "path": self.path,
                    "api_key": self.headers.get("x-api-key", ""),
                    "version": self.headers.get("anthropic-version", ""),
                }
            )
            requests.append(json.loads(self.rfile.read(length) or b"{}"))
            if not replies:
                self.send_error(500, "the script has no reply left")
                return
            data = json.dumps(replies.pop(0)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            del args

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}", requests, replies, seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def _anthropic_model(base_url: str) -> LangChainToolModel:
    """The assistant's model as bootstrap builds it for LECTERN_ASSISTANT_PROVIDER=anthropic."""
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        assistant_provider="anthropic",
        llm_base_url=base_url,
        anthropic_api_key="sk-ant-test",
        anthropic_model="claude-scripted",
        llm_timeout=5.0,
    )
    choice = make_chat_model(provider_config(settings, "anthropic", settings.assistant_model))
    return LangChainToolModel(choice.model, choice.model_id)


def test_anthropic_tool_use_blocks_reach_the_loop_as_distinct_calls(server: Server) -> None:
    base_url, requests, replies, seen = server
    dune = book_id("Dune")
    hobbit = book_id("The Hobbit")
    replies.append(
        _message(
            [
                {"type": "text", "text": "Rating both."},
                _tool_use("toolu_01A", "rate_book", {"book": "Dune", "stars": 5}),
                _tool_use("toolu_01B", "rate_book", {"book": "The Hobbit", "stars": 3}),
            ],
            "tool_use",
        )
    )
    model = _anthropic_model(base_url)
    world = make_world(model)
    reply = world.service.chat("alice", "rate Dune 5 and The Hobbit 3")

    assert seen[0]["path"] == "/v1/messages"
    assert seen[0]["api_key"] == "sk-ant-test" and seen[0]["version"]
    sent = requests[0]
    assert sent["model"] == "claude-scripted"
    assert isinstance(sent["system"], str | list) and sent["system"]
    tools = {t["name"]: t for t in sent["tools"]}
    assert set(tools) == set(world.registry.names)
    schema = tools["rate_book"]["input_schema"]
    assert schema["properties"]["stars"]["maximum"] == 5 and "book" in schema["required"]
    # Two parallel calls of the same tool stay two calls, each with its own id and input.
    assert [(c.id, c.name) for c in reply.tool_calls] == [
        ("toolu_01A", "rate_book"),
        ("toolu_01B", "rate_book"),
    ]
    inputs = sorted(
        (a.preview.tool_input["book_id"], a.preview.tool_input["stars"]) for a in reply.actions
    )
    assert inputs == sorted([(dune, 5), (hobbit, 3)])
    assert len({a.id for a in reply.actions}) == 2
    assert len(requests) == 1  # the turn ended with the previews
    assert model.model_id == "anthropic:claude-scripted"


def test_anthropic_tool_results_go_back_as_tool_result_blocks(server: Server) -> None:
    base_url, requests, replies, _ = server
    dune = book_id("Dune")
    replies.append(
        _message(
            [
                _tool_use("toolu_A", "get_book_details", {"book": "Dune"}),
                _tool_use("toolu_B", "catalog_facets", {}),
            ],
            "tool_use",
        )
    )
    replies.append(
        _message(
            [{"type": "text", "text": f'Dune is by "Frank Herbert" [book:{dune}#authors].'}],
            "end_turn",
        )
    )
    world = make_world(_anthropic_model(base_url))
    reply = world.service.chat("alice", "who wrote Dune?")

    assert len(requests) == 2
    sent = requests[1]["messages"]
    assistant_turn = sent[-2]
    assert assistant_turn["role"] == "assistant"
    used = [b["id"] for b in assistant_turn["content"] if b["type"] == "tool_use"]
    assert used == ["toolu_A", "toolu_B"]
    results = [
        block
        for message in sent
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    # Each result answers its own call: matched by id, not by position.
    by_id = {r["tool_use_id"]: json.dumps(r["content"]) for r in results}
    assert set(by_id) == {"toolu_A", "toolu_B"}
    assert "Frank Herbert" in by_id["toolu_A"] and "Frank Herbert" not in by_id["toolu_B"]
    assert [c.snippet for c in reply.citations] == ["Frank Herbert"]
    assert reply.grounding_flags == ()


def test_anthropic_hostile_tool_input_is_refused_as_data(server: Server) -> None:
    """A tool_use block naming no known tool, or with bad input, becomes an error result."""
    base_url, requests, replies, _ = server
    replies.append(
        _message(
            [
                _tool_use("toolu_X", "approve_all_pending_actions", {}),
                _tool_use("toolu_Y", "rate_book", {"book": "Dune", "stars": 99}),
            ],
            "tool_use",
        )
    )
    replies.append(_message([{"type": "text", "text": "I could not do that."}], "end_turn"))
    world = make_world(_anthropic_model(base_url))
    reply = world.service.chat("alice", "approve everything")

    assert reply.actions == ()
    assert [s.outcome for s in reply.steps if s.kind != "model"] == ["error", "error"]
    results = [
        b
        for b in requests[1]["messages"][-1]["content"]
        if isinstance(b, dict) and b.get("type") == "tool_result"
    ]
    assert {r["tool_use_id"] for r in results} == {"toolu_X", "toolu_Y"}
    assert world.actions.list("alice") == []
