"""`lectern guide ask`: the guideline chat's answer on the command line (as POST /chat)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from lectern.application.identity import LOCAL_USER
from lectern.entrypoints.cli.common import _guarded, _services, err, out

guide_app = typer.Typer(
    help="Guideline chat: answers from a guidance collection, cited, or the profile's refusal.",
    no_args_is_help=True,
)


@guide_app.command("ask")
def ask(
    question: Annotated[str, typer.Argument(help="The question.")],
    profile: Annotated[
        str | None,
        typer.Option(help="The profile (default: LECTERN_GUIDE_DEFAULT_PROFILE)."),
    ] = None,
) -> None:
    """Answer one question from the profile's collection, with its citations."""

    def run() -> None:
        agent = _services().guide()
        agent.ready(profile)
        answer = agent.ask(LOCAL_USER, question, profile=profile)
        out.print(escape(answer.answer), soft_wrap=True, highlight=False)
        for citation in answer.citations:
            where = f"p.{citation.page}" if citation.page is not None else citation.section or ""
            out.print(
                f"[dim]{escape(citation.label)} {escape(citation.document)} {escape(where)}[/]",
                soft_wrap=True,
            )
        for flag in answer.grounding_flags:
            err.print(f"[yellow]removed[/]: {escape(str(flag))}", soft_wrap=True)

    _guarded(run)
