"""Real LangChain clients against a scripted local server in OpenAI's wire format.

- `crynux`: langchain-crynux's `ChatCrynux` (an OpenAI-style client) drives the assistant:
  the Crynux `vram_limit` and our max tokens travel in the request body, tools go out as
  functions, tool calls come back and their results return with the call ids.
- The search fallback's ReAct agent (`create_agent`) over the real `ChatOpenAI`: the two
  tools with their schemas, a tool call round trip, and the books the model names.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from pydantic import SecretStr

from lectern.adapters.llm.graphs.search_fallback import ReactSearchFallback
from lectern.adapters.llm.providers import ProviderConfig, make_chat_model
from lectern.adapters.llm.tool_calling import LangChainToolModel
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.fallback.service import FallbackSearch
from lectern.domain.search import SearchQuery
from tests.assistant_world import book_id, make_catalog, make_search, make_vocabulary, make_world


@dataclass
class Scripted:
    """The server's address, what it was sent, and what it will answer next."""

    base_url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    replies: list[dict[str, Any]] = field(default_factory=list)


def _completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "scripted",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }


def _tool_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return _completion(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)},
                }
            ],
        },
        "tool_calls",
    )


@pytest.fixture
def server() -> Iterator[Scripted]:
    scripted = Scripted("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            length = int(self.headers.get("Content-Length", "0"))
            scripted.requests.append(json.loads(self.rfile.read(length) or b"{}"))
            scripted.headers.append({k.lower(): v for k, v in self.headers.items()})
            data = json.dumps(scripted.replies.pop(0)).encode()
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
    scripted.base_url = f"http://127.0.0.1:{httpd.server_port}/v1"
    try:
        yield scripted
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_crynux_sends_vram_limit_and_max_tokens_and_round_trips_tool_calls(
    server: Scripted,
) -> None:
    dune = book_id("Dune")
    server.replies += [
        _tool_call("call_1", "get_book_details", {"book": "Dune"}),
        _completion(
            {"role": "assistant", "content": f'Dune is by "Frank Herbert" [book:{dune}#authors].'},
            "stop",
        ),
    ]
    choice = make_chat_model(
        ProviderConfig(
            "crynux",
            model="Qwen/Qwen2.5-7B-Instruct",
            base_url=server.base_url,
            api_key=SecretStr("crynux-key"),
            vram_limit=40,
            max_tokens=777,
            timeout=5.0,
        )
    )
    world = make_world(LangChainToolModel(choice.model, choice.model_id))
    reply = world.service.chat("alice", "who wrote Dune?")

    first, second = server.requests
    assert first["model"] == "Qwen/Qwen2.5-7B-Instruct"
    assert first["vram_limit"] == 40
    assert (first.get("max_completion_tokens") or first.get("max_tokens")) == 777
    assert {t["function"]["name"] for t in first["tools"]} == set(world.registry.names)
    assert server.headers[0]["authorization"] == "Bearer crynux-key"
    assert second["messages"][-1]["role"] == "tool"
    assert second["messages"][-1]["tool_call_id"] == "call_1"
    assert [c.snippet for c in reply.citations] == ["Frank Herbert"]
    assert reply.model == "crynux:Qwen/Qwen2.5-7B-Instruct"


def test_the_fallback_agent_drives_a_real_openai_client(server: Scripted) -> None:
    silmarillion, hobbit = book_id("The Silmarillion"), book_id("The Hobbit")
    server.replies += [
        _tool_call("call_9", "search_catalog", {"query": "elves", "exclude_authors": ["Nobody"]}),
        _completion(
            {"role": "assistant", "content": f"book:{hobbit} The Hobbit\nbook:{silmarillion}"},
            "stop",
        ),
    ]
    choice = make_chat_model(
        ProviderConfig("openai-compatible", model="scripted", base_url=server.base_url, timeout=5.0)
    )
    catalog = make_catalog()
    vocabulary = make_vocabulary(catalog)
    fallback = FallbackSearch(
        make_search(catalog),
        catalog,
        ReactSearchFallback(choice.model, choice.model_id),
        understanding=RuleBasedUnderstanding(vocabulary),
        vocabulary=vocabulary,
    )
    response = fallback.search_with_fallback(
        SearchQuery("something like Dune but not science fiction", max_results=2)
    )

    first, second = server.requests
    tools = {t["function"]["name"]: t["function"]["parameters"] for t in first["tools"]}
    assert set(tools) == {"search_catalog", "get_similar_books"}
    assert tools["search_catalog"]["required"] == ["query"]
    assert tools["search_catalog"]["properties"]["exclude_authors"]["type"] == "array"
    assert tools["get_similar_books"]["required"] == ["book"]
    assert first["messages"][0]["role"] == "system"
    assert (
        '"exploration": {"like": "Dune", "unlike": "science fiction"}'
        in (first["messages"][1]["content"])
    )
    tool_reply = second["messages"][-1]
    assert tool_reply["role"] == "tool" and tool_reply["tool_call_id"] == "call_9"
    assert "The Silmarillion" in tool_reply["content"]
    report = response.fallback
    assert report is not None and report.model == "openai-compatible:scripted"
    assert [c.name for c in report.tool_calls] == ["search_catalog"]
    assert [str(r.book.id) for r in response.results] == [hobbit, silmarillion]
