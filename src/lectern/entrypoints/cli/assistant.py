"""`lectern chat` and `lectern actions list|approve|reject`: the assistant in a terminal.

Register with `register(app)` in main.py (one line): it adds the `chat` command and the
`actions` group. The user is `--user` (the CLI runs locally; default: the local user).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.prompt import Prompt
from rich.table import Table

from lectern.application.assistant.service import AssistantService, ChatReply
from lectern.application.identity import LOCAL_USER
from lectern.domain.assistant import PageContext, PendingAction
from lectern.entrypoints.cli.common import _fail, _guarded, _services, err, out
from lectern.errors import ActionChangedError, ActionConflictError, LecternError

actions_app = typer.Typer(help="Changes the assistant proposed: list, approve or reject by id.")

UserOption = Annotated[str, typer.Option("--user", help="Whose lists and actions.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def register(app: typer.Typer) -> None:
    """Add `chat` and the `actions` group to the main app."""
    app.command("chat")(chat)
    app.add_typer(actions_app, name="actions")


def _assistant() -> AssistantService:
    return _services().assistant()


def _page(user: str, book: str | None, project: str | None, task: str | None) -> PageContext | None:
    """The page the command stands for: a book, a workspace project or a task."""
    if task:
        found = _guarded(lambda: _services().workspace().task(user, task))
        return PageContext("task", found.id, found.title, project_id=found.project_id)
    if project:
        named = _guarded(lambda: _services().workspace().project(user, project))
        return PageContext("project", named.id, named.name, project_id=named.id)
    return PageContext("book", book) if book else None


def _action_json(action: PendingAction) -> dict[str, Any]:
    preview = action.preview
    return {
        "id": action.id,
        "status": action.status,
        "description": preview.description,
        "tool": preview.tool_name,
        "entity_type": preview.entity_type,
        "entity_id": preview.entity_id,
        "tool_input": dict(preview.tool_input),
        "diff": [asdict(d) for d in preview.diff],
        "conversation": action.conversation,
        "created_at": action.created_at.isoformat(),
        "expires_at": action.expires_at.isoformat(),
        "decided_at": action.decided_at.isoformat() if action.decided_at else None,
        "result": action.result,
        "review": action.review,
    }


def reply_json(reply: ChatReply) -> dict[str, Any]:
    """A reply as JSON: text, citations, flags, tool calls and proposed actions."""
    return {
        "conversation": reply.conversation,
        "text": reply.text,
        "citations": [asdict(c) for c in reply.citations],
        "grounding_flags": list(reply.grounding_flags),
        "tool_calls": [{"name": c.name, "arguments": dict(c.arguments)} for c in reply.tool_calls],
        "actions": [_action_json(a) for a in reply.actions],
        "model": reply.model,
        "suggestions": list(reply.suggestions),
    }


def _show_diff(action: PendingAction) -> None:
    out.print(f"[bold]{escape(action.preview.description)}[/]  [dim]action {action.id}[/]")
    table = Table()
    table.add_column("field")
    table.add_column("now")
    table.add_column("after")
    for change in action.preview.diff:
        table.add_row(change.field, json.dumps(change.old), json.dumps(change.new))
    out.print(table)
    _show_review(action)


def _show_review(action: PendingAction) -> None:
    """The action's automatic review (text and checked citations), as data."""
    review = action.review
    if not isinstance(review, dict):
        return
    if review.get("status") != "done":
        err.print(f"[yellow]automatic review failed: {escape(str(review.get('error')))}[/]")
        return
    out.print(escape(str(review.get("text", ""))), highlight=False, soft_wrap=True)


def _show(reply: ChatReply) -> None:
    for call in reply.tool_calls:
        err.print(f"[dim]tool {call.name}({escape(json.dumps(dict(call.arguments)))})[/]")
    out.print(escape(reply.text), highlight=False, soft_wrap=True)
    for suggestion in reply.suggestions:
        out.print(f"  - {escape(suggestion)}", highlight=False, soft_wrap=True)
    if reply.grounding_flags:
        err.print(f"[yellow]flags: {', '.join(reply.grounding_flags)}[/]")
    for action in reply.actions:
        _show_diff(action)


def _decide_interactively(assistant: AssistantService, user: str, reply: ChatReply) -> None:
    for action in reply.actions:
        answer = Prompt.ask(
            f"Approve {escape(action.preview.description)}?",
            choices=["y", "n", "later"],
            default="later",
        )
        if answer == "later":
            continue
        try:
            decided = (
                assistant.approve(user, action.id)
                if answer == "y"
                else assistant.reject(user, action.id)
            )
        except (ActionConflictError, LecternError) as error:
            err.print(f"[red]{escape(str(error))}[/]")
            continue
        _show(decided)


def chat(
    message: Annotated[
        str | None,
        typer.Option("--message", "-m", help="Send one message and exit (no prompt)."),
    ] = None,
    user: UserOption = LOCAL_USER,
    conversation: Annotated[
        str | None, typer.Option("--conversation", help="Continue this conversation id.")
    ] = None,
    book: Annotated[
        str | None, typer.Option("--book", help="The book page you are on (a book id).")
    ] = None,
    project: Annotated[
        str | None,
        typer.Option("--project", help="The workspace project page you are on (a project id)."),
    ] = None,
    task: Annotated[
        str | None,
        typer.Option("--task", help="The workspace task page you are on (a task id)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Chat with the assistant: it searches, answers with quotes, and proposes changes."""
    assistant = _guarded(_assistant)
    page = _page(user, book, project, task)
    if message is not None:
        reply = _guarded(
            lambda: assistant.chat(user, message, conversation=conversation, page=page)
        )
        if as_json:
            out.print_json(data=reply_json(reply))
        else:
            _show(reply)
            err.print(f"[dim]conversation {reply.conversation} (continue with --conversation)[/]")
        return
    err.print("[dim]Ask about books or your lists; an empty line quits.[/]")
    while True:
        text = Prompt.ask("[bold]you[/]", default="", show_default=False)
        if not text.strip():
            return
        try:
            reply = assistant.chat(user, text, conversation=conversation, page=page)
        except LecternError as error:
            err.print(f"[red]{escape(str(error))}[/]")
            continue
        conversation = reply.conversation
        _show(reply)
        _decide_interactively(assistant, user, reply)


@actions_app.command("list")
def list_actions(
    user: UserOption = LOCAL_USER,
    all_statuses: Annotated[
        bool, typer.Option("--all", help="Decided actions too, not only pending ones.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """The actions waiting for your approval (or all of them)."""

    def run() -> list[PendingAction]:
        assistant = _assistant()
        return assistant.actions(user) if all_statuses else assistant.pending(user)

    actions = _guarded(run)
    if as_json:
        out.print_json(data=[_action_json(a) for a in actions])
        return
    if not actions:
        out.print("No actions.")
        return
    table = Table()
    for column in ("id", "status", "description", "expires"):
        table.add_column(column)
    for action in actions:
        table.add_row(
            action.id,
            action.status,
            escape(action.preview.description),
            action.expires_at.isoformat(timespec="seconds"),
        )
    out.print(table)
    for action in actions:
        if action.review is not None:
            out.print(f"[bold]review of action {action.id}[/]")
            _show_review(action)


def _decide(user: str, action_id: str, approve: bool, as_json: bool) -> None:
    assistant = _guarded(_assistant)
    try:
        reply = assistant.approve(user, action_id) if approve else assistant.reject(user, action_id)
    except ActionChangedError as error:
        if error.fresh_action_id:
            _show_diff(assistant.get_action(user, error.fresh_action_id))
        raise _fail(str(error), code=2) from None
    except ActionConflictError as error:
        raise _fail(str(error), code=2) from None
    except LecternError as error:
        raise _fail(str(error)) from None
    if as_json:
        out.print_json(data=reply_json(reply))
    else:
        _show(reply)


@actions_app.command("approve")
def approve(action_id: str, user: UserOption = LOCAL_USER, as_json: JsonOption = False) -> None:
    """Run one proposed action, by id (once, before it expires, if nothing changed)."""
    _decide(user, action_id, True, as_json)


@actions_app.command("reject")
def reject(action_id: str, user: UserOption = LOCAL_USER, as_json: JsonOption = False) -> None:
    """Drop one proposed action, by id."""
    _decide(user, action_id, False, as_json)
