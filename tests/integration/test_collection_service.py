"""The collection service on real adapters (SQLite, bm25s, FAISS), hashed-word vectors."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from lectern.application.collections import CollectionService
from lectern.application.ports import CollectionRecord, StoredDocument
from lectern.domain.documents import is_valid_passage_citation
from lectern.domain.snippets import locate_snippet
from lectern.errors import (
    CollectionInputError,
    CollectionNotFoundError,
    InvalidQueryError,
    MappingError,
)
from tests.collection_wiring import SHARED, collection_service, index_generations
from tests.fakes import HashingArrayEmbedder, RecordingProgress

KB = SHARED / "kb" / "fastapi-docs"


def _kb_copy(tmp_path: Path, names: Sequence[str]) -> Path:
    """A few real FastAPI pages in a folder of their own, with the examples they include."""
    root = tmp_path / "site"
    for name in names:
        target = root / "docs" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(KB / "docs" / name, target)
    shutil.copytree(KB / "docs_src" / "query_params", root / "docs_src" / "query_params")
    return root / "docs"


@pytest.fixture
def embedder() -> HashingArrayEmbedder:
    return HashingArrayEmbedder()


@pytest.fixture
def service(tmp_path: Path, embedder: HashingArrayEmbedder) -> CollectionService:
    return collection_service(tmp_path / "var", embedder)


def test_add_search_and_cite(tmp_path: Path, service: CollectionService) -> None:
    docs = _kb_copy(tmp_path, ["tutorial/query-params.md", "tutorial/path-params.md"])
    progress = RecordingProgress()
    report = service.add("kb", docs, progress=progress)
    assert (report.added, report.documents, report.changed) == (2, 2, True)
    assert report.passages == report.new_passages > 4
    assert progress.stages[0].startswith("reading")
    response = service.search("kb", "optional query parameters default None")
    top = response.results[0]
    assert top.document.uri == "tutorial/query-params.md"
    best = top.passages[0]
    assert best.label.startswith("[kb:tutorial/query-params.md#")
    assert is_valid_passage_citation(best.snippet.text, best.passage)
    resolution = service.resolve(best.label, best.snippet.text)
    assert resolution.snippet_at is not None
    start, end = resolution.snippet_at
    assert resolution.start <= start < end <= resolution.end
    view = service.document("kb", top.document.id)
    for passage, label in view.passages:
        assert view.document.text[passage.start : passage.end] == passage.text
        assert label.startswith("[kb:tutorial/")


def test_re_adding_is_incremental(
    tmp_path: Path, service: CollectionService, embedder: HashingArrayEmbedder
) -> None:
    docs = _kb_copy(tmp_path, ["tutorial/query-params.md", "tutorial/path-params.md"])
    first = service.add("kb", docs)
    embedded = embedder.embedded
    again = service.add("kb", docs)
    assert (again.changed, again.unchanged, again.index) == (False, 2, None)
    assert embedder.embedded == embedded
    page = docs / "tutorial" / "path-params.md"
    page.write_text(page.read_text() + "\n\nA new closing paragraph about paths.\n")
    changed = service.add("kb", docs)
    assert (changed.updated, changed.unchanged) == (1, 1)
    assert changed.index is not None
    assert changed.index.embedded < first.passages  # only the changed document's passages
    assert embedder.embedded - embedded == changed.index.embedded
    page.unlink()
    removed = service.add("kb", docs)
    assert (removed.removed, removed.documents) == (1, 1)
    hits = service.search("kb", "path parameters").results
    assert {h.document.uri for h in hits} == {"tutorial/query-params.md"}


class _CrashingStore:
    """The real store, except that `commit` dies (as a killed process would)."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def commit(
        self, record: CollectionRecord, upserts: Sequence[StoredDocument], removed: Sequence[str]
    ) -> None:
        del record, upserts, removed
        raise KeyboardInterrupt("killed mid-add")


def test_an_add_killed_before_its_commit_leaves_the_collection_as_it_was(
    tmp_path: Path, service: CollectionService
) -> None:
    docs = _kb_copy(tmp_path, ["tutorial/query-params.md"])
    service.add("kb", docs)
    before = service.search("kb", "query parameters")
    (summary,) = service.summaries()
    shutil.copy(KB / "docs" / "tutorial" / "path-params.md", docs / "tutorial" / "path-params.md")
    real_store = service.store
    service.store = _CrashingStore(real_store)  # type: ignore[assignment]
    with pytest.raises(KeyboardInterrupt):
        service.add("kb", docs)
    service.store = real_store
    (after_summary,) = service.summaries()
    assert after_summary.documents == summary.documents == 1
    assert after_summary.record.generation == summary.record.generation
    after = service.search("kb", "query parameters")
    assert [p.label for h in after.results for p in h.passages] == [
        p.label for h in before.results for p in h.passages
    ]
    completed = service.add("kb", docs)  # the next add cleans up and completes
    assert completed.documents == 2
    generations = index_generations(tmp_path / "var", "kb")
    assert generations == [str(after_summary.record.generation + 1)]


def test_records_filters_and_similar(tmp_path: Path, service: CollectionService) -> None:
    catalog = json.loads(
        (SHARED / "threat/cisa-kev/known_exploited_vulnerabilities.json").read_text()
    )
    catalog["vulnerabilities"] = catalog["vulnerabilities"][:200]
    path = tmp_path / "kev.json"
    path.write_text(json.dumps(catalog))
    report = service.add("threat", path, mapping="cisa-kev")
    assert report.documents == 200
    microsoft = service.search("threat", "privilege escalation", where=["vendor=Microsoft"], k=20)
    assert microsoft.results
    assert all(h.document.metadata["vendor"] == "Microsoft" for h in microsoft.results)
    dated = service.search(
        "threat", "vulnerability", where=["date_added=2025-08-01..2025-08-31"], k=50
    )
    assert dated.results
    assert all(str(h.document.metadata["date_added"]).startswith("2025-08") for h in dated.results)
    first = dated.results[0]
    assert first.passages[0].label == f"[{first.document.metadata['id']}]"
    with pytest.raises(InvalidQueryError, match="no filter 'colour'"):
        service.search("threat", "x", where=["colour=red"])
    similar = service.similar("threat", first.document.id, k=5)
    assert len(similar.results) == 5
    assert first.document.id not in {h.document.id for h in similar.results}
    resolution = service.resolve(first.passages[0].label)
    assert resolution.text == resolution.document.text


def test_bad_inputs_are_clear_errors_and_write_nothing(
    tmp_path: Path, service: CollectionService
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CollectionInputError, match="no readable document"):
        service.add("kb", empty)
    (empty / "image.md").write_bytes(b"\x00\x01" * 100)
    with pytest.raises(CollectionInputError, match=r"image\.md: binary content"):
        service.add("kb", empty)
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"id": "a", "body": "text"}\n')
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text("id: id\ntitle: '{id}'\ntext: '{bodi}'\n")
    with pytest.raises(MappingError, match="bodi"):
        service.add("records", rows, mapping=str(mapping))
    with pytest.raises(CollectionInputError, match="invalid collection name"):
        service.add("Bad Name", rows)
    assert service.summaries() == []
    with pytest.raises(CollectionNotFoundError):
        service.search("kb", "anything")


def test_remove_deletes_rows_and_indexes(tmp_path: Path, service: CollectionService) -> None:
    docs = _kb_copy(tmp_path, ["tutorial/query-params.md"])
    service.add("kb", docs)
    service.remove("kb")
    assert service.summaries() == []
    assert index_generations(tmp_path / "var", "kb") == []
    with pytest.raises(CollectionNotFoundError):
        service.remove("kb")


def test_snippet_offsets_survive_a_reload(tmp_path: Path, embedder: HashingArrayEmbedder) -> None:
    docs = _kb_copy(tmp_path, ["tutorial/query-params.md"])
    collection_service(tmp_path / "var", embedder).add("kb", docs)
    fresh = collection_service(tmp_path / "var", embedder)
    hit = fresh.search("kb", "bool type conversion").results[0].passages[0]
    document = fresh.document("kb", hit.passage.document_id).document
    found = locate_snippet(document.text, hit.snippet.text, hit.passage.start, hit.passage.end)
    assert found is not None


def test_the_same_flow_on_sqlite_and_postgresql(tmp_path: Path, catalog_url: str) -> None:
    service = collection_service(tmp_path / "var", url=catalog_url)
    try:
        docs = _kb_copy(tmp_path, ["tutorial/query-params.md", "tutorial/path-params.md"])
        assert service.add("kb", docs).documents == 2
        assert service.add("kb", docs).changed is False
        hit = service.search("kb", "path parameters with types", where=["format=markdown"])
        label = hit.results[0].passages[0].label
        assert service.resolve(label).document.collection == "kb"
        (summary,) = service.summaries()
        assert (summary.documents, summary.record.generation) == (2, 1)
        service.remove("kb")
        assert service.summaries() == []
    finally:
        service.store.engine.dispose()  # type: ignore[attr-defined]
