"""`lectern kb reply|sync|index|bot` and `lectern research`: answers from a collection, or silence.

`kb reply` takes a question as its argument, or a conversation as JSON on stdin:
`{"messages": [{"author": "ana", "text": "hi"}, {"author": "ana", "text": "how do I ...?"}]}`
(a bare list of messages works too). It prints the reply, or why there is none.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from lectern.application.identity import LOCAL_USER
from lectern.domain.answering import (
    AIResult,
    Conversation,
    ConversationMessage,
    RequestContext,
    ai_result_json,
    silence_reason,
)
from lectern.domain.research import (
    TEMPLATES,
    QueryRequest,
    QueryResponse,
    query_response_json,
)
from lectern.entrypoints.cli.collections import WhereOption
from lectern.entrypoints.cli.common import _fail, _guarded, _progress_bar, _services, err, out

kb_app = typer.Typer(
    help="Knowledge-base replies: answer a chat's last question from a collection, or stay silent.",
    no_args_is_help=True,
)

CollectionOption = Annotated[
    str | None,
    typer.Option(
        "--collection", help="The collection to answer from (default: LECTERN_AI_KB_COLLECTION)."
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the whole result as JSON.")]


def conversation_from_json(data: Any) -> Conversation:
    """A conversation from `{"messages": [...]}` or a list of `{author, text, time?}`."""
    items = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(items, list) or not items:
        raise ValueError('expected {"messages": [{"author": ..., "text": ...}, ...]}')
    messages = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise ValueError(f"message {number} needs a text")
        time = item.get("time")
        messages.append(
            ConversationMessage(
                str(item.get("author") or "user"),
                item["text"],
                datetime.fromisoformat(time) if isinstance(time, str) and time else None,
            )
        )
    conversation_id = data.get("id") if isinstance(data, dict) else None
    return Conversation(tuple(messages), str(conversation_id) if conversation_id else None)


def _collection(given: str | None, configured: str | None) -> str:
    name = given or configured
    if not name:
        raise _fail("name a collection with --collection (or set LECTERN_AI_KB_COLLECTION)")
    return name


def print_result(result: AIResult) -> None:
    """The reply, or why there is none, then the sources and the decision path."""
    if result.should_reply:
        out.print(escape(result.reply_text), soft_wrap=True, highlight=False)
    else:
        out.print(f"[yellow]no reply[/]: {escape(silence_reason(result))}", soft_wrap=True)
    for source in result.sources:
        out.print(
            f"[dim]source {escape(source.source_id)} (relevance {source.relevance:.3f}) "
            f"{escape(source.title)}[/]",
            soft_wrap=True,
        )
    total = result.timings.get("total_ms", 0.0)
    path = " -> ".join(result.decision_path)
    out.print(f"[dim]{escape(path)}; {total:.0f} ms; {escape(result.model)}[/]", soft_wrap=True)


@kb_app.command("reply")
def reply(
    question: Annotated[
        str | None,
        typer.Argument(help="The question; without it, a conversation is read as JSON on stdin."),
    ] = None,
    collection: CollectionOption = None,
    user: Annotated[str, typer.Option(help="Who asks.")] = "cli",
    channel: Annotated[str, typer.Option(help="Where the conversation happens.")] = "cli",
    as_json: JsonOption = False,
) -> None:
    """Decide whether to answer, and answer with citations from the collection."""

    def run() -> None:
        services = _services()
        name = _collection(collection, services.settings.ai_kb_collection)
        services.collection_access().require_read(user, name)
        if question is not None:
            conversation = Conversation((ConversationMessage(user, question),))
        else:
            try:
                conversation = conversation_from_json(json.loads(sys.stdin.read()))
            except ValueError as error:
                raise _fail(f"cannot read the conversation on stdin: {error}") from None
        result = services.kb_replier().reply(conversation, RequestContext(name, user, channel))
        if as_json:
            sys.stdout.write(json.dumps(ai_result_json(result), indent=2) + "\n")
        else:
            print_result(result)

    _guarded(run)


@kb_app.command("sync")
def sync(
    collection: CollectionOption = None,
    sources_dir: Annotated[
        Path | None,
        typer.Option(
            "--sources-dir",
            help="The sources folder (default: kb.sources_dir / LECTERN_KB_SOURCES_DIR).",
        ),
    ] = None,
) -> None:
    """Fetch the web sources (conditionally), stage the team files, add both to the collection."""

    def run() -> None:
        services = _services()
        name = _collection(collection, services.settings.ai_kb_collection)
        folder = sources_dir or services.settings.kb_sources_dir
        report = services.kb_source_sync().sync(name, folder)
        for fetch in report.fetches:
            reason = f": {fetch.reason}" if fetch.reason else ""
            kept = " (the stored copy stays)" if fetch.outcome == "failed" and fetch.page else ""
            out.print(
                f"kb:{escape(fetch.url)} {fetch.outcome}{escape(reason)}{kept}", soft_wrap=True
            )
        for team in report.team_files:
            out.print(f"team:{escape(team)} staged", soft_wrap=True)
        for problem in report.problems:
            err.print(f"[yellow]skipped[/]: {escape(problem)}", soft_wrap=True)
        err.print(f"{report.documents} documents in {name}")

    _guarded(run)


@kb_app.command("bot")
def bot(collection: CollectionOption = None) -> None:
    """Run the support bot on Discord: batch each user's messages, answer in the thread."""

    def run() -> None:
        from lectern.bootstrap import discord_support_bot

        services = _services()
        settings = services.settings
        name = _collection(collection, settings.ai_kb_collection)
        if settings.discord_token is None:
            raise _fail("set LECTERN_DISCORD_TOKEN (or DISCORD_TOKEN) to the Discord bot's token")
        services.kb_replier().bases.get(name)  # an unknown collection fails before connecting
        client = discord_support_bot(services, name)
        err.print(
            f"answering from {name} on Discord; messages within "
            f"{settings.ai_batch_window_seconds:g} s are one turn (Ctrl-C stops)"
        )
        client.run(settings.discord_token.get_secret_value(), log_handler=None)

    _guarded(run)


@kb_app.command("index")
def index(collection: CollectionOption = None) -> None:
    """Build the collection's `source_id: summary` index now (with the model, if one is set)."""

    def run() -> None:
        services = _services()
        name = _collection(collection, services.settings.ai_kb_collection)
        with _progress_bar() as progress:
            built = services.knowledge_bases().build(name, progress)
        err.print(
            f"{len(built.sources)} sources indexed for {name} (generation {built.generation}, "
            f"summaries by {built.summarizer}); the first lines:"
        )
        for source in built.sources[:5]:
            out.print(escape(source.line()), soft_wrap=True, highlight=False)

    _guarded(run)


def print_response(response: QueryResponse) -> None:
    """Answer, template sections, kept citations, recommendations, flags and timings."""
    out.print(escape(response.answer), soft_wrap=True, highlight=False)
    for name, value in response.sections.items():
        if isinstance(value, list) and value:
            out.print(f"[bold]{escape(name)}[/]")
            for entry in value:
                out.print(f"  - {escape(str(entry))}", soft_wrap=True, highlight=False)
    if response.citations:
        out.print("[bold]citations[/]")
        for citation in response.citations:
            out.print(
                f'  [{escape(citation.source_id)}] "{escape(citation.snippet)}"',
                soft_wrap=True,
                highlight=False,
            )
    if response.recommendations:
        out.print("[bold]related[/]")
        for item in response.recommendations:
            out.print(
                f"  {item.kind}: {escape(item.item_id)} ({escape(item.reason)})", soft_wrap=True
            )
    if response.related_topics:
        out.print(f"[dim]topics: {escape(', '.join(response.related_topics))}[/]")
    filters = response.metadata.get("filters")
    if isinstance(filters, list) and filters:
        shown = ", ".join(str(f) for f in filters)
        out.print(f"[dim]filters: {escape(shown)}[/]", soft_wrap=True)
    flags = f"; flags: {', '.join(response.flags)}" if response.flags else ""
    meta = response.metadata
    out.print(
        f"[dim]confidence {response.confidence:.2f}; {meta.get('model')} "
        f"{meta.get('prompt_version')}; retrieval {meta.get('retrieval_time_ms')} ms, "
        f"generation {meta.get('generation_time_ms')} ms; {meta.get('chunks_cited')} of "
        f"{meta.get('chunks_retrieved')} chunks cited{escape(flags)}[/]",
        soft_wrap=True,
    )


def research(
    question: Annotated[str, typer.Argument(help="The question (may be empty with --item).")],
    collection: Annotated[
        str | None,
        typer.Option(
            "--collection", help="The collection (default: LECTERN_AI_RESEARCH_COLLECTION)."
        ),
    ] = None,
    template: Annotated[str, typer.Option(help=f"One of {', '.join(TEMPLATES)}.")] = (
        "research_query"
    ),
    item: Annotated[
        list[str] | None,
        typer.Option("--item", help="A record to summarize or compare (repeatable)."),
    ] = None,
    where: WhereOption = None,
    top_k: Annotated[int, typer.Option("--top-k", help="Passages retrieved.")] = 8,
    source_type: Annotated[
        list[str] | None,
        typer.Option("--source-type", help="Only kev, attack or rustsec records (repeatable)."),
    ] = None,
    severity: Annotated[
        str | None,
        typer.Option(help="critical, high, medium, low, none, or a minimum CVSS score (9.0)."),
    ] = None,
    understand: Annotated[
        bool,
        typer.Option(help="Read source, severity, category and year filters from the question."),
    ] = True,
    user: Annotated[
        str, typer.Option("--user", help="Who asks (a project's files need a member).")
    ] = LOCAL_USER,
    as_json: JsonOption = False,
) -> None:
    """A cited research answer, summary or comparison over a collection."""

    def run() -> None:
        services = _services()
        name = collection or services.settings.ai_research_collection
        if not name:
            raise _fail("name a collection with --collection")
        if template not in TEMPLATES:
            raise _fail(f"unknown template {template!r}: use {', '.join(TEMPLATES)}")
        services.collection_access().require_read(user, name)
        request = QueryRequest(
            question,
            name,
            filters=tuple(where or ()),
            top_k=top_k,
            template=template,
            item_ids=tuple(item or ()),
            source_types=tuple(source_type or ()),
            severity=severity,
            understand=understand,
        )
        response = services.research().query(request)
        if as_json:
            sys.stdout.write(json.dumps(query_response_json(response), indent=2) + "\n")
        else:
            print_response(response)

    _guarded(run)


def register(app: typer.Typer) -> None:
    """Add the `kb` group and `research` to the main app (`evaluate answering`: evaluate.py)."""
    app.add_typer(kb_app, name="kb")
    app.command("research")(research)
