"""Who may see and change which collection: the one check every surface asks.

Two kinds of collection live side by side. *Public* collections are the ones an operator
configures (`lectern collections add`, records mappings, the knowledge base): every caller
may read them, and only collection writers may upload into them. *Project* collections
(`project-<id>`) hold one project's uploads: they belong to the project's organization, so
only its members may read them, and they change only through the workspace's own routes.

To anyone else a project collection does not exist: every refusal is the same "not found"
an unknown name gets, so names and ids of other organizations say nothing. The collection
routes, label resolution, research, the knowledge base, the MCP tools and resources, the
assistant's tools and the workspace's document links all ask this one policy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from lectern.application.identity import LOCAL_USER
from lectern.application.workspace.ports import WorkspaceStore
from lectern.domain.workspace import is_project_collection, project_collection
from lectern.errors import CollectionNotFoundError, WorkspacePermissionError

_T = TypeVar("_T")


def _unknown(name: str) -> CollectionNotFoundError:
    return CollectionNotFoundError(
        f"no collection named {name!r}: `lectern collections list` shows them"
    )


class CollectionAccess:
    """Answers "may this caller see (or write) collection X", from the workspace's memberships.

    Without a workspace store (an install without the workspace) no project collection
    belongs to anyone, so none is readable through any surface.
    """

    def __init__(self, store: WorkspaceStore | None) -> None:
        """`store` holds the organizations, memberships and projects."""
        self.store = store

    def owner_organization(self, name: str, organization_ids: Sequence[str]) -> str | None:
        """Which of these organizations owns the project collection `name`, if any."""
        if self.store is None or not organization_ids:
            return None
        for project in self.store.projects(list(organization_ids)):
            if project_collection(project.id) == name:
                return project.organization_id
        return None

    def reader(self, user: str) -> Callable[[str], bool]:
        """A predicate "may `user` read this collection", memberships read once."""
        organizations: list[str] | None = None
        owned: dict[str, bool] = {}

        def readable(name: str) -> bool:
            nonlocal organizations
            if not is_project_collection(name):
                return True
            if name not in owned:
                if organizations is None:
                    organizations = (
                        [m.organization_id for m in self.store.memberships(user)]
                        if self.store is not None
                        else []
                    )
                owned[name] = self.owner_organization(name, organizations) is not None
            return owned[name]

        return readable

    def can_read(self, user: str, name: str) -> bool:
        """Whether `user` may read collection `name` (public, or their organization's project)."""
        return self.reader(user)(name)

    def require_read(self, user: str, name: str) -> None:
        """CollectionNotFoundError unless `user` may read `name` (as for an unknown name)."""
        if not self.can_read(user, name):
            raise _unknown(name)

    def require_collection_write(self, user: str, name: str) -> None:
        """Collection routes write public collections only; project documents are the workspace's.

        A project collection is "not found" to non-members and forbidden to members (who
        upload through `POST /projects/{id}/uploads`, where roles and reviews apply).
        """
        if not is_project_collection(name):
            return
        if not self.can_read(user, name):
            raise _unknown(name)
        raise WorkspacePermissionError(
            f"{name!r} holds a project's documents: upload them through the project "
            "(POST /projects/{id}/uploads), not the collection routes"
        )

    def may_link(self, organization_id: str, name: str) -> bool:
        """Whether a project of this organization may link documents of collection `name`."""
        return not is_project_collection(name) or (
            self.owner_organization(name, [organization_id]) is not None
        )

    def visible(self, user: str, items: Iterable[_T], name_of: Callable[[_T], str]) -> list[_T]:
        """The items (collections, documents, hits) whose collection `user` may read."""
        readable = self.reader(user)
        return [item for item in items if readable(name_of(item))]


class CatalogEditors:
    """Who may change the shared book catalog: the users of LECTERN_CATALOG_EDITORS.

    Everyone else's corrections wait as pending until an editor approves them. Without API
    keys there is one user, the local one, and it is the editor (it owns the install, like
    the catalog file itself); with keys the local user is nobody's identity.
    """

    def __init__(self, editors: frozenset[str] = frozenset(), *, keys_required: bool = False):
        """`editors` from the settings; `keys_required` when LECTERN_API_KEYS is set."""
        self.editors = editors
        self.keys_required = keys_required

    def is_editor(self, user: str) -> bool:
        """Whether `user` may apply catalog corrections (their own and others')."""
        return user in self.editors or (not self.keys_required and user == LOCAL_USER)
