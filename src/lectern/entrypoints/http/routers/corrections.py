"""`/catalog/corrections`: catalog editors review the corrections others proposed.

A correction proposed through the assistant by someone who is not a catalog editor
(LECTERN_CATALOG_EDITORS) waits here as `pending`; an editor other than its proposer applies
or rejects it. Non-editors get 403, an unknown id 404, a decided one 409, and a book changed
since the proposal 409.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from lectern.domain.library import CatalogCorrection
from lectern.entrypoints.http.deps import AppServices, CurrentUser
from lectern.entrypoints.http.problems import documented

router = APIRouter(
    tags=["catalog corrections"], responses=documented(401, 403, 404, 409, 422, 429, 503)
)


class FieldChangeOut(BaseModel):
    """One corrected field: its value when proposed and the proposed value."""

    field: str
    old: Any
    new: Any


class CorrectionOut(BaseModel):
    """A proposed catalog correction and where it stands."""

    id: str
    proposed_by: str
    book_id: str
    changes: list[FieldChangeOut]
    status: Literal["pending", "applied", "rejected"]
    created_at: datetime

    @classmethod
    def of(cls, correction: CatalogCorrection) -> CorrectionOut:
        """Map from the domain."""
        return cls(
            id=correction.id,
            proposed_by=correction.user,
            book_id=correction.book_id,
            changes=[FieldChangeOut(field=f, old=o, new=n) for f, o, n in correction.changes],
            status=correction.status,
            created_at=correction.created_at,
        )


@router.get("/catalog/corrections")
def pending(services: AppServices, user: CurrentUser) -> list[CorrectionOut]:
    """Corrections waiting for a catalog editor, oldest first (editors only)."""
    return [CorrectionOut.of(c) for c in services.catalog_corrections().pending(user)]


@router.post("/catalog/corrections/{correction_id}/approve")
async def approve(correction_id: str, services: AppServices, user: CurrentUser) -> CorrectionOut:
    """Apply the correction to the catalog (an editor who did not propose it)."""
    decided = await run_in_threadpool(services.catalog_corrections().approve, user, correction_id)
    return CorrectionOut.of(decided)


@router.post("/catalog/corrections/{correction_id}/reject")
def reject(correction_id: str, services: AppServices, user: CurrentUser) -> CorrectionOut:
    """Turn the correction down; the catalog stays as it is."""
    return CorrectionOut.of(services.catalog_corrections().reject(user, correction_id))
