"""What every part of the wiring shares: the overrides, the clock, parts built once."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import structlog

from lectern.adapters.metrics import PrometheusMetrics
from lectern.application.assistant.ports import (
    ChatModel,
    LibraryStore,
    PendingActionStore,
    PiiDetector,
    SessionStore,
)
from lectern.application.collections import CollectionService
from lectern.application.fallback.ports import SearchFallbackAgent
from lectern.application.ports import (
    BookCatalog,
    BookSource,
    CollectionStore,
    Embedder,
    ExplanationCache,
    LexicalIndex,
    LLMClient,
    LLMTracer,
    ProviderRecordStore,
    QueryUnderstanding,
    Reranker,
    SourceFetcher,
    TitleMatcher,
    VectorIndex,
)
from lectern.application.upload_reviews import UploadReviewStore
from lectern.application.workspace.ports import ReviewQueue, WorkspaceStore
from lectern.settings import Settings

T = TypeVar("T")
log = structlog.get_logger("lectern.bootstrap")
"""One logger for all the wiring (its name from before the split into modules)."""


Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The wall clock, in UTC."""
    return datetime.now(UTC)


@dataclass
class Overrides:
    """Ports a caller supplies instead of the configured adapters (tests pass fakes here)."""

    catalog: BookCatalog | None = None
    sources: Sequence[BookSource] | None = None
    fetcher: SourceFetcher | None = None
    llm: LLMClient | None = None
    embedder: Embedder | None = None
    lexical_index: LexicalIndex | None = None
    vector_index: VectorIndex | None = None
    understanding: QueryUnderstanding | None = None
    title_matcher: TitleMatcher | None = None
    """Resolves misspelt titles for the fallback's `get_similar_books` (rapidfuzz otherwise)."""
    explanation_cache: ExplanationCache | None = None
    tracer: LLMTracer | None = None
    clock: Clock | None = None
    evaluation_data: Path | None = None
    """A folder with the three evaluation files instead of the packaged ones."""
    collection_store: CollectionStore | None = None
    collections: CollectionService | None = None
    """A ready collection service (tests: one over a fake embedder)."""
    chat_model: ChatModel | None = None
    """The assistant's model (a scripted fake in tests) instead of the configured one."""
    local_tool_model: ChatModel | None = None
    """The local model calling tools (`local`, `hybrid`): a fake in tests, or one loaded
    model shared by several bootstraps (the evaluation builds one world per case)."""
    search_fallback_agent: SearchFallbackAgent | None = None
    """The fallback agent (over a fake chat model in tests) instead of the configured one."""
    pending_actions: PendingActionStore | None = None
    library: LibraryStore | None = None
    sessions: SessionStore | None = None
    pii: PiiDetector | None = None
    provider_records: ProviderRecordStore | None = None
    """Where records fetched from Open Library or Google Books are kept."""
    workspace_store: WorkspaceStore | None = None
    review_queue: ReviewQueue | None = None
    """Where automatic reviews go (a recording fake in tests) instead of rq or a thread."""
    upload_reviews: UploadReviewStore | None = None
    """Where uploads' reviews are kept instead of the catalog database."""
    guide_model: ChatModel | None = None
    """The guideline agent's model (a scripted fake in tests) instead of the configured one."""
    reranker: Reranker | None = None


@dataclass
class Wiring:
    """What every capability's wiring shares: settings, overrides, metrics, parts built once."""

    settings: Settings
    overrides: Overrides = field(default_factory=Overrides)
    metrics: PrometheusMetrics = field(default_factory=PrometheusMetrics, repr=False)
    _built: dict[str, Any] = field(default_factory=dict, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def _once(self, name: str, build: Callable[[], T]) -> T:
        """Build a part once, whoever asks first and from whichever thread."""
        with self._lock:
            if name not in self._built:
                self._built[name] = build()
            part: T = self._built[name]
            return part

    @property
    def clock(self) -> Clock:
        """What time it is (a fixed clock in tests)."""
        return self.overrides.clock or system_clock
