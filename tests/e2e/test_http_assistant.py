"""The assistant over HTTP with the real adapters (SQLite, bm25s, FAISS, ONNX) on the tiny
catalog: streamed chat, decisions and their problems, limits, keys, lists and ratings.

Streams that must be read as they happen (buffer-then-stream, disconnects, heartbeats) are
read from a real uvicorn server; whole streams through the TestClient.
"""

from __future__ import annotations

import re
import shutil
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.application.providers import InMemoryProviderRecords
from lectern.bootstrap import bootstrap
from lectern.domain.assistant import AIResponse, Message, ToolCall, ToolSpec
from lectern.domain.books import SourceRecord
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.e2e.serving import serve_in_thread
from tests.e2e.sse import Event, parse, read_events

pytestmark = pytest.mark.slow
EVENTS = {"Accept": "text/event-stream"}
KEYS = "alice:alice-key,bob:bob-key"
ALICE = {"X-API-Key": "alice-key"}
BOB = {"X-API-Key": "bob-key"}


@pytest.fixture(scope="module")
def data_dir(indexed_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("assistant-http") / "var"
    shutil.copytree(indexed_data_dir, target)
    return target


def _app(data_dir: Path, overrides: dict[str, Any] | None = None, **settings: Any) -> Any:
    return create_app(bootstrap(Settings(data_dir=data_dir, **settings), **(overrides or {})))


def _client(data_dir: Path, overrides: dict[str, Any] | None = None, **settings: Any) -> TestClient:
    return TestClient(_app(data_dir, overrides, **settings))


def _problem(response: httpx.Response, status: int, title: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["title"] == title, body
    return body


def _field_text(book: dict[str, Any], field: str) -> str:
    value = book.get({"published_year": "year"}.get(field, field))
    text = ", ".join(value) if isinstance(value, list) else str(value)
    return " ".join(text.split()).casefold()


def _check_citations(client: TestClient, citations: Sequence[dict[str, Any]]) -> None:
    """Each citation's snippet is literal in the field of the book it names."""
    assert citations
    for citation in citations:
        match = re.fullmatch(r"book:([0-9a-f-]{36})#(\w+)", citation["source"])
        assert match, citation
        book = client.get(f"/books/{match.group(1)}").json()
        snippet = " ".join(citation["snippet"].split()).casefold()
        assert snippet in _field_text(book, match.group(2)), citation
        assert citation["url"].startswith(f"/?book={match.group(1)}&field={match.group(2)}")


# --- the chat, whole and streamed ---------------------------------------------------------


def test_json_chat_answers_with_checked_citations(data_dir: Path) -> None:
    with _client(data_dir) as client:
        response = client.post("/assistant/chat", json={"message": "find books about Panem"})
        assert response.status_code == 200, response.text
        assert response.headers["content-type"] == "application/json"
        reply = response.json()
        assert reply["tool_calls"][0]["tool"] == "search_books"
        assert "The Hunger Games" in reply["text"]
        assert reply["actions"] == []
        assert not {"no_evidence", "missing_citations"} & set(reply["grounding_flags"])
        _check_citations(client, reply["citations"])
        history = client.get(f"/assistant/conversations/{reply['conversation_id']}").json()
        assert [m["role"] for m in history["messages"]] == ["user", "assistant"]


def test_streamed_chat_sends_tools_then_previews_then_checked_text_then_done(
    data_dir: Path,
) -> None:
    message = "find two dystopian books and add them to a new list called Streamed"
    with _client(data_dir) as client:
        response = client.post("/assistant/chat", json={"message": message}, headers=EVENTS)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = parse(response.text)
        names = " ".join(e.name for e in events)
        assert re.fullmatch(r"(tool_call tool_result )+(action_preview )+(text )+done", names)
        calls = [e.json() for e in events if e.name == "tool_call"]
        results = [e.json() for e in events if e.name == "tool_result"]
        assert [c["id"] for c in calls] == [r["id"] for r in results]
        assert [c["tool"] for c in calls] == [
            "search_books",
            "create_list",
            "add_to_list",
            "add_to_list",
        ]
        previews = [e.json() for e in events if e.name == "action_preview"]
        waiting = [r["output"]["action_id"] for r in results if r["outcome"] == "preview"]
        assert [p["action_id"] for p in previews] == waiting and len(waiting) == 3
        create = previews[0]
        assert create["tool"] == "create_list" and create["status"] == "pending"
        assert create["diff"][0] == {"field": "name", "old": None, "new": "Streamed"}
        expires = datetime.fromisoformat(create["expires_at"])
        assert timedelta(minutes=59) < expires - datetime.now(UTC) <= timedelta(hours=1)
        text = "".join(e.json()["content"] for e in events if e.name == "text")
        done = events[-1].json()
        assert not {"no_evidence", "missing_citations"} & set(done["grounding_flags"])
        for citation in done["citations"]:
            assert f'"{citation["snippet"]}" [{citation["source"]}]' in text
        history = client.get(f"/assistant/conversations/{done['conversation_id']}").json()
        assert history["messages"][-1]["content"] == text
        pending = client.get("/assistant/actions").json()
        assert set(waiting) <= {a["id"] for a in pending}


class GatedModel:
    """The rule policy, except that its final reply waits for the test and cites a quote
    that is in no book (the guardrails must cut it before any text is sent)."""

    model_id = "gated-rules"

    def __init__(self) -> None:
        self.inner = RulePolicy()
        self.gate = threading.Event()
        self.waiting = threading.Event()

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
            return response
        self.waiting.set()
        assert self.gate.wait(20)
        source = re.search(r"\[(book:[^\]]+#title)\]", response.text)
        invented = f' Also "a sentence no book contains" [{source.group(1) if source else "x"}].'
        return AIResponse(response.text + invented, model=self.model_id)


def _collect(url: str, body: dict[str, Any], into: list[tuple[float, Event]], **kw: Any) -> None:
    with (
        httpx.Client(timeout=30) as http,
        http.stream("POST", url, json=body, headers={**EVENTS, **kw.get("headers", {})}) as r,
    ):
        for event in read_events(r.iter_lines()):
            into.append((time.monotonic(), event))


def test_no_text_is_sent_before_the_whole_reply_is_checked(data_dir: Path) -> None:
    model = GatedModel()
    app = _app(data_dir, {"chat_model": model})
    with serve_in_thread(app) as url:
        seen: list[tuple[float, Event]] = []
        reader = threading.Thread(
            target=_collect,
            args=(f"{url}/assistant/chat", {"message": "find books about Panem"}, seen),
        )
        reader.start()
        assert model.waiting.wait(20)
        time.sleep(0.5)  # the model is "writing": tool events are out, no text may be
        before = [e.name for _, e in seen]
        assert before == ["tool_call", "tool_result"]
        model.gate.set()
        reader.join(20)
    names = [e.name for _, e in seen]
    assert names[:2] == ["tool_call", "tool_result"] and names[-1] == "done"
    text = "".join(e.json()["content"] for _, e in seen if e.name == "text")
    assert "a sentence no book contains" not in text and "The Hunger Games" in text
    assert "invalid_citations_dropped" in seen[-1][1].json()["grounding_flags"]


class LoopingModel:
    """Asks for a search at every step, slowly: only a stop ends its turn early."""

    model_id = "looping"

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.calls = 0

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        del messages, tools, system, temperature, max_tokens
        self.calls += 1
        time.sleep(self.delay)
        call = ToolCall(f"loop-{self.calls}", "search_books", {"query": "games"})
        return AIResponse("", (call,), model=self.model_id)


def test_a_client_that_goes_away_stops_the_turn(data_dir: Path) -> None:
    model = LoopingModel(delay=0.3)
    app = _app(data_dir, {"chat_model": model}, assistant_max_steps=20)
    body = {"message": "games", "conversation_id": "went-away-1"}
    with serve_in_thread(app) as url, httpx.Client(timeout=30) as http:
        with http.stream("POST", f"{url}/assistant/chat", json=body, headers=EVENTS) as r:
            for event in read_events(r.iter_lines()):
                if event.name == "tool_result":
                    break  # the reader closes the page
        time.sleep(1.0)
        settled = model.calls
        time.sleep(1.0)
        assert model.calls == settled <= 4  # stopped at its next step, well short of 20
        gone = http.get(f"{url}/assistant/conversations/went-away-1")
    assert gone.status_code == 404  # nothing of the stopped turn was stored


def test_an_idle_stream_gets_heartbeats(data_dir: Path) -> None:
    model = GatedModel()
    app = _app(data_dir, {"chat_model": model}, sse_heartbeat_seconds=0.2)
    with serve_in_thread(app) as url:
        seen: list[tuple[float, Event]] = []
        reader = threading.Thread(
            target=_collect, args=(f"{url}/assistant/chat", {"message": "Panem"}, seen)
        )
        reader.start()
        assert model.waiting.wait(20)
        time.sleep(1.0)
        model.gate.set()
        reader.join(20)
    pings = [c for _, e in seen for c in e.comments if c.startswith("ping")]
    assert len(pings) >= 3


def test_two_users_chatting_at_once_never_see_each_other(data_dir: Path) -> None:
    app = _app(data_dir, api_keys=KEYS)
    with serve_in_thread(app) as url:
        requests = {
            "alice": ({"message": "find books about Panem"}, ALICE),
            "bob": ({"message": "create a list called Bob's Secrets"}, BOB),
        }
        streams: dict[str, list[tuple[float, Event]]] = {"alice": [], "bob": []}
        with ThreadPoolExecutor(4) as pool:
            for _ in range(2):  # twice each, all four at once
                for user, (body, headers) in requests.items():
                    pool.submit(
                        _collect, f"{url}/assistant/chat", body, streams[user], headers=headers
                    )
        with httpx.Client(base_url=url, timeout=30) as http:
            alice_actions = http.get("/assistant/actions", headers=ALICE).json()
            bob_actions = http.get("/assistant/actions", headers=BOB).json()
            bob_done = [e.json() for _, e in streams["bob"] if e.name == "done"]
            alice_done = [e.json() for _, e in streams["alice"] if e.name == "done"]
            assert len(bob_done) == len(alice_done) == 2
            assert alice_actions == [] and len(bob_actions) >= 1
            alice_text = "".join(e.data for _, e in streams["alice"])
            bob_text = "".join(e.data for _, e in streams["bob"])
            assert "Bob's Secrets" not in alice_text and "Panem" in alice_text
            assert "Panem" not in bob_text and "Bob's Secrets" in bob_text
            conversation = bob_done[0]["conversation_id"]
            assert http.get(f"/assistant/conversations/{conversation}", headers=BOB).is_success
            hidden = http.get(f"/assistant/conversations/{conversation}", headers=ALICE)
            assert hidden.status_code == 404
            action = bob_actions[0]["id"]
            stolen = http.post(f"/assistant/actions/{action}/approve", headers=ALICE)
            _problem(stolen, 404, "Action not found")
            assert http.get(f"/assistant/actions/{action}", headers=ALICE).status_code == 404
            assert http.get("/lists", headers=ALICE).json() == []


# --- decisions -----------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


def _propose(client: TestClient, message: str, **headers: str) -> list[dict[str, Any]]:
    reply = client.post("/assistant/chat", json={"message": message}, headers=headers).json()
    actions: list[dict[str, Any]] = reply["actions"]
    return actions


def test_approve_streams_the_rest_of_the_turn_and_the_list_shows_the_book(data_dir: Path) -> None:
    with _client(data_dir) as client:
        (create,) = _propose(client, "create a list called Approved Here")
        approved = client.post(f"/assistant/actions/{create['id']}/approve", headers=EVENTS)
        events = parse(approved.text)
        assert [e.name for e in events] == ["tool_result", "text", "done"]
        assert events[0].json()["outcome"] == "executed"
        assert events[1].json()["content"].startswith("Done: Create the reading list")
        assert events[2].json()["decision"]["status"] == "executed"
        (add,) = _propose(client, "add The Hunger Games to my Approved Here list")
        reply = client.post(f"/assistant/actions/{add['id']}/approve").json()
        assert reply["decision"]["status"] == "executed" and reply["text"].startswith("Done")
        lists = client.get("/lists").json()
        summary = next(x for x in lists if x["name"] == "Approved Here")
        assert summary["books"] == 1
        shown = client.get(f"/lists/{summary['id']}").json()
        assert [e["title"] for e in shown["entries"]] == ["The Hunger Games"]
        (rating,) = _propose(client, "rate The Hunger Games 5 stars")
        rejected = client.post(f"/assistant/actions/{rating['id']}/reject", headers=EVENTS)
        events = parse(rejected.text)
        assert events[0].json()["outcome"] == "rejected"
        assert client.get("/ratings").json() == []
        (rating,) = _propose(client, "rate The Hunger Games 4 stars")
        client.post(f"/assistant/actions/{rating['id']}/approve")
        (stars,) = client.get("/ratings").json()
        assert stars["stars"] == 4 and stars["title"] == "The Hunger Games"


def test_decisions_that_cannot_happen_are_problems(data_dir: Path) -> None:
    clock = Clock()
    with _client(data_dir, {"clock": clock}, api_keys=KEYS) as client:
        (create,) = _propose(client, "create a list called Problems", **ALICE)
        client.post(f"/assistant/actions/{create['id']}/approve", headers=ALICE)
        again = client.post(f"/assistant/actions/{create['id']}/approve", headers=ALICE)
        _problem(again, 409, "Action already decided")
        (to_winter,) = _propose(client, "rename my Problems list to Winter", **ALICE)
        (to_autumn,) = _propose(client, "rename my Problems list to Autumn", **ALICE)
        client.post(f"/assistant/actions/{to_autumn['id']}/approve", headers=ALICE)
        changed = client.post(
            f"/assistant/actions/{to_winter['id']}/approve", headers={**ALICE, **EVENTS}
        )
        body = _problem(changed, 409, "Changed since preview")
        fresh = client.get(f"/assistant/actions/{body['fresh_action_id']}", headers=ALICE)
        assert fresh.json()["diff"] == [{"field": "name", "old": "Autumn", "new": "Winter"}]
        not_yours = client.post(f"/assistant/actions/{fresh.json()['id']}/reject", headers=BOB)
        _problem(not_yours, 404, "Action not found")
        clock.now += timedelta(hours=2)
        late = client.post(f"/assistant/actions/{fresh.json()['id']}/approve", headers=ALICE)
        _problem(late, 409, "Action expired")
        listed = client.get("/assistant/actions?include_decided=true", headers=ALICE).json()
        assert {a["id"]: a["status"] for a in listed}[fresh.json()["id"]] == "expired"
        unknown = client.post("/assistant/actions/no-such-action/approve", headers=ALICE)
        _problem(unknown, 404, "Action not found")
        _problem(client.get("/lists/no-such-list", headers=ALICE), 404, "Reading list not found")


def test_a_switched_off_assistant_says_so(data_dir: Path) -> None:
    with _client(data_dir, assistant_enabled=False) as client:
        off = client.post("/assistant/chat", json={"message": "hello"}, headers=EVENTS)
        body = _problem(off, 404, "Assistant is switched off")
        assert "LECTERN_ASSISTANT_ENABLED" in body["detail"]
        _problem(client.get("/assistant/actions"), 404, "Assistant is switched off")
        completion = {"model": "lectern-assistant", "messages": [{"role": "user", "content": "hi"}]}
        _problem(
            client.post("/v1/chat/completions", json=completion), 404, "Assistant is switched off"
        )
        assert client.get("/lists").status_code == 200  # the reader's lists stay readable


def test_invalid_chat_bodies_are_refused(data_dir: Path) -> None:
    with _client(data_dir) as client:
        for body in (
            {},
            {"message": ""},
            {"message": "hi", "conversation_id": "../etc"},
            {"message": "hi", "page_context": {"type": "planet"}},
            {"message": "hi", "extra": 1},
        ):
            response = client.post("/assistant/chat", json=body)
            _problem(response, 422, "Invalid request")


# --- limits and keys -----------------------------------------------------------------------


def test_chat_turns_have_their_own_limit_per_user_that_headers_do_not_lift(
    data_dir: Path,
) -> None:
    with _client(data_dir, rate_limit_chat="2/minute", api_keys=KEYS) as client:
        body = {"message": "who wrote Gilead?"}
        statuses = [
            client.post("/assistant/chat", json=body, headers=ALICE).status_code for _ in range(2)
        ]
        assert statuses == [200, 200]
        spoofed = {**ALICE, "X-Forwarded-For": "203.0.113.9", "X-Real-IP": "203.0.113.9"}
        refused = client.post("/assistant/chat", json=body, headers=spoofed)
        problem = _problem(refused, 429, "Too many requests")
        assert "chat turns" in problem["detail"] and int(refused.headers["Retry-After"]) >= 1
        assert client.post("/v1/chat/completions", json={}, headers=ALICE).status_code == 429
        assert client.get("/lists", headers=ALICE).status_code == 200  # other routes go on
        assert client.post("/assistant/chat", json=body, headers=BOB).status_code == 200


def test_the_key_can_come_as_a_bearer_token(data_dir: Path) -> None:
    with _client(data_dir, api_keys=KEYS) as client:
        ok = client.get("/lists", headers={"Authorization": "Bearer bob-key"})
        assert ok.status_code == 200
        wrong = client.get("/lists", headers={"Authorization": "Bearer guess"})
        _problem(wrong, 401, "Unauthorized")
        assert "Bearer" in wrong.headers["WWW-Authenticate"]
        _problem(
            client.get("/lists", headers={"Authorization": "Basic Ym9iLWtleQ=="}),
            401,
            "Unauthorized",
        )


def test_a_proposed_correction_shows_its_review_in_the_preview(data_dir: Path) -> None:
    records = InMemoryProviderRecords()
    app = _app(data_dir, {"provider_records": records}, api_keys=KEYS)
    services = app.state.services
    book = next(
        b
        for batch in services.catalog.iter_batches()
        for b in batch
        if b.title == "The Hunger Games"
    )
    entry = services.catalog.get_entry(book.id)
    ref = entry.sources[0]
    records.save(
        [SourceRecord(ref.source, ref.source_id, book.title, published_year=2009, language="en")]
    )
    with TestClient(app) as client:
        (action,) = _propose(
            client, "the year of The Hunger Games is wrong, it should be 2009", **ALICE
        )
        assert action["tool"] == "propose_correction"
        review = action["review"]
        assert review["status"] == "done"
        (year,) = review["fields"]
        assert year["verdict"] == "new" and year["new_by"] == [f"[{ref.source} {ref.source_id}]"]
        assert review["citations"] == [
            {
                "source": f"record:{ref.source}:{ref.source_id}#published_year",
                "label": f"[{ref.source} {ref.source_id}]",
                "snippet": "2009",
            }
        ]
        shown = client.get(f"/assistant/actions/{action['id']}", headers=ALICE).json()
        assert shown["review"] == review and shown["status"] == "pending"
        assert client.get(f"/assistant/actions/{action['id']}", headers=BOB).status_code == 404
