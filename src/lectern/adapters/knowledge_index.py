"""Knowledge-base indexes as JSON files: `<index dir>/kb/<collection>.json`.

Beside each index, `<collection>.summaries.json` keeps every summary ever written, by
summarizer and content hash, so an unchanged document is never summarized twice (a model's
summaries cost a call each). Writes go to a temporary file first, then replace the old one.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lectern.domain.answering import KnowledgeIndex, KnowledgeSource
from lectern.domain.documents import check_collection_name

FORMAT = 1


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(data, file, ensure_ascii=False)
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class JsonKnowledgeIndexStore:
    """`KnowledgeIndexStore` on the file system."""

    def __init__(self, folder: Path) -> None:
        """Indexes live in `folder` (created on first save)."""
        self.folder = folder
        self._lock = threading.Lock()

    def _paths(self, collection: str) -> tuple[Path, Path]:
        name = check_collection_name(collection)
        return self.folder / f"{name}.json", self.folder / f"{name}.summaries.json"

    def load(self, collection: str) -> KnowledgeIndex | None:
        """The stored index, or None when there is none (or it cannot be read)."""
        data = _read(self._paths(collection)[0])
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return None
        try:
            return KnowledgeIndex(
                collection=data["collection"],
                generation=int(data["generation"]),
                sources=tuple(KnowledgeSource(**item) for item in data["sources"]),
                document_frequency={str(k): int(v) for k, v in data["document_frequency"].items()},
                summarizer=data["summarizer"],
                built_for=str(data.get("built_for", "")),
            )
        except (KeyError, TypeError, ValueError):
            return None

    def save(self, index: KnowledgeIndex) -> None:
        """Replace the collection's index and add its summaries to the cache."""
        index_path, summaries_path = self._paths(index.collection)
        with self._lock:
            cache = _read(summaries_path)
            cache = cache if isinstance(cache, dict) else {}
            mine = cache.setdefault(index.summarizer, {})
            for source in index.sources:
                mine[source.content_hash] = source.summary
            _write(summaries_path, cache)
            _write(
                index_path,
                {
                    "format": FORMAT,
                    "collection": index.collection,
                    "generation": index.generation,
                    "built_for": index.built_for,
                    "summarizer": index.summarizer,
                    "sources": [
                        {
                            "source_id": s.source_id,
                            "document_id": s.document_id,
                            "title": s.title,
                            "summary": s.summary,
                            "content_hash": s.content_hash,
                            "url": s.url,
                        }
                        for s in index.sources
                    ],
                    "document_frequency": dict(index.document_frequency),
                },
            )

    def summaries(self, collection: str, summarizer: str) -> Mapping[str, str]:
        """Summaries this summarizer wrote for the collection, by content hash."""
        cache = _read(self._paths(collection)[1])
        mine = cache.get(summarizer) if isinstance(cache, dict) else None
        return {str(k): str(v) for k, v in mine.items()} if isinstance(mine, dict) else {}
