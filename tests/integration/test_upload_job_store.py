"""The upload jobs' rules on a real SQLite table: one runner per job, quotas under a burst,
failures kept on the job, and a queue that refuses a job fails it at once."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from lectern.adapters.catalog.tables import metadata
from lectern.adapters.catalog.upload_jobs import SqlAlchemyUploadJobStore
from lectern.application.upload_jobs import UploadJob, UploadJobs
from lectern.errors import UploadQuotaError, UploadRejectedError


class Recorded:
    """A queue that only records the ids it was given (the test runs them)."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def submit(self, job_id: str) -> None:
        self.ids.append(job_id)


class Refusing:
    def submit(self, job_id: str) -> None:
        raise ConnectionError(f"Redis is down ({job_id} not queued)")


def _jobs(tmp_path: Path, runner: Any, **limits: int) -> UploadJobs:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'jobs.db'}")
    metadata.create_all(engine)
    jobs = UploadJobs(
        SqlAlchemyUploadJobStore(engine),
        {"collection": runner, "project": runner},
        quota_bytes=limits.get("quota_bytes", 1_000),
        max_jobs=limits.get("max_jobs", 3),
    )
    jobs.use(Recorded())
    return jobs


def _nothing(job: UploadJob) -> Mapping[str, Any]:
    return {"stored": job.stored}


def _submit(jobs: UploadJobs, user: str, size: int, name: str = "a.md") -> UploadJob:
    return jobs.submit(user, "collection", size, lambda: ("kb", name), filename=name)


def test_a_job_runs_once_however_often_it_is_handed_over(tmp_path: Path) -> None:
    calls: list[str] = []

    def runner(job: UploadJob) -> Mapping[str, Any]:
        calls.append(job.id)
        return {"added": 1}

    jobs = _jobs(tmp_path, runner)
    job = _submit(jobs, "alice", 10)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(jobs.run, [job.id] * 4))
    assert calls == [job.id]
    assert sum(r is not None for r in results) == 1
    done = jobs.get("alice", job.id)
    assert done.status == "succeeded" and done.result == {"added": 1} and done.progress == 1.0


def test_a_burst_of_uploads_gets_exactly_the_allowed_jobs(tmp_path: Path) -> None:
    jobs = _jobs(tmp_path, _nothing, max_jobs=3, quota_bytes=10_000)
    start = threading.Barrier(10)

    def one(i: int) -> str:
        start.wait()
        try:
            _submit(jobs, "alice", 10, f"{i}.md")
        except UploadQuotaError:
            return "429"
        return "202"

    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(one, range(10)))
    assert sorted(answers) == ["202"] * 3 + ["429"] * 7
    _submit(jobs, "bob", 10)  # bob's quota is his own


def test_bytes_past_the_quota_are_refused(tmp_path: Path) -> None:
    jobs = _jobs(tmp_path, _nothing, quota_bytes=100)
    first = _submit(jobs, "alice", 60)
    with pytest.raises(UploadQuotaError, match="LECTERN_UPLOAD_QUOTA_BYTES"):
        _submit(jobs, "alice", 60)
    jobs.run(first.id)  # finished jobs no longer count
    _submit(jobs, "alice", 60)


def test_a_refused_file_fails_its_job_with_the_reason(tmp_path: Path) -> None:
    def runner(job: UploadJob) -> Mapping[str, Any]:
        raise UploadRejectedError(
            f"{job.stored}: too long: its text has 2,000 characters", "too_large"
        )

    jobs = _jobs(tmp_path, runner)
    job = _submit(jobs, "alice", 10)
    jobs.run(job.id)
    failed = jobs.get("alice", job.id)
    assert failed.status == "failed" and failed.error_code == "too_large"
    assert failed.error is not None and "too long" in failed.error


def test_a_queue_that_refuses_the_job_fails_it_at_once(tmp_path: Path) -> None:
    jobs = _jobs(tmp_path, _nothing)
    jobs.use(Refusing())
    job = _submit(jobs, "alice", 10)
    assert job.status == "failed" and "ConnectionError" in (job.error or "")
    assert jobs.store.active_load("alice") == (0, 0)
