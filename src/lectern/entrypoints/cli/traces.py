"""`lectern traces`: the last LLM calls, as recorded in the trace file."""

from __future__ import annotations

from typing import Annotated

import typer

from lectern.entrypoints.cli.common import _guarded, _services, out
from lectern.entrypoints.cli.render import print_traces

traces_app = typer.Typer()


@traces_app.command()
def traces(
    last: Annotated[int, typer.Option(min=1, max=10_000, help="How many, newest last.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines, as stored.")] = False,
) -> None:
    """The last LLM calls: operation, prompt version, model, latency, tokens, errors."""

    def run() -> None:
        found = _services().tracer().last(last)
        if not found:
            out.print('No LLM calls traced yet: try `lectern search "..." --explain`.')
            return
        print_traces(found, as_json)

    _guarded(run)
