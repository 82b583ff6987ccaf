"""Lectern's MCP server through the official `mcp` SDK's own client: in memory, over
streamable HTTP at /mcp on a real server, and `lectern mcp` over stdio. Real adapters on
the tiny catalog and a small Markdown collection."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import httpx2
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from lectern.bootstrap import Services, bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.entrypoints.mcp.server import build_mcp_server
from lectern.settings import Settings
from tests.e2e.serving import LECTERN, serve_in_thread

pytestmark = pytest.mark.slow
TOOLS = {
    "search_books",
    "similar_books",
    "get_book",
    "list_collections",
    "search_collection",
    "ask_knowledge_base",
    "research",
}
GUIDE = """# Reading guide

## Choosing a book
Pick a book whose first chapter you finish in one sitting.

## Keeping notes
Write the page number beside every quote you keep, so that you can find it again.
"""


@pytest.fixture(scope="module")
def data_dir(indexed_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mcp")
    target = root / "var"
    shutil.copytree(indexed_data_dir, target)
    docs = root / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text(GUIDE, encoding="utf-8")
    bootstrap(Settings(data_dir=target)).collections().add("guide", docs)
    return target


@pytest.fixture(scope="module")
def services(data_dir: Path) -> Services:
    return bootstrap(Settings(data_dir=data_dir))


def _structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data: dict[str, Any] = result.structured_content
    return data


async def _exercise(client: Client) -> None:
    listed = await client.list_tools()
    assert {t.name for t in listed.tools} == TOOLS
    assert all(t.annotations and t.annotations.read_only_hint for t in listed.tools)
    search = next(t for t in listed.tools if t.name == "search_books")
    assert search.description and "catalog" in search.description
    assert set(search.input_schema["properties"]) >= {"query", "limit", "language"}

    found = _structured(await client.call_tool("search_books", {"query": "Panem", "limit": 3}))
    top = found["books"][0]
    assert top["title"] == "The Hunger Games" and "Panem" in top["description"]
    similar = _structured(await client.call_tool("similar_books", {"book": top["book_id"]}))
    assert similar["books"] and top["book_id"] not in {b["book_id"] for b in similar["books"]}
    book = _structured(await client.call_tool("get_book", {"book": "978-0439023481"}))
    assert book["id"] == top["book_id"] and book["authors"] == ["Suzanne Collins"]
    by_title = _structured(await client.call_tool("get_book", {"book": "Gilead"}))
    assert by_title["title"].startswith("Gilead")

    collections = _structured(await client.call_tool("list_collections", {}))
    assert [c["name"] for c in collections["collections"]] == ["guide"]
    hits = _structured(
        await client.call_tool("search_collection", {"collection": "guide", "query": "page number"})
    )
    passage = hits["results"][0]["passages"][0]
    assert "page number" in passage["text"]

    read = await client.read_resource(f"lectern://books/{top['book_id']}")
    assert json.loads(read.contents[0].text)["title"] == "The Hunger Games"
    label = passage["label"]
    cited = await client.read_resource(f"lectern://passages/{quote(label, safe='')}")
    assert "Write the page number" in json.loads(cited.contents[0].text)["text"]

    # Errors inside a tool come back as tool errors; the server goes on answering.
    missing = await client.call_tool("get_book", {"book": "no such book anywhere"})
    assert missing.is_error and "no book titled" in missing.content[0].text
    unknown = await client.call_tool("search_collection", {"collection": "nope", "query": "x"})
    assert unknown.is_error and "nope" in unknown.content[0].text
    invalid = await client.call_tool("search_books", {"query": "x", "limit": 500})
    assert invalid.is_error
    with pytest.raises(MCPError):
        await client.read_resource("lectern://books/not-a-book")
    assert _structured(await client.call_tool("get_book", {"book": "Gilead"}))
    # Without a knowledge-base or research collection configured, those tools say so.
    off = await client.call_tool("ask_knowledge_base", {"question": "Where do notes go?"})
    assert off.is_error and "LECTERN_AI_KB_COLLECTION" in off.content[0].text


def test_in_memory_with_the_sdk_client(services: Services) -> None:
    async def run() -> None:
        async with Client(build_mcp_server(services)) as client:
            await _exercise(client)

    anyio.run(run)


def test_knowledge_base_and_research_tools(data_dir: Path) -> None:
    configured = bootstrap(
        Settings(data_dir=data_dir, ai_kb_collection="guide", ai_research_collection="guide")
    )

    async def run() -> None:
        async with Client(build_mcp_server(configured)) as client:
            asked = await client.call_tool(
                "ask_knowledge_base",
                {"question": "Where should I write the page number of a quote I keep?"},
            )
            reply = _structured(asked)
            assert set(reply) >= {"should_reply", "reply", "citations"}
            for citation in reply["citations"]:
                assert " ".join(citation["quote"].split()) in " ".join(GUIDE.split())
            found = _structured(
                await client.call_tool("research", {"question": "keeping notes of quotes"})
            )
            assert "answer" in found
            for citation in found["citations"]:
                assert " ".join(citation["quote"].split()) in " ".join(GUIDE.split())
            assert set(found["cited_sources"]) == {c["source_id"] for c in found["citations"]}
            bad = await client.call_tool("research", {"question": "x", "template": "poem"})
            assert bad.is_error
            for arguments in ({"source_type": ["nvd"]}, {"severity": "severe"}):
                refused = await client.call_tool("research", {"question": "x", **arguments})
                assert refused.is_error, arguments
            unknown = await client.call_tool("research", {"question": "x", "severity": "severe"})
            assert "unknown severity 'severe'" in unknown.content[0].text
            plain = await client.call_tool("research", {"question": "x", "source_type": ["kev"]})
            assert plain.is_error and "has no source_type filter" in plain.content[0].text

    anyio.run(run)


def test_over_streamable_http_on_the_app(data_dir: Path) -> None:
    app = create_app(bootstrap(Settings(data_dir=data_dir, api_keys="alice:alice-key")))

    async def run(url: str) -> None:
        headers = {"Authorization": "Bearer alice-key"}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            transport = streamable_http_client(f"{url}/mcp", http_client=http)
            async with Client(transport) as client:
                await _exercise(client)
        async with httpx2.AsyncClient(timeout=10) as http:
            refused = await http.post(f"{url}/mcp", json={"jsonrpc": "2.0", "id": 1})
            assert refused.status_code == 401
            foreign = await http.post(
                f"{url}/mcp", json={}, headers={**headers, "Host": "evil.example"}
            )
            assert foreign.status_code in (400, 421)

    with serve_in_thread(app) as url:
        anyio.run(run, url)


def test_lectern_mcp_over_stdio(data_dir: Path) -> None:
    env = {**os.environ, "LECTERN_DATA_DIR": str(data_dir), "LECTERN_LOG_LEVEL": "WARNING"}

    async def run() -> None:
        params = StdioServerParameters(command=str(LECTERN), args=["mcp"], env=env)
        async with Client(params, read_timeout_seconds=120) as client:
            await _exercise(client)

    anyio.run(run)
