"""`lectern workspace ...`: the demo workspace, the review worker, and quick listings."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from lectern.application.identity import LOCAL_USER
from lectern.application.workspace.demo import (
    DEMO_ATTACK,
    DEMO_KEV,
    DEMO_ORGANIZATION,
    DemoUsers,
    seed_demo,
)
from lectern.entrypoints.cli.common import _fail, _guarded, _services, err, out
from lectern.errors import CollectionNotFoundError, DocumentNotFoundError

workspace_app = typer.Typer(
    help="Research workspaces: organizations, projects, tasks, blockers and reviews.",
    no_args_is_help=True,
)
DEMO_OWNER = "alice"
"""The demo's owner when API keys are configured (the local user otherwise)."""
UserOption = Annotated[str, typer.Option("--user", help="Act as this user.")]


@workspace_app.command("demo")
def demo(
    owner: Annotated[
        str | None,
        typer.Option(
            help="The demo organization's owner; default: the local user (the web pages' "
            "user without LECTERN_API_KEYS), or alice when API keys are configured."
        ),
    ] = None,
    member: Annotated[str, typer.Option(help="Its member.")] = "bob",
    kev: Annotated[str, typer.Option(help="The KEV collection's name.")] = "kev",
    attack: Annotated[str, typer.Option(help="The ATT&CK collection's name.")] = "attack",
    reviews: Annotated[
        bool, typer.Option(help="Turn automatic reviews on for new and updated documents.")
    ] = True,
) -> None:
    """Create the demo organization (two users), its projects, tasks, a blocker and links.

    The VPN project links KEV documents, and ATT&CK techniques when that collection exists:
    add them first (`make demo-collections`; `make collections-extra` adds ATT&CK).
    """
    services = _services()
    keyed = services.settings.api_keyring.required
    who: str = owner or (DEMO_OWNER if keyed else LOCAL_USER)
    workspace = services.workspace()
    for organization, _ in _guarded(lambda: workspace.organizations(who)):
        if organization.name == DEMO_ORGANIZATION:
            out.print(f"{who} already has the demo organization ({organization.id}).")
            return
    collections = services.collections()
    links: list[tuple[str, str]] = []
    for collection, labels in ((kev, DEMO_KEV), (attack, DEMO_ATTACK)):
        if collection == attack and collection not in {
            summary.record.name for summary in collections.summaries()
        }:
            # make demo leaves ATT&CK out (it is the largest collection to embed).
            out.print(
                f"No {collection!r} collection: the ATT&CK techniques are not linked "
                "(make collections-extra adds it)."
            )
            continue
        for label in labels:
            try:
                resolved = collections.resolve(f"[{label}]")
            except (CollectionNotFoundError, DocumentNotFoundError) as error:
                raise _fail(
                    f"{label} is not in a collection ({error}); add the {collection!r} "
                    "collection first: make demo-collections"
                ) from None
            links.append((resolved.document.collection, resolved.document.id))
    users = DemoUsers(owner=who, member=member)
    if who == LOCAL_USER:
        users = DemoUsers(owner=who, owner_name="You (the local user)", member=member)
    seeded = _guarded(lambda: seed_demo(workspace, users, links))
    if reviews:
        from lectern.domain.workspace import ReviewSettings

        _guarded(
            lambda: workspace.set_reviews(
                who,
                seeded.organization.id,
                ReviewSettings(document_created=True, document_updated=True, task_in_review=True),
            )
        )
    out.print(
        f"Created {escape(seeded.organization.name)} ({seeded.organization.id}) "
        f"with {who} (owner) and {member} (member)."
    )
    table = Table("project", "id", "tasks", "documents")
    for project in (seeded.vpn, seeded.phishing):
        table.add_row(
            escape(project.name),
            project.id,
            str(len(workspace.tasks(who, project.id))),
            str(len(workspace.documents(who, project.id))),
        )
    out.print(table)
    whose = f" with {who}'s API key" if keyed else ""
    out.print(f"Open http://127.0.0.1:8000/workspace{whose} after `lectern serve`.")


@workspace_app.command("projects")
def projects(user: UserOption = LOCAL_USER) -> None:
    """The projects a user can see, with their task counts and open blockers."""
    workspace = _services().workspace()
    table = Table("project", "id", "status", "tasks", "open blockers")
    for project in _guarded(lambda: workspace.projects(user)):
        table.add_row(
            escape(project.name),
            project.id,
            project.status,
            str(len(workspace.tasks(user, project.id))),
            str(len(workspace.blockers(user, project.id, status="open"))),
        )
    out.print(table)


@workspace_app.command("worker")
def worker(
    burst: Annotated[
        bool,
        typer.Option(help="Run the queued reviews and uploads, then stop (instead of waiting)."),
    ] = False,
) -> None:
    """Serve the automatic-review and upload queues on LECTERN_REDIS_URL (rq)."""
    services = _services()
    err.print("[dim]Serving the review and upload queues (Ctrl-C stops it).[/]")
    _guarded(lambda: services.serve_reviews(burst=burst))
