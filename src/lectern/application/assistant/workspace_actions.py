"""Workspace action tools: each previews a field-level diff and runs on its owner's approval.

The preview resolves names to ids and checks everything the change will check (the caller
may edit the project: viewers get an error and no action; the assignee is a member; the
status is one of the four). `state` reads the entity again in the preview's `old_state`
form; the approval compares the two ("changed since preview"). The diff holds every field
that changes, and only those.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field, model_validator

from lectern.application.assistant.tools import ActionTool, ToolContext, ToolInput
from lectern.application.assistant.workspace_lookup import (
    PriorityName,
    TaskStatusName,
    page_project,
    resolve_blocker,
    resolve_task,
    workspace_of,
)
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.assistant import ActionPreview, JSONObject
from lectern.domain.books import JSONValue
from lectern.domain.workspace import MAX_TEXT_CHARS, Task, blocker_state, task_state
from lectern.errors import ToolError, WorkspaceNotFoundError


def _service(tool: ActionTool) -> WorkspaceService:
    return workspace_of(tool.deps)


def _project_reference(args_project: str | None, context: ToolContext) -> str:
    reference = args_project or page_project(context.page)
    if not reference:
        raise ToolError("name the project (project_id), or ask from the project's page")
    return reference


class CreateTaskInput(ToolInput):
    """Input of create_task."""

    project_id: str | None = Field(
        None,
        max_length=200,
        description="The project's id (optional on a project's page: that project).",
    )
    title: str = Field(min_length=1, max_length=200)
    description: str | None = Field(None, max_length=MAX_TEXT_CHARS)
    status: TaskStatusName = "todo"
    priority: PriorityName = "medium"
    assignee_id: str | None = Field(None, description="A team member's user id.")
    due_date: str | None = Field(None, description="YYYY-MM-DD.")


class CreateTask(ActionTool):
    """A new task in a project."""

    name = "create_task"
    description = "Create a task in a project (the user approves before it is created)."
    entity_type = "task"
    Input = CreateTaskInput

    def preview(self, args: CreateTaskInput, context: ToolContext) -> ActionPreview:
        """The task as it will be created, with the assignee resolved to a member."""
        service = _service(self)
        project = service.find_project(context.user, _project_reference(args.project_id, context))
        service.require_editor(context.user, project.id)
        task = service.draft_task(
            project,
            context.user,
            {
                "title": args.title,
                "description": args.description or "",
                "status": args.status,
                "priority": args.priority,
                "assignee": args.assignee_id,
                "due_date": args.due_date,
            },
            task_id=self.deps.new_id(),
        )
        state = task_state(task)
        return self.proposal(
            f"Create the task {task.title!r} in {project.name!r}",
            task.id,
            {"task_id": task.id, "project_id": project.id, **state},
            None,
            state,
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """None until the task exists."""
        del context
        found = _service(self).store.task(str(tool_input["task_id"]))
        return None if found is None else task_state(found)

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Create it, as the approving user."""
        task = _service(self).create_task(
            context.user,
            str(tool_input["project_id"]),
            str(tool_input["title"]),
            description=str(tool_input.get("description") or ""),
            status=str(tool_input["status"]),
            priority=str(tool_input["priority"]),
            assignee=_optional(tool_input.get("assignee")),
            due_date=_optional(tool_input.get("due_date")),
            task_id=str(tool_input["task_id"]),
        )
        return {"created_task": {"task_id": task.id, "title": task.title}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The same request: project, title and fields."""
        return {
            "project_id": tool_input["project_id"],
            "title": tool_input["title"],
            "description": tool_input.get("description"),
            "status": tool_input["status"],
            "priority": tool_input["priority"],
            "assignee_id": tool_input.get("assignee"),
            "due_date": tool_input.get("due_date"),
        }


def _optional(value: JSONValue) -> str | None:
    return None if value is None else str(value)


class _TaskChange(ActionTool):
    """A change of some of a task's fields: the preview holds those fields before and after.

    Only the fields the action changes are compared at approval, so two previews of one
    message ("assign it to bob and make it high priority") both run when both are approved,
    while a change someone made to the same field since the preview still stops it.
    """

    entity_type = "task"

    def _propose(
        self, context: ToolContext, reference: str, changes: dict[str, JSONValue], verb: str
    ) -> ActionPreview:
        service = _service(self)
        task = resolve_task(service, context, reference)
        before, after = service.preview_task_changes(context.user, task.id, changes)
        old, new = _fields(task_state(before), changes), _fields(task_state(after), changes)
        if old == new:
            raise ToolError(f"the task {task.title!r} already has these values")
        return self.proposal(
            f"{verb} the task {before.title!r}",
            task.id,
            {"task_id": task.id, "changes": {k: new[k] for k in changes}},
            old,
            new,
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """The fields the action changes, as they are now."""
        found = _task_now(_service(self), context, str(tool_input["task_id"]))
        changes = tool_input.get("changes")
        if found is None or not isinstance(changes, dict):
            return None
        return _fields(task_state(found), changes)

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Apply the changes, as the approving user."""
        changes = tool_input["changes"]
        if not isinstance(changes, dict):
            raise ToolError("the stored changes are not an object")
        task = _service(self).update_task(context.user, str(tool_input["task_id"]), changes)
        return {"updated_task": {"task_id": task.id, "title": task.title, **changes}}


def _fields(state: dict[str, JSONValue], changes: Mapping[str, object]) -> dict[str, JSONValue]:
    """The part of a task's state that `changes` touches."""
    return {name: state.get(name) for name in changes}


def _task_now(service: WorkspaceService, context: ToolContext, task_id: str) -> Task | None:
    try:
        return service.task(context.user, task_id)
    except WorkspaceNotFoundError:
        return None


class UpdateTaskInput(ToolInput):
    """Input of update_task."""

    task_id: str = Field(min_length=1, max_length=300, description="The task's id.")
    title: str | None = Field(None, min_length=1, max_length=200)
    description: str | None = Field(None, max_length=MAX_TEXT_CHARS)
    status: TaskStatusName | None = None
    priority: PriorityName | None = None
    due_date: str | None = Field(None, description="YYYY-MM-DD.")

    @model_validator(mode="after")
    def _something(self) -> UpdateTaskInput:
        if all(
            getattr(self, name) is None
            for name in ("title", "description", "status", "priority", "due_date")
        ):
            raise ValueError("give at least one field to change")
        return self


class UpdateTask(_TaskChange):
    """Change a task's title, description, status, priority or due date."""

    name = "update_task"
    description = "Update a task's title, description, status, priority or due date."
    Input = UpdateTaskInput

    def preview(self, args: UpdateTaskInput, context: ToolContext) -> ActionPreview:
        """The task before and after, every changed field in the diff."""
        changes: dict[str, JSONValue] = {
            name: getattr(args, name)
            for name in ("title", "description", "status", "priority", "due_date")
            if getattr(args, name) is not None
        }
        return self._propose(context, args.task_id, changes, "Update")

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The task's id and the changed fields."""
        changes = tool_input["changes"]
        return {"task_id": tool_input["task_id"], **(changes if isinstance(changes, dict) else {})}


class TaskReference(ToolInput):
    """A task by id (its title is accepted too)."""

    task_id: str = Field(min_length=1, max_length=300, description="The task's id.")


class CompleteTask(_TaskChange):
    """Mark a task done."""

    name = "complete_task"
    description = "Mark a task as done."
    Input = TaskReference

    def preview(self, args: TaskReference, context: ToolContext) -> ActionPreview:
        """The status becomes done."""
        return self._propose(context, args.task_id, {"status": "done"}, "Complete")

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The task's id."""
        return {"task_id": tool_input["task_id"]}


class AssignTaskInput(ToolInput):
    """Input of assign_task."""

    task_id: str = Field(min_length=1, max_length=300, description="The task's id.")
    assignee_id: str | None = Field(
        description="A team member's user id (their name is accepted too); null unassigns."
    )


class AssignTask(_TaskChange):
    """Give a task to a team member."""

    name = "assign_task"
    description = "Assign a task to a team member (or unassign it with null)."
    Input = AssignTaskInput

    def preview(self, args: AssignTaskInput, context: ToolContext) -> ActionPreview:
        """The assignee becomes the member's user id (or nobody)."""
        verb = "Assign" if args.assignee_id else "Unassign"
        return self._propose(context, args.task_id, {"assignee": args.assignee_id}, verb)

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The task's id and the assignee."""
        changes = tool_input["changes"]
        assignee = changes.get("assignee") if isinstance(changes, dict) else None
        return {"task_id": tool_input["task_id"], "assignee_id": assignee}


class CreateBlockerInput(ToolInput):
    """Input of create_blocker."""

    project_id: str | None = Field(
        None, max_length=200, description="The project's id (optional with task_id or on its page)."
    )
    description: str = Field(min_length=1, max_length=MAX_TEXT_CHARS)
    task_id: str | None = Field(None, description="The blocked task, if one is.")


class CreateBlocker(ActionTool):
    """Record what is blocking a project or a task."""

    name = "create_blocker"
    description = "Record a blocker on a project (and optionally on one of its tasks)."
    entity_type = "blocker"
    Input = CreateBlockerInput

    def preview(self, args: CreateBlockerInput, context: ToolContext) -> ActionPreview:
        """The open blocker as it will be created."""
        service = _service(self)
        task = resolve_task(service, context, args.task_id) if args.task_id else None
        if task is not None and args.project_id is None:
            project = service.project(context.user, task.project_id)
        else:
            project = service.find_project(
                context.user, _project_reference(args.project_id, context)
            )
        blocker = service.draft_blocker(
            context.user,
            project.id,
            args.description,
            task.id if task else None,
            self.deps.new_id(),
        )
        state = blocker_state(blocker)
        on = f"the task {task.title!r}" if task else f"{project.name!r}"
        return self.proposal(
            f"Record a blocker on {on}",
            blocker.id,
            {"blocker_id": blocker.id, "project_id": project.id, **state},
            None,
            state,
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """None until the blocker exists."""
        del context
        found = _service(self).store.blocker(str(tool_input["blocker_id"]))
        return None if found is None else blocker_state(found)

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Create it, as the approving user."""
        blocker = _service(self).create_blocker(
            context.user,
            str(tool_input["project_id"]),
            str(tool_input["description"]),
            task_id=_optional(tool_input.get("task_id")),
            blocker_id=str(tool_input["blocker_id"]),
        )
        return {"created_blocker": {"blocker_id": blocker.id}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The same request."""
        return {
            "project_id": tool_input["project_id"],
            "description": tool_input["description"],
            "task_id": tool_input.get("task_id"),
        }


class ResolveBlockerInput(ToolInput):
    """Input of resolve_blocker."""

    blocker_id: str = Field(
        min_length=1, max_length=300, description="The blocker's id (words of it are accepted)."
    )
    resolution: str = Field(
        min_length=1, max_length=MAX_TEXT_CHARS, description="How it was resolved."
    )


class ResolveBlocker(ActionTool):
    """Mark a blocker resolved."""

    name = "resolve_blocker"
    description = "Resolve an open blocker, saying how it was resolved."
    entity_type = "blocker"
    Input = ResolveBlockerInput

    def preview(self, args: ResolveBlockerInput, context: ToolContext) -> ActionPreview:
        """The status becomes resolved, with the resolution's text."""
        service = _service(self)
        blocker = resolve_blocker(service, context, args.blocker_id)
        service.require_editor(context.user, blocker.project_id)
        if blocker.status == "resolved":
            raise ToolError("that blocker is already resolved")
        resolution = " ".join(args.resolution.split())
        old = blocker_state(blocker)
        new = {**old, "status": "resolved", "resolution": resolution}
        return self.proposal(
            f"Resolve the blocker {blocker.description[:60]!r}",
            blocker.id,
            {"blocker_id": blocker.id, "resolution": resolution},
            old,
            new,
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """The blocker as it is now."""
        try:
            return blocker_state(
                _service(self).blocker(context.user, str(tool_input["blocker_id"]))
            )
        except WorkspaceNotFoundError:
            return None

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Resolve it, as the approving user."""
        blocker = _service(self).resolve_blocker(
            context.user, str(tool_input["blocker_id"]), str(tool_input["resolution"])
        )
        return {"resolved_blocker": {"blocker_id": blocker.id}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The blocker and the resolution."""
        return {"blocker_id": tool_input["blocker_id"], "resolution": tool_input["resolution"]}


class AddCommentInput(ToolInput):
    """Input of add_comment."""

    task_id: str = Field(min_length=1, max_length=300, description="The task's id.")
    content: str = Field(min_length=1, max_length=MAX_TEXT_CHARS, description="The comment's text.")


class AddComment(ActionTool):
    """Comment on a task."""

    name = "add_comment"
    description = "Add a comment to a task, as the user."
    entity_type = "comment"
    Input = AddCommentInput

    def preview(self, args: AddCommentInput, context: ToolContext) -> ActionPreview:
        """No comment now; the comment after."""
        service = _service(self)
        task = resolve_task(service, context, args.task_id)
        service.require_editor(context.user, task.project_id)
        text = "\n".join(" ".join(line.split()) for line in args.content.strip().splitlines())
        if not text:
            raise ToolError("the comment is empty")
        comment_id = self.deps.new_id()
        return self.proposal(
            f"Comment on the task {task.title!r}",
            comment_id,
            {"comment_id": comment_id, "task_id": task.id, "content": text},
            None,
            {"task_id": task.id, "author": context.user, "text": text},
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """None until the comment exists."""
        service = _service(self)
        for comment in service.comments(context.user, task_id=str(tool_input["task_id"])):
            if comment.id == tool_input["comment_id"]:
                return {"task_id": comment.task_id, "author": comment.author, "text": comment.text}
        return None

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Add it, as the approving user."""
        comment = _service(self).add_comment(
            context.user,
            str(tool_input["content"]),
            task_id=str(tool_input["task_id"]),
            comment_id=str(tool_input["comment_id"]),
        )
        return {"added_comment": {"comment_id": comment.id, "task_id": comment.task_id}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The task and the text."""
        return {"task_id": tool_input["task_id"], "content": tool_input["content"]}


WORKSPACE_ACTION_TOOLS: tuple[type[ActionTool], ...] = (
    CreateTask,
    UpdateTask,
    CompleteTask,
    AssignTask,
    CreateBlocker,
    ResolveBlocker,
    AddComment,
)
