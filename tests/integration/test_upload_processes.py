"""Upload jobs in niced worker processes (the default without Redis): the real services in a
spawned process ingest the upload, the server searches it, and a killed worker fails only
the job it held."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lectern.adapters.jobs.process_uploads import ProcessUploadQueue, watch_parent
from lectern.adapters.jobs.thread_uploads import ThreadUploadQueue
from lectern.bootstrap import Services, bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings

pytestmark = pytest.mark.slow  # spawns worker processes that load the packaged model

ALICE = {"X-API-Key": "alice-key"}


def _settings(data_dir: Path, **more: Any) -> Settings:
    # A little below the server: at 19 (the default) a worker waits behind every busy
    # core, and in a parallel test run every core is busy.
    given: dict[str, Any] = {
        "upload_runner": "process",
        "upload_workers": 1,
        "upload_niceness": 5,
        **more,
    }
    return Settings(
        data_dir=data_dir,
        api_keys="alice:alice-key",
        collection_writers="alice",
        review_uploads=False,
        **given,
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Services, TestClient]]:
    services = bootstrap(_settings(tmp_path / "var"))
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "seed.md").write_text("# Seed\n\nA first document about lighthouses.\n", "utf-8")
    services.collections().add("notes", seed)
    with TestClient(create_app(services)) as client:
        yield services, client
    queue = services.upload_jobs().queue
    if isinstance(queue, ProcessUploadQueue):
        queue.close()


def _upload(client: TestClient, name: str, body: bytes) -> str:
    response = client.post(
        "/collections/notes/documents", params={"filename": name}, content=body, headers=ALICE
    )
    assert response.status_code == 202, response.text
    return str(response.headers["location"])


def _until(client: TestClient, url: str, done: Any, seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        job = client.get(url, headers=ALICE).json()
        if done(job) or time.monotonic() > deadline:
            return dict(job)
        time.sleep(0.1)


def _owner_pid(services: Services, url: str) -> int:
    job = services.upload_jobs().get("alice", url.rsplit("/", 1)[1])
    assert job.owner is not None
    return int(job.owner.split(":")[1])


def test_a_worker_process_ingests_and_the_server_finds_it(
    served: tuple[Services, TestClient], capfd: pytest.CaptureFixture[str]
) -> None:
    services, client = served
    assert isinstance(services.upload_jobs().queue, ProcessUploadQueue)
    url = _upload(client, "ferry.md", b"# Ferry\n\nThe harbour ferry leaves at seven.\n")
    job = _until(client, url, lambda j: j["status"] in ("succeeded", "failed"))
    assert job["status"] == "succeeded", job
    pid = _owner_pid(services, url)
    assert pid != os.getpid()
    # The worker yields the CPU to searches (at the configured niceness above this process's).
    assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 5)
    found = client.post("/collections/notes/search", json={"query": "harbour ferry"}, headers=ALICE)
    assert found.json()["results"][0]["passages"][0]["label"] == "[notes:ferry.md#ferry]"
    out, err = capfd.readouterr()  # the worker's own lines: on stderr, as the server's
    assert "upload job finished" in err and "upload job finished" not in out


def test_a_killed_worker_fails_its_job_and_the_next_upload_runs(
    served: tuple[Services, TestClient],
) -> None:
    services, client = served
    large = b"# Big\n\n" + b"many words about tides and harbours here. " * 12_000
    url = _upload(client, "big.md", large)
    running = _until(client, url, lambda j: j["status"] != "queued")
    assert running["status"] == "running", running
    os.kill(_owner_pid(services, url), signal.SIGKILL)
    failed = _until(client, url, lambda j: j["status"] != "running", seconds=30)
    assert failed["status"] == "failed", failed
    assert "interrupted" in str(failed), failed
    after = _until(
        client,
        _upload(client, "after.md", b"# After\n\nA note written after the crash.\n"),
        lambda j: j["status"] in ("succeeded", "failed"),
    )
    assert after["status"] == "succeeded", after
    # The interrupted file went with its job: the next ingest did not take it in unannounced.
    assert after["result"]["added"] == 1, after
    shown = client.get("/collections/notes", headers=ALICE)
    assert shown.status_code == 200 and shown.json()["documents"] == 2, shown.text


def test_threads_where_a_worker_process_cannot_rebuild_the_services(tmp_path: Path) -> None:
    local_qdrant = bootstrap(_settings(tmp_path / "a", engine="qdrant"))
    assert isinstance(local_qdrant.upload_jobs().queue, ThreadUploadQueue)
    fakes = bootstrap(_settings(tmp_path / "b"), clock=lambda: datetime.now(UTC))
    assert isinstance(fakes.upload_jobs().queue, ThreadUploadQueue)
    chosen = bootstrap(_settings(tmp_path / "c", upload_runner="thread"))
    assert isinstance(chosen.upload_jobs().queue, ThreadUploadQueue)
    served_qdrant = bootstrap(
        _settings(tmp_path / "d", engine="qdrant", qdrant_url="http://q:6333")
    )
    assert isinstance(served_qdrant.upload_jobs().queue, ProcessUploadQueue)


def _gone(pid: int, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_the_server_stopping_stops_its_workers(tmp_path: Path) -> None:
    services = bootstrap(_settings(tmp_path / "var"))
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "seed.md").write_text("# Seed\n\nA first document.\n", "utf-8")
    services.collections().add("notes", seed)
    large = b"# Big\n\n" + b"many words about tides and harbours here. " * 12_000
    with TestClient(create_app(services)) as client:
        url = _upload(client, "big.md", large)
        assert _until(client, url, lambda j: j["status"] != "queued")["status"] == "running"
        pid = _owner_pid(services, url)
    # Shut down mid-ingest: the worker is stopped, not waited for, and not left behind.
    assert _gone(pid)


def test_a_worker_leaves_when_its_parent_is_gone() -> None:
    gone = threading.Event()
    watch_parent(os.getppid() + 1_000_000, gone.set, every=0.01)  # not our parent: "died"
    assert gone.wait(5)
    stays = threading.Event()
    watch_parent(os.getppid(), stays.set, every=0.01)
    assert not stays.wait(0.3)
