"""Request and response bodies of `/collections`, mapped explicitly from the application."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from lectern.application.collections import (
    AddReport,
    CollectionSearchResponse,
    DocumentHit,
    PassageHit,
    Resolution,
)
from lectern.application.ports import CollectionSummary
from lectern.domain.documents import Document, DocumentPassage


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

    @classmethod
    def of(cls, summary: CollectionSummary) -> CollectionOut:
        """Map a collection's summary."""
        record = summary.record
        return cls(
            name=record.name,
            documents=summary.documents,
            passages=summary.passages,
            filters=[FilterOut(name=f.name, kind=f.kind) for f in record.filters],
            sources=list(summary.sources),
            updated_at=record.updated_at.isoformat(),
        )


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
    scope: str | None = None
    """Why the search kept to the documents the question names (filings), or fell back."""
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
            scope=response.scope,
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
    document_id: str | None = None
    """The uploaded document's id."""
    review: Any = None
    """The upload's automatic review (personal data found, a cited summary), or null when
    LECTERN_REVIEW_UPLOADS is off."""

    @classmethod
    def of(
        cls, report: AddReport, *, document_id: str | None = None, review: Any = None
    ) -> AddReportOut:
        """Map a domain report, with the uploaded document's id and review."""
        return cls(
            document_id=document_id,
            review=review,
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
