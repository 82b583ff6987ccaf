"""Adding to collections: files, records and uploads in, a new index generation out.

An add reads everything first (no writes), keeps documents whose content hash is
unchanged, builds a new index generation beside the one in use (embedding only new or
changed passages), and then switches the collection to it in one catalog transaction.
A killed add leaves the collection as it was; re-adding an unchanged folder changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import structlog

from lectern.application.collections.base import CollectionBase
from lectern.application.ports import (
    CollectionRecord,
    IndexedPassage,
    IndexReport,
    ProgressReporter,
    StoredDocument,
)
from lectern.domain.books import JSONValue
from lectern.domain.documents import (
    UPLOAD_SOURCE,
    Block,
    Document,
    DocumentPassage,
    ExtractedDocument,
    SkippedFile,
    check_collection_name,
    document_id,
    make_passages,
    uploaded_cite_as,
)
from lectern.domain.metadata_filters import FilterField
from lectern.domain.retrieval import Passage
from lectern.domain.sentences import trimmed_span
from lectern.domain.statement_tables import TABLE_LINES, columns_of, labelled_rows
from lectern.errors import (
    CollectionInputError,
    CollectionNotFoundError,
    UploadRejectedError,
)

CONTEXT_WORDS = 24
"""The embed text's title and section path are cut to this many words."""
FILE_FILTERS = (FilterField("format"), FilterField("folder"))
"""Filters every file collection has: the reader's format and the top-level folder."""
TOO_LONG = "too long"
"""How the reason of an upload refused for its text length begins."""
log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class AddReport:
    """What an add did, with every skipped file and why."""

    collection: str
    source: str
    documents: int
    """Documents now in the collection."""
    passages: int
    """Passages now in the collection."""
    read: int
    added: int
    updated: int
    unchanged: int
    removed: int
    new_passages: int
    skipped: tuple[SkippedFile, ...]
    notes: tuple[tuple[str, str], ...]
    """(document uri, note) for what a reader left out or could not check."""
    index: IndexReport | None
    read_seconds: float
    index_seconds: float
    changed: bool


def index_texts(title: str, passage: DocumentPassage) -> tuple[str, str]:
    """(lexical text, embed text): the title and section path for context, then the words."""
    parts: list[str] = []
    for part in [title, *(passage.section.split(" > ") if passage.section else [])]:
        part = part.strip()
        if part and (not parts or parts[-1].casefold() != part.casefold()):
            parts.append(part)
    context = " > ".join(parts)
    columns = columns_of(passage.section)
    words = passage.text if columns is None else labelled_rows(passage.text, columns)
    if not context:
        return words, words
    head = context.split()
    short = " ".join(head[:CONTEXT_WORDS]) if len(head) > CONTEXT_WORDS else context
    return f"{context}. {words}", f"{short}. {words}"


def _rows(piece: str) -> list[tuple[int, int]]:
    """A table page's spans of `TABLE_LINES` lines each, so every few rows carry the columns."""
    spans: list[tuple[int, int]] = []
    starts = [0] + [i + 1 for i, c in enumerate(piece) if c == "\n"]
    for first in range(0, len(starts), TABLE_LINES):
        start = starts[first]
        end = starts[first + TABLE_LINES] - 1 if first + TABLE_LINES < len(starts) else len(piece)
        start, end = trimmed_span(piece, start, end)
        if end > start:
            spans.append((start, end))
    return spans


def to_index_passage(item: IndexedPassage) -> Passage:
    """The engine's passage for a collection passage; its group is its document."""
    text, embed = index_texts(item.title, item.passage)
    return Passage(item.passage.id, text, embed, item.passage.document_id)


class CollectionIngest(CollectionBase):
    """Add files, records and uploads to collections; remove and re-index them."""

    def add(
        self,
        name: str,
        path: Path,
        *,
        format: str | None = None,
        mapping: str | None = None,
        pattern: str | None = None,
        source: str | None = None,
        progress: ProgressReporter | None = None,
    ) -> AddReport:
        """Add (or bring up to date) the documents of a file or folder.

        Documents from the same source that are gone are removed; others are untouched.
        """
        try:
            check_collection_name(name)
        except ValueError as error:
            raise CollectionInputError(str(error)) from None
        with self._writing(name):
            return self._add(name, path, format, mapping, pattern, source, progress)

    def _add(
        self,
        name: str,
        path: Path,
        format: str | None,
        mapping: str | None,
        pattern: str | None,
        source: str | None,
        progress: ProgressReporter | None,
    ) -> AddReport:
        started = time.perf_counter()
        resolved = path.resolve()
        origin = source or str(resolved)
        batch = self.source.read(resolved, name, format=format, mapping=mapping, pattern=pattern)
        existing = self.store.get(name)
        stored = self.store.stored_hashes(name, origin) if existing else {}
        if progress is not None:
            progress.start(f"reading {resolved.name or resolved}", None)
        upserts: list[StoredDocument] = []
        skipped: list[SkippedFile] = []
        notes: list[tuple[str, str]] = []
        seen: set[str] = set()
        added = updated = unchanged = 0
        for item in batch.items:
            if progress is not None:
                progress.advance()
            if isinstance(item, SkippedFile):
                skipped.append(item)
                continue
            if item.uri in seen:
                skipped.append(SkippedFile(item.uri, "the same uri came twice; the first was kept"))
                continue
            item = self._with_file_metadata(item, batch.mapping_text is None)
            if origin == UPLOAD_SOURCE:
                item = replace(item, cite_as=uploaded_cite_as(name, item.uri))
            limit = self.max_upload_chars
            if origin == UPLOAD_SOURCE and limit is not None and len(item.text) > limit:
                skipped.append(
                    SkippedFile(
                        item.uri,
                        f"{TOO_LONG}: its text has {len(item.text):,} characters; at most "
                        f"{limit:,} are accepted (LECTERN_MAX_UPLOAD_CHARS)",
                    )
                )
                continue
            digest = item.content_hash
            old = stored.get(item.uri)
            if old is not None and old[1] == digest:
                seen.add(item.uri)
                unchanged += 1
                continue
            passages = self._passages(name, item)
            if not passages:
                skipped.append(SkippedFile(item.uri, "no text to index"))
                continue
            seen.add(item.uri)
            notes.extend((item.uri, note) for note in item.notes)
            upserts.append(StoredDocument(self._document(name, item, origin, digest), passages))
            if old is None:
                added += 1
            else:
                updated += 1
        read_seconds = time.perf_counter() - started
        if not seen:
            reasons = "; ".join(f"{s.path}: {s.reason}" for s in skipped[:10])
            raise CollectionInputError(
                f"nothing to add from {resolved}: no readable document"
                + (f" ({reasons})" if reasons else " (the folder holds no supported file)")
            )
        removed = [doc_id for uri, (doc_id, _) in stored.items() if uri not in seen]
        filters = batch.filters if batch.mapping_text is not None else FILE_FILTERS
        if existing is not None and batch.mapping_text is not None:
            # Several mappings in one collection (KEV, ATT&CK, RustSec): keep every filter.
            merged = {f.name: f for f in existing.filters if f not in FILE_FILTERS}
            merged.update({f.name: f for f in filters})
            filters = tuple(merged.values())
        now = self.clock()
        if existing is not None and not upserts and not removed and filters == existing.filters:
            summary = self._summary(name)
            return AddReport(
                name,
                origin,
                summary.documents,
                summary.passages,
                len(seen) + len(skipped),
                0,
                0,
                unchanged,
                0,
                0,
                tuple(skipped),
                (),
                None,
                read_seconds,
                0.0,
                False,
            )
        replaced = {u.document.id for u in upserts} | set(removed)
        kept = (
            [
                ip
                for ip in self.store.indexed_passages(name)
                if ip.passage.document_id not in replaced
            ]
            if existing is not None
            else []
        )
        fresh = [IndexedPassage(p, u.document.title) for u in upserts for p in u.passages]
        generation = existing.generation + 1 if existing is not None else 1
        index_started = time.perf_counter()
        report = self.indexes.sync(
            name,
            generation,
            [to_index_passage(ip) for ip in kept + fresh],
            previous=existing.generation if existing is not None else None,
            progress=progress,
        )
        record = CollectionRecord(
            name=name,
            filters=tuple(filters),
            generation=generation,
            created_at=existing.created_at if existing is not None else now,
            updated_at=now,
            mapping_text=batch.mapping_text
            if batch.mapping_text is not None
            else (existing.mapping_text if existing is not None else None),
        )
        self.store.commit(record, upserts, removed)
        self.indexes.discard(name, keep=generation)
        with self._lock:
            self._loaded.pop(name, None)
        documents = len({ip.passage.document_id for ip in kept}) + len(upserts)
        return AddReport(
            collection=name,
            source=origin,
            documents=documents,
            passages=len(kept) + len(fresh),
            read=len(seen) + len(skipped),
            added=added,
            updated=updated,
            unchanged=unchanged,
            removed=len(removed),
            new_passages=len(fresh),
            skipped=tuple(skipped),
            notes=tuple(notes),
            index=report,
            read_seconds=read_seconds,
            index_seconds=time.perf_counter() - index_started,
            changed=True,
        )

    @staticmethod
    def _with_file_metadata(item: ExtractedDocument, is_file: bool) -> ExtractedDocument:
        if not is_file:
            return item
        folder = item.uri.split("/", 1)[0] if "/" in item.uri else ""
        metadata: dict[str, JSONValue] = {**item.metadata, "format": item.kind, "folder": folder}
        return ExtractedDocument(
            uri=item.uri,
            title=item.title,
            text=item.text,
            kind=item.kind,
            cite_as=item.cite_as,
            blocks=item.blocks,
            pages=item.pages,
            sections=item.sections,
            metadata=metadata,
            notes=item.notes,
            split=item.split,
        )

    def _passages(self, name: str, item: ExtractedDocument) -> tuple[DocumentPassage, ...]:
        spans: list[tuple[int, int, Block]] = []
        for block in item.blocks:
            piece = item.text[block.start : block.end]
            if not item.split:
                left = len(piece) - len(piece.lstrip())
                right = len(piece.rstrip())
                if right > left:
                    spans.append((block.start + left, block.start + right, block))
                continue
            if block.section is not None and columns_of(" > ".join(block.section.path)):
                spans.extend((block.start + a, block.start + b, block) for a, b in _rows(piece))
                continue
            for start, end in self.splitter.split(piece):
                spans.append((block.start + start, block.start + end, block))
        return tuple(make_passages(name, item, spans))

    @staticmethod
    def _document(name: str, item: ExtractedDocument, origin: str, digest: str) -> Document:
        return Document(
            id=document_id(name, item.uri),
            collection=name,
            title=item.title,
            uri=item.uri,
            metadata=dict(item.metadata),
            kind=item.kind,
            cite_as=item.cite_as,
            content_hash=digest,
            source=origin,
            text=item.text,
            pages=item.pages,
            sections=item.sections,
            notes=item.notes,
        )

    def upload(self, name: str, filename: str, data: bytes, *, max_bytes: int) -> AddReport:
        """Add one uploaded document to an existing collection; nothing is kept on refusal."""
        return self.upload_document(name, filename, data, max_bytes=max_bytes)[0]

    def upload_document(
        self, name: str, filename: str, data: bytes, *, max_bytes: int, create: bool = False
    ) -> tuple[AddReport, str]:
        """Like `upload`, returning the stored document's id too; `create` makes the collection."""
        path = self.accept_upload(name, filename, data, max_bytes=max_bytes, create=create)
        return self.ingest_upload(name, path.name)

    def accept_upload(
        self, name: str, filename: str, data: bytes, *, max_bytes: int, create: bool = False
    ) -> Path:
        """Check an upload's size and name and store it atomically; `ingest_upload` adds it.

        Cheap (no extraction, no embedding): what an upload job does before it is queued.
        """
        if self.inbox is None:
            raise UploadRejectedError("this service takes no uploads", "invalid")
        if len(data) > max_bytes:
            raise UploadRejectedError(
                f"the upload has {len(data):,} bytes; at most {max_bytes:,} are accepted",
                "too_large",
            )
        if not create and self.store.get(name) is None:
            raise CollectionNotFoundError(
                f"no collection named {name!r}: create it with `lectern collections add`"
            )
        return self.inbox.save(name, filename, data)

    def ingest_upload(self, name: str, stored: str) -> tuple[AddReport, str]:
        """Add a stored upload (`accept_upload`'s file name) to its collection.

        A refused file (unreadable, too long) is deleted and raises `UploadRejectedError`.
        """
        if self.inbox is None:
            raise UploadRejectedError("this service takes no uploads", "invalid")
        path = self.inbox.folder(name) / stored
        if not path.is_file():
            raise UploadRejectedError(f"{stored}: the stored upload is gone", "invalid")
        try:
            report = self.add(name, self.inbox.folder(name), source=UPLOAD_SOURCE)
        except CollectionInputError as error:
            self.inbox.discard(path)
            code = "too_large" if f": {TOO_LONG}: " in str(error) else "unreadable"
            raise UploadRejectedError(str(error), code) from None
        except BaseException:
            self.inbox.discard(path)
            raise
        refused = [s for s in report.skipped if s.path == path.name]
        if refused:
            self.inbox.discard(path)
            reason = refused[0].reason
            raise UploadRejectedError(
                f"{stored}: {reason}",
                "too_large" if reason.startswith(TOO_LONG) else "unreadable",
            )
        return report, document_id(name, path.name)

    def discard_upload(self, name: str, stored: str) -> bool:
        """Delete a stored upload whose ingest was interrupted, unless the collection holds it.

        A new file that never made it in goes, so the collection's next ingest (which reads
        the whole upload folder) does not pick it up; a file the collection holds a document
        of (an update, or a crash after the commit) stays, since removing it would remove
        the document on that next ingest. Returns whether it was deleted.
        """
        if self.inbox is None or "/" in stored or stored.startswith("."):
            return False
        if self.store.documents(name, [document_id(name, stored)]):
            return False
        self.inbox.discard(self.inbox.folder(name) / stored)
        return True

    def clean_inbox(
        self, older_than: timedelta, keep: Collection[tuple[str, str]] = ()
    ) -> list[Path]:
        """Delete uploads no collection holds (a crash between save and commit), if old.

        A file younger than `older_than` may belong to an upload still running in another
        process, so it stays; so does every (collection, file name) in `keep` (uploads whose
        job is still queued). Returns what was deleted.
        """
        if self.inbox is None:
            return []
        cutoff = self.clock() - older_than
        removed: list[Path] = []
        for collection, files in self.inbox.stored().items():
            kept = set(self.store.stored_hashes(collection, "upload"))
            for path in files:
                if path.name in kept or (collection, path.name) in keep:
                    continue
                if datetime.fromtimestamp(path.stat().st_mtime, UTC) > cutoff:
                    continue
                self.inbox.discard(path)
                removed.append(path)
        if removed:
            log.info("orphan uploads removed", files=[str(p) for p in removed])
        return removed

    def remove(self, name: str) -> None:
        """Delete a collection, its documents, passages and indexes."""
        with self._writing(name):
            self._summary(name)
            self.store.remove(name)
            self.indexes.discard(name)
            with self._lock:
                self._loaded.pop(name, None)

    def reindex(self, name: str, progress: ProgressReporter | None = None) -> IndexReport:
        """Build a collection's indexes again from its stored passages, as a new generation.

        The engine's own sync does the work (vectors of unchanged text are reused when the
        previous generation is at hand), so this serves a catalog moved to another database
        (`lectern migrate`) or another engine alike; the source files are not read again.
        """
        with self._writing(name):
            existing = self.store.get(name)
            if existing is None:
                raise CollectionNotFoundError(f"no collection named {name!r}")
            generation = existing.generation + 1
            report = self.indexes.sync(
                name,
                generation,
                [to_index_passage(ip) for ip in self.store.indexed_passages(name)],
                previous=existing.generation,
                progress=progress,
            )
            record = CollectionRecord(
                name=name,
                filters=existing.filters,
                generation=generation,
                created_at=existing.created_at,
                updated_at=self.clock(),
                mapping_text=existing.mapping_text,
            )
            self.store.commit(record, (), ())
            self.indexes.discard(name, keep=generation)
            with self._lock:
                self._loaded.pop(name, None)
            return report
