"""`/organizations`: the caller's organizations, their members and review settings.

Another organization's id answers 404 like an id that does not exist; a viewer or member
asking for an owner's change gets 403.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from lectern.domain.workspace import ReviewSettings
from lectern.entrypoints.http.deps import CurrentUser, Workspace
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.workspace_schemas import (
    MemberCreate,
    MemberPublic,
    MemberUpdate,
    OrganizationCreate,
    OrganizationPublic,
    ProjectCreate,
    ProjectPublic,
    ReviewSettingsModel,
)

router = APIRouter(tags=["workspace"], responses=documented(400, 401, 403, 404, 409, 413, 422, 429))


@router.get("/organizations")
def list_organizations(user: CurrentUser, workspace: Workspace) -> list[OrganizationPublic]:
    """The caller's organizations, with the caller's role in each."""
    return [OrganizationPublic.of(o, m) for o, m in workspace.organizations(user)]


@router.post("/organizations", status_code=201)
def create_organization(
    body: OrganizationCreate, user: CurrentUser, workspace: Workspace
) -> OrganizationPublic:
    """A new organization with the caller as its owner."""
    created = workspace.create_organization(user, body.name, display_name=body.display_name)
    return OrganizationPublic.of(*workspace.organization(user, created.id))


@router.get("/organizations/{organization_id}")
def get_organization(
    organization_id: str, user: CurrentUser, workspace: Workspace
) -> OrganizationPublic:
    """One of the caller's organizations."""
    return OrganizationPublic.of(*workspace.organization(user, organization_id))


@router.put("/organizations/{organization_id}/reviews")
def set_reviews(
    organization_id: str, body: ReviewSettingsModel, user: CurrentUser, workspace: Workspace
) -> OrganizationPublic:
    """Which edits start an automatic review (owners only)."""
    workspace.set_reviews(
        user,
        organization_id,
        ReviewSettings(body.document_created, body.document_updated, body.task_in_review),
    )
    return OrganizationPublic.of(*workspace.organization(user, organization_id))


@router.get("/organizations/{organization_id}/members")
def list_members(
    organization_id: str, user: CurrentUser, workspace: Workspace
) -> list[MemberPublic]:
    """The organization's members."""
    return [MemberPublic.of(m) for m in workspace.members(user, organization_id)]


@router.post("/organizations/{organization_id}/members", status_code=201)
def add_member(
    organization_id: str, body: MemberCreate, user: CurrentUser, workspace: Workspace
) -> MemberPublic:
    """Add a user with a role (owners only)."""
    added = workspace.add_member(
        user, organization_id, body.user, body.role, display_name=body.display_name
    )
    return MemberPublic.of(added)


@router.patch("/organizations/{organization_id}/members/{member}")
def change_role(
    organization_id: str, member: str, body: MemberUpdate, user: CurrentUser, workspace: Workspace
) -> MemberPublic:
    """Give a member another role (owners only; the last owner stays)."""
    return MemberPublic.of(workspace.change_role(user, organization_id, member, body.role))


@router.delete("/organizations/{organization_id}/members/{member}", status_code=204)
def remove_member(
    organization_id: str, member: str, user: CurrentUser, workspace: Workspace
) -> Response:
    """Remove a member (owners only; never the last owner)."""
    workspace.remove_member(user, organization_id, member)
    return Response(status_code=204)


@router.get("/organizations/{organization_id}/projects")
def organization_projects(
    organization_id: str, user: CurrentUser, workspace: Workspace
) -> list[ProjectPublic]:
    """The organization's projects."""
    return [ProjectPublic.of(p) for p in workspace.projects(user, organization_id=organization_id)]


@router.post("/organizations/{organization_id}/projects", status_code=201)
def create_project(
    organization_id: str, body: ProjectCreate, user: CurrentUser, workspace: Workspace
) -> ProjectPublic:
    """A new project (owners and members)."""
    project = workspace.create_project(
        user, organization_id, body.name, description=body.description, status=body.status
    )
    return ProjectPublic.of(project)
