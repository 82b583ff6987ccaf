"""Qdrant's own engine in process (qdrant-edge-py) behind the client calls `QdrantCorpus` makes.

qdrant-client's local mode scores sparse vectors in pure Python (seconds per query on a
few thousand abstracts), so whole-catalog parity runs use Qdrant Edge: the Rust segment
engine a server runs, one shard per collection in a folder. Only what `QdrantCorpus` and
`QdrantCollectionIndexes` call is here; the shard has no collection metadata, so it is kept
in `metadata.json` beside each shard.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import qdrant_edge as edge
from qdrant_client import models

from lectern.errors import IndexMissingError


@dataclass(frozen=True, slots=True)
class _Named:
    name: str


@dataclass(frozen=True, slots=True)
class _Collections:
    collections: list[_Named]


@dataclass(frozen=True, slots=True)
class _Config:
    metadata: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Info:
    config: _Config


@dataclass(frozen=True, slots=True)
class _Response:
    points: list[Any]


@dataclass(frozen=True, slots=True)
class _Count:
    count: int


@dataclass
class EdgeClient:
    """The QdrantClient calls of the Qdrant adapter, answered by Edge shards under `root`."""

    root: Path
    _shards: dict[str, edge.EdgeShard] = field(default_factory=dict)

    def _folder(self, name: str) -> Path:
        return self.root / name

    def _shard(self, name: str) -> edge.EdgeShard:
        if name not in self._shards:
            if not (self._folder(name) / "metadata.json").is_file():
                raise IndexMissingError(f"no Qdrant Edge shard {name!r} in {self.root}")
            self._shards[name] = edge.EdgeShard.load(str(self._folder(name) / "shard"))
        return self._shards[name]

    def collection_exists(self, name: str) -> bool:
        """Whether a shard of that name exists."""
        return (self._folder(name) / "metadata.json").is_file()

    def get_collections(self) -> _Collections:
        """Every shard, by name."""
        if not self.root.is_dir():
            return _Collections([])
        found = [p.name for p in self.root.iterdir() if (p / "metadata.json").is_file()]
        return _Collections([_Named(n) for n in sorted(found)])

    def create_collection(
        self,
        name: str,
        *,
        vectors_config: dict[str, models.VectorParams],
        sparse_vectors_config: dict[str, models.SparseVectorParams],
        metadata: dict[str, Any] | None = None,
        **_cluster: Any,
    ) -> bool:
        """A new shard with the same named vectors (shards and replicas mean nothing here)."""
        distances = {
            models.Distance.COSINE: edge.Distance.Cosine,
            models.Distance.DOT: edge.Distance.Dot,
        }
        config = edge.EdgeConfig(
            vectors={
                key: edge.EdgeVectorParams(size=p.size, distance=distances[p.distance])
                for key, p in vectors_config.items()
            },
            sparse_vectors={
                key: edge.EdgeSparseVectorParams(
                    modifier=edge.Modifier.Idf if p.modifier == models.Modifier.IDF else None
                )
                for key, p in sparse_vectors_config.items()
            },
        )
        folder = self._folder(name)
        folder.mkdir(parents=True)
        self._shards[name] = edge.EdgeShard.create(str(folder / "shard"), config)
        (folder / "metadata.json").write_text(json.dumps(metadata or {}), encoding="utf-8")
        return True

    def delete_collection(self, name: str) -> bool:
        """Close and delete a shard."""
        shard = self._shards.pop(name, None)
        if shard is not None:
            shard.close()
        shutil.rmtree(self._folder(name), ignore_errors=True)
        return True

    def create_payload_index(self, *_args: Any, **_kwargs: Any) -> None:
        """Edge indexes payload through its own config; nothing to do for keyword lookups."""

    def get_collection(self, name: str) -> _Info:
        """The shard's metadata."""
        path = self._folder(name) / "metadata.json"
        return _Info(_Config(json.loads(path.read_text(encoding="utf-8"))))

    def update_collection(self, name: str, *, metadata: dict[str, Any]) -> bool:
        """Merge metadata keys, as the server does."""
        merged = {**self.get_collection(name).config.metadata, **metadata}
        (self._folder(name) / "metadata.json").write_text(json.dumps(merged), encoding="utf-8")
        self._shard(name).flush()
        return True

    def upsert(self, name: str, points: Sequence[models.PointStruct], **_: Any) -> None:
        """Insert or replace points."""
        converted = [
            edge.Point(id=str(p.id), vector=_vectors(p.vector), payload=p.payload) for p in points
        ]
        self._shard(name).update(edge.UpdateOperation.upsert_points(converted))

    def scroll(
        self,
        name: str,
        *,
        limit: int,
        offset: Any = None,
        with_payload: Any = True,
        with_vectors: Any = False,
    ) -> tuple[list[Any], Any]:
        """A page of points and the next page's first id."""
        request = edge.ScrollRequest(
            offset=offset, limit=limit, with_payload=with_payload, with_vector=with_vectors
        )
        return self._shard(name).scroll(request)

    def retrieve(
        self, name: str, *, ids: Sequence[str], with_payload: Any, with_vectors: Any
    ) -> list[Any]:
        """Points by id."""
        return self._shard(name).retrieve(
            list(ids), with_payload=with_payload, with_vector=with_vectors
        )

    def query_points(
        self,
        name: str,
        *,
        query: models.SparseVector | list[float],
        using: str,
        limit: int,
        query_filter: models.Filter | None = None,
        with_payload: Any = True,
    ) -> _Response:
        """The top points by one named vector, under an id filter when given."""
        vector: Any = query
        if isinstance(query, models.SparseVector):
            vector = edge.SparseVector(indices=list(query.indices), values=list(query.values))
        where = None
        if query_filter is not None:
            ids: set[Any] = set()
            for condition in query_filter.must or []:
                if isinstance(condition, models.HasIdCondition):
                    ids |= {str(i) for i in condition.has_id}
            where = edge.Filter(must=[edge.HasIdCondition(point_ids=ids)])
        found = self._shard(name).query(
            edge.QueryRequest(
                limit=limit,
                query=edge.Query.Nearest(vector, using=using),
                with_payload=with_payload,
                filter=where,
            )
        )
        return _Response(list(found))

    def count(self, name: str) -> _Count:
        """How many points a shard holds."""
        return _Count(self._shard(name).count(edge.CountRequest()))

    def close(self) -> None:
        """Close every open shard."""
        for shard in self._shards.values():
            shard.close()
        self._shards.clear()


def _vectors(vector: Any) -> dict[str, Any]:
    named: dict[str, Any] = {}
    for key, value in dict(vector).items():
        if isinstance(value, models.SparseVector):
            named[key] = edge.SparseVector(indices=list(value.indices), values=list(value.values))
        else:
            named[key] = [float(x) for x in value]
    return named
