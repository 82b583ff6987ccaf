"""A seeded research workspace over the real SQL store and a small real collection.

Two organizations: Acme (alice owner, bob member, vera viewer) with the project "VPN gateway
hardening", and Umbrella (mallory owner) with a project of its own. Shared by the service,
tool, review and HTTP tests.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.catalog.workspace_store import SqlAlchemyWorkspaceStore
from lectern.adapters.lexical.bm25s_index import Bm25sLexicalIndex
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.privacy.patterns import PatternPiiDetector
from lectern.adapters.sessions.memory import InMemorySessions
from lectern.application.assistant.approvals import Approvals
from lectern.application.assistant.names import visible_names
from lectern.application.assistant.ports import ChatModel
from lectern.application.assistant.registry import create_default_registry
from lectern.application.assistant.service import AssistantConfig, AssistantService
from lectern.application.assistant.tools import ToolDeps
from lectern.application.collections import CollectionService
from lectern.application.evaluation.workspace import WorkspaceWorld
from lectern.application.workspace.demo import DemoUsers, seed_demo
from lectern.application.workspace.ports import ReviewJob
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.workspace import Blocker, Project, ProjectDocument, Task
from tests.assistant_world import make_catalog, make_search
from tests.collection_wiring import collection_service
from tests.conftest import catalog_url_for
from tests.fakes import FakeLibrary, FakePendingActions

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
    url = url or catalog_url_for(tmp_path / "catalog.db")
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


def workspace_assistant(
    service: WorkspaceService,
    clock: Clock,
    model: ChatModel | None = None,
    *,
    mask_pii: bool = False,
) -> AssistantService:
    """The assistant with every tool, the workspace's included, over this workspace."""
    catalog = make_catalog()
    actions = FakePendingActions()
    counter = itertools.count(1)

    def new_id() -> str:
        return str(uuid.UUID(int=50_000 + next(counter)))

    deps = ToolDeps(
        catalog=catalog,
        library=FakeLibrary(),
        actions=actions,
        search=make_search(catalog),
        workspace=service,
        new_id=new_id,
    )
    registry = create_default_registry(deps)
    approvals = Approvals(actions, registry, ttl=timedelta(hours=1), clock=clock, new_id=new_id)
    return AssistantService(
        model or RulePolicy(),
        registry,
        approvals,
        InMemorySessions(),
        config=AssistantConfig(mask_pii=mask_pii),
        clock=clock,
        new_id=new_id,
        pii=PatternPiiDetector(),
        names=visible_names(service, deps.library),
    )


def conversation_worlds(
    tmp_path: Path, model: ChatModel | None = None
) -> Callable[[], WorkspaceWorld]:
    """Fresh seeded demo workspaces (one SQLite file each) over one shared collection."""
    collections = collection_service(tmp_path)
    folder = tmp_path / "advisories"
    folder.mkdir()
    for name, text in ADVISORIES.items():
        (folder / name).write_text(text, encoding="utf-8")
    collections.add("advisories", folder)
    linked = [
        ("advisories", d.id) for d in collections.show("advisories")[1] if d.uri != "unrelated.md"
    ]
    worlds = itertools.count(1)

    def make() -> WorkspaceWorld:
        number = next(worlds)
        catalog = SqlAlchemyBookCatalog.from_url(catalog_url_for(tmp_path / f"ws-{number}.db"))
        counter = itertools.count(1)
        clock = Clock()
        service = WorkspaceService(
            SqlAlchemyWorkspaceStore(catalog.engine),
            collections=collections,
            text_index=Bm25sLexicalIndex.build,
            reviews=RecordingReviewQueue(),
            clock=clock,
            new_id=lambda: str(uuid.UUID(int=next(counter))),
        )
        demo = seed_demo(service, DemoUsers(viewer="vera"), linked)
        rival = service.create_organization("mallory", "Umbrella")
        project = service.create_project("mallory", rival.id, "Umbrella secrets")
        task = service.create_task("mallory", project.id, "Steal the formula")
        return WorkspaceWorld(
            service, workspace_assistant(service, clock, model), demo, project.id, task.id
        )

    return make
