"""The workspace tables on SQLite and PostgreSQL: what is written reads back the same."""

from __future__ import annotations

from pathlib import Path

from lectern.domain.workspace import CommentCitation, ReviewSettings
from tests.workspace_world import Seeded, seeded


def test_everything_reads_back_as_written(tmp_path: Path, catalog_url: str) -> None:
    world = seeded(tmp_path, catalog_url)
    try:
        _round_trip(world)
    finally:
        world.store.engine.dispose()


def _round_trip(world: Seeded) -> None:
    store, service = world.store, world.service
    assert store.task(world.patch.id) == world.patch
    assert store.task(world.patch.id).due_date is not None  # type: ignore[union-attr]
    assert store.blocker(world.blocker.id) == world.blocker
    assert store.project(world.vpn.id) == world.vpn
    assert store.document(world.advisory.id) == world.advisory
    assert [m.user for m in store.members(world.acme)] == ["alice", "bob", "vera"]
    assert {m.organization_id for m in store.memberships("alice")} == {world.acme}

    settings = ReviewSettings(document_created=True, task_in_review=True)
    service.set_reviews("alice", world.acme, settings)
    assert store.organization(world.acme).reviews == settings  # type: ignore[union-attr]

    moved = service.update_task(
        "bob", world.hunt.id, {"status": "in_progress", "due_date": "2026-12-24"}
    )
    assert store.task(world.hunt.id) == moved
    assert [t.id for t in store.tasks([world.vpn.id], status="in_progress")] == [world.hunt.id]
    assert [t.id for t in store.tasks([world.vpn.id], assignee="bob")] == [world.patch.id]

    cited = (CommentCitation("document:x", "[CVE-1]", 'a "quoted" snippet'),)
    review = service.post_review(f"document:{world.advisory.id}", world.vpn.id, "Review.", cited)
    assert store.comments(document_id=world.advisory.id) == [review]

    resolved = service.resolve_blocker("bob", world.blocker.id, "Booked")
    assert store.blocker(world.blocker.id) == resolved
    assert store.blockers([world.vpn.id], status="open") == []

    service.change_role("alice", world.acme, "vera", "member")
    assert {m.user: m.role for m in store.members(world.acme)}["vera"] == "member"
    service.remove_member("alice", world.acme, "vera")
    assert [m.user for m in store.members(world.acme)] == ["alice", "bob"]

    service.unlink_document("alice", world.advisory.id)
    assert store.document(world.advisory.id) is None
    assert store.comments(document_id=world.advisory.id) == []
