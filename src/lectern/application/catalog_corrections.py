"""Catalog corrections: an editor's apply at once; everyone else's wait for an editor.

The book catalog is shared by every user, so a correction changes it only with a catalog
editor's word (LECTERN_CATALOG_EDITORS): an editor's own approved correction applies when
its action runs; anyone else's approved action records the correction as `pending`, and an
editor approves (applies) or rejects it here. Nobody decides their own pending correction.
A correction whose book changed since it was proposed is refused, not applied over the
change.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from lectern.application.access import CatalogEditors
from lectern.application.assistant.ports import LibraryStore
from lectern.application.ingestion import content_hash
from lectern.application.ports import BookCatalog, StoredEntry
from lectern.domain.books import Book, FieldProvenance, JSONValue
from lectern.domain.library import CatalogCorrection
from lectern.errors import (
    ActionAlreadyDecidedError,
    ActionChangedError,
    CatalogPermissionError,
    CorrectionNotFoundError,
)

USER_SOURCE = "user"
"""The provenance source of a field a user corrected (`FieldProvenance(field, "user", name)`)."""


def field_value(book: Book, name: str) -> JSONValue:
    """A correctable field's value, as a correction records it."""
    if name == "language":
        return book.language
    if name == "published_year":
        return book.published_year
    if name == "authors":
        return list(book.authors)
    return list(book.categories)


def apply_changes(
    catalog: BookCatalog, book_id: uuid.UUID, changes: Mapping[str, JSONValue], user: str
) -> dict[str, JSONValue]:
    """Write the changes into the catalog with `user` as each field's provenance; old values.

    Raises CorrectionNotFoundError when the book is no longer in the catalog.
    """
    entry = catalog.get_entry(book_id)
    if entry is None:
        raise CorrectionNotFoundError("the book is no longer in the catalog")
    book = entry.book
    old = {name: field_value(book, name) for name in changes}
    updates: dict[str, Any] = {}
    for name, value in changes.items():
        if name in ("authors", "categories") and isinstance(value, list):
            updates[name] = tuple(str(v) for v in value)
        else:
            updates[name] = value
    provenance = tuple(p for p in entry.provenance if p.field not in changes) + tuple(
        FieldProvenance(name, USER_SOURCE, user) for name in changes
    )
    corrected = replace(entry, book=replace(book, **updates), provenance=provenance)
    catalog.write_batch([StoredEntry(corrected, content_hash(corrected))])
    return old


class CatalogCorrections:
    """Pending corrections, and an editor's approval or rejection of each."""

    def __init__(self, catalog: BookCatalog, library: LibraryStore, editors: CatalogEditors):
        """The catalog corrected, the corrections' store, and who the editors are."""
        self.catalog = catalog
        self.library = library
        self.editors = editors

    def _require_editor(self, user: str) -> None:
        if not self.editors.is_editor(user):
            raise CatalogPermissionError(
                "only catalog editors (LECTERN_CATALOG_EDITORS) may review catalog corrections"
            )

    def pending(self, user: str) -> list[CatalogCorrection]:
        """Corrections waiting for an editor, oldest first (editors only)."""
        self._require_editor(user)
        return self.library.corrections_by_status("pending")

    def _open(self, user: str, correction_id: str) -> CatalogCorrection:
        self._require_editor(user)
        found = self.library.correction(correction_id)
        if found is None:
            raise CorrectionNotFoundError(f"no correction {correction_id!r}")
        if found.user == user:
            raise CatalogPermissionError("another editor must decide your own correction")
        if found.status != "pending":
            raise ActionAlreadyDecidedError(f"the correction is already {found.status}")
        return found

    def approve(self, user: str, correction_id: str) -> CatalogCorrection:
        """Apply a pending correction to the catalog (an editor, not its proposer)."""
        found = self._open(user, correction_id)
        book_id = uuid.UUID(found.book_id)
        book = self.catalog.get(book_id)
        if book is None:
            raise CorrectionNotFoundError("the book is no longer in the catalog")
        if any(field_value(book, name) != old for name, old, _ in found.changes):
            raise ActionChangedError(
                "the book changed since the correction was proposed: ask for a new one"
            )
        if not self.library.set_correction_status(correction_id, "pending", "applied"):
            raise ActionAlreadyDecidedError("another editor decided the correction first")
        try:
            apply_changes(
                self.catalog, book_id, {name: new for name, _, new in found.changes}, found.user
            )
        except BaseException:
            self.library.set_correction_status(correction_id, "applied", "pending")
            raise
        return replace(found, status="applied")

    def reject(self, user: str, correction_id: str) -> CatalogCorrection:
        """Turn a pending correction down; the catalog is unchanged."""
        found = self._open(user, correction_id)
        if not self.library.set_correction_status(correction_id, "pending", "rejected"):
            raise ActionAlreadyDecidedError("another editor decided the correction first")
        return replace(found, status="rejected")
