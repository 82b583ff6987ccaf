"""Research workspaces: organizations, members, projects, tasks, blockers, comments, documents.

Everything belongs to one organization. A user sees an organization's things only as one of
its members; to anyone else they do not exist (the service answers "not found", never
"forbidden", so ids of other organizations leak nothing). Owners manage members and review
settings, members edit, viewers only read. The checks here are the ones the HTTP routes, the
assistant's tools and the reviews share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Literal, get_args

from lectern.domain.books import JSONValue
from lectern.errors import InvalidQueryError

Role = Literal["owner", "member", "viewer"]
ROLES: tuple[Role, ...] = get_args(Role)
ProjectStatus = Literal["active", "on_hold", "completed", "archived"]
PROJECT_STATUSES: tuple[ProjectStatus, ...] = get_args(ProjectStatus)
TaskStatus = Literal["todo", "in_progress", "in_review", "done"]
TASK_STATUSES: tuple[TaskStatus, ...] = get_args(TaskStatus)
Priority = Literal["low", "medium", "high", "urgent"]
PRIORITIES: tuple[Priority, ...] = get_args(Priority)
BlockerStatus = Literal["open", "resolved"]
BLOCKER_STATUSES: tuple[BlockerStatus, ...] = get_args(BlockerStatus)
DocumentOrigin = Literal["link", "upload"]
ReviewTrigger = Literal["document_created", "document_updated", "task_in_review"]
REVIEW_TRIGGERS: tuple[ReviewTrigger, ...] = get_args(ReviewTrigger)

MAX_NAME_CHARS = 120
MAX_TITLE_CHARS = 200
MAX_TEXT_CHARS = 4_000
"""Descriptions, comments and resolutions (a JSON body of that much text stays under the
HTTP body limit)."""
REVIEWER = "lectern-review"
"""The author of automatic review comments (no API key maps to it)."""
PROJECT_COLLECTION_PREFIX = "project-"
"""Collections named so hold a project's uploads; the prefix is reserved for them."""


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """Which edits start an automatic review in an organization (all off by default)."""

    document_created: bool = False
    document_updated: bool = False
    task_in_review: bool = False

    def wants(self, trigger: ReviewTrigger) -> bool:
        """True when this trigger starts a review."""
        return bool(getattr(self, trigger))


@dataclass(frozen=True, slots=True)
class Organization:
    """A team's space: its members, projects and review settings."""

    id: str
    name: str
    created_at: datetime
    reviews: ReviewSettings = field(default_factory=ReviewSettings)


@dataclass(frozen=True, slots=True)
class Member:
    """A user's membership of an organization, with a role."""

    organization_id: str
    user: str
    role: Role
    display_name: str
    joined_at: datetime


@dataclass(frozen=True, slots=True)
class Project:
    """A piece of work an organization runs: tasks, blockers and documents."""

    id: str
    organization_id: str
    name: str
    description: str
    status: ProjectStatus
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Task:
    """A unit of work in a project."""

    id: str
    project_id: str
    title: str
    description: str
    status: TaskStatus
    priority: Priority
    assignee: str | None
    """A member's user name."""
    due_date: date | None
    created_by: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class Blocker:
    """Something that holds a project (or one of its tasks) up."""

    id: str
    project_id: str
    task_id: str | None
    description: str
    status: BlockerStatus
    resolution: str | None
    created_by: str
    created_at: datetime
    resolved_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class CommentCitation:
    """A quote in a comment: a literal snippet of a named source (a document or a task)."""

    source: str
    """`document:<project document id>` or `task:<task id>`."""
    label: str
    """How a person follows it: the document's label (`CVE-2025-48384`) or the task title."""
    snippet: str


@dataclass(frozen=True, slots=True)
class Comment:
    """A note on a task or a project document, by a member or by the reviewer."""

    id: str
    project_id: str
    task_id: str | None
    document_id: str | None
    author: str
    text: str
    created_at: datetime
    citations: tuple[CommentCitation, ...] = ()


@dataclass(frozen=True, slots=True)
class ProjectDocument:
    """A collection document that a project links to (or that was uploaded into it)."""

    id: str
    project_id: str
    collection: str
    document_id: str
    title: str
    origin: DocumentOrigin
    added_by: str
    added_at: datetime
    updated_at: datetime


# --- rules ---------------------------------------------------------------------------------


def project_collection(project_id: str) -> str:
    """The collection a project's uploads go into."""
    return PROJECT_COLLECTION_PREFIX + project_id.replace("-", "")[:20]


def is_project_collection(name: str) -> bool:
    """Whether a collection name is one a project owns (never a public collection)."""
    return name.startswith(PROJECT_COLLECTION_PREFIX)


def can_edit(role: Role) -> bool:
    """Owners and members change things; viewers only read."""
    return role in ("owner", "member")


def can_manage(role: Role) -> bool:
    """Only owners manage members and review settings."""
    return role == "owner"


def clean_text(value: str | None, what: str, limit: int, *, required: bool = True) -> str:
    """Whitespace collapsed, within `limit` characters; required text must not be empty."""
    cleaned = " ".join((value or "").split())
    if required and not cleaned:
        raise InvalidQueryError(f"the {what} is empty")
    if len(cleaned) > limit:
        raise InvalidQueryError(f"the {what} has {len(cleaned)} characters; at most {limit}")
    return cleaned


def clean_body(value: str | None, what: str, *, required: bool = False) -> str:
    """Longer text (descriptions, comments): lines kept, each line's spaces collapsed."""
    lines = [" ".join(line.split()) for line in (value or "").strip().splitlines()]
    cleaned = "\n".join(lines).strip()
    if required and not cleaned:
        raise InvalidQueryError(f"the {what} is empty")
    if len(cleaned) > MAX_TEXT_CHARS:
        raise InvalidQueryError(
            f"the {what} has {len(cleaned)} characters; at most {MAX_TEXT_CHARS}"
        )
    return cleaned


def check_choice(value: str, allowed: Sequence[str], what: str) -> str:
    """`value` when it is one of `allowed` (case and spaces forgiven), else InvalidQueryError."""
    key = value.strip().casefold().replace(" ", "_").replace("-", "_")
    for choice in allowed:
        if key == choice:
            return choice
    raise InvalidQueryError(f"{value!r} is not a {what}: use one of {', '.join(allowed)}")


def parse_due_date(value: str | date | None) -> date | None:
    """A due date from ISO text (YYYY-MM-DD), or None."""
    if value is None or isinstance(value, date):
        return value
    text = value.strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidQueryError(f"{value!r} is not a date: use YYYY-MM-DD") from None


def is_overdue(task: Task, today: date) -> bool:
    """Past its due date and not done."""
    return task.due_date is not None and task.due_date < today and task.status != "done"


def task_state(task: Task) -> dict[str, JSONValue]:
    """A task's editable fields, as action previews compare them."""
    return {
        "title": task.title,
        "description": task.description,
        "status": task.status,
        "priority": task.priority,
        "assignee": task.assignee,
        "due_date": task.due_date.isoformat() if task.due_date else None,
    }


def blocker_state(blocker: Blocker) -> dict[str, JSONValue]:
    """A blocker's fields, as action previews compare them."""
    return {
        "description": blocker.description,
        "task_id": blocker.task_id,
        "status": blocker.status,
        "resolution": blocker.resolution,
    }


def matches(name: str, reference: str) -> bool:
    """True when every word of `reference` is a word (or word prefix) of `name`."""
    words = name.casefold().replace("-", " ").split()
    wanted = reference.casefold().replace("-", " ").split()
    return bool(wanted) and all(any(w.startswith(x) for w in words) for x in wanted)


@dataclass(frozen=True, slots=True)
class Attention:
    """What needs a user's attention across their projects."""

    overdue: tuple[Task, ...]
    blocked: tuple[tuple[Task, tuple[Blocker, ...]], ...]
    in_review: tuple[Task, ...]
    assigned_to_me: tuple[Task, ...]
    open_blockers: tuple[Blocker, ...]


def attention(
    user: str, tasks: Sequence[Task], blockers: Sequence[Blocker], today: date
) -> Attention:
    """Overdue, blocked, in review, and assigned to `user` (not done), most urgent first."""
    open_blockers = tuple(b for b in blockers if b.status == "open")
    by_task: dict[str, list[Blocker]] = {}
    for blocker in open_blockers:
        if blocker.task_id is not None:
            by_task.setdefault(blocker.task_id, []).append(blocker)
    order = {p: n for n, p in enumerate(reversed(PRIORITIES))}

    def urgent_first(task: Task) -> tuple[int, date, str]:
        return (order[task.priority], task.due_date or date.max, task.title.casefold())

    live = sorted((t for t in tasks if t.status != "done"), key=urgent_first)
    return Attention(
        overdue=tuple(t for t in live if is_overdue(t, today)),
        blocked=tuple((t, tuple(by_task[t.id])) for t in live if t.id in by_task),
        in_review=tuple(t for t in live if t.status == "in_review"),
        assigned_to_me=tuple(t for t in live if t.assignee == user),
        open_blockers=open_blockers,
    )


def task_counts(tasks: Sequence[Task]) -> dict[str, JSONValue]:
    """How many tasks have each status (every status present, zero included)."""
    counts: dict[str, int] = dict.fromkeys(TASK_STATUSES, 0)
    for task in tasks:
        counts[task.status] += 1
    return dict(counts)
