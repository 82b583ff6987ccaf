"""`/collections`: list, show, search, documents, passages, labels and uploads.

Errors go through the app's problem table (404 unknown collection or document, 422 bad
query, 413 too large, 415 unsupported type). Reading needs what every route needs (a valid
API key when keys are set); uploading needs a user named in LECTERN_COLLECTION_WRITERS.
A project's collection is the project's organization's: to anyone else it is 404 on every
route here (`CollectionAccess`), and nobody uploads into it here (its members use the
project's own upload route).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from lectern.application.access import CollectionAccess
from lectern.application.collections import CollectionService
from lectern.entrypoints.http.deps import AppServices, CurrentUser
from lectern.entrypoints.http.job_schemas import AcceptedOut
from lectern.entrypoints.http.problems import documented
from lectern.entrypoints.http.routers.jobs import answer
from lectern.entrypoints.schemas.collections import (
    AddReportOut,
    CollectionDetailOut,
    CollectionOut,
    CollectionSearchOut,
    DocumentOut,
    DocumentSummaryOut,
    PassageOut,
    ResolutionOut,
    SearchIn,
    SectionOut,
)
from lectern.errors import NotFoundError


def collection_service(services: AppServices) -> CollectionService:
    """The collection service of the app's services."""
    return services.collections()


Collections = Annotated[CollectionService, Depends(collection_service)]


def collection_access(services: AppServices) -> CollectionAccess:
    """Who may read which collection."""
    return services.collection_access()


Access = Annotated[CollectionAccess, Depends(collection_access)]


def readable_collection(name: str, access: Access, user: CurrentUser) -> str:
    """The path's collection name, once the caller may read it (404 as for an unknown name)."""
    access.require_read(user, name)
    return name


ReadableName = Annotated[str, Depends(readable_collection)]


def require_writer(services: AppServices, user: CurrentUser) -> None:
    """Uploads need an API key whose user is in LECTERN_COLLECTION_WRITERS."""
    writers = services.settings.collection_writer_set
    if not writers:
        raise HTTPException(403, "uploads are off: LECTERN_COLLECTION_WRITERS names no user")
    if not services.settings.api_keyring.required or user not in writers:
        raise HTTPException(403, "this API key may not write to collections")


router = APIRouter(tags=["collections"], responses=documented(400, 401, 404, 413, 422, 429, 503))


@router.get("/collections")
def list_collections(
    service: Collections, access: Access, user: CurrentUser
) -> list[CollectionOut]:
    """Every collection the caller may read, with its counts and filters."""
    found = access.visible(user, service.summaries(), lambda s: s.record.name)
    return [CollectionOut.of(summary) for summary in found]


@router.get("/collections/{name}")
def show_collection(name: ReadableName, service: Collections) -> CollectionDetailOut:
    """One collection: counts, filters, sources and its first documents."""
    summary, documents = service.show(name)
    return CollectionDetailOut(
        **CollectionOut.of(summary).model_dump(),
        first_documents=[DocumentSummaryOut.of(d) for d in documents],
    )


@router.post("/collections/{name}/search")
def search(name: ReadableName, body: SearchIn, service: Collections) -> CollectionSearchOut:
    """Hybrid search in one collection; passages grouped by document, best first."""
    found = service.search(
        name, body.query, where=body.where, k=body.k, per_document=body.per_document
    )
    return CollectionSearchOut.of(found)


@router.get("/collections/{name}/documents/{document_id}")
def document(name: ReadableName, document_id: str, service: Collections) -> DocumentOut:
    """A document's text with its pages, sections and passages (with labels)."""
    view = service.document(name, document_id)
    found = view.document
    return DocumentOut(
        **DocumentSummaryOut.of(found).model_dump(),
        text=found.text,
        pages=[tuple(p) for p in found.pages],  # type: ignore[misc]
        sections=[
            SectionOut(title=s.title, level=s.level, anchor=s.anchor, start=s.start, end=s.end)
            for s in found.sections
        ],
        notes=list(found.notes),
        passages=[PassageOut.of(p, label) for p, label in view.passages],
    )


@router.get("/collections/{name}/documents/{document_id}/similar")
def similar(
    name: ReadableName,
    document_id: str,
    service: Collections,
    k: Annotated[int, Query(ge=1, le=100)] = 10,
) -> CollectionSearchOut:
    """Documents nearest to this one."""
    return CollectionSearchOut.of(service.similar(name, document_id, k))


@router.get("/collections/{name}/passages/{passage_id}")
def passage(name: ReadableName, passage_id: str, service: Collections) -> PassageOut:
    """One passage with its label and offsets."""
    view = service.passage(name, passage_id)
    return PassageOut.of(view.passage, view.label)


@router.get("/labels/resolve")
def resolve(
    service: Collections,
    access: Access,
    user: CurrentUser,
    label: Annotated[str, Query(min_length=1, max_length=1200)],
    snippet: Annotated[str | None, Query(max_length=1000)] = None,
) -> ResolutionOut:
    """The page, section or record a label cites (in a collection the caller may read)."""
    return ResolutionOut.of(service.resolve(label, snippet, readable=access.reader(user)))


@router.post(
    "/collections/{name}/documents",
    status_code=202,
    dependencies=[Depends(require_writer)],
    responses={202: {"model": AcceptedOut}, 201: {}, 400: {}, 403: {}, 404: {}, 413: {}, 415: {}},
)
async def upload(
    name: str,
    request: Request,
    services: AppServices,
    user: CurrentUser,
    filename: Annotated[str, Query(min_length=1, max_length=200)],
    wait: bool = False,
) -> JSONResponse:
    """Add one document (the raw body: PDF, HTML, Markdown or UTF-8 text, sniffed).

    The file is checked (size, name, type) and stored at once, and its ingest queued: 202
    with the job (`Location: /jobs/{id}`), whose result is the report (added, updated,
    skipped, the review). `wait=true` waits for the job (up to LECTERN_UPLOAD_WAIT_SECONDS)
    and answers 201 with the report when it finished. 429 past the caller's upload quota.
    The body limit middleware lets this route's bodies grow to LECTERN_MAX_UPLOAD_BYTES.
    Project collections are refused here (404 to non-members, 403 to members).
    """
    services.collection_access().require_collection_write(user, name)
    data = await request.body()
    service = services.collections()
    limit = services.settings.max_upload_bytes

    def store() -> tuple[str, str]:
        return name, service.accept_upload(name, filename, data, max_bytes=limit).name

    job = await run_in_threadpool(
        services.upload_jobs().submit, user, "collection", len(data), store, filename=filename
    )
    return await answer(
        services, user, job, wait=wait, result_body=lambda r: AddReportOut(**r).model_dump()
    )


@router.get("/collections/{name}/documents/{document_id}/review")
def upload_review(name: ReadableName, document_id: str, services: AppServices) -> dict[str, Any]:
    """The automatic review stored when the document was uploaded (404 when there is none)."""
    review = services.upload_reviewer().stored(name, document_id)
    if not isinstance(review, dict):
        raise NotFoundError(f"no review of document {document_id} in collection {name!r}")
    return review
