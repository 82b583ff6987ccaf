"""The chat as a Vercel AI SDK UI message stream, read by the real `ai` package in Node
(tests/node: its DefaultChatTransport checks every chunk against the SDK's own schema and
readUIMessageStream assembles the message parts), against a real uvicorn server."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.conftest import IN_CI, ROOT
from tests.e2e.serving import serve_in_thread
from tests.e2e.sse import parse

pytestmark = pytest.mark.slow
NODE_DIR = ROOT / "tests" / "node"
SCRIPT = NODE_DIR / "read_ui_stream.mjs"


def _parts(message: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [p for p in message["parts"] if p["type"] == kind]


@pytest.fixture(scope="module")
def messages(indexed_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not (NODE_DIR / "node_modules" / "ai").is_dir() or shutil.which("node") is None:
        message = "the AI SDK is not installed: `make node-deps` installs it into tests/node"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    data_dir = tmp_path_factory.mktemp("ai-sdk") / "var"
    shutil.copytree(indexed_data_dir, data_dir)
    app = create_app(bootstrap(Settings(data_dir=data_dir, api_keys="alice:alice-key")))
    with serve_in_thread(app) as url:
        done = subprocess.run(
            ["node", str(SCRIPT), url, "alice-key"],
            cwd=NODE_DIR,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        result: dict[str, Any] = json.loads(done.stdout)
        with httpx.Client(base_url=url, headers={"X-API-Key": "alice-key"}) as http:
            result["lists"] = http.get("/lists").json()
            raw = http.post(
                "/assistant/chat",
                json={"message": "who wrote Gilead?"},
                headers={"x-vercel-ai-ui-message-stream": "v1"},
            )
            result["raw"] = {"headers": dict(raw.headers), "text": raw.text}
    return result


def test_an_answer_has_its_tool_text_sources_and_flags(messages: dict[str, Any]) -> None:
    found = messages["found"]
    (tool,) = _parts(found, "dynamic-tool")
    assert tool["toolName"] == "search_books" and tool["state"] == "output-available"
    assert tool["output"]["books"][0]["title"] == "The Hunger Games"
    (text,) = _parts(found, "text")
    assert text["state"] == "done" and "The Hunger Games" in text["text"]
    sources = _parts(found, "source-url")
    assert sources and all(s["url"].startswith("/?book=") for s in sources)
    assert all(f'"{s["title"]}"' in text["text"] for s in sources)
    metadata = found["metadata"]
    assert metadata["conversation_id"] and isinstance(metadata["grounding_flags"], list)
    assert [c["snippet"] for c in metadata["citations"]] == [s["title"] for s in sources]


def test_a_proposed_change_asks_for_approval_with_its_diff(messages: dict[str, Any]) -> None:
    proposed = messages["proposed"]
    (tool,) = _parts(proposed, "dynamic-tool")
    assert tool["toolName"] == "create_list" and tool["state"] == "approval-requested"
    (preview,) = _parts(proposed, "data-action-preview")
    assert tool["approval"]["id"] == preview["id"] == tool["toolCallId"]
    assert preview["data"]["diff"][0] == {"field": "name", "old": None, "new": "Node Check"}
    assert preview["data"]["status"] == "pending" and preview["data"]["expires_at"]


def test_approval_and_rejection_continue_the_same_message(messages: dict[str, Any]) -> None:
    approved, proposed = messages["approved"], messages["proposed"]
    assert approved["id"] == proposed["id"]  # the continuation added to the same message
    (tool,) = _parts(approved, "dynamic-tool")
    assert tool["state"] == "output-available" and tool["output"]["status"] == "executed"
    assert _parts(approved, "text")[-1]["text"].startswith("Done: Create the reading list")
    (refused,) = _parts(messages["rejected"], "dynamic-tool")
    assert refused["state"] == "output-denied"
    assert [entry["name"] for entry in messages["lists"]] == ["Node Check"]


def test_the_header_asks_for_the_same_protocol(messages: dict[str, Any]) -> None:
    raw = messages["raw"]
    assert raw["headers"]["x-vercel-ai-ui-message-stream"] == "v1"
    chunks = [e.data for e in parse(raw["text"])]
    assert chunks[-1] == "[DONE]"
    kinds = [json.loads(c)["type"] for c in chunks[:-1]]
    assert kinds[0] == "start" and kinds[-1] == "finish"
    assert kinds.index("tool-input-available") < kinds.index("text-start")
