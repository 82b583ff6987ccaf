"""`/collections`: list, show, search, documents, passages, labels and uploads.

Mount with `app.include_router(collections_router())`. Errors are answered here as HTTP
problems with the right status (404 unknown collection or document, 422 bad query,
413 too large, 415 unsupported type), whatever the app's generic handlers do.
Uploads need an API key listed in LECTERN_COLLECTION_WRITE_KEYS.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from lectern.application.collections import (
    AddReport,
    CollectionSearchResponse,
    CollectionService,
    DocumentHit,
    PassageHit,
    Resolution,
)
from lectern.bootstrap import Services
from lectern.domain.documents import Document, DocumentPassage
from lectern.errors import (
    CollectionInputError,
    CollectionNotFoundError,
    DocumentNotFoundError,
    IndexMissingError,
    InvalidQueryError,
    UploadRejectedError,
)

T = TypeVar("T")
UPLOAD_STATUS = {"too_large": 413, "unsupported": 415, "invalid": 400, "unreadable": 422}


# --- schemas ------------------------------------------------------------------------------


class FilterOut(BaseModel):
    """A filter the collection accepts in `where`."""

    name: str
    kind: str


class CollectionOut(BaseModel):
    """A collection with its counts."""

    name: str
    documents: int
    passages: int
    filters: list[FilterOut]
    sources: list[str]
    updated_at: str


class DocumentSummaryOut(BaseModel):
    """A document without its text."""

    id: str
    title: str
    uri: str
    kind: str
    cite_as: str
    metadata: dict[str, Any]

    @classmethod
    def of(cls, document: Document) -> DocumentSummaryOut:
        """Map a domain document."""
        return cls(
            id=document.id,
            title=document.title,
            uri=document.uri,
            kind=document.kind,
            cite_as=document.cite_as,
            metadata=dict(document.metadata),
        )


class CollectionDetailOut(CollectionOut):
    """A collection with its first documents."""

    first_documents: list[DocumentSummaryOut]


class SearchIn(BaseModel):
    """A collection search."""

    model_config = ConfigDict(extra="forbid", strict=True)
    query: str = Field(min_length=1, max_length=1000)
    where: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="Filters as name=value, name=a,b, name>=low, name<=high, name=low..high.",
    )
    k: int = Field(default=10, ge=1, le=100)
    per_document: int = Field(default=3, ge=1, le=20)


class PassageOut(BaseModel):
    """A passage with its label, place in the document and a highlighted snippet."""

    id: str
    document_id: str
    label: str
    page: int | None
    section: str | None
    anchor: str | None
    start: int
    end: int
    text: str
    score: float | None = None
    snippet: str | None = None
    highlights: list[tuple[int, int]] = Field(default_factory=list)
    """Offsets of query words inside `snippet`."""

    @classmethod
    def of(cls, passage: DocumentPassage, label: str, hit: PassageHit | None = None) -> PassageOut:
        """Map a domain passage (and its search hit, when it has one)."""
        return cls(
            id=passage.id,
            document_id=passage.document_id,
            label=label,
            page=passage.page,
            section=passage.section,
            anchor=passage.anchor,
            start=passage.start,
            end=passage.end,
            text=passage.text,
            score=round(hit.score, 6) if hit else None,
            snippet=hit.snippet.text if hit else None,
            highlights=list(hit.snippet.highlights) if hit else [],
        )


class DocumentHitOut(BaseModel):
    """A document of a search, with its best passages first."""

    rank: int
    score: float
    document: DocumentSummaryOut
    passages: list[PassageOut]

    @classmethod
    def of(cls, hit: DocumentHit) -> DocumentHitOut:
        """Map a domain hit."""
        return cls(
            rank=hit.rank,
            score=round(hit.score, 6),
            document=DocumentSummaryOut.of(hit.document),
            passages=[PassageOut.of(p.passage, p.label, p) for p in hit.passages],
        )


class CollectionSearchOut(BaseModel):
    """Documents for a query, grouped, each with labelled passages."""

    collection: str
    query: str
    degraded: bool
    degraded_reason: str | None
    timings_ms: dict[str, float]
    results: list[DocumentHitOut]

    @classmethod
    def of(cls, response: CollectionSearchResponse) -> CollectionSearchOut:
        """Map a domain response."""
        return cls(
            collection=response.collection,
            query=response.query,
            degraded=response.degraded,
            degraded_reason=response.degraded_reason,
            timings_ms=dict(response.timings_ms),
            results=[DocumentHitOut.of(h) for h in response.results],
        )


class SectionOut(BaseModel):
    """A heading and the span it governs."""

    title: str
    level: int
    anchor: str | None
    start: int
    end: int


class DocumentOut(DocumentSummaryOut):
    """A document with its text, pages, sections and passages."""

    text: str
    pages: list[tuple[int, int]]
    """Page n (1-based) is text[pages[n-1][0]:pages[n-1][1]]."""
    sections: list[SectionOut]
    notes: list[str]
    passages: list[PassageOut]


class ResolutionOut(BaseModel):
    """What a label cites."""

    label: str
    collection: str
    document: DocumentSummaryOut
    start: int
    end: int
    text: str
    passages: list[PassageOut]
    snippet_at: tuple[int, int] | None
    """The snippet's offsets in the document's text; null when absent or not found."""

    @classmethod
    def of(cls, resolution: Resolution) -> ResolutionOut:
        """Map a domain resolution."""
        document = resolution.document
        label = resolution.label
        return cls(
            label=label,
            collection=document.collection,
            document=DocumentSummaryOut.of(document),
            start=resolution.start,
            end=resolution.end,
            text=resolution.text,
            passages=[PassageOut.of(p, label) for p in resolution.passages],
            snippet_at=resolution.snippet_at,
        )


class SkippedOut(BaseModel):
    """A file that was not added, and why."""

    path: str
    reason: str


class AddReportOut(BaseModel):
    """What an upload changed."""

    collection: str
    documents: int
    passages: int
    added: int
    updated: int
    unchanged: int
    new_passages: int
    skipped: list[SkippedOut]
    notes: list[str]

    @classmethod
    def of(cls, report: AddReport) -> AddReportOut:
        """Map a domain report."""
        return cls(
            collection=report.collection,
            documents=report.documents,
            passages=report.passages,
            added=report.added,
            updated=report.updated,
            unchanged=report.unchanged,
            new_passages=report.new_passages,
            skipped=[SkippedOut(path=s.path, reason=s.reason) for s in report.skipped],
            notes=[f"{uri}: {note}" for uri, note in report.notes],
        )


# --- dependencies -------------------------------------------------------------------------


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def collection_service(request: Request) -> CollectionService:
    """The collection service of the app's services."""
    return _services(request).collections()


Collections = Annotated[CollectionService, Depends(collection_service)]


def _key_in(request: Request, keys: frozenset[str]) -> bool:
    given = request.headers.get("x-api-key", "")
    return any(hmac.compare_digest(given.encode(), k.encode()) for k in keys)


def require_reader(request: Request) -> None:
    """With LECTERN_API_KEYS set, a listed X-API-Key (or a writer's key) is required."""
    settings = _services(request).settings
    keys = settings.api_key_set | settings.collection_writer_keys
    if settings.api_key_set and not _key_in(request, keys):
        raise HTTPException(
            401, "a valid X-API-Key header is required", headers={"WWW-Authenticate": "ApiKey"}
        )


def require_writer(request: Request) -> None:
    """Uploads need an X-API-Key listed in LECTERN_COLLECTION_WRITE_KEYS."""
    keys = _services(request).settings.collection_writer_keys
    if not keys:
        raise HTTPException(403, "uploads are off: no API key may write to collections")
    if not request.headers.get("x-api-key"):
        raise HTTPException(
            401, "an X-API-Key allowed to write is required", headers={"WWW-Authenticate": "ApiKey"}
        )
    if not _key_in(request, keys):
        raise HTTPException(403, "this API key may not write to collections")


def _answer(action: Callable[[], T]) -> T:
    """Run a service call; its errors become HTTP errors with statuses a client can act on."""
    try:
        return action()
    except (CollectionNotFoundError, DocumentNotFoundError) as error:
        raise HTTPException(404, str(error)) from None
    except UploadRejectedError as error:
        raise HTTPException(UPLOAD_STATUS.get(error.reason, 400), str(error)) from None
    except (InvalidQueryError, CollectionInputError) as error:
        raise HTTPException(422, str(error)) from None
    except IndexMissingError as error:
        raise HTTPException(503, str(error)) from None


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 as soon as it passes `limit` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise HTTPException(413, f"uploads are limited to {limit:,} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HTTPException(413, f"uploads are limited to {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


# --- routes -------------------------------------------------------------------------------


def collections_router() -> APIRouter:
    """The collections routes; include it in the app."""
    router = APIRouter(tags=["collections"], dependencies=[Depends(require_reader)])

    def summary_out(service: CollectionService, name: str) -> CollectionOut:
        summary, _ = service.show(name)
        record = summary.record
        return CollectionOut(
            name=record.name,
            documents=summary.documents,
            passages=summary.passages,
            filters=[FilterOut(name=f.name, kind=f.kind) for f in record.filters],
            sources=list(summary.sources),
            updated_at=record.updated_at.isoformat(),
        )

    @router.get("/collections")
    def list_collections(service: Collections) -> list[CollectionOut]:
        """Every collection with its counts and filters."""
        return [
            CollectionOut(
                name=s.record.name,
                documents=s.documents,
                passages=s.passages,
                filters=[FilterOut(name=f.name, kind=f.kind) for f in s.record.filters],
                sources=list(s.sources),
                updated_at=s.record.updated_at.isoformat(),
            )
            for s in service.summaries()
        ]

    @router.get("/collections/{name}")
    def show_collection(name: str, service: Collections) -> CollectionDetailOut:
        """One collection: counts, filters, sources and its first documents."""

        def run() -> CollectionDetailOut:
            _, documents = service.show(name)
            base = summary_out(service, name)
            return CollectionDetailOut(
                **base.model_dump(),
                first_documents=[DocumentSummaryOut.of(d) for d in documents],
            )

        return _answer(run)

    @router.post("/collections/{name}/search")
    def search(name: str, body: SearchIn, service: Collections) -> CollectionSearchOut:
        """Hybrid search in one collection; passages grouped by document, best first."""
        return _answer(
            lambda: CollectionSearchOut.of(
                service.search(
                    name, body.query, where=body.where, k=body.k, per_document=body.per_document
                )
            )
        )

    @router.get("/collections/{name}/documents/{document_id}")
    def document(name: str, document_id: str, service: Collections) -> DocumentOut:
        """A document's text with its pages, sections and passages (with labels)."""

        def run() -> DocumentOut:
            view = service.document(name, document_id)
            found = view.document
            return DocumentOut(
                **DocumentSummaryOut.of(found).model_dump(),
                text=found.text,
                pages=[tuple(p) for p in found.pages],  # type: ignore[misc]
                sections=[
                    SectionOut(
                        title=s.title, level=s.level, anchor=s.anchor, start=s.start, end=s.end
                    )
                    for s in found.sections
                ],
                notes=list(found.notes),
                passages=[PassageOut.of(p, label) for p, label in view.passages],
            )

        return _answer(run)

    @router.get("/collections/{name}/documents/{document_id}/similar")
    def similar(
        name: str,
        document_id: str,
        service: Collections,
        k: Annotated[int, Query(ge=1, le=100)] = 10,
    ) -> CollectionSearchOut:
        """Documents nearest to this one."""
        return _answer(lambda: CollectionSearchOut.of(service.similar(name, document_id, k)))

    @router.get("/collections/{name}/passages/{passage_id}")
    def passage(name: str, passage_id: str, service: Collections) -> PassageOut:
        """One passage with its label and offsets."""

        def run() -> PassageOut:
            view = service.passage(name, passage_id)
            return PassageOut.of(view.passage, view.label)

        return _answer(run)

    @router.get("/labels/resolve")
    def resolve(
        service: Collections,
        label: Annotated[str, Query(min_length=1, max_length=1200)],
        snippet: Annotated[str | None, Query(max_length=1000)] = None,
    ) -> ResolutionOut:
        """The page, section or record a label cites, and where the snippet is in it."""
        return _answer(lambda: ResolutionOut.of(service.resolve(label, snippet)))

    @router.post(
        "/collections/{name}/documents",
        status_code=201,
        dependencies=[Depends(require_writer)],
        responses={400: {}, 403: {}, 404: {}, 413: {}, 415: {}},
    )
    async def upload(
        name: str,
        request: Request,
        filename: Annotated[str, Query(min_length=1, max_length=200)],
    ) -> AddReportOut:
        """Add one document (the raw body: PDF, HTML, Markdown or UTF-8 text, sniffed)."""
        services = _services(request)
        limit = services.settings.max_upload_bytes
        data = await _body(request, limit)
        service = services.collections()
        report = await run_in_threadpool(
            _answer, lambda: service.upload(name, filename, data, max_bytes=limit)
        )
        return AddReportOut.of(report)

    return router
