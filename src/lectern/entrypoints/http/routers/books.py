"""Books by ISBN or id, their nearest neighbours, and the catalog's facets."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from lectern.application.catalog_queries import find_book
from lectern.application.search import MAX_RESULTS
from lectern.domain.search import DEFAULT_RESULTS
from lectern.entrypoints.http.deps import AppServices, Search
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.schemas import BookOut, FacetsOut, SearchOut, json_response

router = APIRouter(tags=["books"], responses=documented(400, 401, 413, 422, 429, 503))


@router.get("/books/{isbn_or_id}", responses=documented(404))
def book(isbn_or_id: str, services: AppServices) -> BookOut:
    """One book by ISBN-10, ISBN-13 (any punctuation) or id."""
    return BookOut.of(find_book(services.catalog, isbn_or_id).entry.book)


@router.get("/books/{isbn_or_id}/similar", responses=documented(404), response_model=SearchOut)
def similar(
    isbn_or_id: str,
    service: Search,
    services: AppServices,
    k: Annotated[int, Query(ge=1, le=MAX_RESULTS)] = DEFAULT_RESULTS,
) -> Response:
    """Books nearest by embedding, without the book's other editions."""
    found = find_book(services.catalog, isbn_or_id).entry.book
    return json_response(SearchOut.of(service.similar(found.id, k)))


@router.get("/facets")
def facets(services: AppServices) -> FacetsOut:
    """Languages, top categories and years, for filters."""
    return FacetsOut.of(services.catalog.facets(top_categories=60))
