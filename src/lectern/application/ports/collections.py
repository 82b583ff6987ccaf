"""Ports of document collections: sources, splitters, the store, indexes, uploads."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from lectern.application.ports.indexes import Embedder, IndexReport, LexicalIndex, VectorIndex
from lectern.application.ports.progress import ProgressReporter
from lectern.domain.documents import Document, DocumentPassage, ExtractedDocument, SkippedFile
from lectern.domain.metadata_filters import FilterField
from lectern.domain.retrieval import Passage


@dataclass(frozen=True, slots=True)
class DocumentBatch:
    """What a document source read: documents and skips (lazily), and declared filters."""

    items: Iterable[ExtractedDocument | SkippedFile]
    filters: tuple[FilterField, ...]
    mapping_text: str | None = None
    """The records mapping used, kept with the collection (uploads reuse it)."""


class DocumentSource(Protocol):
    """Turns a file or folder into extracted documents, one reader per format."""

    def read(
        self,
        path: Path,
        collection: str,
        *,
        format: str | None = None,
        mapping: str | None = None,
        pattern: str | None = None,
    ) -> DocumentBatch:
        """Read `path`; mapping errors and missing paths raise CollectionInputError."""
        ...


class PassageSplitter(Protocol):
    """Cuts text into spans that fit the embedder's window, at natural boundaries."""

    def split(self, text: str) -> list[tuple[int, int]]:
        """Spans (start, end) of the text, in order."""
        ...


@dataclass(frozen=True, slots=True)
class CollectionRecord:
    """A collection's own row: its filters, index generation and records mapping."""

    name: str
    filters: tuple[FilterField, ...]
    generation: int
    """The index folder in use; a new one is built beside it on every change."""
    created_at: datetime
    updated_at: datetime
    mapping_text: str | None = None


@dataclass(frozen=True, slots=True)
class CollectionSummary:
    """A collection with its counts."""

    record: CollectionRecord
    documents: int
    passages: int
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StoredDocument:
    """A document with all its passages, as written in one go."""

    document: Document
    passages: tuple[DocumentPassage, ...]


@dataclass(frozen=True, slots=True)
class IndexedPassage:
    """A passage with what its index text needs of its document."""

    passage: DocumentPassage
    title: str


class CollectionStore(Protocol):
    """Collections, documents and passages (the catalog database)."""

    def get(self, name: str) -> CollectionRecord | None:
        """The collection's row, or None."""
        ...

    def summaries(self) -> list[CollectionSummary]:
        """Every collection with its counts, by name."""
        ...

    def stored_hashes(self, name: str, source: str) -> dict[str, tuple[str, str]]:
        """Uri -> (document id, content hash) of the documents added from `source`."""
        ...

    def indexed_passages(self, name: str) -> list[IndexedPassage]:
        """Every passage of the collection, in a stable order, with its document's title."""
        ...

    def commit(
        self,
        record: CollectionRecord,
        upserts: Sequence[StoredDocument],
        removed: Sequence[str],
    ) -> None:
        """In one transaction: write the row, replace these documents, delete `removed` ids."""
        ...

    def remove(self, name: str) -> None:
        """Delete the collection with its documents and passages."""
        ...

    def documents(
        self, name: str, ids: Sequence[str], *, with_text: bool = False
    ) -> dict[str, Document]:
        """Documents by id (text only when asked: it can be large)."""
        ...

    def list_documents(self, name: str, limit: int = 100, offset: int = 0) -> list[Document]:
        """Documents in uri order, without their text."""
        ...

    def passages(self, ids: Sequence[str]) -> dict[str, DocumentPassage]:
        """Passages by id."""
        ...

    def passages_of(self, document_id: str) -> list[DocumentPassage]:
        """A document's passages in text order."""
        ...

    def cited_as(self, key: str) -> list[Document]:
        """Documents (with text) whose label key is `key`, in collection order."""
        ...

    def filter_values(self, name: str) -> list[tuple[str, Mapping[str, object]]]:
        """(document id, metadata) of every document, for filtering in memory."""
        ...


@dataclass(frozen=True, slots=True)
class LoadedIndexes:
    """The indexes of one collection, and why the vector side is missing if it is."""

    lexical: LexicalIndex
    vector: VectorIndex | None
    embedder: Embedder | None
    unavailable_reason: str | None = None


class CollectionIndexes(Protocol):
    """One index set per collection and generation."""

    def sync(
        self,
        name: str,
        generation: int,
        passages: Sequence[Passage],
        *,
        previous: int | None = None,
        progress: ProgressReporter | None = None,
    ) -> IndexReport:
        """Build generation `generation`, reusing vectors of `previous` for unchanged text."""
        ...

    def load(self, name: str, generation: int) -> LoadedIndexes:
        """Open a built generation; IndexMissingError when there is none."""
        ...

    def discard(self, name: str, keep: int | None = None) -> None:
        """Delete every generation but `keep` (all of them when None)."""
        ...


class UploadInbox(Protocol):
    """Where uploaded documents are kept until (and after) they join a collection."""

    def folder(self, collection: str) -> Path:
        """The folder holding a collection's uploads."""
        ...

    def save(self, collection: str, filename: str, data: bytes) -> Path:
        """Store one upload (name and type checked); UploadRejectedError when refused."""
        ...

    def discard(self, path: Path) -> None:
        """Delete a stored upload."""
        ...

    def stored(self) -> dict[str, list[Path]]:
        """Every kept upload (temporary files of unfinished saves too), by collection."""
        ...
