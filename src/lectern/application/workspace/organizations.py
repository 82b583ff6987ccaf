"""Organizations and their members: who belongs, with which role (owners manage them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import cast

from lectern.application.workspace.access import WorkspaceAccess
from lectern.domain.workspace import (
    MAX_NAME_CHARS,
    ROLES,
    Member,
    Organization,
    ReviewSettings,
    Role,
    check_choice,
    clean_text,
)
from lectern.errors import WorkspaceConflictError, WorkspaceNotFoundError


class Organizations(WorkspaceAccess):
    """The user's organizations and their members."""

    clock: Callable[[], datetime]
    new_id: Callable[[], str]

    def organizations(self, user: str) -> list[tuple[Organization, Member]]:
        """The user's organizations with the user's membership of each."""
        found: list[tuple[Organization, Member]] = []
        for member in self.store.memberships(user):
            organization = self.store.organization(member.organization_id)
            if organization is not None:
                found.append((organization, member))
        return found

    def organization(self, user: str, organization_id: str) -> tuple[Organization, Member]:
        """One of the user's organizations, with the user's membership."""
        member = self._membership(user, organization_id)
        organization = self.store.organization(organization_id)
        if organization is None:
            raise WorkspaceNotFoundError(f"no organization {organization_id!r}")
        return organization, member

    def create_organization(
        self, user: str, name: str, *, display_name: str | None = None
    ) -> Organization:
        """A new organization with the user as its owner."""
        now = self.clock()
        organization = Organization(
            self.new_id(), clean_text(name, "organization name", MAX_NAME_CHARS), now
        )
        owner = Member(
            organization.id,
            user,
            "owner",
            clean_text(display_name or user, "display name", MAX_NAME_CHARS),
            now,
        )
        self.store.add_organization(organization, owner)
        return organization

    def set_reviews(
        self, user: str, organization_id: str, settings: ReviewSettings
    ) -> Organization:
        """Which edits start an automatic review (owners only)."""
        organization, member = self.organization(user, organization_id)
        self._require_owner(member)
        updated = replace(organization, reviews=settings)
        self.store.update_organization(updated)
        return updated

    def members(self, user: str, organization_id: str) -> list[Member]:
        """The organization's members (any member may see them)."""
        self._membership(user, organization_id)
        return self.store.members(organization_id)

    def add_member(
        self,
        user: str,
        organization_id: str,
        new_user: str,
        role: str,
        *,
        display_name: str | None = None,
    ) -> Member:
        """Add a user with a role (owners only); a member added twice is a conflict."""
        _, member = self.organization(user, organization_id)
        self._require_owner(member)
        name = clean_text(new_user, "user name", 200)
        if any(m.user == name for m in self.store.members(organization_id)):
            raise WorkspaceConflictError(f"{name!r} is already a member")
        added = Member(
            organization_id,
            name,
            cast(Role, check_choice(role, ROLES, "role")),
            clean_text(display_name or name, "display name", MAX_NAME_CHARS),
            self.clock(),
        )
        self.store.put_member(added)
        return added

    def change_role(self, user: str, organization_id: str, member_user: str, role: str) -> Member:
        """Give a member another role (owners only; the last owner stays an owner)."""
        _, member = self.organization(user, organization_id)
        self._require_owner(member)
        everyone = self.store.members(organization_id)
        target = next((m for m in everyone if m.user == member_user), None)
        if target is None:
            raise WorkspaceNotFoundError(f"{member_user!r} is not a member")
        new_role = cast(Role, check_choice(role, ROLES, "role"))
        self._keep_an_owner(everyone, target, new_role)
        changed = replace(target, role=new_role)
        self.store.put_member(changed)
        return changed

    def remove_member(self, user: str, organization_id: str, member_user: str) -> None:
        """Remove a member (owners only; never the last owner)."""
        _, member = self.organization(user, organization_id)
        self._require_owner(member)
        everyone = self.store.members(organization_id)
        target = next((m for m in everyone if m.user == member_user), None)
        if target is None:
            raise WorkspaceNotFoundError(f"{member_user!r} is not a member")
        self._keep_an_owner(everyone, target, None)
        self.store.remove_member(organization_id, member_user)

    @staticmethod
    def _keep_an_owner(everyone: Sequence[Member], target: Member, role: Role | None) -> None:
        owners = [m for m in everyone if m.role == "owner"]
        if target.role == "owner" and role != "owner" and len(owners) == 1:
            raise WorkspaceConflictError("an organization keeps at least one owner")

    def team_members(
        self, user: str, *, organization_id: str | None = None, project_id: str | None = None
    ) -> list[Member]:
        """Members of one organization (or a project's), else of all the user's organizations."""
        if project_id is not None:
            organization_id = self.project(user, project_id).organization_id
        if organization_id is not None:
            return self.members(user, organization_id)
        found: list[Member] = []
        for organization_id in self._organization_ids(user):
            found.extend(self.store.members(organization_id))
        return found
