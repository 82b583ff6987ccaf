"""The explanation cache on real databases, and the real `langchain-openai` client against a
small OpenAI-compatible server that this test runs on 127.0.0.1 with scripted completions."""

from __future__ import annotations

import json
import socket
import threading
import uuid
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from lectern.adapters.catalog.explanation_cache import SqlAlchemyExplanationCache
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.bootstrap import make_llm
from lectern.domain.books import Book
from lectern.domain.grounding import Citation, Explanation, is_valid_citation
from lectern.settings import Settings
from tests.fakes import RecordingTracer

BOOK = Book(
    id=uuid.UUID(int=5),
    title="The Lies of Locke Lamora",
    authors=("Scott Lynch",),
    categories=("fantasy", "heist"),
    description="In the island city of Camorr, a gang of thieves plans the perfect con.",
)


def test_explanations_round_trip_through_the_catalog_database(catalog_url: str) -> None:
    catalog = SqlAlchemyBookCatalog.from_url(catalog_url)
    cache = SqlAlchemyExplanationCache(catalog.engine)
    explanation = Explanation(
        book_id=BOOK.id,
        query_text="Fantasy heist",
        text="A heist — in Camorr.",
        citations=(Citation(BOOK.id, "categories", "heist", 0.7),),
        model="m",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        confidence=0.7,
        grounded=True,
    )
    assert cache.get(BOOK.id, "fantasy heist", "explain-v1", "m") is None
    cache.put(explanation, "explain-v1")
    assert cache.get(BOOK.id, "  FANTASY   heist ", "explain-v1", "m") == explanation
    assert cache.get(BOOK.id, "fantasy heist", "explain-v2", "m") is None
    assert cache.get(BOOK.id, "fantasy heist", "explain-v1", "other") is None
    cache.put(replace(explanation, text="newer"), "explain-v1")
    newer = cache.get(BOOK.id, "fantasy heist", "explain-v1", "m")
    assert newer is not None and newer.text == "newer"
    catalog.close()


class _Script:
    """What the fake server answers, in order, and what it was asked."""

    def __init__(self) -> None:
        self.replies: list[tuple[int, dict[str, Any]]] = []
        self.requests: list[dict[str, Any]] = []


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "local-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 211, "completion_tokens": 48, "total_tokens": 259},
    }


@pytest.fixture
def openai_server() -> Iterator[tuple[str, _Script]]:
    script = _Script()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            script.requests.append({"path": self.path, "body": body})
            status, payload = script.replies.pop(0) if script.replies else (500, {})
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            del args

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/v1", script
    finally:
        server.shutdown()
        server.server_close()


def _reply(*citations: tuple[str, str]) -> str:
    return json.dumps(
        {
            "text": "A con artist's heist in Camorr.",
            "confidence": 0.8,
            "citations": [{"field": f, "snippet": s, "relevance": 0.8} for f, s in citations],
        }
    )


def _client(base_url: str, tracer: RecordingTracer, **overrides: object) -> Any:
    values: dict[str, Any] = {
        "llm": "openai-compatible",
        "llm_base_url": base_url,
        "llm_max_retries": 1,
        "llm_timeout": 5.0,
        **overrides,
    }
    settings = Settings(**values)
    return make_llm(settings, tracer)


def test_the_real_openai_client_round_trip(openai_server: tuple[str, _Script]) -> None:
    base_url, script = openai_server
    script.replies.append(
        (
            200,
            _completion(_reply(("description", "island city of Camorr"), ("categories", "heist"))),
        )
    )
    tracer = RecordingTracer()
    explanation = _client(base_url, tracer).explain("fantasy heist", BOOK)
    assert explanation.model == "openai-compatible:local-model" and explanation.grounded
    assert [c.snippet for c in explanation.citations] == ["island city of Camorr", "heist"]
    (request,) = script.requests
    assert request["path"] == "/v1/chat/completions"
    body = request["body"]
    assert body["model"] == "local-model" and body["temperature"] == 0.0
    assert body["response_format"] == {"type": "json_object"}  # JSON mode for llama.cpp
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["system", "user"]
    assert "<query>fantasy heist</query>" in body["messages"][1]["content"]
    (trace,) = tracer.traces
    assert (trace.input_tokens, trace.output_tokens) == (211, 48)
    assert trace.model == "openai-compatible:local-model"


def test_a_server_error_is_retried(openai_server: tuple[str, _Script]) -> None:
    base_url, script = openai_server
    script.replies += [
        (500, {"error": {"message": "overloaded"}}),
        (200, _completion(_reply(("categories", "heist")))),
    ]
    explanation = _client(base_url, RecordingTracer()).explain("fantasy heist", BOOK)
    assert explanation.model == "openai-compatible:local-model"
    assert len(script.requests) == 2


@pytest.mark.parametrize(
    "content",
    [
        "I think you will love it!",
        _reply(("description", "a floating city of airships")),
        '{"text": "cut off',
    ],
)
def test_bad_completions_fall_back_to_quotes_that_validate(
    openai_server: tuple[str, _Script], content: str
) -> None:
    base_url, script = openai_server
    script.replies.append((200, _completion(content)))
    tracer = RecordingTracer()
    explanation = _client(base_url, tracer).explain("fantasy heist", BOOK)
    assert explanation.model == "extractive-v1" and explanation.grounded
    assert all(is_valid_citation(c, BOOK) for c in explanation.citations)
    assert tracer.traces[0].raw_response == content


def test_an_unreachable_server_falls_back() -> None:
    with socket.socket() as probe:  # a port that nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    tracer = RecordingTracer()
    explanation = _client(f"http://127.0.0.1:{port}/v1", tracer, llm_max_retries=0).explain(
        "heist", BOOK
    )
    assert explanation.model == "extractive-v1" and explanation.grounded
    assert "Connection" in (tracer.traces[0].parse_error or "")
