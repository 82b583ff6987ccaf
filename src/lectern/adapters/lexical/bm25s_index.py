"""BM25 with bm25s: a stemmed, stop-worded sparse index saved to disk and memory-mapped."""

from __future__ import annotations

import json
from collections.abc import Sequence, Set
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import Stemmer
from bm25s.tokenization import Tokenizer

from lectern.domain.retrieval import Passage, ScoredId
from lectern.errors import IndexMissingError

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
            rows = [self._row[i] for i in allowed if i in self._row]
            if not rows:
                return []
            mask = np.zeros(len(self._ids), dtype=np.float32)
            mask[rows] = 1.0
        documents, scores = self._retriever.retrieve(
            ids, k=min(k, len(self._ids)), show_progress=False, weight_mask=mask, n_threads=1
        )
        return [
            ScoredId(self._ids[int(doc)], float(score))
            for doc, score in zip(documents[0], scores[0], strict=True)
            if score > 0
        ]
