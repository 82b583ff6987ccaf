"""Ports: the Protocols that application services depend on and adapters implement."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
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
from lectern.domain.evaluation import RubricJudgment
from lectern.domain.grounding import Answer, Explanation, Judgment
from lectern.domain.retrieval import Passage, ScoredId
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
