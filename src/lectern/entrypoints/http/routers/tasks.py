"""`/tasks`, `/blockers`, `/project-documents`: one item each, with its comments."""

from __future__ import annotations

from fastapi import APIRouter, Response

from lectern.domain.books import JSONValue
from lectern.entrypoints.http.deps import CurrentUser, Workspace
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.workspace_schemas import (
    BlockerPublic,
    BlockerResolve,
    CommentCreate,
    CommentPublic,
    ProjectDocumentDetail,
    ProjectDocumentPublic,
    TaskDetail,
    TaskPublic,
    TaskUpdate,
)

router = APIRouter(tags=["workspace"], responses=documented(400, 401, 403, 404, 409, 413, 422, 429))


@router.get("/tasks/{task_id}")
def get_task(task_id: str, user: CurrentUser, workspace: Workspace) -> TaskDetail:
    """A task with its comments and blockers (the task page)."""
    task = workspace.task(user, task_id)
    project = workspace.project(user, task.project_id)
    return TaskDetail(
        **TaskPublic.of(task).model_dump(),
        comments=[CommentPublic.of(c) for c in workspace.comments(user, task_id=task.id)],
        blockers=[
            BlockerPublic.of(b)
            for b in workspace.blockers(user, task.project_id)
            if b.task_id == task.id
        ],
        project_name=project.name,
        role=workspace.role_in_project(user, project.id),
    )


@router.patch("/tasks/{task_id}")
def update_task(
    task_id: str, body: TaskUpdate, user: CurrentUser, workspace: Workspace
) -> TaskPublic:
    """Change the fields the body names (moving to in_review may start a review)."""
    changes: dict[str, JSONValue] = {}
    for name in body.model_fields_set:
        value = getattr(body, name)
        changes[name] = value.isoformat() if name == "due_date" and value else value
    return TaskPublic.of(workspace.update_task(user, task_id, changes))


@router.get("/tasks/{task_id}/comments")
def task_comments(task_id: str, user: CurrentUser, workspace: Workspace) -> list[CommentPublic]:
    """A task's comments, oldest first."""
    return [CommentPublic.of(c) for c in workspace.comments(user, task_id=task_id)]


@router.post("/tasks/{task_id}/comments", status_code=201)
def comment_on_task(
    task_id: str, body: CommentCreate, user: CurrentUser, workspace: Workspace
) -> CommentPublic:
    """Comment on a task as the caller."""
    return CommentPublic.of(workspace.add_comment(user, body.text, task_id=task_id))


@router.get("/blockers/{blocker_id}")
def get_blocker(blocker_id: str, user: CurrentUser, workspace: Workspace) -> BlockerPublic:
    """One blocker."""
    return BlockerPublic.of(workspace.blocker(user, blocker_id))


@router.post("/blockers/{blocker_id}/resolve")
def resolve_blocker(
    blocker_id: str, body: BlockerResolve, user: CurrentUser, workspace: Workspace
) -> BlockerPublic:
    """Resolve an open blocker (409 when it already is)."""
    return BlockerPublic.of(workspace.resolve_blocker(user, blocker_id, body.resolution))


@router.get("/project-documents/{document_id}")
def get_document(
    document_id: str, user: CurrentUser, workspace: Workspace
) -> ProjectDocumentDetail:
    """A project document with its label and text."""
    view = workspace.document_view(user, document_id)
    return ProjectDocumentDetail(
        **ProjectDocumentPublic.of(view.link).model_dump(),
        label=view.label,
        text=view.view.document.text,
    )


@router.delete("/project-documents/{document_id}", status_code=204)
def unlink_document(document_id: str, user: CurrentUser, workspace: Workspace) -> Response:
    """Remove the document from its project (the collection keeps it)."""
    workspace.unlink_document(user, document_id)
    return Response(status_code=204)


@router.get("/project-documents/{document_id}/comments")
def document_comments(
    document_id: str, user: CurrentUser, workspace: Workspace
) -> list[CommentPublic]:
    """A document's comments (reviews included), oldest first."""
    return [CommentPublic.of(c) for c in workspace.comments(user, document_id=document_id)]


@router.post("/project-documents/{document_id}/comments", status_code=201)
def comment_on_document(
    document_id: str, body: CommentCreate, user: CurrentUser, workspace: Workspace
) -> CommentPublic:
    """Comment on a project document as the caller."""
    return CommentPublic.of(workspace.add_comment(user, body.text, document_id=document_id))
