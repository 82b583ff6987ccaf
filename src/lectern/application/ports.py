"""Ports: the Protocols that application services depend on and adapters implement."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol, TypeVar

from lectern.domain.books import (
    Book,
    CatalogCounts,
    CatalogEntry,
    Facets,
    JSONValue,
    RejectedRow,
    SourceRecord,
)
from lectern.domain.documents import (
    Document,
    DocumentPassage,
    ExtractedDocument,
    FilterField,
    SkippedFile,
)
from lectern.domain.evaluation import RubricJudgment
from lectern.domain.grounding import Answer, Explanation, Judgment
from lectern.domain.retrieval import Passage, RerankCandidate, ScoredId
from lectern.domain.search import QueryPlan, SearchFilters
from lectern.domain.tracing import LLMCallTrace

Vector = tuple[float, ...]
"""An embedding as plain floats; adapters keep their arrays to themselves."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file a source needs: where it lives in a mirror, upstream, and its sha256."""

    path: str
    """Path relative to the mirror root, e.g. `7k-books/books.csv`."""
    url: str
    sha256: str


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """A catalog entry ready to write, with the hash that says whether it changed."""

    entry: CatalogEntry
    content_hash: str


class BookSource(Protocol):
    """A reader of one source format that yields normalised records or rejections."""

    @property
    def name(self) -> str:
        """The source's name, as used in provenance and on the command line."""
        ...

    @property
    def files(self) -> tuple[SourceFile, ...]:
        """The files this source reads."""
        ...

    def read(
        self, paths: Mapping[str, Path], known_authors: frozenset[str]
    ) -> Iterator[SourceRecord | RejectedRow]:
        """Read the source's files (relative path -> local path), row by row."""
        ...


class SourceFetcher(Protocol):
    """Makes a source's files available locally: from a mirror or by download."""

    def fetch(self, files: Sequence[SourceFile]) -> dict[str, Path]:
        """Return a local path for each file, keyed by its relative path."""
        ...


class ExternalBooksProvider(Protocol):
    """A public books API (Open Library, Google Books) read as normalised source records."""

    @property
    def name(self) -> str:
        """The provider's source name, as provenance and `lectern ingest --provider` say it."""
        ...

    def by_isbn(self, isbn: str) -> list[SourceRecord]:
        """The provider's records of this ISBN (none when it has none)."""
        ...

    def search(self, query: str, limit: int) -> list[SourceRecord]:
        """At most `limit` records for a free-text query, best first."""
        ...


class ProviderRecordStore(Protocol):
    """The records fetched from providers, kept so every later ingest merges them again."""

    def save(self, records: Sequence[SourceRecord]) -> int:
        """Insert or replace records by (source, source_id); returns how many were new."""
        ...

    def records(self, source: str) -> list[SourceRecord]:
        """Every stored record of one provider, in source id order."""
        ...


class ProgressReporter(Protocol):
    """Receives progress of long work; the CLI draws bars, tests count calls."""

    def start(self, task: str, total: int | None) -> None:
        """A new stage begins; total is None when unknown."""
        ...

    def advance(self, amount: int = 1) -> None:
        """Some units of the current stage are done."""
        ...


class BookCatalog(Protocol):
    """The store of merged books."""

    def get(self, book_id: uuid.UUID) -> Book | None:
        """The book with this id, or None."""
        ...

    def get_by_isbn(self, isbn: str) -> Book | None:
        """The book holding this valid ISBN-10 or ISBN-13 (of any of its editions)."""
        ...

    def get_many(self, book_ids: Sequence[uuid.UUID]) -> list[Book]:
        """Books in the order of the ids given; unknown ids are skipped."""
        ...

    def get_entry(self, book_id: uuid.UUID) -> CatalogEntry | None:
        """The book with its identifiers, field provenance and source records."""
        ...

    def iter_batches(self, size: int = 1000) -> Iterator[list[Book]]:
        """Every book, in id order, in lists of at most `size`."""
        ...

    def ids_matching(self, filters: SearchFilters) -> set[uuid.UUID]:
        """Ids of the books that satisfy every filter set (unknown page counts pass)."""
        ...

    def facets(self, top_categories: int = 30) -> Facets:
        """Languages, the most common categories and a decade histogram."""
        ...

    def counts(self) -> CatalogCounts:
        """Headline numbers."""
        ...

    def content_hashes(self) -> dict[uuid.UUID, str]:
        """The stored content hash of every book, to decide what changed."""
        ...

    def book_facts(self) -> list[BookFacts]:
        """Language, year, categories, pages, authors, title and series of every book.

        What search filters on in memory.
        """
        ...

    def book_names(self) -> list[BookNames]:
        """Title, authors, categories and popularity of every book (one query, no blurbs)."""
        ...

    def write_batch(self, entries: Sequence[StoredEntry]) -> None:
        """Insert or replace these entries in one transaction."""
        ...


@dataclass(frozen=True, slots=True)
class BookFacts:
    """What search needs to filter and group a book without loading it."""

    id: str
    language: str | None
    published_year: int | None
    categories: frozenset[str]
    pages: int | None = None
    authors: tuple[str, ...] = ()
    title: str = ""
    series: str | None = None


@dataclass(frozen=True, slots=True)
class BookNames:
    """What query understanding needs of a book: its names, shelves and popularity."""

    id: str
    title: str
    authors: tuple[str, ...]
    categories: tuple[str, ...]
    popularity: int
    """Ratings count when a source gives one, else 0 (picks the known edition of a title)."""


class Embedder(Protocol):
    """Turns text into unit vectors."""

    @property
    def model_id(self) -> str:
        """The model's name, recorded in index manifests."""
        ...

    @property
    def dimension(self) -> int:
        """Length of each vector."""
        ...

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """One unit vector per text."""
        ...


class Reranker(Protocol):
    """Re-orders the head of a fused candidate list (listwise by a model, late interaction)."""

    @property
    def name(self) -> str:
        """The adapter's name as LECTERN_RERANK spells it."""
        ...

    def rerank(self, query: str, candidates: Sequence[RerankCandidate]) -> list[ScoredId]:
        """The candidates best first, each with this reranker's score; raises on failure."""
        ...


class LexicalIndex(Protocol):
    """Keyword search over passages."""

    def __len__(self) -> int:
        """Number of passages indexed."""
        ...

    def search(self, query: str, k: int, allowed: Set[str] | None = None) -> list[ScoredId]:
        """Top k passages with a positive score; only `allowed` ids when given."""
        ...

    def group_of(self, passage_id: str) -> str:
        """The passage's group (editions of one work share one)."""
        ...


class VectorIndex(Protocol):
    """Nearest-neighbour search over passage vectors."""

    @property
    def model_id(self) -> str:
        """The embedding model the vectors came from."""
        ...

    def __len__(self) -> int:
        """Number of vectors."""
        ...

    def search(self, vector: Vector, k: int, allowed: Set[str] | None = None) -> list[ScoredId]:
        """Top k passages by inner product; only `allowed` ids when given."""
        ...

    def vector_of(self, passage_id: str) -> Vector | None:
        """The stored vector of a passage, or None."""
        ...

    def similarities(self, passage_ids: Sequence[str]) -> list[list[float]]:
        """Pairwise cosine similarities; a passage without a vector is 0 to all others."""
        ...


class SearchIndexBuilder(Protocol):
    """Builds or updates the lexical and vector indexes from passages."""

    def sync(
        self,
        passages: Sequence[Passage],
        *,
        rebuild: bool = False,
        progress: ProgressReporter | None = None,
    ) -> IndexReport:
        """Make the stored indexes match these passages; embed only what changed."""
        ...


@dataclass(frozen=True, slots=True)
class IndexReport:
    """What an index sync did."""

    passages: int
    embedded: int
    """Passages whose text was new or changed and went through the embedder."""
    reused: int
    removed: int
    lexical_rebuilt: bool
    seconds: float
    index_type: str


SchemaT = TypeVar("SchemaT")


class LLMClient(Protocol):
    """A language model, by task. Every output is validated by the caller's domain rules.

    Adapters: `ExtractiveLLM` (offline default), `LangChainLLM` (hosted and local chat
    models), `LlamaCppLLM` (an in-process GGUF model).
    """

    model_id: str

    def explain(self, query: str, book: Book, *, run_id: str | None = None) -> Explanation:
        """Why this book answers the query, quoting its fields (validated before return)."""
        ...

    def answer(
        self, question: str, passages: Mapping[str, str], *, run_id: str | None = None
    ) -> Answer:
        """An answer from these passages (id -> text), quoting them (validated)."""
        ...

    def judge(
        self, question: str, output: str, evidence: Sequence[str], *, run_id: str | None = None
    ) -> Judgment:
        """How right and supported an output is, 0..1."""
        ...

    def grade_explanation(
        self, query: str, output: str, evidence: Sequence[str], *, run_id: str | None = None
    ) -> RubricJudgment:
        """Groundedness, clarity and relevance of an explanation, 1..5 each with reasons."""
        ...

    def complete(
        self,
        prompt_id: str,
        variables: Mapping[str, str],
        schema: type[SchemaT],
        *,
        run_id: str | None = None,
    ) -> SchemaT:
        """A structured completion of a versioned prompt, parsed into `schema`."""
        ...


class LLMTracer(Protocol):
    """Where every LLM call is recorded."""

    def record(self, trace: LLMCallTrace) -> None:
        """Append one trace; never raises into the caller's path."""
        ...

    def last(self, count: int) -> list[LLMCallTrace]:
        """The newest traces, oldest first."""
        ...


class ExplanationCache(Protocol):
    """Explanations keyed by (book, query, prompt version, model)."""

    def get(
        self, book_id: uuid.UUID, query: str, prompt_version: str, model: str
    ) -> Explanation | None:
        """The stored explanation, or None."""
        ...

    def put(self, explanation: Explanation, prompt_version: str) -> None:
        """Store an explanation (replacing an older one with the same key)."""
        ...


class QueryUnderstanding(Protocol):
    """Turns a reader's words into a plan: intent, filters, variations, strategy."""

    name: str

    def plan(self, query: str) -> QueryPlan:
        """The plan for this query; never raises for odd text (it plans less instead)."""
        ...


class EvaluationRunStore(Protocol):
    """Where evaluation run artifacts are kept."""

    def save(self, artifact: Mapping[str, JSONValue]) -> str:
        """Store one run (keyed by its `run_id`); returns where it went."""
        ...

    def list(self) -> list[dict[str, JSONValue]]:
        """A summary of every stored run, newest first."""
        ...

    def get(self, run_id: str) -> dict[str, JSONValue]:
        """One run's artifact; EvaluationRunNotFoundError when absent."""
        ...


# --- collections --------------------------------------------------------------------------


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
