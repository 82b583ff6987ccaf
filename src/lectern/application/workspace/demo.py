"""The demo workspace: an analyst team hardening its VPN gateways against known exploits.

`lectern workspace demo` seeds it over the KEV and ATT&CK collections; the workspace
conversation set seeds the same world over whatever documents it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from lectern.application.workspace.service import WorkspaceService
from lectern.domain.workspace import Organization, Project

DEMO_ORGANIZATION = "Demo Security Team"
VPN_PROJECT = "VPN gateway hardening"
PHISHING_PROJECT = "Phishing awareness"
DEMO_KEV = ("CVE-2024-24919", "CVE-2023-4966", "CVE-2025-48384")
"""KEV records the demo project links: Check Point, Citrix NetScaler, Git."""
DEMO_ATTACK = ("T1133", "T1190")
"""ATT&CK techniques it links: external remote services, exploiting public-facing apps."""


@dataclass(frozen=True, slots=True)
class DemoUsers:
    """Who the demo organization holds."""

    owner: str = "alice"
    owner_name: str = "Alice Analyst"
    member: str = "bob"
    member_name: str = "Bob Builder"
    viewer: str | None = None
    viewer_name: str = "Vera Viewer"


@dataclass
class DemoWorkspace:
    """What the seed made, by name."""

    organization: Organization
    vpn: Project
    phishing: Project
    tasks: dict[str, str] = field(default_factory=dict)
    """Task title -> id."""
    blockers: dict[str, str] = field(default_factory=dict)
    documents: dict[str, str] = field(default_factory=dict)
    """Document title -> project document id."""


def seed_demo(
    service: WorkspaceService,
    users: DemoUsers,
    documents: Sequence[tuple[str, str]] = (),
) -> DemoWorkspace:
    """An organization, two projects, tasks, a blocker, a comment, linked documents.

    `documents` are (collection, document id) pairs to link to the VPN project.
    """
    owner, member = users.owner, users.member
    today = service.clock().date()
    organization = service.create_organization(
        owner, DEMO_ORGANIZATION, display_name=users.owner_name
    )
    service.add_member(owner, organization.id, member, "member", display_name=users.member_name)
    if users.viewer is not None:
        service.add_member(
            owner, organization.id, users.viewer, "viewer", display_name=users.viewer_name
        )
    vpn = service.create_project(
        owner,
        organization.id,
        VPN_PROJECT,
        description=(
            "Patch the remote access VPN gateways against known exploited vulnerabilities "
            "and watch for abuse of external remote services."
        ),
    )
    phishing = service.create_project(
        owner,
        organization.id,
        PHISHING_PROJECT,
        description="Quarterly phishing simulation and training.",
    )
    demo = DemoWorkspace(organization, vpn, phishing)
    for title, fields in (
        (
            "Patch the Check Point gateways",
            {
                "description": "Apply the vendor hotfix for CVE-2024-24919 on every gateway.",
                "priority": "high",
                "assignee": member,
                "due_date": (today - timedelta(days=2)).isoformat(),
            },
        ),
        (
            "Review NetScaler session tokens",
            {
                "description": "Check whether CVE-2023-4966 leaked sessions; kill them all.",
                "status": "in_review",
                "assignee": owner,
            },
        ),
        (
            "Hunt for unusual VPN logins",
            {"description": "Look for T1133 activity in the VPN logs.", "priority": "low"},
        ),
        (
            "Write the incident runbook",
            {
                "status": "in_progress",
                "assignee": owner,
                "due_date": (today + timedelta(days=10)).isoformat(),
            },
        ),
    ):
        task = service.create_task(
            owner,
            vpn.id,
            title,
            description=str(fields.get("description", "")),
            status=str(fields.get("status", "todo")),
            priority=str(fields.get("priority", "medium")),
            assignee=fields.get("assignee"),
            due_date=fields.get("due_date"),
        )
        demo.tasks[title] = task.id
    drill = service.create_task(owner, phishing.id, "Schedule the phishing drill", assignee=member)
    demo.tasks[drill.title] = drill.id
    blocker = service.create_blocker(
        member,
        vpn.id,
        "Waiting for the vendor maintenance window",
        task_id=demo.tasks["Patch the Check Point gateways"],
    )
    demo.blockers[blocker.description] = blocker.id
    service.add_comment(
        member,
        "Hotfix staged on the lab gateway; production needs the maintenance window.",
        task_id=demo.tasks["Patch the Check Point gateways"],
    )
    for collection, document_id in documents:
        link = service.link_document(owner, vpn.id, collection, document_id)
        demo.documents[link.title] = link.id
    return demo
