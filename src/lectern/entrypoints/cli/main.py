"""The `lectern` command line: the app, its version option, and its command groups."""

from __future__ import annotations

from typing import Annotated

import typer

from lectern import __version__
from lectern.entrypoints.cli import answering, assistant
from lectern.entrypoints.cli.beir import beir_app
from lectern.entrypoints.cli.catalog import catalog_app, ingest_app
from lectern.entrypoints.cli.collections import collections_app, show_label
from lectern.entrypoints.cli.common import follow_terminal_width, out
from lectern.entrypoints.cli.evaluate import evaluate_app
from lectern.entrypoints.cli.guide import guide_app
from lectern.entrypoints.cli.mcp import mcp_app
from lectern.entrypoints.cli.migrate import migrate_app
from lectern.entrypoints.cli.search import search_app
from lectern.entrypoints.cli.serve import serve_app
from lectern.entrypoints.cli.traces import traces_app
from lectern.entrypoints.cli.workspace import workspace_app

app = typer.Typer(
    name="lectern",
    help="Lectern: answers from a book catalog you can check.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
# Registration order is the order `lectern --help` lists the commands in.
app.add_typer(ingest_app)
app.add_typer(search_app)
app.add_typer(traces_app)
app.add_typer(serve_app)
app.add_typer(mcp_app)
app.add_typer(beir_app)
app.add_typer(migrate_app)
app.add_typer(catalog_app, name="catalog")
app.add_typer(evaluate_app, name="evaluate")
app.add_typer(collections_app, name="collections")
app.add_typer(guide_app, name="guide")
app.add_typer(workspace_app, name="workspace")


@app.command("show")
def show(
    label: Annotated[str, typer.Argument(help="A citation label, e.g. '[RFC 7231 p.12]'.")],
    snippet: Annotated[
        str | None, typer.Option(help="Highlight this quote inside the cited text.")
    ] = None,
) -> None:
    """Print the page, section or record a citation label points at."""
    show_label(label, snippet)


assistant.register(app)
answering.register(app)


def _print_version(value: bool) -> None:
    if value:
        out.print(__version__)
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", is_eager=True, callback=_print_version
        ),
    ] = False,
) -> None:
    """Lectern: answers from a book catalog you can check."""
    del version
    follow_terminal_width()


def run() -> None:
    """Console-script entry point."""
    app()
