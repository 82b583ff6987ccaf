"""The real langchain-openai client driving the assistant against a scripted local server.

The server answers in OpenAI's wire format with `tool_calls`; the assistant must send the
tools as functions with their JSON schemas, read the calls back, send the tool results as
`tool` messages with the call ids, and end with a checked reply.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from lectern.adapters.llm.providers import ProviderConfig, make_chat_model
from lectern.adapters.llm.tool_calling import LangChainToolModel
from tests.assistant_world import book_id, make_world


def _completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "scripted",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }


@pytest.fixture
def server() -> Iterator[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]]:
    requests: list[dict[str, Any]] = []
    replies: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            length = int(self.headers.get("Content-Length", "0"))
            requests.append(json.loads(self.rfile.read(length) or b"{}"))
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
        yield f"http://127.0.0.1:{httpd.server_port}/v1", requests, replies
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_openai_wire_format_tool_calls_round_trip(
    server: tuple[str, list[dict[str, Any]], list[dict[str, Any]]],
) -> None:
    base_url, requests, replies = server
    dune = book_id("Dune")
    replies.append(
        _completion(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_abc",
                        "type": "function",
                        "function": {
                            "name": "get_book_details",
                            "arguments": json.dumps({"book": "Dune"}),
                        },
                    },
                    {
                        "id": "call_def",
                        "type": "function",
                        "function": {
                            "name": "rate_book",
                            "arguments": json.dumps({"book": "Dune", "stars": 5}),
                        },
                    },
                ],
            },
            "tool_calls",
        )
    )
    choice = make_chat_model(
        ProviderConfig("openai-compatible", model="scripted", base_url=base_url, timeout=5.0)
    )
    world = make_world(LangChainToolModel(choice.model, choice.model_id))
    reply = world.service.chat("alice", "who wrote Dune? and rate it 5")

    tools = {t["function"]["name"]: t for t in requests[0]["tools"]}
    assert set(tools) == set(world.registry.names)
    schema = tools["rate_book"]["function"]["parameters"]
    assert schema["properties"]["stars"]["maximum"] == 5 and "book" in schema["required"]
    assert requests[0]["messages"][0]["role"] == "system"
    assert [c.id for c in reply.tool_calls] == ["call_abc", "call_def"]
    (action,) = reply.actions
    assert action.preview.tool_input == {"book_id": dune, "stars": 5, "review": None}
    assert len(requests) == 1  # the turn ended with the preview


def test_openai_tool_results_go_back_with_their_call_ids(
    server: tuple[str, list[dict[str, Any]], list[dict[str, Any]]],
) -> None:
    base_url, requests, replies = server
    dune = book_id("Dune")
    replies.append(
        _completion(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_book_details", "arguments": '{"book":"Dune"}'},
                    }
                ],
            },
            "tool_calls",
        )
    )
    replies.append(
        _completion(
            {
                "role": "assistant",
                "content": f'Dune is by "Frank Herbert" [book:{dune}#authors].',
            },
            "stop",
        )
    )
    choice = make_chat_model(
        ProviderConfig("openai-compatible", model="scripted", base_url=base_url, timeout=5.0)
    )
    world = make_world(LangChainToolModel(choice.model, choice.model_id))
    reply = world.service.chat("alice", "who wrote Dune?")
    sent = requests[1]["messages"]
    assert sent[-2]["tool_calls"][0]["id"] == "call_1"
    assert sent[-1]["role"] == "tool" and sent[-1]["tool_call_id"] == "call_1"
    assert "Frank Herbert" in sent[-1]["content"]
    assert [c.snippet for c in reply.citations] == ["Frank Herbert"]
    assert reply.grounding_flags == ()
