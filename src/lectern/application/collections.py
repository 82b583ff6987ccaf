"""Collections: add files or records, search them with the books' engine, cite to the page.

An add reads everything first (no writes), keeps documents whose content hash is
unchanged, builds a new index generation beside the one in use (embedding only new or
changed passages), and then switches the collection to it in one catalog transaction.
A killed add leaves the collection as it was; re-adding an unchanged folder changes nothing.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import structlog

from lectern.application.ports import (
    CollectionIndexes,
    CollectionRecord,
    CollectionStore,
    CollectionSummary,
    DocumentSource,
    IndexedPassage,
    IndexReport,
    PassageSplitter,
    ProgressReporter,
    Reranker,
    StoredDocument,
    UploadInbox,
)
from lectern.application.rerank import rerank_head
from lectern.application.search import HybridRetriever, SearchConfig
from lectern.domain.books import JSONValue
from lectern.domain.documents import (
    UPLOAD_SOURCE,
    Block,
    Document,
    DocumentPassage,
    ExtractedDocument,
    FilterField,
    LabelRef,
    MetadataFilter,
    SkippedFile,
    Snippet,
    best_snippet,
    check_collection_name,
    document_id,
    filter_matches,
    label_span,
    locate_snippet,
    make_passages,
    parse_label,
    parse_where,
    passage_label,
    uploaded_cite_as,
)
from lectern.domain.filings import is_filing, scope_for
from lectern.domain.financial_measures import expansion, statement_kind, statements_asked
from lectern.domain.retrieval import DEFAULT_RERANK_DEPTH, FusedHit, Passage, Strategy
from lectern.domain.statement_tables import TABLE_LINES, columns_of, labelled_rows
from lectern.errors import (
    CollectionInputError,
    CollectionNotFoundError,
    DocumentNotFoundError,
    InvalidQueryError,
    UploadRejectedError,
)

CONTEXT_WORDS = 24
"""The embed text's title and section path are cut to this many words."""
FILE_FILTERS = (FilterField("format"), FilterField("folder"))
"""Filters every file collection has: the reader's format and the top-level folder."""
MAX_RESULTS = 100
SIMILAR_QUERY_WORDS = 80
TOO_LONG = "too long"
NAMED_STATEMENT_BONUS = 0.5
"""Added to the fused score of a statement's table passages when the question names it."""
IMPLIED_STATEMENT_BONUS = 0.25
"""Added when a measure the question asks for is computed from that statement."""
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


@dataclass(frozen=True, slots=True)
class PassageHit:
    """One retrieved passage with its label and a highlighted snippet."""

    passage: DocumentPassage
    label: str
    score: float
    snippet: Snippet
    scores: Mapping[str, float] = field(default_factory=dict)
    """Each method's own score before fusion (`lexical`: BM25, `vector`: cosine)."""
    similarity: float | None = None
    """The cosine of the query's and the passage's vectors, when the vector side ranked it."""


@dataclass(frozen=True, slots=True)
class DocumentHit:
    """A document and its retrieved passages, best first."""

    document: Document
    rank: int
    score: float
    passages: tuple[PassageHit, ...]


@dataclass(frozen=True, slots=True)
class CollectionSearchResponse:
    """Documents ranked for a query, each with its best passages."""

    collection: str
    query: str
    results: tuple[DocumentHit, ...]
    filters: tuple[MetadataFilter, ...]
    degraded: bool
    degraded_reason: str | None
    timings_ms: Mapping[str, float]
    scope: str | None = None
    """Why the search kept to some documents (the question named them), or why it did not."""
    expansion: str | None = None
    """Statement lines added to the query for the measures it names (filings only)."""


@dataclass(frozen=True, slots=True)
class DocumentView:
    """A document with its text and its passages' labels."""

    document: Document
    passages: tuple[tuple[DocumentPassage, str], ...]


@dataclass(frozen=True, slots=True)
class PassageView:
    """One passage with its document and label."""

    passage: DocumentPassage
    document: Document
    label: str


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a label names: a page, a section or a record, with the passages inside it."""

    label: str
    ref: LabelRef
    document: Document
    start: int
    end: int
    passages: tuple[DocumentPassage, ...]
    snippet_at: tuple[int, int] | None = None
    """Where the given snippet is, as offsets into the document's text."""

    @property
    def text(self) -> str:
        """The cited page, section or record."""
        return self.document.text[self.start : self.end]


@dataclass
class _Loaded:
    record: CollectionRecord
    retriever: HybridRetriever
    kinds: dict[str, FilterField]
    metadata: dict[str, Mapping[str, object]]
    passages_of: dict[str, list[str]]
    filter_cache: dict[tuple[MetadataFilter, ...], frozenset[str]] = field(default_factory=dict)
    filings: bool = False
    """Most documents carry a filing's cover facts: questions may name them and measures."""
    statements: dict[str, str] = field(default_factory=dict)
    """Passage id -> the primary statement its table is ("cash flows", "balance sheet",
    "income"), for the passages of statement tables."""


@dataclass(frozen=True, slots=True)
class _FilingPlan:
    allowed: frozenset[str] | None
    reason: str | None
    expansion: str | None
    statements: Mapping[str, float] = field(default_factory=dict)
    """Statement kind -> the score added to its table passages' fused score."""


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


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


def statement_first(
    hits: Sequence[FusedHit], statements: Mapping[str, str], bonus: Mapping[str, float]
) -> list[FusedHit]:
    """The hits re-ordered with `bonus[kind]` added to the passages of that statement's table.

    A question that names the statement ("... shown in the cash flow statement") or asks
    for a measure computed from it (capex, quick ratio) wants that table; its passages are
    often outranked by notes and discussion that share more of the question's words.
    """
    scored = [
        replace(h, score=h.score + bonus.get(statements.get(h.id, ""), 0.0))
        if h.id in statements
        else h
        for h in hits
    ]
    return sorted(scored, key=lambda h: -h.score)


def _rows(piece: str) -> list[tuple[int, int]]:
    """A table page's spans of `TABLE_LINES` lines each, so every few rows carry the columns."""
    spans: list[tuple[int, int]] = []
    starts = [0] + [i + 1 for i, c in enumerate(piece) if c == "\n"]
    for first in range(0, len(starts), TABLE_LINES):
        start = starts[first]
        end = starts[first + TABLE_LINES] - 1 if first + TABLE_LINES < len(starts) else len(piece)
        while start < end and piece[start].isspace():
            start += 1
        while end > start and piece[end - 1].isspace():
            end -= 1
        if end > start:
            spans.append((start, end))
    return spans


def to_index_passage(item: IndexedPassage) -> Passage:
    """The engine's passage for a collection passage; its group is its document."""
    text, embed = index_texts(item.title, item.passage)
    return Passage(item.passage.id, text, embed, item.passage.document_id)


class CollectionService:
    """Add, list, show, remove and search collections; resolve labels to their text."""

    def __init__(
        self,
        store: CollectionStore,
        source: DocumentSource,
        splitter: PassageSplitter,
        indexes: CollectionIndexes,
        config: SearchConfig | None = None,
        *,
        mmr_lambda: float | None = 0.7,
        inbox: UploadInbox | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        reranker: Reranker | None = None,
        rerank_depth: int = DEFAULT_RERANK_DEPTH,
        max_upload_chars: int | None = None,
    ) -> None:
        """Adapters come from bootstrap; `mmr_lambda` is the settings' default.

        `reranker` re-orders the first `rerank_depth` fused passages of every search.
        `max_upload_chars` refuses an upload whose extracted text is longer (ingest time
        grows with the text, not the file's bytes).
        """
        self.max_upload_chars = max_upload_chars
        self.reranker = reranker
        self.rerank_depth = rerank_depth
        self.inbox = inbox
        self.store = store
        self.source = source
        self.splitter = splitter
        self.indexes = indexes
        self.config = config or SearchConfig()
        self.mmr_lambda = mmr_lambda
        self.clock = clock
        self._loaded: dict[str, _Loaded] = {}
        self._lock = threading.Lock()
        self._write_locks: dict[str, threading.Lock] = {}
        """One per collection: a long ingest into one never holds up writes to another."""

    # --- add ------------------------------------------------------------------------------

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

    def _writing(self, name: str) -> threading.Lock:
        """The write lock of one collection."""
        with self._lock:
            return self._write_locks.setdefault(name, threading.Lock())

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

    # --- list, show, remove ---------------------------------------------------------------

    def summaries(self) -> list[CollectionSummary]:
        """Every collection with its counts."""
        return self.store.summaries()

    def _summary(self, name: str) -> CollectionSummary:
        for summary in self.store.summaries():
            if summary.record.name == name:
                return summary
        raise CollectionNotFoundError(
            f"no collection named {name!r}: `lectern collections list` shows them"
        )

    def show(self, name: str) -> tuple[CollectionSummary, list[Document]]:
        """A collection's counts and filters, with its first documents."""
        summary = self._summary(name)
        return summary, self.store.list_documents(name, limit=20)

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

    # --- search ---------------------------------------------------------------------------

    def _load(self, name: str) -> _Loaded:
        record = self.store.get(name)
        if record is None:
            raise CollectionNotFoundError(
                f"no collection named {name!r}: `lectern collections list` shows them"
            )
        with self._lock:
            loaded = self._loaded.get(name)
            if loaded is not None and loaded.record.generation == record.generation:
                return loaded
        indexes = self.indexes.load(name, record.generation)
        retriever = HybridRetriever(
            indexes.lexical,
            indexes.vector,
            indexes.embedder,
            self.config,
            unavailable_reason=indexes.unavailable_reason,
        )
        passages_of: dict[str, list[str]] = {}
        statements: dict[str, str] = {}
        for item in self.store.indexed_passages(name):
            passages_of.setdefault(item.passage.document_id, []).append(item.passage.id)
            section = item.passage.section
            if section and columns_of(section) is not None:
                kind = statement_kind(section.split(" > ", 1)[0])
                if kind is not None:
                    statements[item.passage.id] = kind
        metadata = dict(self.store.filter_values(name))
        loaded = _Loaded(
            record=record,
            retriever=retriever,
            kinds={f.name: f for f in record.filters},
            metadata=metadata,
            passages_of=passages_of,
            filings=bool(metadata)
            and 2 * sum(is_filing(m) for m in metadata.values()) >= len(metadata),
            statements=statements,
        )
        with self._lock:
            self._loaded[name] = loaded
        return loaded

    def filters(self, name: str) -> tuple[FilterField, ...]:
        """The filters a collection declares."""
        record = self.store.get(name)
        if record is None:
            raise CollectionNotFoundError(f"no collection named {name!r}")
        return record.filters

    def _allowed(
        self, loaded: _Loaded, wheres: tuple[MetadataFilter, ...]
    ) -> frozenset[str] | None:
        if not wheres:
            return None
        cached = loaded.filter_cache.get(wheres)
        if cached is not None:
            return cached
        allowed: set[str] = set()
        for doc_id, metadata in loaded.metadata.items():
            if all(
                filter_matches(w, loaded.kinds[w.name].kind, metadata.get(w.name))  # type: ignore[arg-type]
                for w in wheres
            ):
                allowed.update(loaded.passages_of.get(doc_id, ()))
        result = frozenset(allowed)
        if len(loaded.filter_cache) > 128:
            loaded.filter_cache.clear()
        loaded.filter_cache[wheres] = result
        return result

    def search(
        self,
        name: str,
        text: str,
        *,
        where: Sequence[str] = (),
        k: int = 10,
        per_document: int = 3,
        strategy: Strategy = "balanced",
        mmr_lambda: float | None | str = "default",
        documents: Collection[str] | None = None,
    ) -> CollectionSearchResponse:
        """Documents for a query, each with its best passages (best first), filtered.

        `documents` keeps the search inside these document ids (a project's documents).
        """
        started = time.perf_counter()
        query = " ".join(text.split())
        if not query:
            raise InvalidQueryError("the query is empty")
        if len(query) > 1000:
            raise InvalidQueryError("the query is longer than 1000 characters")
        if not 1 <= k <= MAX_RESULTS:
            raise InvalidQueryError(f"k must be between 1 and {MAX_RESULTS}, not {k}")
        if not 1 <= per_document <= 20:
            raise InvalidQueryError(f"passages per document must be 1-20, not {per_document}")
        lam = self.mmr_lambda if mmr_lambda == "default" else mmr_lambda
        if lam is not None and not (isinstance(lam, float | int) and 0.0 <= lam <= 1.0):
            raise InvalidQueryError(f"MMR lambda must be between 0 and 1, not {lam}")
        loaded = self._load(name)
        try:
            wheres = tuple(parse_where(w, loaded.kinds) for w in where)
        except ValueError as error:
            raise InvalidQueryError(str(error)) from None
        start = time.perf_counter()
        allowed = self._allowed(loaded, wheres)
        if documents is not None:
            inside = frozenset(p for d in documents for p in loaded.passages_of.get(d, ()))
            allowed = inside if allowed is None else allowed & inside
        filter_ms = _ms(start)
        retriever = loaded.retriever
        plan = self._filing_plan(loaded, query, allowed)
        variations = [query] if plan.expansion is None else [query, plan.expansion]
        retrieval = retriever.retrieve(variations, strategy, plan.allowed)
        scope = plan.reason
        if plan.allowed is not allowed and not retrieval.hits:
            retrieval = retriever.retrieve(variations, strategy, allowed)
            scope = f"{plan.reason}, which returned nothing: searched the whole collection"
        if plan.statements:
            retrieval = replace(
                retrieval, hits=statement_first(retrieval.hits, loaded.statements, plan.statements)
            )
        reranked = rerank_head(
            self.reranker, query, retrieval.hits, self._rerank_texts, self.rerank_depth
        )
        start = time.perf_counter()
        by_document: dict[str, list[FusedHit]] = {}
        for hit in reranked.hits:
            group = retriever.lexical.group_of(hit.id)
            bucket = by_document.setdefault(group, [])
            if len(bucket) < per_document:
                bucket.append(hit)
        heads = [hits[0] for hits in by_document.values()]
        chosen = retriever.diversify(heads, k, float(lam) if lam is not None else None)
        rerank_ms = _ms(start)
        start = time.perf_counter()
        doc_ids = [retriever.lexical.group_of(h.id) for h in chosen]
        documents = self.store.documents(name, doc_ids)
        wanted = [h.id for d in doc_ids for h in by_document[d]]
        stored = self.store.passages(wanted)
        results: list[DocumentHit] = []
        for head, doc_id in zip(chosen, doc_ids, strict=True):
            document = documents.get(doc_id)
            if document is None:
                continue
            hits = tuple(
                PassageHit(
                    passage=stored[h.id],
                    label=passage_label(document, stored[h.id]),
                    score=h.score,
                    snippet=best_snippet(stored[h.id].text, query),
                    scores=dict(h.scores),
                    similarity=h.scores.get("vector"),
                )
                for h in by_document[doc_id]
                if h.id in stored
            )
            if hits:
                results.append(DocumentHit(document, len(results) + 1, head.score, hits))
        timings = {
            "filter_ms": filter_ms,
            **retrieval.timings_ms,
            **({"rerank_ms": reranked.elapsed_ms} if self.reranker is not None else {}),
            "group_ms": rerank_ms,
            "load_ms": _ms(start),
            "total_ms": _ms(started),
        }
        return CollectionSearchResponse(
            name,
            query,
            tuple(results),
            wheres,
            retrieval.degraded,
            retrieval.degraded_reason,
            timings,
            scope,
            plan.expansion,
        )

    def _filing_plan(
        self, loaded: _Loaded, query: str, allowed: frozenset[str] | None
    ) -> _FilingPlan:
        """For filings: the documents the question names and the measures' statement lines."""
        if not loaded.filings:
            return _FilingPlan(allowed, None, None)
        words = expansion(query)
        plan_expansion = f"{query} {words}" if words else None
        named, implied = statements_asked(query)
        bonus = dict.fromkeys(implied, IMPLIED_STATEMENT_BONUS)
        bonus.update(dict.fromkeys(named, NAMED_STATEMENT_BONUS))
        candidates = {
            doc_id: metadata
            for doc_id, metadata in loaded.metadata.items()
            if allowed is None or any(p in allowed for p in loaded.passages_of.get(doc_id, ()))
        }
        scope = scope_for(query, candidates)
        if scope is None:
            return _FilingPlan(allowed, None, plan_expansion, bonus)
        inside = frozenset(p for d in scope.documents for p in loaded.passages_of.get(d, ()))
        scoped = inside if allowed is None else allowed & inside
        reason = f"{scope.reason}: searched {len(scope.documents)} of {len(candidates)} documents"
        return _FilingPlan(scoped, reason, plan_expansion, bonus)

    def _rerank_texts(self, ids: Sequence[str]) -> dict[str, str]:
        """What a reranker reads of each passage: its section path, then its words."""
        stored = self.store.passages(list(ids))
        return {pid: f"{p.section}. {p.text}" if p.section else p.text for pid, p in stored.items()}

    def similar(self, name: str, doc_id: str, k: int = 10) -> CollectionSearchResponse:
        """Documents nearest to this one: the mean of its passage vectors, or BM25 on its words."""
        started = time.perf_counter()
        if not 1 <= k <= MAX_RESULTS:
            raise InvalidQueryError(f"k must be between 1 and {MAX_RESULTS}, not {k}")
        loaded = self._load(name)
        own = loaded.passages_of.get(doc_id)
        if not own:
            raise DocumentNotFoundError(f"no document {doc_id} in collection {name!r}")
        retriever = loaded.retriever
        vector_index = retriever.vector
        degraded_reason = None
        found = []
        if vector_index is not None:
            rows = [v for v in (vector_index.vector_of(p) for p in own) if v is not None]
            if rows:
                mean = [sum(column) / len(rows) for column in zip(*rows, strict=True)]
                norm = math.sqrt(sum(x * x for x in mean)) or 1.0
                found = vector_index.search(tuple(x / norm for x in mean), k * 5 + 20)
        if not found:
            degraded_reason = retriever.unavailable_reason or "the document has no stored vectors"
            first = self.store.passages(own[:1]).get(own[0])
            words = (first.text if first else "").split()[:SIMILAR_QUERY_WORDS]
            found = retriever.lexical.search(" ".join(words), k * 5 + 20)
        best: dict[str, tuple[str, float]] = {}
        for hit in found:
            group = retriever.lexical.group_of(hit.id)
            if group != doc_id and group not in best:
                best[group] = (hit.id, hit.score)
        top = list(best.items())[:k]
        documents = self.store.documents(name, [d for d, _ in top])
        stored = self.store.passages([p for _, (p, _) in top])
        results: list[DocumentHit] = []
        for doc, (pid, score) in top:
            if doc in documents and pid in stored:
                passage = stored[pid]
                shown = PassageHit(
                    passage,
                    passage_label(documents[doc], passage),
                    score,
                    best_snippet(passage.text, ""),
                )
                results.append(DocumentHit(documents[doc], len(results) + 1, score, (shown,)))
        return CollectionSearchResponse(
            name,
            f"similar:{doc_id}",
            tuple(results),
            (),
            degraded_reason is not None,
            degraded_reason,
            {"total_ms": _ms(started)},
        )

    # --- documents, passages, labels ------------------------------------------------------

    def document(self, name: str, doc_id: str) -> DocumentView:
        """A document with its text and its passages' labels."""
        if self.store.get(name) is None:
            raise CollectionNotFoundError(f"no collection named {name!r}")
        found = self.store.documents(name, [doc_id], with_text=True).get(doc_id)
        if found is None:
            raise DocumentNotFoundError(f"no document {doc_id} in collection {name!r}")
        passages = self.store.passages_of(doc_id)
        return DocumentView(found, tuple((p, passage_label(found, p)) for p in passages))

    def passage(self, name: str, passage_id: str) -> PassageView:
        """One passage with its document and label."""
        if self.store.get(name) is None:
            raise CollectionNotFoundError(f"no collection named {name!r}")
        found = self.store.passages([passage_id]).get(passage_id)
        document = (
            self.store.documents(name, [found.document_id]).get(found.document_id)
            if found is not None
            else None
        )
        if found is None or document is None:
            raise DocumentNotFoundError(f"no passage {passage_id} in collection {name!r}")
        return PassageView(found, document, passage_label(document, found))

    def resolve(
        self,
        label: str,
        snippet: str | None = None,
        *,
        readable: Callable[[str], bool] | None = None,
    ) -> Resolution:
        """The page, section or record a label names, and where a snippet is inside it.

        `readable` says which collections the caller may read (`CollectionAccess.reader`);
        documents elsewhere are not candidates. Only the operator's own tools pass None.
        """
        try:
            ref = parse_label(label)
        except ValueError as error:
            raise InvalidQueryError(str(error)) from None
        candidates = [
            d for d in self.store.cited_as(ref.key) if readable is None or readable(d.collection)
        ]
        if not candidates:
            raise DocumentNotFoundError(f"no document is cited as {ref.key!r}")
        for document in candidates:
            span = label_span(document, ref)
            if span is None:
                continue
            start, end = span
            inside = tuple(
                p for p in self.store.passages_of(document.id) if start <= p.start and p.end <= end
            )
            at = locate_snippet(document.text, snippet, start, end) if snippet else None
            return Resolution(label, ref, document, start, end, inside, at)
        where = f"page {ref.page}" if ref.page is not None else f"section #{ref.anchor}"
        raise DocumentNotFoundError(f"{ref.key} has no {where}")
