"""A knowledge-base index belongs to one collection, not to a name and a generation.

A collection removed and added again from other files starts at generation 1 again; the
index of the old one (its source ids, its summaries) must not pass for the new one. Found
when `fastapi` was re-added from another folder and every support question was refused:
the stored index's sources were the old documents, none of which the new collection has.
"""

from __future__ import annotations

from pathlib import Path

from tests.answering_world import kb_sources, knowledge_bases
from tests.collection_wiring import collection_service


def test_an_index_of_a_removed_collection_is_not_reused_for_its_successor(
    tmp_path: Path,
) -> None:
    service = collection_service(tmp_path / "data")
    docs, _, _ = kb_sources(tmp_path / "sources")
    service.add("kb", docs)
    assert service.store.get("kb").generation == 1  # type: ignore[union-attr]
    first = knowledge_bases(service, tmp_path / "kb").get("kb")
    old_ids = {s.source_id for s in first.index.sources}
    assert any(i.startswith("team:") for i in old_ids)

    service.remove("kb")
    other = tmp_path / "other"
    other.mkdir()
    (other / "runbook.md").write_text(
        "# Runbook\n\nRotate the signing keys every ninety days and record who did it.\n",
        encoding="utf-8",
    )
    service.add("kb", other)
    assert service.store.get("kb").generation == 1  # type: ignore[union-attr]

    # A new process: the index on disk is the old collection's, at the same generation.
    again = knowledge_bases(service, tmp_path / "kb").get("kb")
    assert {s.title for s in again.index.sources} == {"Runbook"}
    assert not {s.source_id for s in again.index.sources} & old_ids


def test_a_collection_of_pages_is_read_as_pages_and_one_with_records_is_not(
    tmp_path: Path,
) -> None:
    """The answer check reads documentation at its pages threshold: a knowledge base is
    pages until records come in through a mapping (then the stricter threshold holds)."""
    service = collection_service(tmp_path / "data")
    docs, faq, mapping = kb_sources(tmp_path / "sources")
    service.add("kb", docs)
    assert knowledge_bases(service, tmp_path / "kb").get("kb").pages
    service.add("kb", faq, mapping=str(mapping))
    assert not knowledge_bases(service, tmp_path / "kb").get("kb").pages
