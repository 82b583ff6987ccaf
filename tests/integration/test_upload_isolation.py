"""One upload cannot stall the others: per-collection write locks, a text-length limit, and
uploads a crash left outside every collection removed at start-up."""

from __future__ import annotations

import os
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest

from lectern.application.collections import CollectionService
from lectern.errors import UploadRejectedError
from tests.collection_wiring import GatedSource, collection_service

SMALL = b"# Ferry timetable\n\nThe harbour ferry leaves at seven every morning.\n"


@pytest.fixture
def service(tmp_path: Path) -> CollectionService:
    built = collection_service(tmp_path)
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "seed.md").write_text("# Seed\n\nA first document.\n", encoding="utf-8")
    built.add("alice-notes", seed)
    built.add("bob-notes", seed)
    return built


def test_a_small_upload_completes_while_a_large_one_is_still_ingesting(
    service: CollectionService,
) -> None:
    gated = GatedSource(service.source, held="alice-notes")
    service.source = gated
    big = threading.Thread(
        target=service.upload_document,
        args=("alice-notes", "big.md", b"# Big\n\n" + b"many words here. " * 5_000),
        kwargs={"max_bytes": 1_000_000},
    )
    big.start()
    assert gated.reading.wait(30)  # alice's upload holds her collection's write lock
    finished = threading.Event()

    def small() -> None:
        service.upload_document("bob-notes", "ferry.md", SMALL, max_bytes=1_000_000)
        finished.set()

    threading.Thread(target=small, daemon=True).start()
    try:
        assert finished.wait(60), "bob's upload waited for alice's"
        assert big.is_alive()  # alice's is still running
        hits = service.search("bob-notes", "harbour ferry")
        assert [h.document.title for h in hits.results][:1] == ["Ferry timetable"]
    finally:
        gated.gate.set()
        big.join(60)
    assert not big.is_alive()


def test_an_upload_with_too_much_text_is_refused_as_too_large(service: CollectionService) -> None:
    service.max_upload_chars = 1_000
    long_text = b"# Long\n\n" + b"word " * 400  # 2 kB of bytes, 2,000+ characters
    with pytest.raises(UploadRejectedError, match="too long: its text has") as refused:
        service.upload_document("bob-notes", "long.md", long_text, max_bytes=1_000_000)
    assert refused.value.reason == "too_large"
    assert [p.name for p in service.inbox.folder("bob-notes").iterdir()] == []  # type: ignore[union-attr]
    service.upload_document("bob-notes", "ferry.md", SMALL, max_bytes=1_000_000)


def test_uploads_a_crash_left_behind_are_removed_at_start_up(service: CollectionService) -> None:
    service.upload_document("bob-notes", "ferry.md", SMALL, max_bytes=1_000_000)
    folder = service.inbox.folder("bob-notes")  # type: ignore[union-attr]
    orphan = folder / "saved-then-crashed.md"
    orphan.write_bytes(SMALL)
    temporary = folder / ".upload-abc123"
    temporary.write_bytes(b"half a file")
    young = folder / "still-running.md"
    young.write_bytes(SMALL)
    an_hour_ago = time.time() - 3_700
    for path in (orphan, temporary):
        os.utime(path, (an_hour_ago, an_hour_ago))
    removed = service.clean_inbox(timedelta(hours=1))
    assert sorted(p.name for p in removed) == [".upload-abc123", "saved-then-crashed.md"]
    assert sorted(p.name for p in folder.iterdir()) == ["ferry.md", "still-running.md"]
    # The next upload no longer ingests the crashed one along with it.
    young.unlink()
    report = service.upload("bob-notes", "timetable.md", SMALL, max_bytes=1_000_000)
    assert report.added == 1
