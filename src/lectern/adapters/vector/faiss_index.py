"""FAISS inner-product search over unit vectors: exact below a size, HNSW above.

On disk (one folder): `manifest.json` (format, model id, dimension, count, index type, ids
and a content hash per passage), `vectors.npy` (float32 rows in id order, memory-mapped
at load) and, for HNSW, `faiss.index`.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Iterator, Sequence, Set
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import faiss
import numpy as np
import numpy.typing as npt

from lectern.application.ports import Embedder, ProgressReporter, Vector
from lectern.domain.retrieval import Passage, ScoredId
from lectern.errors import IndexMismatchError, IndexMissingError

FORMAT = 1
_FAISS: Any = faiss
"""FAISS untyped: its stubs lack the search-parameter keywords the wrappers accept."""
SELECTIVE_SHARE = 0.2
"""Filters letting through at most this share of passages are searched exactly."""
FILTER_CACHE = 64
"""Distinct filter sets whose rows are kept between searches."""


@contextmanager
def _one_thread() -> Iterator[None]:
    """FAISS's OpenMP threads for a single query cost more than they give.

    Each search wakes every thread for a few microseconds of work; on 2 cores the wake-up and
    the spin afterwards took a flat search of 19,500 vectors from 1 ms to 3-10 ms. Index
    builds (many vectors at once) keep all threads.
    """
    previous = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(previous)


class ArrayEmbedder(Embedder, Protocol):
    """An embedder that can also hand whole arrays to the index builder."""

    def embed_array(
        self, texts: Sequence[str], progress: ProgressReporter | None = None
    ) -> npt.NDArray[np.float32]:
        """Unit vectors, one row per text."""
        ...


def text_hash(text: str) -> str:
    """The content hash a passage's vector is kept under."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _rebuild_hint(directory: Path, found: str, wanted: str) -> IndexMismatchError:
    return IndexMismatchError(
        f"the vector index in {directory} was built with {found}, but {wanted} is configured: "
        "run `lectern index --rebuild`"
    )


@dataclass(frozen=True, slots=True)
class VectorSync:
    """What a vector sync did."""

    embedded: int
    reused: int
    removed: int
    index_type: str
    changed: bool


class FaissVectorIndex:
    """Nearest neighbours by inner product (cosine, as vectors are unit length)."""

    def __init__(
        self,
        vectors: npt.NDArray[np.float32],
        ids: list[str],
        model_id: str,
        index: Any,
        index_type: str,
    ) -> None:
        """Use `load` or `from_vectors`."""
        self._vectors = vectors
        self._ids = ids
        self._row = {pid: row for row, pid in enumerate(ids)}
        self._model_id = model_id
        self._index = index
        self.index_type = index_type
        self._ef_search = int(getattr(getattr(index, "hnsw", None), "efSearch", 0) or 64)
        # Searches repeat the same few filters (a language, a decade): their rows are kept.
        self._filter = lru_cache(maxsize=FILTER_CACHE)(self._rows_and_bitmap)

    @property
    def model_id(self) -> str:
        """The embedding model of the stored vectors."""
        return self._model_id

    @staticmethod
    def make_index(
        vectors: npt.NDArray[np.float32], exact_max: int, hnsw_m: int
    ) -> tuple[Any, str]:
        """A flat index below `exact_max` vectors, HNSW (M = hnsw_m) above."""
        dimension = vectors.shape[1]
        if len(vectors) <= exact_max:
            index: Any = faiss.IndexFlatIP(dimension)
            kind = "flat"
        else:
            index = faiss.IndexHNSWFlat(dimension, hnsw_m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = 80
            kind = f"hnsw{hnsw_m}"
        if len(vectors):
            index.add(np.ascontiguousarray(vectors))
        return index, kind

    @classmethod
    def from_vectors(
        cls,
        vectors: npt.NDArray[np.float32],
        ids: list[str],
        model_id: str,
        *,
        exact_max: int = 100_000,
        hnsw_m: int = 32,
    ) -> FaissVectorIndex:
        """An in-memory index over these rows."""
        index, kind = cls.make_index(vectors, exact_max, hnsw_m)
        return cls(vectors, ids, model_id, index, kind)

    @classmethod
    def load(
        cls, directory: Path, model_id: str, dimension: int, *, ef_search: int = 64
    ) -> FaissVectorIndex:
        """Open a stored index; refuse one built with another model or dimension."""
        manifest = read_manifest(directory)
        if manifest is None:
            raise IndexMissingError(f"no vector index in {directory}: run `lectern index`")
        if manifest.get("format") != FORMAT:
            raise _rebuild_hint(directory, f"format {manifest.get('format')}", f"format {FORMAT}")
        if manifest["model_id"] != model_id or manifest["dimension"] != dimension:
            raise _rebuild_hint(
                directory,
                f"{manifest['model_id']} ({manifest['dimension']} dimensions)",
                f"{model_id} ({dimension} dimensions)",
            )
        vectors = np.load(directory / "vectors.npy", mmap_mode="r")
        ids = list(manifest["ids"])
        if vectors.shape != (len(ids), dimension):
            raise _rebuild_hint(directory, f"a damaged index {vectors.shape}", "a whole one")
        kind = manifest["index_type"]
        if kind == "flat":
            index: Any = faiss.IndexFlatIP(dimension)
            if len(ids):
                index.add(np.ascontiguousarray(vectors))
        else:
            index = faiss.read_index(str(directory / "faiss.index"))
            index.hnsw.efSearch = ef_search
        return cls(vectors, ids, model_id, index, kind)

    def __len__(self) -> int:
        """Number of vectors."""
        return len(self._ids)

    def vector_of(self, passage_id: str) -> Vector | None:
        """The stored vector of a passage."""
        row = self._row.get(passage_id)
        return None if row is None else tuple(float(x) for x in self._vectors[row])

    def search(self, vector: Vector, k: int, allowed: Set[str] | None = None) -> list[ScoredId]:
        """Top k by inner product among the allowed passages.

        Filters that keep few passages are scored exactly on their rows; wider ones search
        the index with an ID selector, so FAISS never returns a passage the filter excludes.
        """
        if k <= 0 or not self._ids:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        params = None
        if allowed is not None:
            rows, bitmap = self._filter(
                allowed if isinstance(allowed, frozenset) else frozenset(allowed)
            )
            if len(rows) == 0:
                return []
            if len(rows) <= SELECTIVE_SHARE * len(self._ids):
                return self._exact(query[0], rows, k)
            # The bitmap stays alive in the filter cache while FAISS reads it.
            selector = _FAISS.IDSelectorBitmap(len(self._ids), _FAISS.swig_ptr(bitmap))
            if self.index_type == "flat":
                params = _FAISS.SearchParameters(sel=selector)
            else:
                params = _FAISS.SearchParametersHNSW(
                    sel=selector, efSearch=max(self._ef_search, 2 * k)
                )
        with _one_thread():
            scores, rows_found = self._index.search(query, min(k, len(self._ids)), params=params)
        hits = [
            ScoredId(self._ids[int(row)], float(score))
            for row, score in zip(rows_found[0], scores[0], strict=True)
            if row >= 0
        ]
        if allowed is not None and len(hits) < min(k, len(rows)):
            return self._exact(query[0], rows, k)  # HNSW's walk ran out of allowed neighbours
        return hits

    def _rows_and_bitmap(
        self, allowed: frozenset[str]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """Sorted rows of the allowed passages and the same set as a FAISS bitmap."""
        rows = np.asarray(sorted(self._row[i] for i in allowed if i in self._row), dtype=np.int64)
        member = np.zeros(len(self._ids), dtype=bool)
        member[rows] = True
        return rows, np.packbits(member, bitorder="little")

    def _exact(
        self, query: npt.NDArray[np.float32], rows: npt.NDArray[np.int64], k: int
    ) -> list[ScoredId]:
        if len(rows) == 0:
            return []
        scores = np.asarray(self._vectors[rows]) @ query
        top = min(k, len(rows))
        best = np.argpartition(-scores, top - 1)[:top]
        ordered = best[np.lexsort((rows[best], -scores[best]))]
        return [ScoredId(self._ids[int(rows[i])], float(scores[i])) for i in ordered]

    def similarities(self, passage_ids: Sequence[str]) -> list[list[float]]:
        """Pairwise cosine similarities; a passage without a vector is 0 to the others."""
        matrix = np.zeros((len(passage_ids), self._vectors.shape[1]), dtype=np.float32)
        found = [(i, self._row[p]) for i, p in enumerate(passage_ids) if p in self._row]
        if found:
            positions, rows = zip(*found, strict=True)
            matrix[list(positions)] = self._vectors[list(rows)]  # one gather, not one per row
        result: list[list[float]] = (matrix @ matrix.T).tolist()
        return result


def read_manifest(directory: Path) -> dict[str, Any] | None:
    """The stored manifest, or None when there is no index."""
    path = directory / "manifest.json"
    if not path.is_file():
        return None
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise IndexMismatchError(
            f"the vector index manifest {path} is unreadable ({error}): "
            "run `lectern index --rebuild`"
        ) from error
    return data


def sync_vectors(
    directory: Path,
    passages: Sequence[Passage],
    embedder: Callable[[], ArrayEmbedder],
    *,
    model_id: str,
    dimension: int,
    rebuild: bool = False,
    exact_max: int = 100_000,
    hnsw_m: int = 32,
    progress: ProgressReporter | None = None,
) -> VectorSync:
    """Make the stored vectors match the passages, embedding only new or changed text.

    The embedder is built only if something must be embedded. The new index is written
    beside the old one and swapped in only when complete, so a crash leaves the previous
    index usable.
    """
    manifest = None if rebuild else read_manifest(directory)
    if manifest is not None and (
        manifest.get("format") != FORMAT
        or manifest["model_id"] != model_id
        or manifest["dimension"] != dimension
    ):
        raise _rebuild_hint(
            directory, f"{manifest['model_id']} ({manifest['dimension']} dims)", model_id
        )
    hashes = [text_hash(p.embed_text) for p in passages]
    ids = [p.id for p in passages]
    old_rows: dict[str, int] = {}
    old_vectors: npt.NDArray[np.float32] | None = None
    if manifest is not None:
        if manifest["ids"] == ids and manifest["hashes"] == hashes:
            kind = str(manifest["index_type"])
            return VectorSync(0, len(ids), 0, kind, changed=False)
        old_vectors = np.load(directory / "vectors.npy", mmap_mode="r")
        wanted = dict(zip(ids, hashes, strict=True))
        old_rows = {
            pid: row
            for row, (pid, digest) in enumerate(
                zip(manifest["ids"], manifest["hashes"], strict=True)
            )
            if wanted.get(pid) == digest
        }
    vectors = np.zeros((len(passages), dimension), dtype=np.float32)
    todo = [i for i, pid in enumerate(ids) if pid not in old_rows]
    for position, pid in enumerate(ids):
        if pid in old_rows and old_vectors is not None:
            vectors[position] = old_vectors[old_rows[pid]]
    if progress is not None:
        progress.start("embedding", len(todo))
    if todo:
        model = embedder()
        if model.model_id != model_id or model.dimension != dimension:
            raise _rebuild_hint(directory, f"{model_id} ({dimension} dims)", model.model_id)
        vectors[todo] = model.embed_array([passages[i].embed_text for i in todo], progress)
    removed = 0 if manifest is None else len(set(manifest["ids"]) - set(ids))
    if progress is not None:
        progress.start("building the vector index", None)
    index, kind = FaissVectorIndex.make_index(vectors, exact_max, hnsw_m)
    staging = directory.with_name(directory.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    np.save(staging / "vectors.npy", vectors)
    if kind != "flat":
        faiss.write_index(index, str(staging / "faiss.index"))
    new_manifest = {
        "format": FORMAT,
        "model_id": model_id,
        "dimension": dimension,
        "count": len(ids),
        "index_type": kind,
        "ids": ids,
        "hashes": hashes,
    }
    (staging / "manifest.json").write_text(json.dumps(new_manifest), encoding="utf-8")
    swap_in(staging, directory)
    return VectorSync(len(todo), len(ids) - len(todo), removed, kind, changed=True)


class StoredVectorEmbedder:
    """An embedder answering from a stored vector index's rows, by text hash.

    Moves an index to another engine without embedding again (`lectern migrate`, the
    engine parity bench); text the index lacks goes to `fallback`, built on first need.
    """

    def __init__(self, directory: Path, fallback: Callable[[], ArrayEmbedder]) -> None:
        """Reads the manifest; the rows stay memory-mapped."""
        manifest = read_manifest(directory)
        if manifest is None:
            raise IndexMissingError(f"no vector index in {directory}: run `lectern index`")
        self._rows = np.load(directory / "vectors.npy", mmap_mode="r")
        self._by_hash = {digest: row for row, digest in enumerate(manifest["hashes"])}
        self.model_id = str(manifest["model_id"])
        self.dimension = int(manifest["dimension"])
        self._fallback = fallback
        self.embedded = 0
        """Texts the stored index lacked, embedded by the fallback."""

    def embed_array(
        self, texts: Sequence[str], progress: ProgressReporter | None = None
    ) -> npt.NDArray[np.float32]:
        """Stored rows in order; missing texts embedded by the fallback."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        missing = []
        for position, text in enumerate(texts):
            row = self._by_hash.get(text_hash(text))
            if row is None:
                missing.append(position)
            else:
                out[position] = self._rows[row]
        if missing:
            self.embedded += len(missing)
            out[missing] = self._fallback().embed_array([texts[i] for i in missing], progress)
        elif progress is not None:
            progress.advance(len(texts))
        return out

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """Unit vectors as tuples."""
        return [tuple(float(x) for x in row) for row in self.embed_array(texts)]


def swap_in(staging: Path, directory: Path) -> None:
    """Replace `directory` by the complete `staging` folder."""
    retired = directory.with_name(directory.name + ".old")
    shutil.rmtree(retired, ignore_errors=True)
    if directory.exists():
        directory.rename(retired)
    staging.rename(directory)
    shutil.rmtree(retired, ignore_errors=True)
