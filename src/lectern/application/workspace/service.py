"""`WorkspaceService`: every read and write scoped by the caller's membership.

Each call names the user first. A thing is found by id, then its organization, then the
user's membership of that organization; without a membership the answer is "not found"
(the same as for an id that does not exist), so ids of other organizations say nothing.
Viewers read; writes need an owner or member; members and review settings need an owner.
An edit that an organization's review settings name queues a review after the edit is
stored; queueing never fails the edit.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TypeVar, cast

import structlog

from lectern.application.access import CollectionAccess
from lectern.application.collections import CollectionService, DocumentView
from lectern.application.workspace.ports import ReviewJob, ReviewQueue, WorkspaceStore
from lectern.application.workspace.search import (
    ContentHit,
    TextIndexFactory,
    search_documents,
    search_items,
)
from lectern.domain.assistant import PageContext
from lectern.domain.books import JSONValue
from lectern.domain.workspace import (
    BLOCKER_STATUSES,
    MAX_NAME_CHARS,
    MAX_TITLE_CHARS,
    PRIORITIES,
    PROJECT_STATUSES,
    REVIEWER,
    ROLES,
    TASK_STATUSES,
    Attention,
    Blocker,
    BlockerStatus,
    Comment,
    CommentCitation,
    Member,
    Organization,
    Project,
    ProjectDocument,
    ProjectStatus,
    ReviewSettings,
    ReviewTrigger,
    Role,
    Task,
    TaskStatus,
    attention,
    can_edit,
    can_manage,
    check_choice,
    clean_body,
    clean_text,
    matches,
    parse_due_date,
    project_collection,
)
from lectern.errors import (
    CollectionNotFoundError,
    DocumentNotFoundError,
    InvalidQueryError,
    WorkspaceConflictError,
    WorkspaceNotFoundError,
    WorkspacePermissionError,
)

log = structlog.get_logger(__name__)
_T = TypeVar("_T")

TASK_FIELDS = ("title", "description", "status", "priority", "assignee", "due_date")


@dataclass(frozen=True, slots=True)
class ProjectDocumentView:
    """A project document with the collection document it links to (text included)."""

    link: ProjectDocument
    view: DocumentView

    @property
    def label(self) -> str:
        """The document's citation label."""
        document = self.view.document
        return f"[{document.cite_as or document.uri}]"


class WorkspaceService:
    """Organizations, members, projects, tasks, blockers, comments and documents, per user."""

    def __init__(
        self,
        store: WorkspaceStore,
        *,
        collections: CollectionService | None = None,
        text_index: TextIndexFactory | None = None,
        reviews: ReviewQueue | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
        max_upload_bytes: int = 20_000_000,
    ) -> None:
        """Adapters come from bootstrap; `reviews` is None when reviews cannot run."""
        self.store = store
        self.collections = collections
        self.text_index = text_index
        self.reviews = reviews
        self.clock = clock
        self.new_id = new_id
        self.max_upload_bytes = max_upload_bytes
        self.access = CollectionAccess(store)

    # --- membership -----------------------------------------------------------------------

    def _membership(self, user: str, organization_id: str) -> Member:
        for member in self.store.memberships(user):
            if member.organization_id == organization_id:
                return member
        raise WorkspaceNotFoundError(f"no organization {organization_id!r}")

    def _organization_ids(self, user: str) -> list[str]:
        return [m.organization_id for m in self.store.memberships(user)]

    def _visible_projects(self, user: str) -> list[Project]:
        return self.store.projects(self._organization_ids(user))

    @staticmethod
    def _require_editor(member: Member) -> None:
        if not can_edit(member.role):
            raise WorkspacePermissionError(
                "viewers can read this organization but not change it (ask an owner for the "
                "member role)"
            )

    @staticmethod
    def _require_owner(member: Member) -> None:
        if not can_manage(member.role):
            raise WorkspacePermissionError("only an owner of the organization may do this")

    def role_in_project(self, user: str, project_id: str) -> Role:
        """The user's role in the project's organization (WorkspaceNotFoundError if none)."""
        project = self.project(user, project_id)
        return self._membership(user, project.organization_id).role

    def require_editor(self, user: str, project_id: str) -> Project:
        """The project, when the user may change it; WorkspacePermissionError for viewers."""
        project = self.project(user, project_id)
        self._require_editor(self._membership(user, project.organization_id))
        return project

    # --- organizations and members --------------------------------------------------------

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

    # --- projects -------------------------------------------------------------------------

    def projects(
        self,
        user: str,
        *,
        organization_id: str | None = None,
        status: str | None = None,
    ) -> list[Project]:
        """The projects the user can see (of one organization, of one status)."""
        if organization_id is not None:
            self._membership(user, organization_id)
            found = self.store.projects([organization_id])
        else:
            found = self._visible_projects(user)
        if status is not None:
            wanted = check_choice(status, PROJECT_STATUSES, "project status")
            found = [p for p in found if p.status == wanted]
        return found

    def project(self, user: str, project_id: str) -> Project:
        """One project the user can see."""
        project = self.store.project(project_id)
        if project is None or project.organization_id not in self._organization_ids(user):
            raise WorkspaceNotFoundError(f"no project {project_id!r}")
        return project

    def checked_page(self, user: str, page: PageContext) -> PageContext:
        """A workspace page as the user may see it: stored names, the owning project.

        The page context comes from the client: a project, task or document (or a
        dashboard's project) the user cannot see answers WorkspaceNotFoundError (404), as
        the tools do, so that naming another organization's id reveals nothing.
        """
        if page.type == "project" and page.id:
            project = self.project(user, page.id)
            return PageContext("project", project.id, project.name, project_id=project.id)
        if page.type == "task" and page.id:
            task = self.task(user, page.id)
            return PageContext("task", task.id, task.title, project_id=task.project_id)
        if page.type == "document" and page.id:
            document = self.document(user, page.id)
            return PageContext(
                "document", document.id, document.title, project_id=document.project_id
            )
        if page.project_id:
            project = self.project(user, page.project_id)
            return replace(page, project_id=project.id)
        return page

    def find_project(self, user: str, reference: str) -> Project:
        """A project by id, else by name (exact, then every word of the reference)."""
        reference = reference.strip()
        visible = self._visible_projects(user)
        return _pick(
            visible,
            reference,
            lambda p: p.id,
            lambda p: p.name,
            "project",
        )

    def create_project(
        self,
        user: str,
        organization_id: str,
        name: str,
        *,
        description: str = "",
        status: str = "active",
    ) -> Project:
        """A new project (owners and members)."""
        self._require_editor(self._membership(user, organization_id))
        now = self.clock()
        project = Project(
            self.new_id(),
            organization_id,
            clean_text(name, "project name", MAX_NAME_CHARS),
            clean_body(description, "description"),
            cast(ProjectStatus, check_choice(status, PROJECT_STATUSES, "project status")),
            now,
            now,
        )
        self.store.add_project(project)
        return project

    def update_project(
        self,
        user: str,
        project_id: str,
        *,
        name: str | None = None,
        description: str | None = None,
        status: str | None = None,
    ) -> Project:
        """Change a project's name, description or status."""
        project = self.require_editor(user, project_id)
        updated = replace(
            project,
            name=clean_text(name, "project name", MAX_NAME_CHARS)
            if name is not None
            else project.name,
            description=clean_body(description, "description")
            if description is not None
            else project.description,
            status=cast(ProjectStatus, check_choice(status, PROJECT_STATUSES, "project status"))
            if status is not None
            else project.status,
            updated_at=self.clock(),
        )
        self.store.update_project(updated)
        return updated

    # --- tasks ----------------------------------------------------------------------------

    def tasks(
        self,
        user: str,
        project_id: str,
        *,
        status: str | None = None,
        assignee: str | None = None,
    ) -> list[Task]:
        """A project's tasks, optionally of one status or assignee."""
        project = self.project(user, project_id)
        wanted = (
            cast(TaskStatus, check_choice(status, TASK_STATUSES, "task status"))
            if status is not None
            else None
        )
        return self.store.tasks([project.id], status=wanted, assignee=assignee)

    def task(self, user: str, task_id: str) -> Task:
        """One task the user can see."""
        task = self.store.task(task_id)
        if task is None:
            raise WorkspaceNotFoundError(f"no task {task_id!r}")
        try:
            self.project(user, task.project_id)
        except WorkspaceNotFoundError:
            raise WorkspaceNotFoundError(f"no task {task_id!r}") from None
        return task

    def find_task(self, user: str, reference: str, *, project_id: str | None = None) -> Task:
        """A task by id, else by title (in one project, or in every visible project)."""
        reference = reference.strip()
        projects = (
            [self.project(user, project_id).id]
            if project_id is not None
            else [p.id for p in self._visible_projects(user)]
        )
        return _pick(
            self.store.tasks(projects), reference, lambda t: t.id, lambda t: t.title, "task"
        )

    def create_task(
        self,
        user: str,
        project_id: str,
        title: str,
        *,
        description: str = "",
        status: str = "todo",
        priority: str = "medium",
        assignee: str | None = None,
        due_date: str | None = None,
        task_id: str | None = None,
    ) -> Task:
        """A new task; the assignee must be a member of the project's organization."""
        project = self.require_editor(user, project_id)
        task = self.draft_task(
            project,
            user,
            {
                "title": title,
                "description": description,
                "status": status,
                "priority": priority,
                "assignee": assignee,
                "due_date": due_date,
            },
            task_id=task_id,
        )
        self.store.add_task(task)
        if task.status == "in_review":
            self._review(project, "task_in_review", f"task:{task.id}", user)
        return task

    def draft_task(
        self,
        project: Project,
        user: str,
        fields: Mapping[str, JSONValue],
        *,
        task_id: str | None = None,
    ) -> Task:
        """A checked new task, not stored (action previews show it)."""
        now = self.clock()
        blank = Task(
            id=task_id or self.new_id(),
            project_id=project.id,
            title="",
            description="",
            status="todo",
            priority="medium",
            assignee=None,
            due_date=None,
            created_by=user,
            created_at=now,
            updated_at=now,
        )
        return self._changed(project, blank, fields)

    def _changed(self, project: Project, task: Task, changes: Mapping[str, JSONValue]) -> Task:
        """The task with these fields changed, each checked."""
        unknown = set(changes) - set(TASK_FIELDS)
        if unknown:
            raise InvalidQueryError(f"tasks have no field {', '.join(sorted(unknown))}")
        values: dict[str, object] = {}
        if "title" in changes:
            values["title"] = clean_text(_str(changes["title"]), "task title", MAX_TITLE_CHARS)
        if "description" in changes:
            values["description"] = clean_body(_str(changes["description"]), "description")
        if changes.get("status") is not None:
            values["status"] = check_choice(str(changes["status"]), TASK_STATUSES, "task status")
        if changes.get("priority") is not None:
            values["priority"] = check_choice(str(changes["priority"]), PRIORITIES, "priority")
        if "assignee" in changes:
            values["assignee"] = self._assignee(project, changes["assignee"])
        if "due_date" in changes:
            values["due_date"] = parse_due_date(_str(changes["due_date"]))
        return replace(task, **values)  # type: ignore[arg-type]

    def _assignee(self, project: Project, value: JSONValue) -> str | None:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        name = str(value).strip()
        for member in self.store.members(project.organization_id):
            if name.casefold() in (member.user.casefold(), member.display_name.casefold()):
                return member.user
        raise InvalidQueryError(
            f"{name!r} is not a member of this project's organization; "
            "get_team_members lists who can be assigned"
        )

    def preview_task_changes(
        self, user: str, task_id: str, changes: Mapping[str, JSONValue]
    ) -> tuple[Task, Task]:
        """The task now and as it would be after the changes (checked, nothing stored)."""
        task = self.task(user, task_id)
        project = self.require_editor(user, task.project_id)
        return task, self._changed(project, task, changes)

    def update_task(self, user: str, task_id: str, changes: Mapping[str, JSONValue]) -> Task:
        """Change a task's fields; moving it to in_review may queue a review."""
        before, after = self.preview_task_changes(user, task_id, changes)
        if after == before:
            return before
        after = replace(after, updated_at=self.clock())
        self.store.update_task(after)
        if after.status == "in_review" and before.status != "in_review":
            project = self.store.project(after.project_id)
            if project is not None:
                self._review(project, "task_in_review", f"task:{after.id}", user)
        return after

    # --- blockers -------------------------------------------------------------------------

    def blockers(
        self, user: str, project_id: str | None = None, *, status: str | None = None
    ) -> list[Blocker]:
        """Blockers of one project, or of every project the user can see."""
        ids = (
            [self.project(user, project_id).id]
            if project_id is not None
            else [p.id for p in self._visible_projects(user)]
        )
        wanted = (
            cast(BlockerStatus, check_choice(status, BLOCKER_STATUSES, "blocker status"))
            if status is not None
            else None
        )
        return self.store.blockers(ids, status=wanted)

    def blocker(self, user: str, blocker_id: str) -> Blocker:
        """One blocker the user can see."""
        blocker = self.store.blocker(blocker_id)
        if blocker is None:
            raise WorkspaceNotFoundError(f"no blocker {blocker_id!r}")
        try:
            self.project(user, blocker.project_id)
        except WorkspaceNotFoundError:
            raise WorkspaceNotFoundError(f"no blocker {blocker_id!r}") from None
        return blocker

    def find_blocker(self, user: str, reference: str, *, project_id: str | None = None) -> Blocker:
        """A blocker by id, else by words of its description (open ones first)."""
        found = self.blockers(user, project_id)
        ordered = [b for b in found if b.status == "open"] + [
            b for b in found if b.status != "open"
        ]
        return _pick(ordered, reference.strip(), lambda b: b.id, lambda b: b.description, "blocker")

    def create_blocker(
        self,
        user: str,
        project_id: str,
        description: str,
        *,
        task_id: str | None = None,
        blocker_id: str | None = None,
    ) -> Blocker:
        """A new open blocker of the project (or of one of its tasks)."""
        blocker = self.draft_blocker(user, project_id, description, task_id, blocker_id)
        self.store.add_blocker(blocker)
        return blocker

    def draft_blocker(
        self,
        user: str,
        project_id: str,
        description: str,
        task_id: str | None = None,
        blocker_id: str | None = None,
    ) -> Blocker:
        """A checked new blocker, not stored."""
        project = self.require_editor(user, project_id)
        if task_id is not None and self.task(user, task_id).project_id != project.id:
            raise InvalidQueryError("the task belongs to another project")
        return Blocker(
            id=blocker_id or self.new_id(),
            project_id=project.id,
            task_id=task_id,
            description=clean_body(description, "blocker description", required=True),
            status="open",
            resolution=None,
            created_by=user,
            created_at=self.clock(),
        )

    def resolve_blocker(self, user: str, blocker_id: str, resolution: str) -> Blocker:
        """Mark an open blocker resolved, saying how."""
        blocker = self.blocker(user, blocker_id)
        self.require_editor(user, blocker.project_id)
        if blocker.status == "resolved":
            raise WorkspaceConflictError("the blocker is already resolved")
        resolved = replace(
            blocker,
            status="resolved",
            resolution=clean_body(resolution, "resolution", required=True),
            resolved_at=self.clock(),
        )
        self.store.update_blocker(resolved)
        return resolved

    # --- comments -------------------------------------------------------------------------

    def comments(
        self, user: str, *, task_id: str | None = None, document_id: str | None = None
    ) -> list[Comment]:
        """The comments on a task or a project document the user can see."""
        if task_id is not None:
            self.task(user, task_id)
            return self.store.comments(task_id=task_id)
        if document_id is not None:
            self.document(user, document_id)
            return self.store.comments(document_id=document_id)
        raise InvalidQueryError("name a task or a document")

    def add_comment(
        self,
        user: str,
        text: str,
        *,
        task_id: str | None = None,
        document_id: str | None = None,
        comment_id: str | None = None,
    ) -> Comment:
        """A comment by the user on a task or a project document."""
        if (task_id is None) == (document_id is None):
            raise InvalidQueryError("comment on exactly one task or one document")
        if task_id is not None:
            project_id = self.task(user, task_id).project_id
        else:
            project_id = self.document(user, str(document_id)).project_id
        self.require_editor(user, project_id)
        comment = Comment(
            id=comment_id or self.new_id(),
            project_id=project_id,
            task_id=task_id,
            document_id=document_id,
            author=user,
            text=clean_body(text, "comment", required=True),
            created_at=self.clock(),
        )
        self.store.add_comment(comment)
        return comment

    def post_review(
        self, target: str, project_id: str, text: str, citations: Sequence[CommentCitation]
    ) -> Comment:
        """The reviewer's comment on a task or document (reviews call it; no user scope)."""
        kind, _, ident = target.partition(":")
        comment = Comment(
            id=self.new_id(),
            project_id=project_id,
            task_id=ident if kind == "task" else None,
            document_id=ident if kind == "document" else None,
            author=REVIEWER,
            text=text,
            created_at=self.clock(),
            citations=tuple(citations),
        )
        self.store.add_comment(comment)
        return comment

    # --- documents ------------------------------------------------------------------------

    def documents(self, user: str, project_id: str) -> list[ProjectDocument]:
        """The documents a project links to."""
        return self._links([self.project(user, project_id)])

    def _links(self, projects: Sequence[Project]) -> list[ProjectDocument]:
        """The projects' document links, leaving out any naming another organization's files.

        Linking checks this too; the filter keeps links stored before that check harmless.
        """
        organization_of = {p.id: p.organization_id for p in projects}
        return [
            d
            for d in self.store.documents(list(organization_of))
            if self.access.may_link(organization_of[d.project_id], d.collection)
        ]

    def document(self, user: str, document_id: str) -> ProjectDocument:
        """One project document the user can see."""
        found = self.store.document(document_id)
        if found is None:
            raise WorkspaceNotFoundError(f"no document {document_id!r}")
        try:
            project = self.project(user, found.project_id)
        except WorkspaceNotFoundError:
            raise WorkspaceNotFoundError(f"no document {document_id!r}") from None
        if not self.access.may_link(project.organization_id, found.collection):
            raise WorkspaceNotFoundError(f"no document {document_id!r}")
        return found

    def find_document(
        self, user: str, reference: str, *, project_id: str | None = None
    ) -> ProjectDocument:
        """A project document by id, by its collection document's id, else by title words."""
        projects = (
            [self.project(user, project_id)]
            if project_id is not None
            else self._visible_projects(user)
        )
        found = self._links(projects)
        reference = reference.strip()
        for link in found:
            if reference in (link.id, link.document_id):
                return link
        return _pick(found, reference, lambda d: d.id, lambda d: d.title, "document")

    def document_view(self, user: str, document_id: str) -> ProjectDocumentView:
        """A project document with its text, pages, sections and passages."""
        link = self.document(user, document_id)
        return ProjectDocumentView(link, self.collection_document(link))

    def collection_document(self, link: ProjectDocument) -> DocumentView:
        """The collection document a link points to (reviews read it; no user scope)."""
        collections = self._collections()
        try:
            return collections.document(link.collection, link.document_id)
        except (CollectionNotFoundError, DocumentNotFoundError):
            raise WorkspaceNotFoundError(
                f"the document {link.title!r} is no longer in the collection {link.collection!r}"
            ) from None

    def _collections(self) -> CollectionService:
        if self.collections is None:
            raise WorkspaceConflictError("this installation has no document collections")
        return self.collections

    def link_document(
        self, user: str, project_id: str, collection: str, document_id: str
    ) -> ProjectDocument:
        """Link a collection's document to a project (a document created in it)."""
        project = self.require_editor(user, project_id)
        collections = self._collections()
        if not self.access.may_link(project.organization_id, collection):
            # Another organization's project files: as unknown as a name that does not exist.
            raise WorkspaceNotFoundError(f"no collection named {collection!r}")
        try:
            view = collections.document(collection, document_id)
        except (CollectionNotFoundError, DocumentNotFoundError) as error:
            raise WorkspaceNotFoundError(str(error)) from None
        if any(
            d.collection == collection and d.document_id == document_id
            for d in self.store.documents([project.id])
        ):
            raise WorkspaceConflictError("the project already links this document")
        now = self.clock()
        link = ProjectDocument(
            self.new_id(),
            project.id,
            collection,
            document_id,
            view.document.title,
            "link",
            user,
            now,
            now,
        )
        self.store.add_document(link)
        self._review(project, "document_created", f"document:{link.id}", user)
        return link

    def upload_document(
        self, user: str, project_id: str, filename: str, data: bytes
    ) -> ProjectDocument:
        """Upload a file into the project's own collection and link it.

        The same file name again replaces the document's text (a document updated).
        """
        _, stored = self.accept_upload(user, project_id, filename, data)
        return self.finish_upload(user, project_id, stored)

    def accept_upload(
        self, user: str, project_id: str, filename: str, data: bytes
    ) -> tuple[str, str]:
        """Check the caller may edit the project and store the file (not yet ingested).

        Returns the project's collection and the stored file's name, for `finish_upload`.
        """
        project = self.require_editor(user, project_id)
        name = project_collection(project.id)
        path = self._collections().accept_upload(
            name, filename, data, max_bytes=self.max_upload_bytes, create=True
        )
        return name, path.name

    def finish_upload(self, user: str, project_id: str, stored: str) -> ProjectDocument:
        """Ingest a stored upload into the project's collection and link it (an upload job)."""
        project = self.require_editor(user, project_id)
        collections = self._collections()
        name = project_collection(project.id)
        _, stored_id = collections.ingest_upload(name, stored)
        title = collections.document(name, stored_id).document.title
        now = self.clock()
        existing = next(
            (
                d
                for d in self.store.documents([project.id])
                if d.collection == name and d.document_id == stored_id
            ),
            None,
        )
        if existing is not None:
            updated = replace(existing, title=title, updated_at=now)
            self.store.update_document(updated)
            self._review(project, "document_updated", f"document:{updated.id}", user)
            return updated
        link = ProjectDocument(
            self.new_id(), project.id, name, stored_id, title, "upload", user, now, now
        )
        self.store.add_document(link)
        self._review(project, "document_created", f"document:{link.id}", user)
        return link

    def unlink_document(self, user: str, document_id: str) -> None:
        """Remove a document from its project (the collection keeps it)."""
        link = self.document(user, document_id)
        self.require_editor(user, link.project_id)
        self.store.remove_document(link.id)

    # --- attention and search -------------------------------------------------------------

    def attention(self, user: str) -> Attention:
        """Overdue, blocked, in review and assigned-to-me tasks across the user's projects."""
        ids = [p.id for p in self._visible_projects(user)]
        return attention(user, self.store.tasks(ids), self.store.blockers(ids), self.clock().date())

    def search_content(
        self, user: str, query: str, *, project_id: str | None = None, limit: int = 10
    ) -> list[ContentHit]:
        """Projects, tasks, blockers and comments (BM25) and document passages (hybrid)."""
        text = " ".join(query.split())
        if not text:
            raise InvalidQueryError("the query is empty")
        projects = (
            [self.project(user, project_id)]
            if project_id is not None
            else self._visible_projects(user)
        )
        hits = search_items(self.store, self.text_index, projects, text, limit)
        hits += search_documents(self._links(projects), self.collections, text, limit)
        hits.sort(key=lambda h: -h.score)
        return hits[:limit]

    # --- reviews --------------------------------------------------------------------------

    def _review(self, project: Project, trigger: ReviewTrigger, target: str, user: str) -> None:
        """Queue a review when the organization asks for one; never fail the edit."""
        organization = self.store.organization(project.organization_id)
        if organization is None or not organization.reviews.wants(trigger):
            return
        if self.reviews is None:
            log.warning("review not queued: no review queue", target=target, trigger=trigger)
            return
        job = ReviewJob(organization.id, project.id, target, trigger, user)
        try:
            job_id = self.reviews.enqueue(job)
        except Exception as error:  # noqa: BLE001 - the edit stands whatever the queue does
            log.error("review not queued", target=target, trigger=trigger, error=str(error))
            return
        log.info("review queued", target=target, trigger=trigger, job=job_id)


def _str(value: JSONValue) -> str | None:
    return None if value is None else str(value)


def _pick(
    things: Sequence[_T],
    reference: str,
    id_of: Callable[[_T], str],
    name_of: Callable[[_T], str],
    what: str,
) -> _T:
    """By id, else the one exact name, else the one name holding every word of the reference."""
    if not reference:
        raise InvalidQueryError(f"name a {what}")
    for thing in things:
        if id_of(thing) == reference:
            return thing
    folded = " ".join(reference.casefold().split())
    exact = [t for t in things if " ".join(name_of(t).casefold().split()) == folded]
    if len(exact) == 1:
        return exact[0]
    candidates = exact or [t for t in things if matches(name_of(t), reference)]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise WorkspaceNotFoundError(f"no {what} {reference!r}")
    names = "; ".join(f"{name_of(t)!r} ({id_of(t)})" for t in candidates[:5])
    raise InvalidQueryError(f"{len(candidates)} {what}s match {reference!r}: {names}; give the id")
