"""A project's documents reach its organization's members only, on every surface (issue 25).

Alice (organization Acme) uploads a memo into her project; Bob has an organization and a
project of his own; Carol is the only collection writer and a member of nothing. Every
route, MCP tool and resource, and assistant tool that reads documents answers Bob (and
Carol) as for a name that does not exist, while Alice, the control, reads the memo.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import httpx
import httpx2
import pytest
from fastapi.testclient import TestClient
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from openai import OpenAI

from lectern.application.assistant.tools import QueryTool, ToolContext
from lectern.bootstrap import Services, bootstrap
from lectern.domain.workspace import ProjectDocument
from lectern.entrypoints.http.app import create_app
from lectern.errors import LecternError, ToolError
from lectern.settings import Settings
from tests.collection_wiring import collection_service
from tests.e2e.serving import serve_in_thread
from tests.workspace_world import ADVISORIES

KEYS = "alice:alice-key,bob:bob-key,carol:carol-key"
ALICE = {"X-API-Key": "alice-key"}
BOB = {"X-API-Key": "bob-key"}
CAROL = {"X-API-Key": "carol-key"}
MEMO = (
    "# Merger memo\n\n"
    "The Zephyrine acquisition closes on the fourth of March; nobody outside Acme knows.\n\n"
    "## Terms\n\n"
    "Acme pays forty million for Zephyrine in cash and shares.\n"
)


@dataclass
class World:
    client: TestClient
    services: Services
    settings: Settings
    collection: str
    document_id: str
    passage_id: str
    label: str
    link_id: str
    bob_project: str


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json() if response.content else None


@pytest.fixture
def world(tmp_path: Path) -> World:
    data_dir = tmp_path / "var"
    collections = collection_service(data_dir)
    folder = tmp_path / "advisories"
    folder.mkdir()
    for name, text in ADVISORIES.items():
        (folder / name).write_text(text, encoding="utf-8")
    collections.add("advisories", folder)
    settings = Settings(
        data_dir=data_dir, api_keys=KEYS, collection_writers="carol", review_retry_seconds=0
    )
    services = bootstrap(settings, collections=collections)
    client = TestClient(create_app(services, load_indexes=False))
    acme = _ok(client.post("/organizations", json={"name": "Acme"}, headers=ALICE), 201)
    project = _ok(
        client.post(f"/organizations/{acme['id']}/projects", json={"name": "Deal"}, headers=ALICE),
        201,
    )
    own = _ok(client.post("/organizations", json={"name": "Bobco"}, headers=BOB), 201)
    bob_project = _ok(
        client.post(f"/organizations/{own['id']}/projects", json={"name": "Own"}, headers=BOB),
        201,
    )
    link = _ok(
        client.post(
            f"/projects/{project['id']}/uploads?filename=memo.md&wait=true",
            content=MEMO.encode(),
            headers=ALICE,
        ),
        201,
    )
    name, document_id = link["collection"], link["document_id"]
    shown = _ok(client.get(f"/collections/{name}/documents/{document_id}", headers=ALICE))
    passage = shown["passages"][-1]
    return World(
        client,
        services,
        settings,
        name,
        document_id,
        passage["id"],
        passage["label"],
        link["id"],
        bob_project["id"],
    )


def _reads(world: World) -> list[tuple[str, str, dict[str, Any] | None]]:
    """Every HTTP read of a collection document: (method, path, JSON body)."""
    c, d = world.collection, world.document_id
    return [
        ("GET", f"/collections/{c}", None),
        ("POST", f"/collections/{c}/search", {"query": "Zephyrine acquisition"}),
        ("GET", f"/collections/{c}/documents/{d}", None),
        ("GET", f"/collections/{c}/documents/{d}/similar", None),
        ("GET", f"/collections/{c}/documents/{d}/review", None),
        ("GET", f"/collections/{c}/passages/{world.passage_id}", None),
        ("GET", f"/labels/resolve?label={quote(world.label)}", None),
        ("POST", "/research", {"question": "When does the acquisition close?", "collection": c}),
        ("POST", "/kb/reply", {"question": "When does the acquisition close?", "collection": c}),
        ("GET", f"/project-documents/{world.link_id}", None),
    ]


def test_every_http_read_is_404_to_another_organization(world: World) -> None:
    client = world.client
    for method, path, body in _reads(world):
        for outsider in (BOB, CAROL):
            response = client.request(method, path, json=body, headers=outsider)
            assert response.status_code == 404, (method, path, response.text)
            assert "Zephyrine" not in response.text and "Acme" not in response.text
    # The control: the owner's member reads what the others cannot (the review and the
    # knowledge-base index may not exist, but the collection is found).
    for method, path, body in _reads(world):
        response = client.request(method, path, json=body, headers=ALICE)
        detail = str(response.json().get("detail", "")) if response.status_code >= 400 else ""
        assert not detail.startswith(("no collection named", "no document")), (path, detail)
        assert response.status_code < 500, (method, path, response.text)
    assert world.collection in {c["name"] for c in _ok(client.get("/collections", headers=ALICE))}
    for outsider in (BOB, CAROL):
        listed = {c["name"] for c in _ok(client.get("/collections", headers=outsider))}
        assert listed == {"advisories"}
    found = _ok(client.get("/workspace/search?q=Zephyrine", headers=BOB))
    assert found == []
    assert _ok(client.get("/workspace/search?q=Zephyrine", headers=ALICE))


def test_another_organization_cannot_link_the_document(world: World) -> None:
    client = world.client
    linked = client.post(
        f"/projects/{world.bob_project}/documents",
        json={"collection": world.collection, "document_id": world.document_id},
        headers=BOB,
    )
    assert linked.status_code == 404, linked.text
    assert _ok(client.get(f"/projects/{world.bob_project}/documents", headers=BOB)) == []


def test_a_link_stored_before_the_check_leads_nowhere(world: World) -> None:
    """A link made before linking was checked reads as absent, in the workspace and tools."""
    workspace = world.services.workspace()
    now = world.services.clock()
    workspace.store.add_document(
        ProjectDocument(
            "old-link",
            world.bob_project,
            world.collection,
            world.document_id,
            "Merger memo",
            "link",
            "bob",
            now,
            now,
        )
    )
    client = world.client
    assert client.get("/project-documents/old-link", headers=BOB).status_code == 404
    assert _ok(client.get(f"/projects/{world.bob_project}/documents", headers=BOB)) == []
    assert _ok(client.get("/workspace/search?q=Zephyrine", headers=BOB)) == []


def _run(services: Services, name: str, user: str, arguments: dict[str, Any]) -> Any:
    tool = services.tool_registry().get(name)
    assert isinstance(tool, QueryTool), name
    return tool.run(tool.parse(arguments), ToolContext(user, "c1", services.clock())).data


def test_assistant_tools_find_nothing_of_another_organization(world: World) -> None:
    # The /v1 endpoint and the chat offer these same tools, run as the caller.
    services = world.services
    for user in ("bob", "carol"):
        with pytest.raises(LecternError, match="no document"):
            _run(services, "get_document_details", user, {"document_id": world.link_id})
        with pytest.raises(LecternError, match="no document"):
            _run(services, "get_document_details", user, {"document_id": world.document_id})
        found = _run(services, "search_content", user, {"query": "Zephyrine"})
        assert "Zephyrine" not in str(found)
    shown = _run(services, "get_document_details", "alice", {"document_id": world.link_id})
    assert "Zephyrine" in str(shown)
    # The research and knowledge-base tools read a configured collection: even pointed at a
    # project's collection, they read it for its organization's members only.
    configured = bootstrap(
        world.settings.model_copy(
            update={
                "ai_research_collection": world.collection,
                "ai_kb_collection": world.collection,
            }
        ),
        collections=services.collections(),
    )
    calls = {
        "search_threats": {"query": "Zephyrine acquisition"},
        "research": {"question": "When does the Zephyrine acquisition close?"},
        "get_advisory": {"item_id": "memo.md"},
        "get_recommendations": {"item_id": "memo.md"},
        "ask_knowledge_base": {"question": "When does the Zephyrine acquisition close?"},
    }
    for name, arguments in calls.items():
        for user in ("bob", "carol"):
            with pytest.raises(ToolError, match="no collection named"):
                _run(configured, name, user, arguments)
    found = _run(configured, "search_threats", "alice", calls["search_threats"])
    assert "Zephyrine" in str(found)


def test_the_openai_endpoint_answers_from_the_callers_organization_only(world: World) -> None:
    """The real `openai` client on /v1: the same questions, Bob and Carol get nothing."""

    def ask(key: str, question: str) -> str:
        client = OpenAI(
            base_url="http://testserver/v1", api_key=key, http_client=world.client, max_retries=0
        )
        reply = client.chat.completions.create(
            model="lectern-assistant", messages=[{"role": "user", "content": question}]
        )
        return reply.choices[0].message.content or ""

    questions = [
        "Search my documents for the Zephyrine acquisition",
        f"Show document {world.link_id}",
        f"Show document {world.document_id}",
    ]
    for key in ("bob-key", "carol-key"):
        for question in questions:
            assert "Zephyrine" not in ask(key, question), (key, question)
    for question in questions[:2]:
        assert "Zephyrine" in ask("alice-key", question), question


def test_mcp_tools_and_resources_over_http(world: World) -> None:
    app = create_app(world.services, load_indexes=False)
    passage_uri = f"lectern://passages/{quote(world.label, safe='')}"

    async def as_user(url: str, key: str) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            transport = streamable_http_client(f"{url}/mcp", http_client=http)
            async with Client(transport) as client:
                listed = await client.call_tool("list_collections", {})
                seen["list"] = {c["name"] for c in listed.structured_content["collections"]}
                searched = await client.call_tool(
                    "search_collection",
                    {"collection": world.collection, "query": "Zephyrine acquisition"},
                )
                seen["search"] = (searched.is_error, searched.content[0].text)
                try:
                    resource = await client.read_resource(passage_uri)
                    seen["passage"] = resource.contents[0].text  # type: ignore[union-attr]
                except MCPError as error:
                    seen["passage"] = f"error: {error}"
        return seen

    async def run(url: str) -> None:
        bob = await as_user(url, "bob-key")
        assert bob["list"] == {"advisories"}
        assert bob["search"][0] and "no collection named" in bob["search"][1]
        assert bob["passage"].startswith("error:") and "Zephyrine" not in bob["passage"]
        alice = await as_user(url, "alice-key")
        assert world.collection in alice["list"]
        assert not alice["search"][0] and "Zephyrine" in alice["search"][1]
        assert "Zephyrine" in alice["passage"]

    with serve_in_thread(app, ready=False) as url:
        for _ in range(100):  # serving once it answers at all (indexes are not loaded)
            try:
                httpx.get(f"{url}/health/live", headers=ALICE, timeout=1)
                break
            except httpx.HTTPError:
                anyio.run(anyio.sleep, 0.1)
        anyio.run(run, url)


def test_a_collection_writer_cannot_overwrite_a_project_document(world: World) -> None:
    """Finding 2: Carol (a writer, not a member) replaced Alice's memo through /collections."""
    client = world.client
    replaced = client.post(
        f"/collections/{world.collection}/documents?filename=memo.md",
        content=b"# Merger memo\n\nThe deal is off.\n",
        headers=CAROL,
    )
    assert replaced.status_code == 404, replaced.text
    shown = _ok(
        client.get(f"/collections/{world.collection}/documents/{world.document_id}", headers=ALICE)
    )
    assert "Zephyrine" in shown["text"] and "The deal is off" not in shown["text"]
    # Even a member who is a writer changes project documents through the project only.
    writers = world.settings.model_copy(update={"collection_writers": "alice,carol"})
    member_writer = TestClient(
        create_app(bootstrap(writers, collections=world.services.collections()), load_indexes=False)
    )
    refused = member_writer.post(
        f"/collections/{world.collection}/documents?filename=memo.md",
        content=b"# Merger memo\n\nThe deal is off.\n",
        headers=ALICE,
    )
    assert refused.status_code == 403, refused.text
    assert "/projects/" in refused.json()["detail"]
