"""Uploads as jobs: accepted at once beside a large ingest, followed by their owner, run by
rq on the machine's Redis, and settled after a crash (running -> failed, queued -> run)."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from rq.registry import FailedJobRegistry

from lectern.adapters.jobs.rq_reviews import RqReviewQueue, run_review_worker
from lectern.adapters.jobs.rq_uploads import RqUploadQueue, set_upload_handler
from lectern.application.collections import CollectionService
from lectern.application.upload_jobs import UploadJob
from lectern.bootstrap import Services, bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.collection_wiring import GatedSource, collection_service

ALICE = {"X-API-Key": "alice-key"}
BOB = {"X-API-Key": "bob-key"}
SMALL = b"# Ferry timetable\n\nThe harbour ferry leaves at seven every morning.\n"
LARGE = b"# Big\n\n" + b"many words here. " * 5_000


@pytest.fixture
def service(tmp_path: Path) -> CollectionService:
    built = collection_service(tmp_path / "var")
    seed = tmp_path / "seed"
    seed.mkdir()
    (seed / "seed.md").write_text("# Seed\n\nA first document.\n", encoding="utf-8")
    built.add("alice-notes", seed)
    built.add("bob-notes", seed)
    return built


def _services(tmp_path: Path, service: CollectionService, **settings: Any) -> Services:
    return bootstrap(
        Settings(
            data_dir=tmp_path / "var",
            api_keys="alice:alice-key,bob:bob-key",
            collection_writers="alice,bob",
            review_uploads=False,
            **settings,
        ),
        collections=service,
    )


def _job(client: TestClient, url: str, headers: dict[str, str]) -> dict[str, Any]:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.text
    job: dict[str, Any] = response.json()
    return job


def _finished(client: TestClient, url: str, headers: dict[str, str]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while (job := _job(client, url, headers))["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
    return job


def _upload(client: TestClient, name: str, filename: str, data: bytes, headers: Any) -> Any:
    return client.post(
        f"/collections/{name}/documents",
        params={"filename": filename},
        content=data,
        headers=headers,
    )


def test_a_small_upload_is_accepted_and_done_while_a_large_one_is_ingesting(
    tmp_path: Path, service: CollectionService
) -> None:
    gated = GatedSource(service.source, held="alice-notes")
    service.source = gated
    client = TestClient(create_app(_services(tmp_path, service), load_indexes=False))
    large = _upload(client, "alice-notes", "big.md", LARGE, ALICE)
    assert large.status_code == 202, large.text  # answered before its ingest ran
    try:
        assert gated.reading.wait(30)  # alice's job is reading, held at the gate
        small = _upload(client, "bob-notes", "ferry.md", SMALL, BOB)
        assert small.status_code == 202, small.text
        done = _finished(client, small.headers["location"], BOB)
        assert done["status"] == "succeeded" and done["result"]["added"] == 1
        running = _job(client, large.headers["location"], ALICE)
        assert running["status"] == "running" and running["progress"] < 1.0  # still ingesting
        hits = service.search("bob-notes", "harbour ferry")
        assert [h.document.title for h in hits.results][:1] == ["Ferry timetable"]
    finally:
        gated.gate.set()
    big = _finished(client, large.headers["location"], ALICE)
    assert big["status"] == "succeeded" and big["result"]["added"] == 1
    assert big["finished_at"] > done["finished_at"]


def _dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_a_restart_fails_the_interrupted_job_and_runs_the_queued_one(
    tmp_path: Path, service: CollectionService
) -> None:
    before = _services(tmp_path, service, orphan_upload_seconds=60)
    jobs = before.upload_jobs()
    now = datetime.now(UTC)
    interrupted = UploadJob(
        id=str(uuid.uuid4()),
        user="alice",
        kind="collection",
        collection="alice-notes",
        project_id=None,
        filename="big.md",
        stored="big.md",
        size=len(LARGE),
        status="running",
        progress=0.1,
        stage="ingesting",
        created_at=now,
        owner=f"{socket.gethostname()}:{_dead_pid()}:crashed",
        started_at=now,
    )
    jobs.store.add(interrupted)
    stored = service.accept_upload("bob-notes", "ferry.md", SMALL, max_bytes=1_000_000)
    an_hour_ago = time.time() - 3_700  # old enough for the orphan clean-up
    os.utime(stored, (an_hour_ago, an_hour_ago))
    queued = UploadJob(
        id=str(uuid.uuid4()),
        user="bob",
        kind="collection",
        collection="bob-notes",
        project_id=None,
        filename="ferry.md",
        stored=stored.name,
        size=len(SMALL),
        status="queued",
        progress=0.0,
        stage="queued",
        created_at=now,
    )
    jobs.store.add(queued)
    # The restart: a new process's services, the app's start-up (recovery, clean-up).
    after = _services(tmp_path, service, orphan_upload_seconds=60)
    with TestClient(create_app(after, load_indexes=False)) as client:
        failed = _job(client, f"/jobs/{interrupted.id}", ALICE)
        assert failed["status"] == "failed"
        assert failed["errors"][0]["message"].startswith("interrupted: the process")
        ran = _finished(client, f"/jobs/{queued.id}", BOB)
        assert ran["status"] == "succeeded", ran
    hits = service.search("bob-notes", "harbour ferry")
    assert [h.document.title for h in hits.results][:1] == ["Ferry timetable"]


@pytest.mark.redis
def test_uploads_run_on_rq_through_the_review_worker(
    tmp_path: Path, service: CollectionService, redis_url: str
) -> None:
    services = _services(tmp_path, service)
    suffix = uuid.uuid4().hex[:8]
    uploads = RqUploadQueue(redis_url, queue_name=f"lectern-test-uploads-{suffix}")
    reviews = RqReviewQueue(redis_url, queue_name=f"lectern-test-reviews-{suffix}")
    jobs = services.upload_jobs()
    jobs.use(uploads)
    client = TestClient(create_app(services, load_indexes=False))
    try:
        accepted = _upload(client, "bob-notes", "ferry.md", SMALL, BOB)
        assert accepted.status_code == 202, accepted.text
        url = accepted.headers["location"]
        assert uploads.queue.count == 1
        assert _job(client, url, BOB)["status"] == "queued"  # nothing runs it in this process
        set_upload_handler(jobs.run)
        run_review_worker(reviews, services.reviews().run, burst=True, also=[uploads.queue])
        done = _job(client, url, BOB)
        assert done["status"] == "succeeded" and done["result"]["added"] == 1, done
        hits = service.search("bob-notes", "harbour ferry")
        assert [h.document.title for h in hits.results][:1] == ["Ferry timetable"]
    finally:
        for queue in (uploads.queue, reviews.queue):
            queue.empty()
            FailedJobRegistry(queue=queue).cleanup()
            for key in uploads.connection.scan_iter(f"*{queue.name}*"):
                uploads.connection.delete(key)
        uploads.close()
        reviews.close()
