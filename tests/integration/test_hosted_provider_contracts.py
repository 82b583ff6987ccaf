"""Bedrock, Gemini and Azure OpenAI: the real LangChain clients against scripted local servers.

Each server speaks its provider's wire format on 127.0.0.1 only: Bedrock's Converse API
(`POST /model/{id}/converse`, `toolUse` blocks with ids, `toolResult` blocks back), Gemini's
`generateContent` (`functionCall` parts, `functionResponse` parts back, the key in
`x-goog-api-key`) and Azure OpenAI's chat completions (`/openai/deployments/{name}/chat/
completions?api-version=...`, the key in `api-key`). The models are built the way the
application builds them (settings -> `provider_config` -> `make_chat_model`), so the tests
cover our wiring as well as the clients, and the assistant's loop runs on top: a call
becomes an action preview, a tool result goes back naming its call.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from lectern.adapters.llm.providers import make_chat_model
from lectern.adapters.llm.tool_calling import LangChainToolModel
from lectern.bootstrap import provider_config
from lectern.settings import Settings
from tests.assistant_world import book_id, make_world

pytest.importorskip("langchain_aws")
pytest.importorskip("langchain_google_genai")


@dataclass
class Scripted:
    """A local server answering each POST with the next scripted JSON body."""

    url: str
    replies: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    seen: list[dict[str, str]] = field(default_factory=list)


@pytest.fixture
def server() -> Iterator[Scripted]:
    scripted = Scripted(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            length = int(self.headers.get("Content-Length", "0"))
            scripted.seen.append(
                {"path": self.path, **{k.lower(): v for k, v in self.headers.items()}}
            )
            scripted.requests.append(json.loads(self.rfile.read(length) or b"{}"))
            if not scripted.replies:
                self.send_error(500, "the script has no reply left")
                return
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
    scripted.url = f"http://127.0.0.1:{httpd.server_port}"
    try:
        yield scripted
    finally:
        httpd.shutdown()
        httpd.server_close()


def _model(provider: str, **settings: Any) -> LangChainToolModel:
    built = Settings(_env_file=None, assistant_provider=provider, llm_timeout=5.0, **settings)  # type: ignore[call-arg]
    choice = make_chat_model(provider_config(built, provider, built.assistant_model))
    return LangChainToolModel(choice.model, choice.model_id)


# --- Bedrock (Converse) ------------------------------------------------------------------


def _converse(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop,
        "usage": {"inputTokens": 120, "outputTokens": 30, "totalTokens": 150},
        "metrics": {"latencyMs": 12},
    }


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Static credentials, so boto3 never asks an instance metadata service."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDSCRIPTED")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "scripted-secret")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


@pytest.mark.usefixtures("aws")
def test_bedrock_converse_tool_use_round_trips_by_id(
    server: Scripted, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRA_BEDROCK_LLM_MODEL_ID", "anthropic.claude-scripted")
    monkeypatch.setenv("TRA_BEDROCK_MAX_TOKENS", "777")
    dune = book_id("Dune")
    server.replies += [
        _converse(
            [
                {"text": "Looking."},
                {
                    "toolUse": {
                        "toolUseId": "tu_A",
                        "name": "get_book_details",
                        "input": {"book": "Dune"},
                    }
                },
                {
                    "toolUse": {
                        "toolUseId": "tu_B",
                        "name": "catalog_facets",
                        "input": {},
                    }
                },
            ],
            "tool_use",
        ),
        _converse([{"text": f'Dune is by "Frank Herbert" [book:{dune}#authors].'}], "end_turn"),
    ]
    model = _model("bedrock", llm_base_url=server.url, llm_region="eu-west-1")
    world = make_world(model)
    reply = world.service.chat("alice", "who wrote Dune?")

    assert model.model_id == "bedrock:anthropic.claude-scripted"
    assert server.seen[0]["path"] == "/model/anthropic.claude-scripted/converse"
    assert "AKIDSCRIPTED" in server.seen[0]["authorization"]  # SigV4-signed with our keys
    assert server.seen[0]["amz-sdk-request"] == "attempt=1; max=1"  # LangChainLLM retries
    first = server.requests[0]
    assert first["inferenceConfig"]["maxTokens"] == 777
    tools = {t["toolSpec"]["name"]: t["toolSpec"] for t in first["toolConfig"]["tools"]}
    assert set(tools) == set(world.registry.names)
    assert tools["rate_book"]["inputSchema"]["json"]["properties"]["stars"]["maximum"] == 5
    # Each result went back under its own call's id, not by position.
    assert len(server.requests) == 2
    results = {
        block["toolResult"]["toolUseId"]: json.dumps(block["toolResult"]["content"])
        for message in server.requests[1]["messages"]
        if message["role"] == "user"
        for block in message["content"]
        if "toolResult" in block
    }
    assert set(results) == {"tu_A", "tu_B"}
    assert "Frank Herbert" in results["tu_A"] and "Frank Herbert" not in results["tu_B"]
    assert [c.snippet for c in reply.citations] == ["Frank Herbert"]


# --- Gemini (generateContent) --------------------------------------------------------------


def _gemini(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": 120,
            "candidatesTokenCount": 30,
            "totalTokenCount": 150,
        },
        "modelVersion": "gemini-scripted",
    }


def test_gemini_function_calls_round_trip_with_the_key_in_its_header(server: Scripted) -> None:
    dune = book_id("Dune")
    server.replies += [
        _gemini(
            [
                {
                    "functionCall": {
                        "id": "fc_A",
                        "name": "get_book_details",
                        "args": {"book": "Dune"},
                    }
                },
                {"functionCall": {"id": "fc_B", "name": "catalog_facets", "args": {}}},
            ]
        ),
        _gemini([{"text": f'Dune is by "Frank Herbert" [book:{dune}#authors].'}]),
    ]
    model = _model(
        "gemini",
        llm_base_url=server.url,
        gemini_api_key="gm-scripted",
        gemini_model="gemini-scripted",
        llm_max_tokens=512,
    )
    world = make_world(model)
    reply = world.service.chat("alice", "who wrote Dune?")

    assert model.model_id == "gemini:gemini-scripted"
    assert server.seen[0]["path"].endswith("/models/gemini-scripted:generateContent")
    assert server.seen[0]["x-goog-api-key"] == "gm-scripted"
    first = server.requests[0]
    assert first["generationConfig"]["maxOutputTokens"] == 512
    declared = {f["name"] for t in first["tools"] for f in t["functionDeclarations"]}
    assert declared == set(world.registry.names)
    responses = [
        part["functionResponse"]
        for content in server.requests[1]["contents"]
        for part in content["parts"]
        if "functionResponse" in part
    ]
    by_name = {r["name"]: json.dumps(r["response"]) for r in responses}
    assert set(by_name) == {"get_book_details", "catalog_facets"}
    assert "Frank Herbert" in by_name["get_book_details"]
    assert "Frank Herbert" not in by_name["catalog_facets"]
    assert [c.snippet for c in reply.citations] == ["Frank Herbert"]


# --- Azure OpenAI (chat completions on a deployment) ---------------------------------------


def _completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }


def test_azure_openai_deployment_version_and_key_reach_the_server(
    server: Scripted, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZURE_OPENAI_ENDPOINT", server.url)
    monkeypatch.setenv("AZURE_OPENAI_API_KEY", "az-scripted")
    monkeypatch.setenv("AZURE_OPENAI_DEPLOYMENT", "books-gpt")
    dune = book_id("Dune")
    call = {
        "id": "call_A",
        "type": "function",
        "function": {"name": "get_book_details", "arguments": json.dumps({"book": "Dune"})},
    }
    server.replies += [
        _completion({"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"),
        _completion(
            {"role": "assistant", "content": f'Dune is by "Frank Herbert" [book:{dune}#authors].'},
            "stop",
        ),
    ]
    model = _model("azure-openai", llm_api_version="2024-10-21")
    world = make_world(model)
    reply = world.service.chat("alice", "who wrote Dune?")

    assert model.model_id == "azure-openai:books-gpt"
    assert server.seen[0]["path"] == (
        "/openai/deployments/books-gpt/chat/completions?api-version=2024-10-21"
    )
    assert server.seen[0]["api-key"] == "az-scripted"
    assert {t["function"]["name"] for t in server.requests[0]["tools"]} == set(world.registry.names)
    tool_turns = [m for m in server.requests[1]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_turns] == ["call_A"]
    assert "Frank Herbert" in tool_turns[0]["content"]
    assert [c.snippet for c in reply.citations] == ["Frank Herbert"]
