"""`lectern mcp`: Lectern's read-only tools for MCP clients, over stdin and stdout."""

from __future__ import annotations

import typer

from lectern.entrypoints.cli.common import _guarded, _services

mcp_app = typer.Typer()


@mcp_app.command("mcp")
def mcp() -> None:
    """Serve the MCP tools and resources on stdio (for desktop MCP clients; logs go to stderr).

    The same server answers at /mcp on `lectern serve` (streamable HTTP).
    """

    def run() -> None:
        # Imported here: the SDK is only needed by this command and the HTTP app.
        from lectern.entrypoints.mcp.server import build_mcp_server

        build_mcp_server(_services()).run("stdio")

    _guarded(run)
