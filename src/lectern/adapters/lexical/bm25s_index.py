"""BM25 with bm25s: a stemmed, stop-worded sparse index saved to disk and memory-mapped."""

from __future__ import annotations

import json
from collections.abc import Sequence, Set
from functools import lru_cache
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import numpy.typing as npt
import Stemmer
from bm25s.tokenization import Tokenizer

from lectern.domain.retrieval import Passage, ScoredId
from lectern.errors import IndexMissingError

FILTER_CACHE = 64
"""Distinct filter sets whose masks are kept between searches."""
BM25_METHOD = "lucene"
"""Lucene's IDF, log(1 + (N - n + .5) / (n + .5)), is never negative."""


def make_tokenizer() -> Tokenizer:
    """Lower-cased words of 2+ characters, English stop words removed, Snowball-stemmed."""
    return Tokenizer(stemmer=Stemmer.Stemmer("english"), stopwords="en")


class Bm25sLexicalIndex:
    """A bm25s index with its tokenizer vocabulary and the passages' ids and groups."""

    def __init__(
        self, retriever: Any, tokenizer: Tokenizer, ids: list[str], groups: list[str]
    ) -> None:
        """Use `build` or `load` rather than this constructor."""
        self._retriever = retriever
        self._tokenizer = tokenizer
        self._ids = ids
        self._groups = dict(zip(ids, groups, strict=True))
        self._row = {pid: row for row, pid in enumerate(ids)}
        # Searches repeat the same few filters (a language, a decade): their masks are kept.
        self._mask = lru_cache(maxsize=FILTER_CACHE)(self._weight_mask)

    @classmethod
    def build(
        cls,
        passages: Sequence[Passage],
        *,
        method: str = BM25_METHOD,
        k1: float = 1.5,
        b: float = 0.75,
    ) -> Bm25sLexicalIndex:
        """Index the passages' lexical text."""
        tokenizer = make_tokenizer()
        tokens = tokenizer.tokenize(
            [p.text for p in passages], update_vocab=True, return_as="tuple", show_progress=False
        )
        retriever = bm25s.BM25(method=method, k1=k1, b=b)
        retriever.index(tokens, show_progress=False)
        return cls(retriever, tokenizer, [p.id for p in passages], [p.group for p in passages])

    def save(self, directory: Path) -> None:
        """Write the index, vocabulary and passage list into `directory`."""
        directory.mkdir(parents=True, exist_ok=True)
        self._retriever.save(str(directory), show_progress=False)
        self._tokenizer.save_vocab(str(directory))
        self._tokenizer.save_stopwords(str(directory))
        payload = {"ids": self._ids, "groups": [self._groups[i] for i in self._ids]}
        (directory / "passages.json").write_text(json.dumps(payload), encoding="utf-8")

    @classmethod
    def load(cls, directory: Path) -> Bm25sLexicalIndex:
        """Open a saved index with its matrices memory-mapped."""
        listing = directory / "passages.json"
        if not listing.is_file():
            raise IndexMissingError(
                f"no lexical index in {directory}: run `lectern index` to build it"
            )
        retriever = bm25s.BM25.load(str(directory), mmap=True, show_progress=False)
        tokenizer = make_tokenizer()
        tokenizer.load_vocab(str(directory))
        tokenizer.load_stopwords(str(directory))
        payload = json.loads(listing.read_text(encoding="utf-8"))
        return cls(retriever, tokenizer, payload["ids"], payload["groups"])

    def _weight_mask(self, allowed: frozenset[str]) -> npt.NDArray[np.float32]:
        """1 for allowed passages, 0 for the rest, as bm25s's `weight_mask` wants."""
        mask = np.zeros(len(self._ids), dtype=np.float32)
        mask[[self._row[i] for i in allowed if i in self._row]] = 1.0
        return mask

    def __len__(self) -> int:
        """Number of passages."""
        return len(self._ids)

    def group_of(self, passage_id: str) -> str:
        """The passage's group, or its own id when unknown."""
        return self._groups.get(passage_id, passage_id)

    def search(self, query: str, k: int, allowed: Set[str] | None = None) -> list[ScoredId]:
        """Top k passages with a positive BM25 score."""
        if k <= 0 or not self._ids:
            return []
        ids = self._tokenizer.tokenize(
            [query], update_vocab=False, return_as="ids", show_progress=False
        )
        if not any(token != 0 for token in ids[0]):
            return []  # nothing but stop words or words the corpus never uses
        mask = None
        if allowed is not None:
            mask = self._mask(allowed if isinstance(allowed, frozenset) else frozenset(allowed))
            if not mask.any():
                return []
        # `retrieve` starts a thread pool per call (0.3 ms of a 3 ms query); one query needs
        # only the score vector, and a top-k with ties broken by row keeps runs repeatable.
        scores = self._retriever.get_scores_from_ids(list(ids[0]), weight_mask=mask)
        top = min(k, len(scores))
        best = np.argpartition(-scores, top - 1)[:top]
        ordered = best[np.lexsort((best, -scores[best]))]
        return [
            ScoredId(self._ids[int(row)], float(scores[row])) for row in ordered if scores[row] > 0
        ]
