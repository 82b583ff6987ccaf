"""The caller's reading lists and ratings, as plain resources.

Read only: every change goes through the assistant's previews and approvals.
"""

from __future__ import annotations

from fastapi import APIRouter

from lectern.application.catalog_queries import books_by_id
from lectern.entrypoints.http.assistant_schemas import ListOut, ListSummaryOut, RatingOut
from lectern.entrypoints.http.deps import AppServices, CurrentUser
from lectern.entrypoints.http.problems import documented
from lectern.errors import ReadingListNotFoundError

router = APIRouter(tags=["library"], responses=documented(400, 401, 413, 422, 429, 503))


@router.get("/lists")
def lists(services: AppServices, user: CurrentUser) -> list[ListSummaryOut]:
    """The caller's reading lists, oldest first."""
    return [ListSummaryOut.of(found) for found in services.library().lists(user)]


@router.get("/lists/{list_id}", responses=documented(404))
def reading_list(list_id: str, services: AppServices, user: CurrentUser) -> ListOut:
    """One of the caller's lists with its books (404 for an unknown id or another user's)."""
    found = services.library().get_list(user, list_id)
    if found is None:
        raise ReadingListNotFoundError(f"no reading list {list_id!r}")
    books = books_by_id(services.catalog, (e.book_id for e in found.entries))
    return ListOut.of(found, books)


@router.get("/ratings")
def ratings(services: AppServices, user: CurrentUser) -> list[RatingOut]:
    """The caller's ratings."""
    found = services.library().ratings(user)
    books = books_by_id(services.catalog, (r.book_id for r in found))
    return [RatingOut.of(r, books.get(r.book_id)) for r in found]
