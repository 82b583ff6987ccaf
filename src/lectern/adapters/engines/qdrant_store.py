"""One corpus in one Qdrant collection: schema, idempotent batched writes, candidate queries.

A point per passage, keyed by a UUIDv5 of the passage id (Qdrant ids are integers or UUIDs),
holding a named dense vector (`dense`, cosine) and a named sparse vector (`bm25`, BM25
term-frequency weights with the IDF modifier), and the payload `pid` (the passage id),
`group` and `hash` (of the embedded text, so unchanged text keeps its vector).
"""

from __future__ import annotations

import atexit
import math
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, cast

from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse
from tenacity import retry, retry_if_exception, stop_after_attempt, wait_exponential

from lectern.adapters.engines.bm25_sparse import SparseTerms
from lectern.errors import IndexMismatchError, IndexMissingError

DENSE = "dense"
SPARSE = "bm25"
POINT_NAMESPACE = uuid.UUID("6f1c1e55-7a0e-4d52-9d0f-51a1c0a7e3d1")
"""Point ids are UUIDv5(POINT_NAMESPACE, passage id): the same passage always lands on the
same point, so a write repeated after a failure replaces rather than duplicates."""
BATCH = 256
"""Points per upsert request."""
HAS_ID_MAX = 1_000
"""Filters allowing at most this many passages are sent to the engine as an id list."""
OVERFETCH = 2.0
"""Wider filters: fetch this many times k / (allowed share) unfiltered, keep the allowed.

The first k allowed points of the unfiltered ranking are exactly the filtered top k; when too
few come back, the query is repeated with the id list (exact, slower in local mode)."""
FILTER_CACHE = 64
PAYLOAD_KEYS = ("pid", "group", "hash")

T = TypeVar("T")

_clients: dict[tuple[str, str | None], QdrantClient] = {}
_clients_lock = threading.Lock()
_closing_at_exit: list[bool] = []


def connect(location: str, api_key: str | None = None, *, timeout: int = 30) -> QdrantClient:
    """A client for `:memory:`, a folder (both local mode), `edge:<folder>` or a server URL.

    One client per location and process: local mode locks its folder against a second
    client, and `:memory:` holds its data in the client, so every part of the process that
    opens the same location must share one.
    """
    key = (location, api_key)
    with _clients_lock:
        if not _closing_at_exit:
            _closing_at_exit.append(True)
            # Closed before the interpreter tears modules down: a local-mode client closed by
            # its finaliser at exit prints an ImportError after the command's last line.
            atexit.register(_close_all)
        if key not in _clients:
            if location == ":memory:":
                _clients[key] = QdrantClient(location=":memory:")
            elif location.startswith("edge:"):
                from lectern.adapters.engines.qdrant_edge import EdgeClient

                # The same calls, answered by Qdrant's Rust engine in this process.
                _clients[key] = cast("QdrantClient", EdgeClient(Path(location[5:])))
            elif location.startswith(("http://", "https://")):
                _clients[key] = QdrantClient(url=location, api_key=api_key, timeout=timeout)
            else:
                _clients[key] = QdrantClient(path=location)
        return _clients[key]


def _close_all() -> None:
    with _clients_lock:
        while _clients:
            _clients.popitem()[1].close()


def disconnect(*, under: str) -> None:
    """Close the shared local-mode clients of folders inside `under` (tests' tmp folders)."""
    with _clients_lock:
        for key in [k for k in _clients if k[0].startswith(under)]:
            _clients.pop(key).close()


def _local_mode(client: QdrantClient) -> bool:
    """Whether the client is qdrant-client's local mode (a folder or `:memory:`)."""
    options = getattr(client, "init_options", None) or {}
    return options.get("path") is not None or options.get("location") == ":memory:"


def point_id(passage_id: str) -> str:
    """The Qdrant point id of a passage."""
    return str(uuid.uuid5(POINT_NAMESPACE, passage_id))


def _transient(error: BaseException) -> bool:
    """Connection failures, timeouts, 429 and 5xx are worth another try; a 4xx is not."""
    if isinstance(error, UnexpectedResponse):
        return error.status_code is not None and (
            error.status_code == 429 or error.status_code >= 500
        )
    return isinstance(error, ResponseHandlingException | ConnectionError | TimeoutError)


def retrying(call: Callable[[], T]) -> T:
    """Run a write, retrying transient failures (5 tries, 0.2 s doubling to 5 s)."""
    wrapped = retry(
        retry=retry_if_exception(_transient),
        stop=stop_after_attempt(5),
        wait=wait_exponential(multiplier=0.2, max=5),
        reraise=True,
    )(call)
    return wrapped()


def _dense(vectors: Any) -> tuple[float, ...] | None:
    """The named dense vector of a returned point, if it came back."""
    if isinstance(vectors, dict) and DENSE in vectors:
        return tuple(float(x) for x in vectors[DENSE])
    return None


@dataclass(frozen=True, slots=True)
class StoredPoint:
    """What the collection holds for a passage, as a sync needs it."""

    passage_id: str
    group: str
    text_hash: str
    vector: tuple[float, ...] | None


@dataclass(frozen=True, slots=True)
class NewPoint:
    """A passage ready to write."""

    passage_id: str
    group: str
    text_hash: str
    vector: Sequence[float]
    sparse: SparseTerms


class QdrantCorpus:
    """One Qdrant collection holding one corpus (the catalog, or a collection generation)."""

    def __init__(
        self,
        client: QdrantClient,
        name: str,
        *,
        dimension: int,
        shards: int = 1,
        replicas: int = 1,
    ) -> None:
        """Nothing is created until `create` or a write."""
        self.client = client
        self.name = name
        self.dimension = dimension
        self.shards = shards
        self.replicas = replicas
        self._groups: dict[str, str] | None = None
        self._groups_lock = threading.Lock()
        self._point_ids = lru_cache(maxsize=FILTER_CACHE)(self._ids_of)

    # --- schema ------------------------------------------------------------------------

    def exists(self) -> bool:
        """Whether the collection is there."""
        return bool(self.client.collection_exists(self.name))

    def create(self, metadata: Mapping[str, Any]) -> None:
        """(Re)create the empty collection with both vectors and the payload indexes."""
        if self.exists():
            retrying(lambda: self.client.delete_collection(self.name))
        retrying(
            lambda: self.client.create_collection(
                self.name,
                vectors_config={
                    DENSE: models.VectorParams(size=self.dimension, distance=models.Distance.COSINE)
                },
                sparse_vectors_config={
                    SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)
                },
                shard_number=self.shards,
                replication_factor=self.replicas,
                metadata=dict(metadata),
            )
        )
        # A server uses payload indexes; local mode has none (it warns that they do nothing),
        # so they are not asked for there. Not silenced with `warnings.catch_warnings`: that
        # swaps the process's filters and is not thread-safe, and an upload job creates
        # collections on a worker thread while requests build pydantic models on others
        # (a warning FastAPI silences that way escaped once, as an error under pytest).
        if not _local_mode(self.client):
            for key in PAYLOAD_KEYS:
                retrying(
                    lambda key=key: self.client.create_payload_index(  # type: ignore[misc]
                        self.name, key, models.PayloadSchemaType.KEYWORD
                    )
                )
        self._forget()

    def metadata(self) -> dict[str, Any]:
        """The collection's metadata (model, dimension, corpus hash); IndexMissingError if none."""
        if not self.exists():
            raise IndexMissingError(
                f"no Qdrant collection {self.name!r}: run `lectern index` (or add the collection)"
            )
        info = self.client.get_collection(self.name)
        return dict(info.config.metadata or {})

    def set_metadata(self, metadata: Mapping[str, Any]) -> None:
        """Replace the collection's metadata keys given."""
        retrying(lambda: self.client.update_collection(self.name, metadata=dict(metadata)))

    def check_model(self, model_id: str) -> None:
        """Refuse a collection whose vectors came from another model or dimension."""
        found = self.metadata()
        if found.get("model_id") != model_id or found.get("dimension") != self.dimension:
            raise IndexMismatchError(
                f"the Qdrant collection {self.name!r} holds {found.get('model_id')} vectors "
                f"({found.get('dimension')} dimensions), but {model_id} ({self.dimension}) is "
                "configured: run `lectern index --rebuild`"
            )

    # --- writes ------------------------------------------------------------------------

    def stored(self, *, with_vectors: bool) -> Iterator[StoredPoint]:
        """Every point's passage id, group, text hash (and dense vector when asked)."""
        offset: Any = None
        while True:
            points, offset = self.client.scroll(
                self.name,
                limit=1_000,
                offset=offset,
                with_payload=list(PAYLOAD_KEYS),
                with_vectors=[DENSE] if with_vectors else False,
            )
            for point in points:
                payload = point.payload or {}
                vector = _dense(point.vector) if with_vectors else None
                yield StoredPoint(
                    str(payload.get("pid", point.id)),
                    str(payload.get("group", payload.get("pid", point.id))),
                    str(payload.get("hash", "")),
                    vector,
                )
            if offset is None:
                return

    def upsert(self, points: Sequence[NewPoint], batch: int = BATCH) -> None:
        """Write points in batches; a retried or repeated batch replaces the same points."""
        for start in range(0, len(points), batch):
            chunk = [
                models.PointStruct(
                    id=point_id(p.passage_id),
                    vector={
                        DENSE: [float(x) for x in p.vector],
                        SPARSE: models.SparseVector(
                            indices=list(p.sparse.indices), values=list(p.sparse.values)
                        ),
                    },
                    payload={"pid": p.passage_id, "group": p.group, "hash": p.text_hash},
                )
                for p in points[start : start + batch]
            ]
            retrying(lambda chunk=chunk: self.client.upsert(self.name, chunk, wait=True))  # type: ignore[misc]
        self._forget()

    def drop(self) -> None:
        """Delete the collection if it is there."""
        if self.exists():
            retrying(lambda: self.client.delete_collection(self.name))
        self._forget()

    # --- reads -------------------------------------------------------------------------

    def _forget(self) -> None:
        with self._groups_lock:
            self._groups = None

    def groups(self) -> dict[str, str]:
        """Passage id -> group of every point, read once (what one-per-work needs per hit)."""
        with self._groups_lock:
            if self._groups is None:
                self._groups = {p.passage_id: p.group for p in self.stored(with_vectors=False)}
            return self._groups

    def _ids_of(self, allowed: frozenset[str]) -> tuple[str, ...]:
        return tuple(point_id(p) for p in sorted(allowed))

    def query(
        self,
        query: models.SparseVector | list[float],
        using: str,
        k: int,
        allowed: Set[str] | None,
    ) -> list[tuple[str, float]]:
        """(passage id, score) of the top k points by one vector, only `allowed` when given."""
        known = self.groups()
        if k <= 0 or not known:
            return []
        if allowed is None:
            return self._query(query, using, k, None)
        wanted = allowed if isinstance(allowed, frozenset) else frozenset(allowed)
        present = len(wanted) if len(wanted) < len(known) else len(wanted & known.keys())
        if present == 0:
            return []
        if present > HAS_ID_MAX:
            limit = min(len(known), math.ceil(OVERFETCH * k * len(known) / present) + k)
            kept = [hit for hit in self._query(query, using, limit, None) if hit[0] in wanted]
            if len(kept) >= k or limit >= len(known):
                return kept[:k]
        only = models.Filter(must=[models.HasIdCondition(has_id=list(self._point_ids(wanted)))])
        hits = self._query(query, using, k, only)
        return [hit for hit in hits if hit[0] in wanted]  # belt and braces: never leak

    def _query(
        self,
        query: models.SparseVector | list[float],
        using: str,
        limit: int,
        where: models.Filter | None,
    ) -> list[tuple[str, float]]:
        response = self.client.query_points(
            self.name,
            query=query,
            using=using,
            limit=limit,
            query_filter=where,
            with_payload=["pid"],
        )
        return [
            (str((p.payload or {}).get("pid", p.id)), float(p.score))
            for p in response.points
            if p.score > 0 or using == DENSE
        ]

    def vectors(self, passage_ids: Sequence[str]) -> dict[str, tuple[float, ...]]:
        """Stored dense vectors of these passages (absent ones left out)."""
        if not passage_ids:
            return {}
        records = self.client.retrieve(
            self.name,
            ids=[point_id(p) for p in passage_ids],
            with_payload=["pid"],
            with_vectors=[DENSE],
        )
        found: dict[str, tuple[float, ...]] = {}
        for record in records:
            vector = _dense(record.vector)
            if vector is not None:
                found[str((record.payload or {}).get("pid", record.id))] = vector
        return found
