"""Lectern as an MCP server (the official `mcp` SDK): read-only tools and resources.

Tools: `search_books`, `similar_books`, `get_book` and, over the document collections,
`list_collections` and `search_collection`; each is annotated read-only. Resources: a book
by id (`lectern://books/{book_id}`) and a passage by its label
(`lectern://passages/{label}`, the label percent-encoded). Action tools are not offered.

The book tools are the assistant's own query tools (same planning, relevance gate and
citable fields); a failure inside a tool comes back as a tool error with its message, never
as a crash. Collections and passages are read as the caller (`caller`: the API key's user
over HTTP, the local user over stdio), through the same `CollectionAccess` check as the
HTTP routes: another organization's project collection is "not found". `lectern mcp`
serves it over stdio; the HTTP app mounts it at `/mcp` (streamable HTTP, stateless, so any
worker can answer).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from mcp.server.mcpserver import Context, MCPServer, ResourceSecurity
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.mcpserver.exceptions import ToolError as McpToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import ToolAnnotations
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from lectern import __version__
from lectern.application.assistant.books import resolve_book
from lectern.application.assistant.tools import QueryTool, ToolContext
from lectern.application.catalog_queries import find_book
from lectern.application.identity import LOCAL_USER
from lectern.bootstrap import Services
from lectern.domain.books import Book
from lectern.entrypoints.schemas.books import BookOut
from lectern.entrypoints.schemas.collections import CollectionOut, CollectionSearchOut
from lectern.errors import BookNotFoundError, LecternError

T = TypeVar("T")
MCP_PATH = "/mcp"
INSTRUCTIONS = (
    "Lectern searches a book catalog and document collections and answers with fields you "
    "can quote. Quote book fields exactly as returned and cite them as book:<id>#<field>; "
    "cite collection passages by their label."
)
READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def _guarded(work: Callable[[], T]) -> T:
    """Our errors become tool errors with their message (logged as expected, not crashes)."""
    try:
        return work()
    except LecternError as error:
        raise McpToolError(str(error)) from error


def caller(ctx: Context | None) -> str:
    """The user the HTTP guard authenticated; stdio and in-memory clients are the local user."""
    try:
        request = ctx.request_context.request if ctx is not None else None
    except ValueError:  # outside a request
        request = None
    scope = getattr(request, "scope", None)
    state = scope.get("state") if isinstance(scope, dict) else None
    user = state.get("user") if isinstance(state, dict) else None
    return user if isinstance(user, str) else LOCAL_USER


def _book_json(book: Book) -> dict[str, Any]:
    return BookOut.of(book).model_dump(mode="json")


def build_mcp_server(services: Services) -> MCPServer:
    """The MCP server over these services (the caller runs it over stdio or HTTP)."""
    server: MCPServer = MCPServer(
        name="lectern",
        title="Lectern",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )

    def run_query(
        tool_name: str, arguments: Mapping[str, Any], user: str = LOCAL_USER
    ) -> dict[str, Any]:
        tool = services.tool_registry().get(tool_name)
        assert isinstance(tool, QueryTool)
        context = ToolContext(user, "mcp", services.clock())
        data = tool.run(tool.parse({k: v for k, v in arguments.items() if v is not None}), context)
        return data.data if isinstance(data.data, dict) else {"result": data.data}

    @server.tool(annotations=READ_ONLY)
    def search_books(
        query: str,
        limit: int = 5,
        language: str | None = None,
        min_year: int | None = None,
        max_year: int | None = None,
    ) -> dict[str, Any]:
        """Search the book catalog in plain words (hybrid: words and meaning).

        Returns books with their citable fields (title, authors, published_year, language,
        pages when known, categories, description). `language` is an ISO 639-1 code; years bound the
        publication year. Weak matches (under a share of the best score) are left out.
        """
        arguments = {
            "query": query,
            "limit": limit,
            "language": language,
            "min_year": min_year,
            "max_year": max_year,
        }
        return _guarded(lambda: run_query("search_books", arguments))

    @server.tool(annotations=READ_ONLY)
    def similar_books(book: str, limit: int = 5) -> dict[str, Any]:
        """Books like the given one (a book id or a title), nearest by meaning."""
        return _guarded(lambda: run_query("similar_books", {"book": book, "limit": limit}))

    @server.tool(annotations=READ_ONLY)
    def get_book(book: str) -> dict[str, Any]:
        """One book's record by id, ISBN-10, ISBN-13 or title (the most read edition)."""

        def lookup() -> dict[str, Any]:
            try:
                return _book_json(find_book(services.catalog, book).entry.book)
            except BookNotFoundError:
                return _book_json(resolve_book(services.tool_deps(), book))

        return _guarded(lookup)

    @server.tool(annotations=READ_ONLY)
    def list_collections(ctx: Context) -> dict[str, Any]:
        """The document collections, with their counts and the metadata they filter on."""
        user = caller(ctx)
        found = _guarded(
            lambda: services.collection_access().visible(
                user, services.collections().summaries(), lambda s: s.record.name
            )
        )
        return {"collections": [CollectionOut.of(s).model_dump(mode="json") for s in found]}

    @server.tool(annotations=READ_ONLY)
    def search_collection(
        collection: str,
        query: str,
        ctx: Context,
        k: int = 5,
        where: list[str] | None = None,
    ) -> dict[str, Any]:
        """Search one document collection; passages come grouped by document, best first.

        Each passage has a label (`[RFC 7231 p.12]`, `kb:guide.md#setup`) to cite it by and
        to read it whole as the resource `lectern://passages/{label}`. `where` filters on
        metadata, e.g. ["year>=2020", "kind=guide"].
        """
        user = caller(ctx)

        def search() -> Any:
            services.collection_access().require_read(user, collection)
            return services.collections().search(collection, query, where=where or (), k=k)

        found = _guarded(search)
        return CollectionSearchOut.of(found).model_dump(mode="json")

    def optional_query(
        tool_name: str, setting: str, arguments: Mapping[str, Any], user: str
    ) -> Any:
        if services.tool_registry().get(tool_name) is None:
            raise McpToolError(f"{tool_name} is off: set {setting} to the collection it reads")
        return _guarded(lambda: run_query(tool_name, arguments, user))

    @server.tool(annotations=READ_ONLY)
    def ask_knowledge_base(question: str, ctx: Context) -> dict[str, Any]:
        """Answer a question from the knowledge base (LECTERN_AI_KB_COLLECTION), or decline.

        Returns `should_reply` (false when the knowledge base does not answer it), the reply
        and its citations: each a source id and a quote that is literal in that source.
        """
        arguments = {"question": question}
        reply: dict[str, Any] = optional_query(
            "ask_knowledge_base", "LECTERN_AI_KB_COLLECTION", arguments, caller(ctx)
        )
        return reply

    @server.tool(annotations=READ_ONLY)
    def research(
        ctx: Context,
        question: str = "",
        template: str = "research_query",
        item_ids: list[str] | None = None,
        filters: list[str] | None = None,
        top_k: int = 8,
        source_type: list[str] | None = None,
        severity: str | None = None,
    ) -> dict[str, Any]:
        """Research the advisory collection (LECTERN_AI_RESEARCH_COLLECTION).

        `template`: research_query (a cited answer), summarize or compare (the `item_ids`).
        `source_type`: any of kev, attack, rustsec; `severity`: critical, high, medium, low
        or a minimum CVSS base score ("9.0"). Returns `cited_sources` (ids) and only the
        citations whose quotes are in the sources, with related items.
        """
        arguments = {
            "question": question,
            "template": template,
            "item_ids": item_ids,
            "filters": filters,
            "top_k": top_k,
            "source_type": source_type,
            "severity": severity,
        }
        found: dict[str, Any] = optional_query(
            "research", "LECTERN_AI_RESEARCH_COLLECTION", arguments, caller(ctx)
        )
        return found

    @server.resource(
        "lectern://books/{book_id}",
        name="book",
        description="A book's record by id (title, authors, year, categories, description).",
        mime_type="application/json",
    )
    def book_resource(book_id: str) -> str:
        try:
            found = find_book(services.catalog, book_id).entry.book
        except LecternError as error:
            raise ResourceNotFoundError(str(error)) from error
        return json.dumps(_book_json(found), ensure_ascii=False)

    @server.resource(
        "lectern://passages/{label}",
        name="passage",
        description="The page, section or record a citation label names (label percent-encoded).",
        mime_type="application/json",
        security=ResourceSecurity(exempt_params={"label"}),  # a label, never a path
    )
    def passage_resource(label: str, ctx: Context) -> str:
        try:
            readable = services.collection_access().reader(caller(ctx))
            found = services.collections().resolve(label, readable=readable)
        except LecternError as error:
            raise ResourceNotFoundError(str(error)) from error
        return json.dumps(
            {
                "label": found.label,
                "document_id": found.document.id,
                "title": found.document.title,
                "uri": found.document.uri,
                "text": found.text,
                "passages": [p.id for p in found.passages],
            },
            ensure_ascii=False,
        )

    return server


class McpEndpoint:
    """`/mcp`: the MCP server over streamable HTTP (stateless), refusing unknown Host headers.

    The SDK's session manager runs once per instance, and an app may serve more than once
    (tests enter its lifespan again): each `serving()` makes a fresh one and requests go to
    the latest. An empty `allowed_hosts` turns the Host and Origin checks off.
    """

    def __init__(self, server: MCPServer, allowed_hosts: list[str]) -> None:
        """Serve this MCP server."""
        self.server = server
        self.security = TransportSecuritySettings(
            enable_dns_rebinding_protection=bool(allowed_hosts),
            allowed_hosts=allowed_hosts,
            allowed_origins=[f"{s}://{host}" for host in allowed_hosts for s in ("http", "https")],
        )
        self._serving: list[ASGIApp] = []

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[None]:
        """Run a session manager for as long as the app serves."""
        app = self.server.streamable_http_app(
            streamable_http_path=MCP_PATH, stateless_http=True, transport_security=self.security
        )
        self._serving.append(app)
        try:
            async with self.server.session_manager.run():
                yield
        finally:
            self._serving.remove(app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Hand the request to the running streamable HTTP app."""
        if not self._serving:
            response = PlainTextResponse("the MCP endpoint is not running", status_code=503)
            await response(scope, receive, send)
            return
        await self._serving[-1](scope, receive, send)

    def route(self) -> Route:
        """The route to add to the app."""
        return Route(MCP_PATH, endpoint=self)
