"""BM25 as sparse vectors: the terms and term-frequency part bm25s uses; the engine adds IDF.

Qdrant's IDF modifier computes ln(1 + (N - n + 0.5) / (n + 0.5)) at query time, which is
bm25s's Lucene IDF (`BM25_METHOD`). A document's value for a term is bm25s's term-frequency
component, tf / (tf + k1 * (1 - b + b * dl / avgdl)), and a query's is how often it says the
term, so the engine's dot product is the bm25s score of the same text.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from lectern.adapters.lexical.bm25s_index import make_tokenizer

K1 = 1.5
B = 0.75
"""bm25s's parameters as `Bm25sLexicalIndex.build` uses them."""


@dataclass(frozen=True, slots=True)
class SparseTerms:
    """A sparse vector: term indices and their weights."""

    indices: tuple[int, ...]
    values: tuple[float, ...]


def stemmed_terms(texts: Sequence[str]) -> list[list[str]]:
    """The stemmed, stop-worded terms bm25s indexes for each text ("" for a text with none)."""
    tokenizer = make_tokenizer()
    terms: list[list[str]] = tokenizer.tokenize(
        list(texts), update_vocab=True, return_as="string", show_progress=False
    )
    return terms


def term_index(term: str) -> int:
    """A stable 32-bit index for a term (Qdrant's sparse indices are u32).

    Hashing needs no vocabulary shared between writers and readers; with 100k distinct
    stems about one pair collides, which merges their document frequencies.
    """
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=4).digest(), "big")


def _sparse(weights: dict[int, float]) -> SparseTerms:
    ordered = sorted(weights.items())
    return SparseTerms(tuple(i for i, _ in ordered), tuple(v for _, v in ordered))


def _weights(counts: Counter[str], factor: float) -> SparseTerms:
    weights: dict[int, float] = {}
    for term, tf in counts.items():
        if term:  # two terms sharing an index (a hash collision) add up
            index = term_index(term)
            weights[index] = weights.get(index, 0.0) + tf / (tf + factor)
    return _sparse(weights)


def encode_documents(texts: Sequence[str], k1: float = K1, b: float = B) -> list[SparseTerms]:
    """BM25 term-frequency weights of each document, normalised by the corpus's mean length.

    A document with no term counts as length 1, as in bm25s (it holds the empty token).
    """
    terms = stemmed_terms(texts)
    lengths = [max(1, len(t)) for t in terms]
    mean = sum(lengths) / len(lengths) if lengths else 1.0
    return [
        _weights(Counter(t), k1 * (1 - b + b * length / mean))
        for t, length in zip(terms, lengths, strict=True)
    ]


def encode_query(text: str) -> SparseTerms:
    """Each query term with how often the query says it."""
    weights: dict[int, float] = {}
    for term in stemmed_terms([text])[0]:
        if term:
            index = term_index(term)
            weights[index] = weights.get(index, 0.0) + 1.0
    return _sparse(weights)
