"""A seeded research workspace over the real SQL store and a small real collection.

Two organizations: Acme (alice owner, bob member, vera viewer) with the project "VPN gateway
hardening", and Umbrella (mallory owner) with a project of its own. Shared by the service,
tool, review and HTTP tests.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from lectern.adapters.catalog.workspace_store import SqlAlchemyWorkspaceStore
from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex
from lectern.application.collections import CollectionService
from lectern.application.workspace.ports import ReviewJob
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.workspace import Blocker, Project, ProjectDocument, Task
from tests.collection_wiring import collection_service

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)

ADVISORIES = {
    "cve-2024-24919.md": (
        "# CVE-2024-24919: Check Point Quantum Gateway information disclosure\n\n"
        "Check Point Quantum Security Gateways contain an information disclosure "
        "vulnerability that lets an attacker read files on gateways with remote access VPN "
        "enabled. Apply the vendor hotfix to every gateway.\n"
    ),
    "cve-2023-4966.md": (
        "# CVE-2023-4966: Citrix NetScaler session hijacking\n\n"
        "Citrix NetScaler ADC and Gateway leak session tokens when configured as a VPN "
        "virtual server. Attackers hijack authenticated sessions. Kill all active sessions "
        "after patching.\n"
    ),
    "t1133.md": (
        "# T1133: External Remote Services\n\n"
        "Adversaries leverage external remote services such as VPNs to gain initial access "
        "to a network. Monitor VPN logins from unusual locations.\n"
    ),
    "unrelated.md": ("# Garden notes\n\nTomatoes need six hours of sun and steady watering.\n"),
}


class Clock:
    """A clock tests move by hand."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


class RecordingReviewQueue:
    """Keeps queued reviews; `fail` makes enqueueing raise (a queue that is down)."""

    def __init__(self) -> None:
        self.jobs: list[ReviewJob] = []
        self.fail = False

    def enqueue(self, job: ReviewJob) -> str:
        if self.fail:
            raise ConnectionError("the queue is down")
        self.jobs.append(job)
        return f"job-{len(self.jobs)}"


@dataclass
class Seeded:
    """The seeded world and handles on what it holds."""

    service: WorkspaceService
    store: SqlAlchemyWorkspaceStore
    collections: CollectionService
    queue: RecordingReviewQueue
    clock: Clock
    acme: str
    umbrella: str
    vpn: Project
    other: Project
    patch: Task
    review: Task
    hunt: Task
    rival_task: Task
    blocker: Blocker
    rival_blocker: Blocker
    advisory: ProjectDocument
    rival_document: ProjectDocument
    ids: dict[str, str] = field(default_factory=dict)


def seeded(tmp_path: Path, url: str | None = None) -> Seeded:
    url = url or f"sqlite:///{tmp_path / 'catalog.db'}"
    collections = collection_service(tmp_path, url=url)
    folder = tmp_path / "advisories"
    folder.mkdir()
    for name, text in ADVISORIES.items():
        (folder / name).write_text(text, encoding="utf-8")
    collections.add("advisories", folder)
    store = SqlAlchemyWorkspaceStore(collections.store.engine)  # type: ignore[attr-defined]
    clock = Clock()
    counter = itertools.count(1)
    queue = RecordingReviewQueue()
    service = WorkspaceService(
        store,
        collections=collections,
        text_index=Bm25sLexicalIndex.build,
        reviews=queue,
        clock=clock,
        new_id=lambda: str(uuid.UUID(int=next(counter))),
    )
    acme = service.create_organization("alice", "Acme Security", display_name="Alice Analyst")
    service.add_member("alice", acme.id, "bob", "member", display_name="Bob Builder")
    service.add_member("alice", acme.id, "vera", "viewer", display_name="Vera Viewer")
    umbrella = service.create_organization("mallory", "Umbrella")
    vpn = service.create_project(
        "alice",
        acme.id,
        "VPN gateway hardening",
        description="Patch and monitor the remote access VPN gateways.",
    )
    other = service.create_project("mallory", umbrella.id, "Umbrella secrets")
    patch = service.create_task(
        "alice",
        vpn.id,
        "Patch the Check Point gateways",
        description="Apply the hotfix for CVE-2024-24919 on every gateway.",
        priority="high",
        assignee="bob",
        due_date=(START.date() - timedelta(days=2)).isoformat(),
    )
    review = service.create_task(
        "alice", vpn.id, "Review NetScaler sessions", status="in_review", assignee="alice"
    )
    hunt = service.create_task("bob", vpn.id, "Hunt for unusual VPN logins", priority="low")
    blocker = service.create_blocker(
        "bob", vpn.id, "Waiting for the vendor maintenance window", task_id=patch.id
    )
    rival_task = service.create_task("mallory", other.id, "Steal the formula")
    rival_blocker = service.create_blocker("mallory", other.id, "Guards everywhere")
    documents = {d.uri: d.id for d in collections.show("advisories")[1]}
    advisory = service.link_document("alice", vpn.id, "advisories", documents["cve-2024-24919.md"])
    service.link_document("alice", vpn.id, "advisories", documents["t1133.md"])
    rival_document = service.link_document(
        "mallory", other.id, "advisories", documents["unrelated.md"]
    )
    service.add_comment("bob", "Hotfix staged on the lab gateway.", task_id=patch.id)
    queue.jobs.clear()
    return Seeded(
        service=service,
        store=store,
        collections=collections,
        queue=queue,
        clock=clock,
        acme=acme.id,
        umbrella=umbrella.id,
        vpn=vpn,
        other=other,
        patch=patch,
        review=review,
        hunt=hunt,
        rival_task=rival_task,
        blocker=blocker,
        rival_blocker=rival_blocker,
        advisory=advisory,
        rival_document=rival_document,
        ids=dict(documents),
    )


TODAY: date = START.date()
