"""`/projects`: projects with their tasks, blockers and documents; the dashboard; search.

People edit directly here; the assistant only proposes (its actions run on approval).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from lectern.entrypoints.http.deps import AppServices, CurrentUser, Workspace
from lectern.entrypoints.http.job_schemas import AcceptedOut
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.routers.jobs import answer
from lectern.entrypoints.http.workspace_schemas import (
    AttentionPublic,
    BlockerCreate,
    BlockerPublic,
    ContentHitPublic,
    DocumentLink,
    ProjectDetail,
    ProjectDocumentPublic,
    ProjectPublic,
    ProjectStatusName,
    ProjectUpdate,
    TaskCreate,
    TaskPublic,
    TaskStatusName,
)

router = APIRouter(tags=["workspace"], responses=documented(400, 401, 403, 404, 409, 413, 422, 429))


@router.get("/projects")
def list_projects(
    user: CurrentUser, workspace: Workspace, status: ProjectStatusName | None = None
) -> list[ProjectPublic]:
    """Every project the caller can see."""
    return [ProjectPublic.of(p) for p in workspace.projects(user, status=status)]


@router.get("/projects/{project_id}")
def get_project(project_id: str, user: CurrentUser, workspace: Workspace) -> ProjectDetail:
    """A project with its tasks, blockers and documents."""
    project = workspace.project(user, project_id)
    return ProjectDetail(
        **ProjectPublic.of(project, workspace.role_in_project(user, project.id)).model_dump(),
        tasks=[TaskPublic.of(t) for t in workspace.tasks(user, project.id)],
        blockers=[BlockerPublic.of(b) for b in workspace.blockers(user, project.id)],
        documents=[ProjectDocumentPublic.of(d) for d in workspace.documents(user, project.id)],
    )


@router.patch("/projects/{project_id}")
def update_project(
    project_id: str, body: ProjectUpdate, user: CurrentUser, workspace: Workspace
) -> ProjectPublic:
    """Change a project's name, description or status."""
    project = workspace.update_project(
        user, project_id, name=body.name, description=body.description, status=body.status
    )
    return ProjectPublic.of(project)


@router.get("/projects/{project_id}/tasks")
def list_tasks(
    project_id: str,
    user: CurrentUser,
    workspace: Workspace,
    status: TaskStatusName | None = None,
    assignee: str | None = None,
) -> list[TaskPublic]:
    """A project's tasks, optionally of one status or assignee."""
    return [
        TaskPublic.of(t)
        for t in workspace.tasks(user, project_id, status=status, assignee=assignee)
    ]


@router.post("/projects/{project_id}/tasks", status_code=201)
def create_task(
    project_id: str, body: TaskCreate, user: CurrentUser, workspace: Workspace
) -> TaskPublic:
    """A new task."""
    task = workspace.create_task(
        user,
        project_id,
        body.title,
        description=body.description,
        status=body.status,
        priority=body.priority,
        assignee=body.assignee,
        due_date=body.due_date.isoformat() if body.due_date else None,
    )
    return TaskPublic.of(task)


@router.get("/projects/{project_id}/blockers")
def list_blockers(
    project_id: str,
    user: CurrentUser,
    workspace: Workspace,
    status: Annotated[str | None, Query(pattern="^(open|resolved)$")] = None,
) -> list[BlockerPublic]:
    """A project's blockers."""
    return [BlockerPublic.of(b) for b in workspace.blockers(user, project_id, status=status)]


@router.post("/projects/{project_id}/blockers", status_code=201)
def create_blocker(
    project_id: str, body: BlockerCreate, user: CurrentUser, workspace: Workspace
) -> BlockerPublic:
    """A new open blocker."""
    blocker = workspace.create_blocker(user, project_id, body.description, task_id=body.task_id)
    return BlockerPublic.of(blocker)


@router.get("/projects/{project_id}/documents")
def list_documents(
    project_id: str, user: CurrentUser, workspace: Workspace
) -> list[ProjectDocumentPublic]:
    """The documents a project links to."""
    return [ProjectDocumentPublic.of(d) for d in workspace.documents(user, project_id)]


@router.post("/projects/{project_id}/documents", status_code=201)
def link_document(
    project_id: str, body: DocumentLink, user: CurrentUser, workspace: Workspace
) -> ProjectDocumentPublic:
    """Link a collection's document to the project."""
    link = workspace.link_document(user, project_id, body.collection, body.document_id)
    return ProjectDocumentPublic.of(link)


@router.post(
    "/projects/{project_id}/uploads",
    status_code=202,
    responses={202: {"model": AcceptedOut}, 201: {}, 413: {}, 415: {}, 429: {}},
)
async def upload_document(
    project_id: str,
    request: Request,
    user: CurrentUser,
    workspace: Workspace,
    services: AppServices,
    filename: Annotated[str, Query(min_length=1, max_length=200)],
    wait: bool = False,
) -> JSONResponse:
    """Upload a document (the raw body) into the project's own collection and link it.

    The file is stored at once and its ingest queued: 202 with the job (`Location:
    /jobs/{id}`), whose result is the project document. `wait=true` waits for the job and
    answers 201 with the project document when it finished. 429 past the caller's upload
    quota. The same file name again replaces its text (a document updated).
    """
    data = await request.body()

    def store() -> tuple[str, str]:
        return workspace.accept_upload(user, project_id, filename, data)

    job = await run_in_threadpool(
        services.upload_jobs().submit,
        user,
        "project",
        len(data),
        store,
        filename=filename,
        project_id=project_id,
    )
    return await answer(
        services,
        user,
        job,
        wait=wait,
        result_body=lambda r: ProjectDocumentPublic(**r).model_dump(mode="json"),
    )


@router.get("/attention")
def attention(user: CurrentUser, workspace: Workspace) -> AttentionPublic:
    """The caller's dashboard: overdue, blocked, in review, assigned to them."""
    return AttentionPublic.of(workspace.attention(user))


@router.get("/workspace/search")
def search(
    user: CurrentUser,
    workspace: Workspace,
    q: Annotated[str, Query(min_length=1, max_length=500)],
    project_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> list[ContentHitPublic]:
    """Projects, tasks, blockers, comments and document passages matching the query."""
    hits = workspace.search_content(user, q, project_id=project_id, limit=limit)
    return [ContentHitPublic.of(h) for h in hits]
