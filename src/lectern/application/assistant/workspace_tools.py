"""Read-only workspace tools, by the specification's names and schemas.

Every tool reads through `WorkspaceService` as the calling user: another organization's ids
answer "not found", exactly like ids that do not exist. Ids may be given as names too (a
project's name, a task's title): the service resolves them, and refuses ambiguity.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from lectern.application.assistant.tools import (
    QueryOutput,
    QueryTool,
    ToolContext,
    ToolInput,
)
from lectern.application.assistant.workspace_lookup import (
    ProjectStatusName,
    TaskStatusName,
    resolve_document,
    resolve_task,
    workspace_of,
)
from lectern.application.workspace.search import ContentHit
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.books import JSONValue
from lectern.domain.workspace import (
    Blocker,
    Comment,
    Member,
    Project,
    ProjectDocument,
    Task,
    is_overdue,
    task_counts,
)

DOCUMENT_TEXT_CHARS = 4_000
"""A document's text is cut here for the model (the page shows it whole)."""


def project_json(project: Project) -> dict[str, JSONValue]:
    """A project as the model sees it."""
    return {
        "project_id": project.id,
        "name": project.name,
        "description": project.description,
        "status": project.status,
        "organization_id": project.organization_id,
    }


def task_json(task: Task) -> dict[str, JSONValue]:
    """A task as the model sees it."""
    return {
        "task_id": task.id,
        "project_id": task.project_id,
        "title": task.title,
        "description": task.description,
        "status": task.status,
        "priority": task.priority,
        "assignee_id": task.assignee,
        "due_date": task.due_date.isoformat() if task.due_date else None,
    }


def blocker_json(blocker: Blocker) -> dict[str, JSONValue]:
    """A blocker as the model sees it."""
    return {
        "blocker_id": blocker.id,
        "project_id": blocker.project_id,
        "task_id": blocker.task_id,
        "description": blocker.description,
        "status": blocker.status,
        "resolution": blocker.resolution,
        "created_by": blocker.created_by,
    }


def comment_json(comment: Comment) -> dict[str, JSONValue]:
    """A comment as the model sees it."""
    return {
        "comment_id": comment.id,
        "author": comment.author,
        "text": comment.text,
        "created_at": comment.created_at.isoformat(),
    }


def member_json(member: Member) -> dict[str, JSONValue]:
    """A member as the model sees it (the user name is the id tasks are assigned to)."""
    return {
        "user_id": member.user,
        "name": member.display_name,
        "role": member.role,
        "organization_id": member.organization_id,
    }


def document_json(document: ProjectDocument) -> dict[str, JSONValue]:
    """A project document as the model sees it."""
    return {
        "document_id": document.id,
        "project_id": document.project_id,
        "title": document.title,
        "collection": document.collection,
        "origin": document.origin,
    }


def task_source(task_id: str) -> str:
    """The citation source key of a task's text."""
    return f"passage:task:{task_id}"


def document_source(document_id: str) -> str:
    """The citation source key of a project document's text."""
    return f"passage:document:{document_id}"


class GetProjectsInput(ToolInput):
    """Input of get_projects."""

    status: ProjectStatusName | None = Field(None, description="Only projects of this status.")
    organization_id: str | None = Field(None, description="Only this organization's projects.")


class GetProjects(QueryTool):
    """The projects the user can see."""

    name = "get_projects"
    description = (
        "List the projects of the user's organizations with their status and open blockers."
    )
    Input = GetProjectsInput

    def run(self, args: GetProjectsInput, context: ToolContext) -> QueryOutput:
        """Projects with task counts and open blockers."""
        service = workspace_of(self.deps)
        projects = service.projects(
            context.user, organization_id=args.organization_id, status=args.status
        )
        open_blockers = service.blockers(context.user, status="open")
        data: list[JSONValue] = []
        for project in projects:
            counts = task_counts(service.tasks(context.user, project.id))
            data.append(
                {
                    **project_json(project),
                    "tasks": counts,
                    "open_blockers": sum(1 for b in open_blockers if b.project_id == project.id),
                }
            )
        return QueryOutput({"projects": data})


class ProjectInput(ToolInput):
    """A project by id (its name is accepted too)."""

    project_id: str = Field(min_length=1, max_length=200, description="The project's id.")


class GetProjectDetails(QueryTool):
    """One project with its tasks and stats."""

    name = "get_project_details"
    description = "A project's details: description, tasks, task counts by status, blockers."
    Input = ProjectInput

    def run(self, args: ProjectInput, context: ToolContext) -> QueryOutput:
        """The project, its tasks and its stats."""
        service = workspace_of(self.deps)
        project = service.find_project(context.user, args.project_id)
        tasks = service.tasks(context.user, project.id)
        blockers = service.blockers(context.user, project.id, status="open")
        today = context.now.date()
        stats: dict[str, JSONValue] = {
            **task_counts(tasks),
            "total": len(tasks),
            "overdue": sum(1 for t in tasks if is_overdue(t, today)),
            "open_blockers": len(blockers),
            "documents": len(service.documents(context.user, project.id)),
        }
        return QueryOutput(
            {
                "project": project_json(project),
                "stats": stats,
                "tasks": [task_json(t) for t in tasks],
                "open_blockers": [blocker_json(b) for b in blockers],
            }
        )


class GetTasksInput(ToolInput):
    """Input of get_tasks."""

    project_id: str = Field(min_length=1, max_length=200, description="The project's id.")
    status: TaskStatusName | None = Field(None, description="Only tasks of this status.")
    assignee_id: str | None = Field(None, description="Only tasks assigned to this user id.")


class GetTasks(QueryTool):
    """A project's tasks."""

    name = "get_tasks"
    description = "List a project's tasks, optionally filtered by status and assignee."
    Input = GetTasksInput

    def run(self, args: GetTasksInput, context: ToolContext) -> QueryOutput:
        """The tasks, oldest first."""
        service = workspace_of(self.deps)
        project = service.find_project(context.user, args.project_id)
        assignee = args.assignee_id
        if assignee is not None:
            assignee = _member_id(service, context.user, project.id, assignee)
        tasks = service.tasks(context.user, project.id, status=args.status, assignee=assignee)
        return QueryOutput(
            {"project": project_json(project), "tasks": [task_json(t) for t in tasks]}
        )


def _member_id(service: WorkspaceService, user: str, project_id: str, reference: str) -> str:
    """A member's user id from an id or a display name (the reference as given otherwise)."""
    folded = reference.strip().casefold()
    if folded in ("me", "myself", "i"):
        return user
    for member in service.team_members(user, project_id=project_id):
        if folded in (member.user.casefold(), member.display_name.casefold()):
            return member.user
    return reference.strip()


class TaskInput(ToolInput):
    """A task by id (its title is accepted too)."""

    task_id: str = Field(min_length=1, max_length=300, description="The task's id.")


class GetTaskDetails(QueryTool):
    """One task with its comments, assignment and blockers."""

    name = "get_task_details"
    description = "A task's details with its comments, assignment history and blockers."
    Input = TaskInput

    def run(self, args: TaskInput, context: ToolContext) -> QueryOutput:
        """The task, its comments and its blockers."""
        service = workspace_of(self.deps)
        task = resolve_task(service, context, args.task_id)
        comments = service.comments(context.user, task_id=task.id)
        blockers = [
            b for b in service.blockers(context.user, task.project_id) if b.task_id == task.id
        ]
        text = f"{task.title}. {task.description}".strip()
        evidence = {task_source(task.id): text}
        for comment in comments:
            evidence[f"passage:comment:{comment.id}"] = comment.text
        return QueryOutput(
            {
                "task": task_json(task),
                "assignments": {
                    "assignee_id": task.assignee,
                    "created_by": task.created_by,
                },
                "comments": [comment_json(c) for c in comments],
                "blockers": [blocker_json(b) for b in blockers],
            },
            evidence,
        )


class GetBlockersInput(ToolInput):
    """Input of get_blockers."""

    project_id: str | None = Field(None, description="Only this project's blockers.")
    status: Literal["open", "resolved"] | None = Field(
        "open", description="open (default), resolved, or null for both."
    )


class GetBlockers(QueryTool):
    """What is blocking a project (or every project)."""

    name = "get_blockers"
    description = "List blockers of a project (or of all the user's projects); open by default."
    Input = GetBlockersInput

    def run(self, args: GetBlockersInput, context: ToolContext) -> QueryOutput:
        """The blockers, with the titles of the tasks they block."""
        service = workspace_of(self.deps)
        project = service.find_project(context.user, args.project_id) if args.project_id else None
        blockers = service.blockers(
            context.user, project.id if project else None, status=args.status
        )
        data: list[JSONValue] = []
        for blocker in blockers:
            entry = blocker_json(blocker)
            if blocker.task_id is not None:
                entry["task_title"] = service.task(context.user, blocker.task_id).title
            data.append(entry)
        result: dict[str, JSONValue] = {"blockers": data}
        if project is not None:
            result["project"] = project_json(project)
        return QueryOutput(result)


class GetDocuments(QueryTool):
    """A project's documents."""

    name = "get_documents"
    description = "List the documents linked to (or uploaded into) a project."
    Input = ProjectInput

    def run(self, args: ProjectInput, context: ToolContext) -> QueryOutput:
        """The project's documents."""
        service = workspace_of(self.deps)
        project = service.find_project(context.user, args.project_id)
        documents = service.documents(context.user, project.id)
        return QueryOutput(
            {"project": project_json(project), "documents": [document_json(d) for d in documents]}
        )


class DocumentInput(ToolInput):
    """A project document by id (its title is accepted too)."""

    document_id: str = Field(min_length=1, max_length=300, description="The document's id.")


class GetDocumentDetails(QueryTool):
    """One project document with its text and comments."""

    name = "get_document_details"
    description = "A project document's text (cut at 4,000 characters), label and comments."
    Input = DocumentInput

    def run(self, args: DocumentInput, context: ToolContext) -> QueryOutput:
        """The document's text, its citation label and its comments."""
        service = workspace_of(self.deps)
        link = resolve_document(service, context, args.document_id)
        view = service.document_view(context.user, link.id)
        text = view.view.document.text[:DOCUMENT_TEXT_CHARS]
        comments = service.comments(context.user, document_id=link.id)
        return QueryOutput(
            {
                "document": {**document_json(link), "label": view.label, "text": text},
                "comments": [comment_json(c) for c in comments],
            },
            {document_source(link.id): text},
            retrieval=True,
        )


class SearchContentInput(ToolInput):
    """Input of search_content."""

    query: str = Field(min_length=1, max_length=500, description="What to look for.")
    project_id: str | None = Field(None, description="Only inside this project.")
    limit: int = Field(10, ge=1, le=30)


class SearchContent(QueryTool):
    """Search projects, tasks, blockers, comments and documents."""

    name = "search_content"
    description = (
        "Search the user's projects, tasks, blockers, comments and project documents "
        "(documents through the hybrid search engine). Results carry quotable snippets."
    )
    Input = SearchContentInput

    def run(self, args: SearchContentInput, context: ToolContext) -> QueryOutput:
        """Ranked hits with snippets a reply may quote."""
        service = workspace_of(self.deps)
        project = service.find_project(context.user, args.project_id) if args.project_id else None
        hits = service.search_content(
            context.user, args.query, project_id=project.id if project else None, limit=args.limit
        )
        return QueryOutput(
            {"results": [_hit_json(h) for h in hits]}, _hit_evidence(hits), retrieval=True
        )


def _hit_json(hit: ContentHit) -> dict[str, JSONValue]:
    return {
        "kind": hit.kind,
        "id": hit.id,
        "project_id": hit.project_id,
        "title": hit.title,
        "snippet": hit.snippet,
        "label": hit.label,
        "source": _hit_source(hit),
        "score": round(hit.score, 4),
    }


def _hit_source(hit: ContentHit) -> str:
    return f"passage:{hit.kind}:{hit.id}"


def _hit_evidence(hits: Sequence[ContentHit]) -> dict[str, str]:
    evidence: dict[str, str] = {}
    for hit in hits:
        source = _hit_source(hit)
        evidence[source] = (
            f"{evidence[source]} {hit.snippet}" if source in evidence else hit.snippet
        )
    return evidence


class NoWorkspaceInput(ToolInput):
    """A tool without input."""


class GetAttentionSummary(QueryTool):
    """What needs the user's attention."""

    name = "get_attention_summary"
    description = (
        "What needs the user's attention: overdue tasks, blocked tasks, tasks in review, "
        "and tasks assigned to the user."
    )
    Input = NoWorkspaceInput

    def run(self, args: NoWorkspaceInput, context: ToolContext) -> QueryOutput:
        """The four lists, most urgent first."""
        del args
        summary = workspace_of(self.deps).attention(context.user)
        return QueryOutput(
            {
                "overdue": [task_json(t) for t in summary.overdue],
                "blocked": [
                    {**task_json(t), "blockers": [b.description for b in blockers]}
                    for t, blockers in summary.blocked
                ],
                "in_review": [task_json(t) for t in summary.in_review],
                "assigned_to_me": [task_json(t) for t in summary.assigned_to_me],
                "open_blockers": len(summary.open_blockers),
            }
        )


class GetTeamMembersInput(ToolInput):
    """Input of get_team_members."""

    project_id: str | None = Field(None, description="The members of this project's team.")
    organization_id: str | None = Field(None, description="The members of this organization.")


class GetTeamMembers(QueryTool):
    """Who is on the team."""

    name = "get_team_members"
    description = "The members (user id, name, role) of a project's organization, or of all."
    Input = GetTeamMembersInput

    def run(self, args: GetTeamMembersInput, context: ToolContext) -> QueryOutput:
        """Members with their roles."""
        service = workspace_of(self.deps)
        project = service.find_project(context.user, args.project_id) if args.project_id else None
        members = service.team_members(
            context.user,
            organization_id=args.organization_id,
            project_id=project.id if project else None,
        )
        return QueryOutput({"members": [member_json(m) for m in members]})


WORKSPACE_QUERY_TOOLS: tuple[type[QueryTool], ...] = (
    GetProjects,
    GetProjectDetails,
    GetTasks,
    GetTaskDetails,
    GetBlockers,
    GetDocuments,
    GetDocumentDetails,
    SearchContent,
    GetAttentionSummary,
    GetTeamMembers,
)
