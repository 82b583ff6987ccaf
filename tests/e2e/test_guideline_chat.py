"""The guideline chat over HTTP as its specification defines it: /chat, /chat/stream.

Real adapters (SQLite, bm25s, FAISS) over real excerpts of NIST SP 800-63B and RFC 6585,
with hashed-word vectors (real vectors are not the point here); the offline rule policy
answers unless a test scripts a model. A client written against the stream format with
httpx alone (`tools/guide_client.py`) reads a real server's stream; `lectern serve` shows
that the per-address limit ignores X-Forwarded-For.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from lectern.adapters.llm.guideline_policy import GuidelineRulePolicy
from lectern.adapters.sessions.memory import InMemorySessions
from lectern.application.collections import CollectionService
from lectern.bootstrap import bootstrap
from lectern.domain.assistant import AIResponse, Message, ToolSpec
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.collection_wiring import ROOT, SHARED, collection_service
from tests.e2e.serving import lectern_serve, serve_in_thread
from tests.e2e.sse import Event, parse, read_events

pytestmark = pytest.mark.slow
NIST = SHARED / "guidance" / "nist-sp800-63-3" / "sp800-63b"
REFUSAL = (
    "I cannot answer that from the NIST digital identity guidelines: the passages I found do "
    "not say it."
)
QUESTION = "How long must a memorized secret chosen by the subscriber be?"


def _documents(root: Path) -> tuple[Path, Path]:
    nist = root / "nist" / "sp800-63b"
    nist.mkdir(parents=True)
    for name in ("sec4_aal.md", "sec5_authenticators.md"):
        shutil.copy(NIST / name, nist / name)
    rfc = root / "rfc"
    rfc.mkdir()
    for name in ("rfc6585.txt", "rfc6585.json"):
        shutil.copy(SHARED / "guidance" / "rfc" / name, rfc / name)
    return root / "nist", rfc


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CollectionService]:
    root = tmp_path_factory.mktemp("guide-http")
    nist, rfc = _documents(root / "docs")
    service = collection_service(root / "var")
    service.add("nist", nist)
    service.add("rfc", rfc)
    return root / "var", service


def _app(
    world: tuple[Path, CollectionService], overrides: dict[str, Any] | None = None, **settings: Any
) -> Any:
    data_dir, service = world
    settings.setdefault("guide_min_similarity", 0.05)  # hashed words: low cosines
    services = bootstrap(
        Settings(data_dir=data_dir, **settings), collections=service, **(overrides or {})
    )
    return create_app(services, load_indexes=False)


def _client(world: tuple[Path, CollectionService], **kw: Any) -> TestClient:
    return TestClient(_app(world, **kw))


def test_chat_answers_with_the_page_cited(world: tuple[Path, CollectionService]) -> None:
    with _client(world) as client:
        response = client.post("/chat", json={"message": QUESTION})
        assert response.status_code == 200, response.text
        body = response.json()
        assert set(body) >= {"answer", "citations", "grounding_flags", "session_id"}
        assert body["grounding_flags"] == []
        assert "at least 8 characters" in body["answer"]
        [citation] = body["citations"]
        assert citation["label"] == "[NIST SP 800-63B §5.1.1.1]"
        assert citation["label"] in body["answer"]
        resolved = client.get(
            "/labels/resolve",
            params={"label": citation["source_label"], "snippet": citation["snippet"]},
        ).json()
        start, end = resolved["snippet_at"]
        assert (
            "8 characters"
            in client.get(f"/collections/nist/documents/{resolved['document']['id']}").json()[
                "text"
            ][start:end]
        )
        assert citation["url"].startswith("/guidelines?profile=nist&label=")


def test_the_stream_sends_tokens_then_done(world: tuple[Path, CollectionService]) -> None:
    with _client(world) as client:
        whole = client.post("/chat", json={"message": QUESTION, "top_k": 3}).json()
        response = client.post("/chat/stream", json={"message": QUESTION, "top_k": 3})
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = parse(response.text)
        assert {e.name for e in events} == {"message"}  # unnamed events, as specified
        payloads = [e.json() for e in events]
        tokens = [p["token"] for p in payloads[:-1]]
        assert len(tokens) > 5 and all(set(p) == {"token"} for p in payloads[:-1])
        assert "".join(tokens) == whole["answer"]
        done = payloads[-1]
        assert done["done"] is True
        assert done["citations"] == whole["citations"]
        assert done["grounding_flags"] == [] and done["session_id"]


def test_sessions_carry_follow_ups(world: tuple[Path, CollectionService]) -> None:
    with _client(world) as client:
        first = client.post(
            "/chat", json={"message": "How often must the subscriber reauthenticate at AAL2?"}
        ).json()
        assert "[NIST SP 800-63B §4.2.3]" in first["answer"]
        second = client.post(
            "/chat", json={"message": "and for AAL3?", "session_id": first["session_id"]}
        ).json()
        assert second["session_id"] == first["session_id"]
        assert second["standalone_query"] == (
            "How often must the subscriber reauthenticate at AAL3?"
        )
        assert "[NIST SP 800-63B §4.3.3]" in second["answer"]
        alone = client.post("/chat", json={"message": "and for AAL3?"}).json()
        assert alone["standalone_query"] == "and for AAL3?"


def test_profiles_refusals_and_bad_requests(world: tuple[Path, CollectionService]) -> None:
    with _client(world) as client:
        profiles = {p["name"]: p for p in client.get("/chat/profiles").json()}
        assert profiles["nist"]["available"] and profiles["nist"]["default"]
        assert profiles["rfc"]["available"] and profiles["rfc"]["citation"] == "page"
        rfc = client.post(
            "/chat", json={"question": "What does the 429 status code mean?", "profile": "rfc"}
        ).json()
        assert rfc["answer"].endswith("[RFC 6585 p.3]"), rfc
        off = client.post("/chat", json={"message": "What is the capital of France?"}).json()
        assert off["answer"] == REFUSAL and off["citations"] == []
        unknown = client.post("/chat", json={"message": "hi", "profile": "hipaa"})
        assert unknown.status_code == 404 and "nist, rfc" in unknown.json()["detail"]
        for body in (
            {},
            {"message": ""},
            {"message": "hi", "top_k": 0},
            {"message": "hi", "top_k": 21},
            {"message": "hi", "top_k": "5"},
            {"message": "hi", "session_id": "../x"},
            {"message": "hi", "extra": 1},
        ):
            assert client.post("/chat/stream", json=body).status_code == 422, body


def test_a_profile_without_its_collection_is_a_problem_before_any_stream(
    world: tuple[Path, CollectionService], tmp_path: Path
) -> None:
    profiles = tmp_path / "profiles.yaml"
    profiles.write_text(
        "profiles:\n  - {name: owasp, collection: owasp, title: t, role: r, scope: s, "
        "refusal: No.}\n"
    )
    with _client(world, guide_profiles=profiles, guide_default_profile="owasp") as client:
        response = client.post("/chat/stream", json={"message": "hi"})
        assert response.status_code == 404
        assert "lectern collections add owasp" in response.json()["detail"]


def test_the_address_limit_holds_whatever_key_or_header(
    world: tuple[Path, CollectionService],
) -> None:
    keys = {"api_keys": "alice:alice-key,bob:bob-key", "rate_limit_chat_guide": "2/minute"}
    with _client(world, **keys) as client:
        body = {"message": QUESTION}
        alice = {"X-API-Key": "alice-key"}
        assert client.post("/chat", json=body, headers=alice).status_code == 200
        assert client.post("/chat/stream", json=body, headers=alice).status_code == 200
        spoofed = {"X-API-Key": "bob-key", "X-Forwarded-For": "203.0.113.9"}
        refused = client.post("/chat", json=body, headers=spoofed)
        assert refused.status_code == 429
        assert "guideline questions" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
        assert client.get("/chat/profiles", headers=alice).status_code == 200


class SlowModel:
    """The rule policy, waiting before its search and its answer (the stream is idle)."""

    model_id = "slow-rules"

    def __init__(self, delay: float, search_delay: float = 0.0) -> None:
        self.inner = GuidelineRulePolicy()
        self.delay = delay
        self.search_delay = search_delay
        self.answers = 0

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        response = self.inner.complete_with_tools(
            messages, tools, system=system, temperature=temperature, max_tokens=max_tokens
        )
        if response.tool_calls:
            time.sleep(self.search_delay)
        else:
            time.sleep(self.delay)
            self.answers += 1
        return response


def test_an_idle_stream_gets_heartbeats_and_nothing_before_the_checked_answer(
    world: tuple[Path, CollectionService],
) -> None:
    model = SlowModel(delay=1.2)
    app = _app(world, {"guide_model": model}, sse_heartbeat_seconds=0.2)
    seen: list[tuple[float, Event]] = []
    with serve_in_thread(app, ready=False) as url:
        started = time.monotonic()
        with (
            httpx.Client(timeout=30) as http,
            http.stream("POST", f"{url}/chat/stream", json={"message": QUESTION}) as r,
        ):
            for event in read_events(r.iter_lines()):
                seen.append((time.monotonic(), event))
    first_token = seen[0][0] - started
    assert first_token >= 1.0  # the answer was checked whole before its first token
    pings = [c for _, e in seen for c in e.comments if c.startswith("ping")]
    assert len(pings) >= 3
    assert seen[-1][1].json()["done"] is True


def test_a_client_written_against_the_stream_format_reads_tokens_and_done(
    world: tuple[Path, CollectionService],
) -> None:
    app = _app(world)
    with serve_in_thread(app, ready=False) as url:
        run = subprocess.run(
            [
                sys.executable,
                str(ROOT / "tools" / "guide_client.py"),
                "--url",
                url,
                "--json",
                QUESTION,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert run.returncode == 0, run.stderr
    *text, done_line = run.stdout.strip().splitlines()
    done = json.loads(done_line)
    assert done["done"] is True and done["tokens"] > 5
    assert "at least 8 characters" in "\n".join(text)
    assert [c["label"] for c in done["citations"]] == ["[NIST SP 800-63B §5.1.1.1]"]


def test_lectern_serve_counts_per_socket_address_not_forwarded_headers(
    indexed_data_dir: Path, tmp_path: Path
) -> None:
    data_dir = tmp_path / "var"
    shutil.copytree(indexed_data_dir, data_dir)
    nist, _ = _documents(tmp_path / "docs")
    services = bootstrap(Settings(data_dir=data_dir))
    services.collections().add("nist", nist)  # the real ONNX model embeds the excerpts
    env = {"LECTERN_RATE_LIMIT_CHAT_GUIDE": "2/minute"}
    with lectern_serve(data_dir, **env) as url, httpx.Client(timeout=120) as http:
        statuses = [
            http.post(
                f"{url}/chat",
                json={"message": QUESTION},
                headers={"X-Forwarded-For": f"198.51.100.{n}", "X-Real-IP": f"198.51.100.{n}"},
            ).status_code
            for n in range(3)
        ]
    assert statuses == [200, 200, 429]


def test_a_stream_stops_its_turn_when_the_client_leaves(
    world: tuple[Path, CollectionService],
) -> None:
    model = SlowModel(delay=0.0, search_delay=1.5)
    sessions = InMemorySessions(60.0)
    app = _app(world, {"guide_model": model, "sessions": sessions})
    with serve_in_thread(app, ready=False) as url:
        done = threading.Event()

        def leave() -> None:
            try:
                with (
                    httpx.Client(timeout=0.5) as http,
                    http.stream(
                        "POST",
                        f"{url}/chat/stream",
                        json={"message": QUESTION, "session_id": "left-early"},
                    ) as r,
                ):
                    for _ in r.iter_lines():
                        pass
            except httpx.TimeoutException:
                pass
            done.set()

        threading.Thread(target=leave).start()
        assert done.wait(10)
        time.sleep(2.0)
    assert model.answers == 0  # stopped before its next step: no answer was written
    assert sessions.history("local", "guide:nist:left-early") == []  # nothing was stored
