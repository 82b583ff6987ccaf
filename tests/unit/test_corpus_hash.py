"""The corpus hash both engines store: its values must not move (stored markers use them)."""

import hashlib
import json

from lectern.domain.retrieval import Passage, corpus_hash

PASSAGES = [Passage("a", "Dune, a desert planet", "Dune", "w1"), Passage("b", "Emma", "Emma", "w2")]


def _sha(rows: list[list[str]]) -> str:
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(row).encode("utf-8"))
    return digest.hexdigest()


def test_the_hash_is_the_one_the_stored_markers_were_written_with() -> None:
    full = [[p.id, p.text, p.embed_text, p.group] for p in PASSAGES]
    lexical = [[p.id, p.text, p.group] for p in PASSAGES]
    assert corpus_hash(PASSAGES) == _sha(full)
    assert corpus_hash(PASSAGES, with_embed_text=False) == _sha(lexical)


def test_only_the_full_hash_sees_the_embed_text() -> None:
    changed = [PASSAGES[0], Passage("b", "Emma", "Emma by Jane Austen", "w2")]
    assert corpus_hash(changed) != corpus_hash(PASSAGES)
    assert corpus_hash(changed, with_embed_text=False) == corpus_hash(
        PASSAGES, with_embed_text=False
    )
