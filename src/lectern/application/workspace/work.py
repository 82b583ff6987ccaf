"""Work items: a project's tasks, its blockers, the comments on tasks and documents.

A task sent to review may queue an automatic review; `attention` gathers what needs doing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import cast

from lectern.application.workspace.access import WorkspaceAccess
from lectern.application.workspace.references import pick
from lectern.application.workspace.triggers import ReviewTriggers
from lectern.domain.books import JSONValue
from lectern.domain.workspace import (
    BLOCKER_STATUSES,
    MAX_TITLE_CHARS,
    PRIORITIES,
    REVIEWER,
    TASK_STATUSES,
    Attention,
    Blocker,
    BlockerStatus,
    Comment,
    CommentCitation,
    Project,
    Task,
    TaskStatus,
    attention,
    check_choice,
    clean_body,
    clean_text,
    parse_due_date,
)
from lectern.errors import InvalidQueryError, WorkspaceConflictError

TASK_FIELDS = ("title", "description", "status", "priority", "assignee", "due_date")


class WorkItems(WorkspaceAccess, ReviewTriggers):
    """Tasks, blockers and comments in the projects the user can see."""

    clock: Callable[[], datetime]
    new_id: Callable[[], str]

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

    def find_task(self, user: str, reference: str, *, project_id: str | None = None) -> Task:
        """A task by id, else by title (in one project, or in every visible project)."""
        reference = reference.strip()
        projects = (
            [self.project(user, project_id).id]
            if project_id is not None
            else [p.id for p in self._visible_projects(user)]
        )
        return pick(
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

    def find_blocker(self, user: str, reference: str, *, project_id: str | None = None) -> Blocker:
        """A blocker by id, else by words of its description (open ones first)."""
        found = self.blockers(user, project_id)
        ordered = [b for b in found if b.status == "open"] + [
            b for b in found if b.status != "open"
        ]
        return pick(ordered, reference.strip(), lambda b: b.id, lambda b: b.description, "blocker")

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

    # --- attention ------------------------------------------------------------------------

    def attention(self, user: str) -> Attention:
        """Overdue, blocked, in review and assigned-to-me tasks across the user's projects."""
        ids = [p.id for p in self._visible_projects(user)]
        return attention(user, self.store.tasks(ids), self.store.blockers(ids), self.clock().date())


def _str(value: JSONValue) -> str | None:
    return None if value is None else str(value)
