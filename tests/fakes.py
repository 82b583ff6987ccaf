"""In-memory fakes of Lectern's ports, exposing state tests can assert on."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from difflib import SequenceMatcher
from pathlib import Path
from typing import TYPE_CHECKING, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from lectern.application.assistant.ports import ChatModel, LibraryStore, PendingActionStore
from lectern.application.ports import (
    BookCatalog,
    BookFacts,
    BookNames,
    Embedder,
    ExplanationCache,
    LexicalIndex,
    LLMClient,
    LLMTracer,
    ProgressReporter,
    SchemaT,
    SourceFetcher,
    SourceFile,
    StoredEntry,
    VectorIndex,
)
from lectern.domain.assistant import (
    ActionStatus,
    AIResponse,
    Message,
    PendingAction,
    ToolSpec,
)
from lectern.domain.books import (
    Book,
    CatalogCounts,
    CatalogEntry,
    CategoryCount,
    Facets,
    JSONValue,
)
from lectern.domain.evaluation import RubricJudgment
from lectern.domain.grounding import Answer, Citation, Explanation, Judgment, match_form
from lectern.domain.library import (
    CatalogCorrection,
    CorrectionStatus,
    ListEntry,
    Rating,
    ReadingList,
    same_list_name,
)
from lectern.domain.normalize import parse_isbn_query
from lectern.domain.retrieval import ScoredId
from lectern.domain.search import SearchFilters
from lectern.domain.tracing import LLMCallTrace


class FakeCatalog:
    """A BookCatalog in a dict; `writes` records each batch written."""

    def __init__(self) -> None:
        self.entries: dict[uuid.UUID, StoredEntry] = {}
        self.writes: list[list[uuid.UUID]] = []
        self.fail_on_write: int | None = None
        """Raise on this (1-based) write_batch call, to simulate a crash mid-ingest."""

    def get(self, book_id: uuid.UUID) -> Book | None:
        stored = self.entries.get(book_id)
        return stored.entry.book if stored else None

    def get_by_isbn(self, isbn: str) -> Book | None:
        parsed = parse_isbn_query(isbn)
        if parsed is None:
            return None
        key = f"{parsed[0]}:{parsed[1]}"
        for stored in self.entries.values():
            if key in stored.entry.identifiers:
                return stored.entry.book
        return None

    def get_many(self, book_ids: Sequence[uuid.UUID]) -> list[Book]:
        return [self.entries[i].entry.book for i in book_ids if i in self.entries]

    def get_entry(self, book_id: uuid.UUID) -> CatalogEntry | None:
        stored = self.entries.get(book_id)
        return stored.entry if stored else None

    def iter_batches(self, size: int = 1000) -> Iterator[list[Book]]:
        ids = sorted(self.entries, key=str)
        for start in range(0, len(ids), size):
            yield self.get_many(ids[start : start + size])

    def ids_matching(self, filters: SearchFilters) -> set[uuid.UUID]:
        found = set()
        for book_id, stored in self.entries.items():
            book = stored.entry.book
            if filters.language and book.language != filters.language:
                continue
            if filters.category and filters.category not in book.categories:
                continue
            year = book.published_year
            if filters.min_year is not None and (year is None or year < filters.min_year):
                continue
            if filters.max_year is not None and (year is None or year > filters.max_year):
                continue
            found.add(book_id)
        return found

    def facets(self, top_categories: int = 30) -> Facets:
        books = [s.entry.book for s in self.entries.values()]
        languages: dict[str, int] = {}
        categories: dict[str, int] = {}
        for book in books:
            if book.language:
                languages[book.language] = languages.get(book.language, 0) + 1
            for name in book.categories:
                categories[name] = categories.get(name, 0) + 1
        years = [b.published_year for b in books if b.published_year is not None]
        return Facets(
            languages=tuple(CategoryCount(k, v) for k, v in sorted(languages.items())),
            top_categories=tuple(
                CategoryCount(k, v)
                for k, v in sorted(categories.items(), key=lambda x: -x[1])[:top_categories]
            ),
            year_histogram=(),
            min_year=min(years, default=None),
            max_year=max(years, default=None),
        )

    def counts(self) -> CatalogCounts:
        books = [s.entry.book for s in self.entries.values()]
        by_source: dict[str, int] = {}
        for stored in self.entries.values():
            for name in {ref.source for ref in stored.entry.sources}:
                by_source[name] = by_source.get(name, 0) + 1
        return CatalogCounts(
            books=len(books),
            with_description=sum(1 for b in books if b.description),
            with_category=sum(1 for b in books if b.categories),
            with_isbn13=sum(1 for b in books if b.isbn13),
            with_language=sum(1 for b in books if b.language),
            with_year=sum(1 for b in books if b.published_year is not None),
            authors=len({a for b in books for a in b.authors}),
            categories=len({c for b in books for c in b.categories}),
            by_source=by_source,
            with_pages=sum(1 for b in books if b.pages is not None),
        )

    def content_hashes(self) -> dict[uuid.UUID, str]:
        return {k: v.content_hash for k, v in self.entries.items()}

    def book_facts(self) -> list[BookFacts]:
        return [
            BookFacts(
                str(s.entry.book.id),
                s.entry.book.language,
                s.entry.book.published_year,
                frozenset(s.entry.book.categories),
                s.entry.book.pages,
                s.entry.book.authors,
                s.entry.book.title,
                cast(str | None, s.entry.book.metadata.get("series")),
                int(cast(int, s.entry.book.metadata.get("ratings_count", 0) or 0)),
                cast(str | None, s.entry.book.metadata.get("series_number")),
            )
            for s in self.entries.values()
        ]

    def book_names(self) -> list[BookNames]:
        return [
            BookNames(
                str(s.entry.book.id),
                s.entry.book.title,
                s.entry.book.authors,
                s.entry.book.categories,
                int(cast(int, s.entry.book.metadata.get("ratings_count", 0) or 0)),
            )
            for s in self.entries.values()
        ]

    def write_batch(self, entries: Sequence[StoredEntry]) -> None:
        if self.fail_on_write is not None and len(self.writes) + 1 == self.fail_on_write:
            raise RuntimeError("simulated crash while writing a batch")
        for stored in entries:
            self.entries[stored.entry.book.id] = stored
        self.writes.append([s.entry.book.id for s in entries])


@dataclass
class FakeFetcher:
    """Serves files from a local folder and records what was asked for."""

    root: Path
    requested: list[str] = field(default_factory=list)

    def fetch(self, files: Sequence[SourceFile]) -> dict[str, Path]:
        self.requested.extend(f.path for f in files)
        return {f.path: self.root / f.path for f in files}


@dataclass
class RecordingProgress:
    """Remembers every stage and how far it advanced."""

    stages: list[str] = field(default_factory=list)
    advanced: dict[str, int] = field(default_factory=dict)

    def start(self, task: str, total: int | None) -> None:
        del total
        self.stages.append(task)
        self.advanced.setdefault(task, 0)

    def advance(self, amount: int = 1) -> None:
        if self.stages:
            self.advanced[self.stages[-1]] += amount


class FakeEmbedder:
    """Bag-of-words vectors over a fixed vocabulary: similar words, similar vectors."""

    model_id = "fake-bow"

    def __init__(self, vocabulary: Sequence[str], fail: bool = False) -> None:
        self.vocabulary = list(vocabulary)
        self.dimension = len(self.vocabulary) + 1
        self.fail = fail
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        self.calls.append(list(texts))
        if self.fail:
            raise RuntimeError("embedder crashed")
        vectors = []
        for text in texts:
            words = text.lower().split()
            raw = [float(words.count(w)) for w in self.vocabulary] + [0.1]
            norm = sum(x * x for x in raw) ** 0.5
            vectors.append(tuple(x / norm for x in raw))
        return vectors


class FakeLexicalIndex:
    """Scores passages by how many query words they contain."""

    def __init__(self, texts: dict[str, str], groups: dict[str, str] | None = None) -> None:
        self.texts = texts
        self.groups = groups or {}
        self.allowed_seen: list[object] = []
        self.queries_seen: list[str] = []

    def __len__(self) -> int:
        return len(self.texts)

    def group_of(self, passage_id: str) -> str:
        return self.groups.get(passage_id, passage_id)

    def search(self, query: str, k: int, allowed: object = None) -> list[ScoredId]:
        self.allowed_seen.append(allowed)
        self.queries_seen.append(query)
        words = set(query.lower().split())
        hits = []
        for pid, text in sorted(self.texts.items()):
            if allowed is not None and pid not in allowed:  # type: ignore[operator]
                continue
            score = float(len(words & set(text.lower().split())))
            if score > 0:
                hits.append(ScoredId(pid, score))
        hits.sort(key=lambda h: (-h.score, h.id))
        return hits[:k]


class FakeVectorIndex:
    """Exact inner product over vectors made by a FakeEmbedder."""

    def __init__(self, embedder: FakeEmbedder, texts: dict[str, str]) -> None:
        self.model_id = embedder.model_id
        self.vectors = {pid: embedder.embed([t])[0] for pid, t in texts.items()}
        embedder.calls.clear()
        self.allowed_seen: list[object] = []

    def __len__(self) -> int:
        return len(self.vectors)

    def search(self, vector: tuple[float, ...], k: int, allowed: object = None) -> list[ScoredId]:
        self.allowed_seen.append(allowed)
        hits = [
            ScoredId(pid, sum(a * b for a, b in zip(vector, v, strict=True)))
            for pid, v in self.vectors.items()
            if allowed is None or pid in allowed  # type: ignore[operator]
        ]
        hits.sort(key=lambda h: (-h.score, h.id))
        return hits[:k]

    def vector_of(self, passage_id: str) -> tuple[float, ...] | None:
        return self.vectors.get(passage_id)

    def similarities(self, passage_ids: Sequence[str]) -> list[list[float]]:
        rows = [self.vectors.get(p) for p in passage_ids]
        return [
            [sum(x * y for x, y in zip(a, b, strict=True)) if a and b else 0.0 for b in rows]
            for a in rows
        ]


class RecordingTracer:
    """Keeps every LLM call trace in a list."""

    def __init__(self) -> None:
        self.traces: list[LLMCallTrace] = []

    def record(self, trace: LLMCallTrace) -> None:
        self.traces.append(trace)

    def last(self, count: int) -> list[LLMCallTrace]:
        return self.traces[-count:] if count > 0 else []


class FakeTitleMatcher:
    """Misspelt titles read from a table; records every title it was asked about."""

    def __init__(
        self,
        table: dict[str, str] | None = None,
        near: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.table = dict(table or {})
        self.near = dict(near or {})
        """Ids spelt like a title at any cutoff (the closest, when there is one, first)."""
        self.asked: list[str] = []

    def closest(self, title: str) -> str | None:
        self.asked.append(title)
        return self.table.get(title)

    def spelt_like(self, title: str, cutoff: float) -> tuple[str, ...]:
        del cutoff
        self.asked.append(title)
        closest = self.table.get(title)
        return tuple(dict.fromkeys([*([closest] if closest else []), *self.near.get(title, ())]))


class FakeSpelling:
    """Similarity by difflib's ratio (0-100); records every batch it was asked to compare."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, tuple[str, ...]]] = []

    def similarities(self, text: str, choices: Sequence[str], cutoff: float) -> dict[int, float]:
        self.asked.append((text, tuple(choices)))
        scores = {i: 100 * SequenceMatcher(None, text, c).ratio() for i, c in enumerate(choices)}
        return {i: score for i, score in scores.items() if score >= cutoff}


class FakeExplanationCache:
    """Explanations in a dict, keyed like the real cache."""

    def __init__(self) -> None:
        self.entries: dict[tuple[uuid.UUID, str, str, str], Explanation] = {}
        self.gets = 0

    def get(
        self, book_id: uuid.UUID, query: str, prompt_version: str, model: str
    ) -> Explanation | None:
        self.gets += 1
        return self.entries.get((book_id, match_form(query), prompt_version, model))

    def put(self, explanation: Explanation, prompt_version: str) -> None:
        key = (
            explanation.book_id,
            match_form(explanation.query_text),
            prompt_version,
            explanation.model,
        )
        self.entries[key] = explanation


class ScriptedLLM:
    """An LLMClient whose explanations are whatever the test scripted, per book title."""

    model_id = "scripted"

    def __init__(self, citations: dict[str, list[tuple[str, str]]], fail: set[str] | None = None):
        self.citations = citations
        self.fail = fail or set()
        self.calls: list[tuple[str, str]] = []

    def explain(self, query: str, book: Book, *, run_id: str | None = None) -> Explanation:
        del run_id
        self.calls.append((query, book.title))
        if book.title in self.fail:
            raise RuntimeError("model unreachable")
        return Explanation(
            book_id=book.id,
            query_text=query,
            text=f"Because of {book.title}.",
            citations=tuple(
                Citation(book.id, field, snippet, 0.8)
                for field, snippet in self.citations.get(book.title, [])
            ),
            model=self.model_id,
            created_at=datetime(2026, 1, 1, tzinfo=UTC),
            confidence=0.8,
            grounded=True,
        )

    def answer(self, question: str, passages: object, *, run_id: str | None = None) -> Answer:
        raise NotImplementedError

    def judge(
        self, question: str, output: str, evidence: object, *, run_id: str | None = None
    ) -> Judgment:
        raise NotImplementedError

    def grade_explanation(
        self, query: str, output: str, evidence: object, *, run_id: str | None = None
    ) -> RubricJudgment:
        raise NotImplementedError

    def complete(
        self,
        prompt_id: str,
        variables: Mapping[str, str],
        schema: type[SchemaT],
        *,
        run_id: str | None = None,
    ) -> SchemaT:
        raise NotImplementedError


class ScriptedChatModel(BaseChatModel):
    """A LangChain chat model that replies from a script: text, an AIMessage, or an error.

    It records the messages it was sent, so tests can check what reached the model.
    """

    script: list[object]
    sleep: float = 0.0
    received: list[list[BaseMessage]] = Field(default_factory=list)

    bound_tools: list[list[dict[str, object]]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[object], **kwargs: object) -> ScriptedChatModel:
        """Record the tools (as a provider would send them) and answer from the script."""
        del kwargs
        self.bound_tools.append([cast(dict[str, object], t) for t in tools])
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: object = None,
        **kwargs: object,
    ) -> ChatResult:
        del stop, run_manager, kwargs
        self.received.append(list(messages))
        if self.sleep:
            time.sleep(self.sleep)
        step = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        if isinstance(step, BaseException):
            raise step
        message = step if isinstance(step, AIMessage) else AIMessage(content=str(step))
        return ChatResult(generations=[ChatGeneration(message=message)])


if TYPE_CHECKING:
    # mypy --strict proves each fake satisfies the port it stands in for.

    def _catalog(fake: FakeCatalog) -> BookCatalog:
        return fake

    def _fetcher(fake: FakeFetcher) -> SourceFetcher:
        return fake

    def _progress(fake: RecordingProgress) -> ProgressReporter:
        return fake

    def _embedder(fake: FakeEmbedder) -> Embedder:
        return fake

    def _lexical(fake: FakeLexicalIndex) -> LexicalIndex:
        return fake

    def _vector(fake: FakeVectorIndex) -> VectorIndex:
        return fake

    def _tracer(fake: RecordingTracer) -> LLMTracer:
        return fake

    def _cache(fake: FakeExplanationCache) -> ExplanationCache:
        return fake

    def _llm(fake: ScriptedLLM) -> LLMClient:
        return fake


class FakePendingActions:
    """PendingActionStore in a dict; `transition` is atomic under a lock, like one UPDATE."""

    def __init__(self) -> None:
        self.actions: dict[str, PendingAction] = {}
        self.transitions: list[tuple[str, str, str]] = []
        self._lock = threading.Lock()

    def add(self, action: PendingAction) -> None:
        with self._lock:
            self.actions[action.id] = action

    def get(self, user: str, action_id: str) -> PendingAction | None:
        found = self.actions.get(action_id)
        return found if found is not None and found.user == user else None

    def list(
        self, user: str, *, status: ActionStatus | None = None, conversation: str | None = None
    ) -> list[PendingAction]:
        return sorted(
            (
                a
                for a in self.actions.values()
                if a.user == user
                and (status is None or a.status == status)
                and (conversation is None or a.conversation == conversation)
            ),
            key=lambda a: (a.created_at, a.id),
        )

    def set_review(self, action_id: str, review: JSONValue) -> None:
        with self._lock:
            found = self.actions.get(action_id)
            if found is not None:
                self.actions[action_id] = replace(found, review=review)

    def transition(
        self,
        user: str,
        action_id: str,
        *,
        from_status: ActionStatus,
        to_status: ActionStatus,
        now: datetime,
        unexpired: bool = False,
        result: JSONValue = None,
    ) -> bool:
        with self._lock:
            found = self.actions.get(action_id)
            if found is None or found.user != user or found.status != from_status:
                return False
            if unexpired and not found.expires_at > now:
                return False
            self.actions[action_id] = replace(
                found,
                status=to_status,
                decided_at=now,
                result=result if result is not None else found.result,
            )
            self.transitions.append((action_id, from_status, to_status))
            return True

    def claim(
        self,
        user: str,
        action_id: str,
        *,
        from_status: ActionStatus,
        owner: str,
        lease_until: datetime,
        now: datetime,
        unexpired: bool = False,
    ) -> bool:
        with self._lock:
            found = self.actions.get(action_id)
            if found is None or found.user != user or found.status != from_status:
                return False
            if unexpired and not found.expires_at > now:
                return False
            lease = found.lease_until
            if from_status == "executing" and lease is not None and lease > now:
                return False
            self.actions[action_id] = replace(
                found,
                status="executing",
                lease_owner=owner,
                lease_until=lease_until,
                decided_at=now if from_status == "pending" else found.decided_at,
            )
            self.transitions.append((action_id, from_status, "executing"))
            return True

    def finish(
        self,
        user: str,
        action_id: str,
        *,
        owner: str,
        to_status: ActionStatus,
        now: datetime,
        result: JSONValue,
    ) -> bool:
        with self._lock:
            found = self.actions.get(action_id)
            if found is None or found.user != user or found.status != "executing":
                return False
            if found.lease_owner != owner:
                return False
            self.actions[action_id] = replace(
                found, status=to_status, decided_at=now, result=result, lease_until=None
            )
            self.transitions.append((action_id, "executing", to_status))
            return True

    def stranded(self, now: datetime) -> Sequence[PendingAction]:
        return sorted(
            (
                a
                for a in self.actions.values()
                if a.status == "approved"
                or (a.status == "executing" and (a.lease_until is None or a.lease_until <= now))
            ),
            key=lambda a: (a.created_at, a.id),
        )


class FakeLibrary:
    """LibraryStore in dicts; each list, rating and correction keeps its owner."""

    def __init__(self) -> None:
        self.reading_lists: dict[str, ReadingList] = {}
        self.user_ratings: dict[tuple[str, str], Rating] = {}
        self.user_corrections: list[CatalogCorrection] = []

    def lists(self, user: str) -> list[ReadingList]:
        return [r for r in self.reading_lists.values() if r.user == user]

    def get_list(self, user: str, list_id: str) -> ReadingList | None:
        found = self.reading_lists.get(list_id)
        return found if found is not None and found.user == user else None

    def find_list(self, user: str, name: str) -> ReadingList | None:
        return next((r for r in self.lists(user) if same_list_name(r.name, name)), None)

    def create_list(self, user: str, list_id: str, name: str, now: datetime) -> ReadingList:
        if self.find_list(user, name) is not None:
            raise ValueError("unique constraint: a list with this name exists")
        created = ReadingList(list_id, user, name, now)
        self.reading_lists[list_id] = created
        return created

    def rename_list(self, user: str, list_id: str, name: str) -> None:
        found = self.get_list(user, list_id)
        if found is not None:
            self.reading_lists[list_id] = replace(found, name=name)

    def delete_list(self, user: str, list_id: str) -> None:
        if self.get_list(user, list_id) is not None:
            del self.reading_lists[list_id]

    def add_entry(
        self, user: str, list_id: str, book_id: str, note: str | None, now: datetime
    ) -> None:
        found = self.get_list(user, list_id)
        if found is not None:
            entries = (*found.entries, ListEntry(book_id, note, now))
            self.reading_lists[list_id] = replace(found, entries=entries)

    def remove_entry(self, user: str, list_id: str, book_id: str) -> None:
        found = self.get_list(user, list_id)
        if found is not None:
            entries = tuple(e for e in found.entries if e.book_id != book_id)
            self.reading_lists[list_id] = replace(found, entries=entries)

    def rating(self, user: str, book_id: str) -> Rating | None:
        return self.user_ratings.get((user, book_id))

    def ratings(self, user: str) -> list[Rating]:
        return [r for (u, _), r in self.user_ratings.items() if u == user]

    def put_rating(self, rating: Rating) -> None:
        self.user_ratings[(rating.user, rating.book_id)] = rating

    def add_correction(self, correction: CatalogCorrection) -> None:
        self.user_corrections.append(correction)

    def corrections(self, user: str) -> list[CatalogCorrection]:
        return [c for c in self.user_corrections if c.user == user]

    def correction(self, correction_id: str) -> CatalogCorrection | None:
        return next((c for c in self.user_corrections if c.id == correction_id), None)

    def corrections_by_status(self, status: CorrectionStatus) -> list[CatalogCorrection]:
        return [c for c in self.user_corrections if c.status == status]

    def set_correction_status(
        self, correction_id: str, from_status: CorrectionStatus, to_status: CorrectionStatus
    ) -> bool:
        for position, found in enumerate(self.user_corrections):
            if found.id == correction_id and found.status == from_status:
                self.user_corrections[position] = replace(found, status=to_status)
                return True
        return False


class ScriptedToolModel:
    """A `ChatModel` answering each step from a script; `received` holds what it was sent."""

    model_id = "scripted:tools"

    def __init__(self, *replies: AIResponse) -> None:
        self.replies = list(replies)
        self.received: list[tuple[list[Message], list[str]]] = []

    def complete_with_tools(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        *,
        system: str,
        temperature: float = 0.0,
        max_tokens: int = 1024,
    ) -> AIResponse:
        del system, temperature, max_tokens
        self.received.append((list(messages), [t.name for t in tools]))
        return self.replies.pop(0) if self.replies else AIResponse("done", model=self.model_id)


if TYPE_CHECKING:

    def _actions(fake: FakePendingActions) -> PendingActionStore:
        return fake

    def _tool_model(fake: ScriptedToolModel) -> ChatModel:
        return fake

    def _library(fake: FakeLibrary) -> LibraryStore:
        return fake


class HashingArrayEmbedder:
    """Deterministic unit vectors from hashed words: an embedder for index builds in tests."""

    model_id = "sentence-transformers/all-MiniLM-L6-v2"
    dimension = 384

    def __init__(self) -> None:
        self.embedded = 0

    def embed_array(self, texts: Sequence[str], progress: object = None) -> object:
        import hashlib

        import numpy as np

        del progress
        self.embedded += len(texts)
        rows = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
                rows[row, int.from_bytes(digest, "little") % self.dimension] += 1.0
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return rows / np.clip(norms, 1e-9, None)

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        array = self.embed_array(texts)
        return [tuple(float(x) for x in row) for row in array]  # type: ignore[attr-defined]
