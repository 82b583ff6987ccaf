"""`WorkspaceStore` on SQLAlchemy Core: the catalog database (SQLite or PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from lectern.adapters.actions.sqlalchemy_actions import utc
from lectern.adapters.catalog.tables import (
    blockers,
    comments,
    organization_members,
    organizations,
    project_documents,
    projects,
    tasks,
)
from lectern.domain.workspace import (
    Blocker,
    BlockerStatus,
    Comment,
    CommentCitation,
    Member,
    Organization,
    Project,
    ProjectDocument,
    ReviewSettings,
    Task,
    TaskStatus,
)


def _organization(row: Any) -> Organization:
    return Organization(
        id=row.id,
        name=row.name,
        created_at=utc(row.created_at),
        reviews=ReviewSettings(
            document_created=bool(row.review_document_created),
            document_updated=bool(row.review_document_updated),
            task_in_review=bool(row.review_task_in_review),
        ),
    )


def _member(row: Any) -> Member:
    return Member(row.organization_id, row.user, row.role, row.display_name, utc(row.joined_at))


def _project(row: Any) -> Project:
    return Project(
        id=row.id,
        organization_id=row.organization_id,
        name=row.name,
        description=row.description,
        status=row.status,
        created_at=utc(row.created_at),
        updated_at=utc(row.updated_at),
    )


def _task(row: Any) -> Task:
    return Task(
        id=row.id,
        project_id=row.project_id,
        title=row.title,
        description=row.description,
        status=row.status,
        priority=row.priority,
        assignee=row.assignee,
        due_date=row.due_date,
        created_by=row.created_by,
        created_at=utc(row.created_at),
        updated_at=utc(row.updated_at),
    )


def _blocker(row: Any) -> Blocker:
    return Blocker(
        id=row.id,
        project_id=row.project_id,
        task_id=row.task_id,
        description=row.description,
        status=row.status,
        resolution=row.resolution,
        created_by=row.created_by,
        created_at=utc(row.created_at),
        resolved_at=utc(row.resolved_at) if row.resolved_at is not None else None,
    )


def _comment(row: Any) -> Comment:
    cited = json.loads(row.citations_json)
    return Comment(
        id=row.id,
        project_id=row.project_id,
        task_id=row.task_id,
        document_id=row.document_id,
        author=row.author,
        text=row.text,
        created_at=utc(row.created_at),
        citations=tuple(CommentCitation(c["source"], c["label"], c["snippet"]) for c in cited),
    )


def _document(row: Any) -> ProjectDocument:
    return ProjectDocument(
        id=row.id,
        project_id=row.project_id,
        collection=row.collection,
        document_id=row.document_id,
        title=row.title,
        origin=row.origin,
        added_by=row.added_by,
        added_at=utc(row.added_at),
        updated_at=utc(row.updated_at),
    )


def _task_values(task: Task) -> dict[str, Any]:
    return {
        "title": task.title,
        "description": task.description,
        "status": task.status,
        "priority": task.priority,
        "assignee": task.assignee,
        "due_date": task.due_date,
        "updated_at": utc(task.updated_at),
    }


class SqlAlchemyWorkspaceStore:
    """The workspace tables (migration 0006), sharing the catalog's engine."""

    def __init__(self, engine: Engine) -> None:
        """The catalog has already migrated the schema."""
        self.engine = engine

    def _all(self, statement: Any) -> list[Any]:
        with self.engine.connect() as connection:
            return list(connection.execute(statement).all())

    def _first(self, statement: Any) -> Any:
        with self.engine.connect() as connection:
            return connection.execute(statement).first()

    def _write(self, *statements: Any) -> None:
        with self.engine.begin() as connection:
            for statement in statements:
                connection.execute(statement)

    # --- organizations and members --------------------------------------------------------

    def add_organization(self, organization: Organization, owner: Member) -> None:
        """The organization and its first owner in one transaction."""
        self._write(
            organizations.insert().values(
                id=organization.id,
                name=organization.name,
                review_document_created=organization.reviews.document_created,
                review_document_updated=organization.reviews.document_updated,
                review_task_in_review=organization.reviews.task_in_review,
                created_at=utc(organization.created_at),
            ),
            organization_members.insert().values(
                organization_id=owner.organization_id,
                user=owner.user,
                role=owner.role,
                display_name=owner.display_name,
                joined_at=utc(owner.joined_at),
            ),
        )

    def organization(self, organization_id: str) -> Organization | None:
        """The organization with this id."""
        row = self._first(sa.select(organizations).where(organizations.c.id == organization_id))
        return _organization(row) if row is not None else None

    def update_organization(self, organization: Organization) -> None:
        """Its name and review settings."""
        self._write(
            organizations.update()
            .where(organizations.c.id == organization.id)
            .values(
                name=organization.name,
                review_document_created=organization.reviews.document_created,
                review_document_updated=organization.reviews.document_updated,
                review_task_in_review=organization.reviews.task_in_review,
            )
        )

    def memberships(self, user: str) -> list[Member]:
        """Every membership of the user."""
        rows = self._all(
            sa.select(organization_members)
            .where(organization_members.c.user == user)
            .order_by(organization_members.c.joined_at, organization_members.c.organization_id)
        )
        return [_member(r) for r in rows]

    def members(self, organization_id: str) -> list[Member]:
        """The organization's members."""
        rows = self._all(
            sa.select(organization_members)
            .where(organization_members.c.organization_id == organization_id)
            .order_by(organization_members.c.joined_at, organization_members.c.user)
        )
        return [_member(r) for r in rows]

    def put_member(self, member: Member) -> None:
        """Insert the membership, or update its role and display name."""
        key = (
            organization_members.c.organization_id == member.organization_id,
            organization_members.c.user == member.user,
        )
        with self.engine.begin() as connection:
            changed = connection.execute(
                organization_members.update()
                .where(*key)
                .values(role=member.role, display_name=member.display_name)
            ).rowcount
            if not changed:
                connection.execute(
                    organization_members.insert().values(
                        organization_id=member.organization_id,
                        user=member.user,
                        role=member.role,
                        display_name=member.display_name,
                        joined_at=utc(member.joined_at),
                    )
                )

    def remove_member(self, organization_id: str, user: str) -> None:
        """Delete the membership."""
        self._write(
            organization_members.delete().where(
                organization_members.c.organization_id == organization_id,
                organization_members.c.user == user,
            )
        )

    # --- projects -------------------------------------------------------------------------

    def add_project(self, project: Project) -> None:
        """Insert the project."""
        self._write(
            projects.insert().values(
                id=project.id,
                organization_id=project.organization_id,
                name=project.name,
                description=project.description,
                status=project.status,
                created_at=utc(project.created_at),
                updated_at=utc(project.updated_at),
            )
        )

    def project(self, project_id: str) -> Project | None:
        """The project with this id."""
        row = self._first(sa.select(projects).where(projects.c.id == project_id))
        return _project(row) if row is not None else None

    def projects(self, organization_ids: Sequence[str]) -> list[Project]:
        """The organizations' projects, oldest first."""
        if not organization_ids:
            return []
        rows = self._all(
            sa.select(projects)
            .where(projects.c.organization_id.in_(list(organization_ids)))
            .order_by(projects.c.created_at, projects.c.id)
        )
        return [_project(r) for r in rows]

    def update_project(self, project: Project) -> None:
        """Its name, description, status and update time."""
        self._write(
            projects.update()
            .where(projects.c.id == project.id)
            .values(
                name=project.name,
                description=project.description,
                status=project.status,
                updated_at=utc(project.updated_at),
            )
        )

    # --- tasks ----------------------------------------------------------------------------

    def add_task(self, task: Task) -> None:
        """Insert the task."""
        self._write(
            tasks.insert().values(
                id=task.id,
                project_id=task.project_id,
                created_by=task.created_by,
                created_at=utc(task.created_at),
                **_task_values(task),
            )
        )

    def task(self, task_id: str) -> Task | None:
        """The task with this id."""
        row = self._first(sa.select(tasks).where(tasks.c.id == task_id))
        return _task(row) if row is not None else None

    def tasks(
        self,
        project_ids: Sequence[str],
        *,
        status: TaskStatus | None = None,
        assignee: str | None = None,
    ) -> list[Task]:
        """The projects' tasks, oldest first."""
        if not project_ids:
            return []
        statement = sa.select(tasks).where(tasks.c.project_id.in_(list(project_ids)))
        if status is not None:
            statement = statement.where(tasks.c.status == status)
        if assignee is not None:
            statement = statement.where(tasks.c.assignee == assignee)
        rows = self._all(statement.order_by(tasks.c.created_at, tasks.c.id))
        return [_task(r) for r in rows]

    def update_task(self, task: Task) -> None:
        """Every editable field and the update time."""
        self._write(tasks.update().where(tasks.c.id == task.id).values(**_task_values(task)))

    # --- blockers -------------------------------------------------------------------------

    def add_blocker(self, blocker: Blocker) -> None:
        """Insert the blocker."""
        self._write(
            blockers.insert().values(
                id=blocker.id,
                project_id=blocker.project_id,
                task_id=blocker.task_id,
                description=blocker.description,
                status=blocker.status,
                resolution=blocker.resolution,
                created_by=blocker.created_by,
                created_at=utc(blocker.created_at),
                resolved_at=utc(blocker.resolved_at) if blocker.resolved_at else None,
            )
        )

    def blocker(self, blocker_id: str) -> Blocker | None:
        """The blocker with this id."""
        row = self._first(sa.select(blockers).where(blockers.c.id == blocker_id))
        return _blocker(row) if row is not None else None

    def blockers(
        self, project_ids: Sequence[str], *, status: BlockerStatus | None = None
    ) -> list[Blocker]:
        """The projects' blockers, oldest first."""
        if not project_ids:
            return []
        statement = sa.select(blockers).where(blockers.c.project_id.in_(list(project_ids)))
        if status is not None:
            statement = statement.where(blockers.c.status == status)
        rows = self._all(statement.order_by(blockers.c.created_at, blockers.c.id))
        return [_blocker(r) for r in rows]

    def update_blocker(self, blocker: Blocker) -> None:
        """Its description, task, status, resolution and resolution time."""
        self._write(
            blockers.update()
            .where(blockers.c.id == blocker.id)
            .values(
                description=blocker.description,
                task_id=blocker.task_id,
                status=blocker.status,
                resolution=blocker.resolution,
                resolved_at=utc(blocker.resolved_at) if blocker.resolved_at else None,
            )
        )

    # --- comments -------------------------------------------------------------------------

    def add_comment(self, comment: Comment) -> None:
        """Insert the comment with its citations as JSON."""
        cited = [
            {"source": c.source, "label": c.label, "snippet": c.snippet} for c in comment.citations
        ]
        self._write(
            comments.insert().values(
                id=comment.id,
                project_id=comment.project_id,
                task_id=comment.task_id,
                document_id=comment.document_id,
                author=comment.author,
                text=comment.text,
                citations_json=json.dumps(cited, ensure_ascii=False),
                created_at=utc(comment.created_at),
            )
        )

    def comments(
        self, *, task_id: str | None = None, document_id: str | None = None
    ) -> list[Comment]:
        """The comments on one task or one document, oldest first."""
        if task_id is None and document_id is None:
            return []
        statement = sa.select(comments)
        if task_id is not None:
            statement = statement.where(comments.c.task_id == task_id)
        if document_id is not None:
            statement = statement.where(comments.c.document_id == document_id)
        rows = self._all(statement.order_by(comments.c.created_at, comments.c.id))
        return [_comment(r) for r in rows]

    def project_comments(self, project_ids: Sequence[str]) -> list[Comment]:
        """Every comment in the projects, oldest first."""
        if not project_ids:
            return []
        rows = self._all(
            sa.select(comments)
            .where(comments.c.project_id.in_(list(project_ids)))
            .order_by(comments.c.created_at, comments.c.id)
        )
        return [_comment(r) for r in rows]

    # --- documents ------------------------------------------------------------------------

    def add_document(self, document: ProjectDocument) -> None:
        """Insert the link."""
        self._write(
            project_documents.insert().values(
                id=document.id,
                project_id=document.project_id,
                collection=document.collection,
                document_id=document.document_id,
                title=document.title,
                origin=document.origin,
                added_by=document.added_by,
                added_at=utc(document.added_at),
                updated_at=utc(document.updated_at),
            )
        )

    def document(self, document_id: str) -> ProjectDocument | None:
        """The project document with this id."""
        row = self._first(sa.select(project_documents).where(project_documents.c.id == document_id))
        return _document(row) if row is not None else None

    def documents(self, project_ids: Sequence[str]) -> list[ProjectDocument]:
        """The projects' documents, oldest first."""
        if not project_ids:
            return []
        rows = self._all(
            sa.select(project_documents)
            .where(project_documents.c.project_id.in_(list(project_ids)))
            .order_by(project_documents.c.added_at, project_documents.c.id)
        )
        return [_document(r) for r in rows]

    def update_document(self, document: ProjectDocument) -> None:
        """Its title and update time."""
        self._write(
            project_documents.update()
            .where(project_documents.c.id == document.id)
            .values(title=document.title, updated_at=utc(document.updated_at))
        )

    def remove_document(self, document_id: str) -> None:
        """Delete the link and its comments (explicitly: SQLite may run without cascades)."""
        self._write(
            comments.delete().where(comments.c.document_id == document_id),
            project_documents.delete().where(project_documents.c.id == document_id),
        )
