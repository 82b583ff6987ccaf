"""What every part of a collection service shares: its adapters, its locks, its loaded indexes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from lectern.application.hybrid_retrieval import HybridRetriever, SearchConfig
from lectern.application.ports import (
    CollectionIndexes,
    CollectionRecord,
    CollectionStore,
    CollectionSummary,
    DocumentSource,
    PassageSplitter,
    Reranker,
    UploadInbox,
)
from lectern.domain.metadata_filters import FilterField, MetadataFilter
from lectern.domain.retrieval import DEFAULT_RERANK_DEPTH
from lectern.errors import CollectionNotFoundError


@dataclass
class LoadedCollection:
    """A collection's engine and filter tables as search reads them; a write drops it."""

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


class CollectionBase:
    """The adapters and state that adding, searching and showing collections share."""

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
        self._loaded: dict[str, LoadedCollection] = {}
        self._alias_cache: dict[tuple[str, int], dict[str, str]] = {}
        """Each collection's glossary by (name, index generation): `CollectionViews.aliases`."""
        self._lock = threading.Lock()
        self._write_locks: dict[str, threading.Lock] = {}
        """One per collection: a long ingest into one never holds up writes to another."""

    def _writing(self, name: str) -> threading.Lock:
        """The write lock of one collection."""
        with self._lock:
            return self._write_locks.setdefault(name, threading.Lock())

    def _summary(self, name: str) -> CollectionSummary:
        for summary in self.store.summaries():
            if summary.record.name == name:
                return summary
        raise CollectionNotFoundError(
            f"no collection named {name!r}: `lectern collections list` shows them"
        )
