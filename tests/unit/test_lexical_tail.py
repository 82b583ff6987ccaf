"""A lexical tail deepens the candidate list without changing what fusion ranks first."""

from __future__ import annotations

from lectern.application.hybrid_retrieval import HybridRetriever, SearchConfig
from tests.fakes import FakeEmbedder, FakeLexicalIndex, FakeVectorIndex

VOCAB = ["heist", "city", "magic", "sea", "dragon"]
# Twelve passages with one to three of the query's words: BM25 ranks them 3 words first.
TEXTS = {f"p{n:02d}": " ".join(["heist", "city", "magic"][: 1 + n % 3]) for n in range(12)}


def _retriever(tail: int) -> HybridRetriever:
    config = SearchConfig(fusion="convex", candidate_pool=4, lexical_tail=tail)
    return HybridRetriever(
        FakeLexicalIndex(TEXTS),
        FakeVectorIndex(FakeEmbedder(VOCAB), TEXTS),
        FakeEmbedder(VOCAB),
        config,
    )


def test_the_tail_follows_the_fused_pool_in_bm25_order() -> None:
    plain = _retriever(0).retrieve(["heist city magic"]).hits
    deep = _retriever(5).retrieve(["heist city magic"]).hits
    assert [h.id for h in deep[: len(plain)]] == [h.id for h in plain]
    assert [h.score for h in deep[: len(plain)]] == [h.score for h in plain]
    added = deep[len(plain) :]
    assert added and len(added) <= 5
    assert not {h.id for h in added} & {h.id for h in plain}
    assert all(h.score <= plain[-1].score for h in added)
    ranks = [h.ranks["lexical"] for h in added]
    assert ranks == sorted(ranks) and ranks[0] > 2  # past the two lexical places of the pool


def test_a_filter_smaller_than_the_pool_leaves_no_tail() -> None:
    allowed = frozenset({"p00", "p01", "p02"})
    hits = _retriever(50).retrieve(["heist city magic"], allowed=allowed).hits
    assert {h.id for h in hits} <= allowed
