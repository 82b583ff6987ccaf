"""The workspace service over the SQL store: scoping by membership, roles, reviews queued."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from lectern.domain.assistant import PageContext
from lectern.domain.workspace import ReviewSettings
from lectern.errors import (
    InvalidQueryError,
    WorkspaceConflictError,
    WorkspaceNotFoundError,
    WorkspacePermissionError,
)
from tests.workspace_world import Seeded, seeded


@pytest.fixture
def world(tmp_path: Path) -> Seeded:
    return seeded(tmp_path)


# Every read of another organization's thing: "not found", exactly like an unknown id.
READS: dict[str, Callable[[Seeded], Any]] = {
    "organization": lambda w: w.service.organization("mallory", w.acme),
    "members": lambda w: w.service.members("mallory", w.acme),
    "team of a project": lambda w: w.service.team_members("mallory", project_id=w.vpn.id),
    "projects of an organization": lambda w: w.service.projects("mallory", organization_id=w.acme),
    "project": lambda w: w.service.project("mallory", w.vpn.id),
    "project by name": lambda w: w.service.find_project("mallory", "VPN gateway hardening"),
    "tasks": lambda w: w.service.tasks("mallory", w.vpn.id),
    "task": lambda w: w.service.task("mallory", w.patch.id),
    "task by title": lambda w: w.service.find_task("mallory", "Patch the Check Point gateways"),
    "blockers": lambda w: w.service.blockers("mallory", w.vpn.id),
    "blocker": lambda w: w.service.blocker("mallory", w.blocker.id),
    "comments": lambda w: w.service.comments("mallory", task_id=w.patch.id),
    "documents": lambda w: w.service.documents("mallory", w.vpn.id),
    "document": lambda w: w.service.document("mallory", w.advisory.id),
    "document text": lambda w: w.service.document_view("mallory", w.advisory.id),
    "document comments": lambda w: w.service.comments("mallory", document_id=w.advisory.id),
    "search in a project": lambda w: w.service.search_content(
        "mallory", "gateway", project_id=w.vpn.id
    ),
}

WRITES: dict[str, Callable[[Seeded], Any]] = {
    "review settings": lambda w: w.service.set_reviews("mallory", w.acme, ReviewSettings(True)),
    "add member": lambda w: w.service.add_member("mallory", w.acme, "eve", "member"),
    "change role": lambda w: w.service.change_role("mallory", w.acme, "bob", "owner"),
    "remove member": lambda w: w.service.remove_member("mallory", w.acme, "bob"),
    "create project": lambda w: w.service.create_project("mallory", w.acme, "Takeover"),
    "update project": lambda w: w.service.update_project("mallory", w.vpn.id, status="archived"),
    "create task": lambda w: w.service.create_task("mallory", w.vpn.id, "Sneak in"),
    "update task": lambda w: w.service.update_task("mallory", w.patch.id, {"status": "done"}),
    "create blocker": lambda w: w.service.create_blocker("mallory", w.vpn.id, "Sabotage"),
    "resolve blocker": lambda w: w.service.resolve_blocker("mallory", w.blocker.id, "gone"),
    "comment on a task": lambda w: w.service.add_comment("mallory", "hi", task_id=w.patch.id),
    "comment on a document": lambda w: w.service.add_comment(
        "mallory", "hi", document_id=w.advisory.id
    ),
    "link a document": lambda w: w.service.link_document(
        "mallory", w.vpn.id, "advisories", w.ids["unrelated.md"]
    ),
    "upload a document": lambda w: w.service.upload_document(
        "mallory", w.vpn.id, "x.md", b"# X\n\ntext\n"
    ),
    "unlink a document": lambda w: w.service.unlink_document("mallory", w.advisory.id),
}


@pytest.mark.parametrize("name", sorted(READS))
def test_another_organizations_things_are_not_found_on_read(world: Seeded, name: str) -> None:
    with pytest.raises(WorkspaceNotFoundError):
        READS[name](world)


@pytest.mark.parametrize("name", sorted(WRITES))
def test_another_organizations_things_are_not_found_on_write(world: Seeded, name: str) -> None:
    before = _snapshot(world)
    with pytest.raises(WorkspaceNotFoundError):
        WRITES[name](world)
    assert _snapshot(world) == before


def _snapshot(world: Seeded) -> tuple[Any, ...]:
    store, ids = world.store, [world.vpn.id]
    return (
        store.members(world.acme),
        store.projects([world.acme]),
        store.tasks(ids),
        store.blockers(ids),
        store.project_comments(ids),
        store.documents(ids),
        store.organization(world.acme),
    )


def test_the_not_found_message_is_the_same_as_for_an_unknown_id(world: Seeded) -> None:
    with pytest.raises(WorkspaceNotFoundError) as theirs:
        world.service.task("mallory", world.patch.id)
    with pytest.raises(WorkspaceNotFoundError) as unknown:
        world.service.task("mallory", "00000000-0000-0000-0000-00000000ffff")
    assert str(theirs.value).replace(world.patch.id, "ID") == str(unknown.value).replace(
        "00000000-0000-0000-0000-00000000ffff", "ID"
    )


def test_lists_never_hold_another_organizations_things(world: Seeded) -> None:
    assert {p.id for p in world.service.projects("alice")} == {world.vpn.id}
    assert {p.id for p in world.service.projects("mallory")} == {world.other.id}
    assert world.rival_blocker.id not in {b.id for b in world.service.blockers("alice")}
    assert {m.user for m in world.service.team_members("alice")} == {"alice", "bob", "vera"}
    found = world.service.search_content("alice", "formula guards secrets steal")
    assert all(hit.project_id == world.vpn.id for hit in found)
    attention = world.service.attention("alice")
    assert world.rival_task.id not in {t.id for t in attention.assigned_to_me + attention.overdue}


# Viewers read everything in their organization and change nothing.
@pytest.mark.parametrize("name", sorted(WRITES))
def test_viewers_cannot_change_anything(world: Seeded, name: str) -> None:
    before = _snapshot(world)
    with pytest.raises(WorkspacePermissionError):
        WRITES[name](_as_viewer(world))
    assert _snapshot(world) == before


def _as_viewer(world: Seeded) -> Seeded:
    """The same world where the caller of every write is vera, Acme's viewer."""

    class ViewerService:
        def __getattr__(self, name: str) -> Any:
            method = getattr(world.service, name)
            return lambda user, *args, **kwargs: method(
                "vera" if user == "mallory" else user, *args, **kwargs
            )

    return replace(world, service=ViewerService())  # type: ignore[arg-type]


def test_viewers_read_everything_of_their_organization(world: Seeded) -> None:
    for name, call in READS.items():
        viewer_call = _as_viewer(world)
        assert call(viewer_call) is not None, name


def test_members_edit_but_only_owners_manage(world: Seeded) -> None:
    task = world.service.update_task("bob", world.hunt.id, {"status": "in_progress"})
    assert task.status == "in_progress"
    with pytest.raises(WorkspacePermissionError):
        world.service.add_member("bob", world.acme, "eve", "member")
    with pytest.raises(WorkspacePermissionError):
        world.service.set_reviews("bob", world.acme, ReviewSettings(document_created=True))


def test_the_last_owner_stays(world: Seeded) -> None:
    with pytest.raises(WorkspaceConflictError):
        world.service.change_role("alice", world.acme, "alice", "member")
    with pytest.raises(WorkspaceConflictError):
        world.service.remove_member("alice", world.acme, "alice")
    world.service.change_role("alice", world.acme, "bob", "owner")
    world.service.change_role("alice", world.acme, "alice", "member")
    assert {m.user: m.role for m in world.service.members("bob", world.acme)}["alice"] == "member"


def test_a_member_added_twice_is_a_conflict(world: Seeded) -> None:
    with pytest.raises(WorkspaceConflictError):
        world.service.add_member("alice", world.acme, "bob", "viewer")


def test_assignees_must_be_members(world: Seeded) -> None:
    with pytest.raises(InvalidQueryError, match="not a member"):
        world.service.update_task("alice", world.hunt.id, {"assignee": "mallory"})
    task = world.service.update_task("alice", world.hunt.id, {"assignee": "Bob Builder"})
    assert task.assignee == "bob"


def test_names_resolve_and_ambiguity_is_refused(world: Seeded) -> None:
    assert world.service.find_project("alice", "vpn").id == world.vpn.id
    assert world.service.find_task("alice", "hunt logins").id == world.hunt.id
    world.service.create_task("alice", world.vpn.id, "Patch the Citrix gateways")
    with pytest.raises(InvalidQueryError, match="2 tasks match"):
        world.service.find_task("alice", "patch gateways")
    assert world.service.find_blocker("alice", "vendor window").id == world.blocker.id


def test_task_fields_are_checked(world: Seeded) -> None:
    with pytest.raises(InvalidQueryError, match="task status"):
        world.service.update_task("alice", world.hunt.id, {"status": "finished"})
    with pytest.raises(InvalidQueryError, match="YYYY-MM-DD"):
        world.service.update_task("alice", world.hunt.id, {"due_date": "next week"})
    with pytest.raises(InvalidQueryError, match="empty"):
        world.service.update_task("alice", world.hunt.id, {"title": "  "})
    moved = world.service.update_task("alice", world.hunt.id, {"status": "In Progress"})
    assert moved.status == "in_progress"


def test_attention_summary(world: Seeded) -> None:
    summary = world.service.attention("bob")
    assert [t.id for t in summary.overdue] == [world.patch.id]
    assert [t.id for t, _ in summary.blocked] == [world.patch.id]
    assert [t.id for t in summary.in_review] == [world.review.id]
    assert [t.id for t in summary.assigned_to_me] == [world.patch.id]
    world.service.update_task("bob", world.patch.id, {"status": "done"})
    summary = world.service.attention("bob")
    assert summary.overdue == () and summary.assigned_to_me == ()


def test_search_content_finds_tasks_comments_and_document_passages(world: Seeded) -> None:
    hits = world.service.search_content("alice", "hotfix gateway")
    kinds = {h.kind for h in hits}
    assert {"task", "comment", "document"} <= kinds
    document_hits = [h for h in hits if h.kind == "document"]
    assert document_hits[0].label.startswith("[advisories:cve-2024-24919.md")
    assert "hotfix" in document_hits[0].snippet.lower()
    # Only the project's linked documents: the garden notes belong to Umbrella's project.
    assert not world.service.search_content("alice", "tomatoes sun watering")


def test_resolving_a_blocker_twice_is_a_conflict(world: Seeded) -> None:
    resolved = world.service.resolve_blocker("bob", world.blocker.id, "Window booked for Friday")
    assert resolved.status == "resolved" and resolved.resolved_at == world.clock.now
    with pytest.raises(WorkspaceConflictError):
        world.service.resolve_blocker("bob", world.blocker.id, "again")


def test_reviews_are_queued_only_for_the_triggers_the_organization_turned_on(
    world: Seeded,
) -> None:
    world.service.update_task("bob", world.hunt.id, {"status": "in_review"})
    assert world.queue.jobs == []
    world.service.set_reviews(
        "alice", world.acme, ReviewSettings(document_created=True, task_in_review=True)
    )
    world.service.update_task("bob", world.patch.id, {"status": "in_review"})
    world.service.update_task("bob", world.patch.id, {"priority": "urgent"})  # not a move
    link = world.service.link_document(
        "bob", world.vpn.id, "advisories", world.ids["cve-2023-4966.md"]
    )
    assert [(j.target, j.trigger) for j in world.queue.jobs] == [
        (f"task:{world.patch.id}", "task_in_review"),
        (f"document:{link.id}", "document_created"),
    ]


def test_a_queue_that_is_down_never_fails_the_edit(world: Seeded) -> None:
    world.service.set_reviews("alice", world.acme, ReviewSettings(task_in_review=True))
    world.queue.fail = True
    moved = world.service.update_task("bob", world.hunt.id, {"status": "in_review"})
    assert world.service.task("bob", world.hunt.id) == moved
    assert moved.status == "in_review"


def test_uploads_go_into_the_projects_collection_and_a_second_upload_updates(
    world: Seeded,
) -> None:
    world.service.set_reviews(
        "alice", world.acme, ReviewSettings(document_created=True, document_updated=True)
    )
    first = world.service.upload_document(
        "bob", world.vpn.id, "runbook.md", b"# Runbook\n\nRestart the gateway after patching.\n"
    )
    world.clock.advance(minutes=5)
    second = world.service.upload_document(
        "bob", world.vpn.id, "runbook.md", b"# Runbook\n\nDrain sessions, then restart.\n"
    )
    assert first.id == second.id and second.updated_at == first.updated_at + timedelta(minutes=5)
    assert "Drain sessions" in world.service.document_view("bob", first.id).view.document.text
    assert [j.trigger for j in world.queue.jobs] == ["document_created", "document_updated"]


def test_a_page_context_is_checked_and_named_from_the_store(world: Seeded) -> None:
    spoofed = PageContext("task", world.patch.id, "Anything the client says", project_id="x")
    checked = world.service.checked_page("alice", spoofed)
    assert checked == PageContext(
        "task", world.patch.id, "Patch the Check Point gateways", project_id=world.vpn.id
    )
    document = world.service.checked_page("alice", PageContext("document", world.advisory.id))
    assert document.project_id == world.vpn.id and document.name == world.advisory.title
    dashboard = PageContext("dashboard", "attention", "Needs my attention")
    assert world.service.checked_page("alice", dashboard) == dashboard
    for foreign in (
        PageContext("task", world.rival_task.id),
        PageContext("project", world.other.id),
        PageContext("document", world.rival_document.id),
        PageContext("dashboard", "attention", project_id=world.other.id),
        PageContext("task", "no-such-task"),
    ):
        with pytest.raises(WorkspaceNotFoundError):
            world.service.checked_page("alice", foreign)
    # Membership, not the page, decides: mallory sees her own task, not alice's.
    assert world.service.checked_page("mallory", PageContext("task", world.rival_task.id)).name
    with pytest.raises(WorkspaceNotFoundError):
        world.service.checked_page("mallory", PageContext("task", world.patch.id))
