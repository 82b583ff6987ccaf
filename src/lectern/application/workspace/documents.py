"""Project documents: links to collection documents, uploads into a project's own collection.

A document created or updated may queue an automatic review.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from lectern.application.collections import CollectionService, DocumentView
from lectern.application.workspace.access import WorkspaceAccess
from lectern.application.workspace.references import pick
from lectern.application.workspace.triggers import ReviewTriggers
from lectern.domain.workspace import ProjectDocument, project_collection
from lectern.errors import (
    CollectionNotFoundError,
    DocumentNotFoundError,
    WorkspaceConflictError,
    WorkspaceNotFoundError,
)


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


class Documents(WorkspaceAccess, ReviewTriggers):
    """The documents of the projects the user can see."""

    collections: CollectionService | None
    clock: Callable[[], datetime]
    new_id: Callable[[], str]
    max_upload_bytes: int

    def documents(self, user: str, project_id: str) -> list[ProjectDocument]:
        """The documents a project links to."""
        return self._links([self.project(user, project_id)])

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
        return pick(found, reference, lambda d: d.id, lambda d: d.title, "document")

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
