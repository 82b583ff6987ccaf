"""Request and response models of the workspace routes, mapped explicitly from the domain."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from lectern.application.workspace.search import ContentHit
from lectern.domain.workspace import (
    MAX_TEXT_CHARS,
    Attention,
    Blocker,
    Comment,
    Member,
    Organization,
    Project,
    ProjectDocument,
    Task,
)

RoleName = Literal["owner", "member", "viewer"]
TaskStatusName = Literal["todo", "in_progress", "in_review", "done"]
PriorityName = Literal["low", "medium", "high", "urgent"]
ProjectStatusName = Literal["active", "on_hold", "completed", "archived"]


class _In(BaseModel):
    # Lengths are checked on the text as sent (what the published schema promises), then the
    # text is stripped: stripping first let a 121-character name with a leading no-break
    # space pass a 120-character limit (schemathesis found it).
    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _strip(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        stripped = value.strip()
        if value and not stripped:
            raise ValueError("must not be blank")
        return stripped


class ReviewSettingsModel(BaseModel):
    """Which edits start an automatic review."""

    model_config = ConfigDict(extra="forbid")

    document_created: bool = False
    document_updated: bool = False
    task_in_review: bool = False


class OrganizationCreate(_In):
    """A new organization; the caller becomes its owner."""

    name: str = Field(min_length=1, max_length=120)
    display_name: str | None = Field(None, max_length=120)


class OrganizationPublic(BaseModel):
    """An organization and the caller's role in it."""

    id: str
    name: str
    created_at: datetime
    role: RoleName
    reviews: ReviewSettingsModel

    @classmethod
    def of(cls, organization: Organization, member: Member) -> OrganizationPublic:
        """Map from the domain."""
        reviews = organization.reviews
        return cls(
            id=organization.id,
            name=organization.name,
            created_at=organization.created_at,
            role=member.role,
            reviews=ReviewSettingsModel(
                document_created=reviews.document_created,
                document_updated=reviews.document_updated,
                task_in_review=reviews.task_in_review,
            ),
        )


class MemberCreate(_In):
    """A user to add (their name as LECTERN_API_KEYS gives it) with a role."""

    user: str = Field(min_length=1, max_length=200)
    role: RoleName = "member"
    display_name: str | None = Field(None, max_length=120)


class MemberUpdate(_In):
    """A member's new role."""

    role: RoleName


class MemberPublic(BaseModel):
    """A member of an organization."""

    user: str
    display_name: str
    role: RoleName
    joined_at: datetime

    @classmethod
    def of(cls, member: Member) -> MemberPublic:
        """Map from the domain."""
        return cls(
            user=member.user,
            display_name=member.display_name,
            role=member.role,
            joined_at=member.joined_at,
        )


class ProjectCreate(_In):
    """A new project."""

    name: str = Field(min_length=1, max_length=120)
    description: str = Field("", max_length=MAX_TEXT_CHARS)
    status: ProjectStatusName = "active"


class ProjectUpdate(_In):
    """Fields of a project to change (the others stay)."""

    name: str | None = Field(None, min_length=1, max_length=120)
    description: str | None = Field(None, max_length=MAX_TEXT_CHARS)
    status: ProjectStatusName | None = None


class ProjectPublic(BaseModel):
    """A project."""

    id: str
    organization_id: str
    name: str
    description: str
    status: ProjectStatusName
    created_at: datetime
    updated_at: datetime
    role: RoleName | None = None
    """The caller's role in the project's organization (on a single project's page)."""

    @classmethod
    def of(cls, project: Project, role: str | None = None) -> ProjectPublic:
        """Map from the domain."""
        return cls(
            id=project.id,
            organization_id=project.organization_id,
            name=project.name,
            description=project.description,
            status=project.status,
            created_at=project.created_at,
            updated_at=project.updated_at,
            role=role,  # type: ignore[arg-type]
        )


class TaskCreate(_In):
    """A new task."""

    title: str = Field(min_length=1, max_length=200)
    description: str = Field("", max_length=MAX_TEXT_CHARS)
    status: TaskStatusName = "todo"
    priority: PriorityName = "medium"
    assignee: str | None = Field(None, max_length=200)
    due_date: date | None = None


class TaskUpdate(_In):
    """Fields of a task to change; `assignee: null` unassigns, `due_date: null` clears."""

    title: str | None = Field(None, min_length=1, max_length=200)
    description: str | None = Field(None, max_length=MAX_TEXT_CHARS)
    status: TaskStatusName | None = None
    priority: PriorityName | None = None
    assignee: str | None = Field(None, max_length=200)
    due_date: date | None = None


class TaskPublic(BaseModel):
    """A task."""

    id: str
    project_id: str
    title: str
    description: str
    status: TaskStatusName
    priority: PriorityName
    assignee: str | None
    due_date: date | None
    created_by: str
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, task: Task) -> TaskPublic:
        """Map from the domain."""
        return cls(
            id=task.id,
            project_id=task.project_id,
            title=task.title,
            description=task.description,
            status=task.status,
            priority=task.priority,
            assignee=task.assignee,
            due_date=task.due_date,
            created_by=task.created_by,
            created_at=task.created_at,
            updated_at=task.updated_at,
        )


class BlockerCreate(_In):
    """A new blocker of the project, optionally of one of its tasks."""

    description: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)
    task_id: str | None = Field(None, max_length=36)


class BlockerResolve(_In):
    """How a blocker was resolved."""

    resolution: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)


class BlockerPublic(BaseModel):
    """A blocker."""

    id: str
    project_id: str
    task_id: str | None
    description: str
    status: Literal["open", "resolved"]
    resolution: str | None
    created_by: str
    created_at: datetime
    resolved_at: datetime | None

    @classmethod
    def of(cls, blocker: Blocker) -> BlockerPublic:
        """Map from the domain."""
        return cls(
            id=blocker.id,
            project_id=blocker.project_id,
            task_id=blocker.task_id,
            description=blocker.description,
            status=blocker.status,
            resolution=blocker.resolution,
            created_by=blocker.created_by,
            created_at=blocker.created_at,
            resolved_at=blocker.resolved_at,
        )


class CommentCreate(_In):
    """A comment's text."""

    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)


class CitationPublic(BaseModel):
    """A verified quote of a review comment."""

    source: str
    label: str
    snippet: str


class CommentPublic(BaseModel):
    """A comment (the reviewer's carry their citations)."""

    id: str
    project_id: str
    task_id: str | None
    document_id: str | None
    author: str
    text: str
    created_at: datetime
    citations: list[CitationPublic]

    @classmethod
    def of(cls, comment: Comment) -> CommentPublic:
        """Map from the domain."""
        return cls(
            id=comment.id,
            project_id=comment.project_id,
            task_id=comment.task_id,
            document_id=comment.document_id,
            author=comment.author,
            text=comment.text,
            created_at=comment.created_at,
            citations=[
                CitationPublic(source=c.source, label=c.label, snippet=c.snippet)
                for c in comment.citations
            ],
        )


class DocumentLink(_In):
    """A collection document to link to the project."""

    collection: str = Field(min_length=1, max_length=63)
    document_id: str = Field(min_length=1, max_length=32)


class ProjectDocumentPublic(BaseModel):
    """A project document (a link to a collection document)."""

    id: str
    project_id: str
    collection: str
    document_id: str
    title: str
    origin: Literal["link", "upload"]
    added_by: str
    added_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, document: ProjectDocument) -> ProjectDocumentPublic:
        """Map from the domain."""
        return cls(
            id=document.id,
            project_id=document.project_id,
            collection=document.collection,
            document_id=document.document_id,
            title=document.title,
            origin=document.origin,
            added_by=document.added_by,
            added_at=document.added_at,
            updated_at=document.updated_at,
        )


class ProjectDocumentDetail(ProjectDocumentPublic):
    """A project document with its label and text."""

    label: str
    text: str


class ProjectDetail(ProjectPublic):
    """A project with its tasks, blockers and documents (the project page)."""

    tasks: list[TaskPublic]
    blockers: list[BlockerPublic]
    documents: list[ProjectDocumentPublic]


class TaskDetail(TaskPublic):
    """A task with its comments and blockers (the task page)."""

    comments: list[CommentPublic]
    blockers: list[BlockerPublic]
    project_name: str
    role: RoleName


class BlockedTask(TaskPublic):
    """A task with the open blockers that hold it up."""

    blockers: list[BlockerPublic]


class AttentionPublic(BaseModel):
    """What needs the caller's attention."""

    overdue: list[TaskPublic]
    blocked: list[BlockedTask]
    in_review: list[TaskPublic]
    assigned_to_me: list[TaskPublic]
    open_blockers: list[BlockerPublic]

    @classmethod
    def of(cls, summary: Attention) -> AttentionPublic:
        """Map from the domain."""
        return cls(
            overdue=[TaskPublic.of(t) for t in summary.overdue],
            blocked=[
                BlockedTask(
                    **TaskPublic.of(t).model_dump(), blockers=[BlockerPublic.of(b) for b in bs]
                )
                for t, bs in summary.blocked
            ],
            in_review=[TaskPublic.of(t) for t in summary.in_review],
            assigned_to_me=[TaskPublic.of(t) for t in summary.assigned_to_me],
            open_blockers=[BlockerPublic.of(b) for b in summary.open_blockers],
        )


class ContentHitPublic(BaseModel):
    """One search hit."""

    kind: Literal["project", "task", "comment", "blocker", "document"]
    id: str
    project_id: str
    title: str
    snippet: str
    score: float
    label: str | None

    @classmethod
    def of(cls, hit: ContentHit) -> ContentHitPublic:
        """Map from the application."""
        return cls(
            kind=hit.kind,
            id=hit.id,
            project_id=hit.project_id,
            title=hit.title,
            snippet=hit.snippet,
            score=round(hit.score, 4),
            label=hit.label,
        )
