"""Another user's upload and search while a large upload ingests (issue 25, finding 4).

    python bench/upload_isolation.py [--large-chars 300000] [--queries 40]

Builds two collections in a temporary data directory with the real adapters (the packaged
MiniLM, bm25s + FAISS), then measures, in the same run:
- search p95 on bob's collection: idle, and while alice's large upload ingests;
- bob's small upload as a job: the time until it is accepted (what a 202 answer waits for)
  and until its job is done and searchable, idle and while alice's large upload ingests;
- the time for bob's small upload to be accepted and searchable: idle, while alice's large
  upload ingests (one write lock per collection, this code), and while it ingests under
  one process-wide write lock (the code before, emulated on the same service);
- search p95 while the large upload runs as a job (the server's path), with the job on a
  thread of the serving process (`LECTERN_UPLOAD_RUNNER=thread`) and in a niced worker
  process (`process`, the default);
and prints each as a ratio to its idle figure. Timings on a shared machine vary; run it
alone for figures to quote.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from lectern.application.collections import CollectionService
from lectern.application.upload_jobs import UploadJob
from lectern.bootstrap import Services, bootstrap
from lectern.settings import Settings

WORDS = [
    "harbour",
    "ferry",
    "timetable",
    "gateway",
    "patch",
    "advisory",
    "session",
    "token",
    "vpn",
    "remote",
    "access",
    "kernel",
    "module",
    "review",
    "budget",
    "quarterly",
    "report",
    "river",
    "bridge",
    "lantern",
    "orchard",
]
T = TypeVar("T")
QUERIES = ["harbour ferry", "vpn gateway patch", "quarterly budget", "river bridge", "session"]


def _text(chars: int, seed: int) -> bytes:
    words, size, n = [], 0, seed
    while size < chars:
        word = WORDS[(n * 7 + seed) % len(WORDS)]
        words.append(word)
        size += len(word) + 1
        n += 1
        if n % 12 == 0:
            words.append(".\n\n" if n % 96 == 0 else ".")
    return ("# Document\n\n" + " ".join(words)).encode()


def _p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1] if len(samples) >= 2 else samples[0]


def _searches(service: CollectionService, count: int) -> list[float]:
    samples = []
    for i in range(count):
        started = time.perf_counter()
        service.search("bob", QUERIES[i % len(QUERIES)])
        samples.append(time.perf_counter() - started)
    return samples


def _small_upload(service: CollectionService, name: str) -> float:
    started = time.perf_counter()
    service.upload_document("bob", name, _text(600, 3), max_bytes=50_000_000)
    service.search("bob", "harbour ferry")
    return time.perf_counter() - started


def _submit(services: Services, user: str, name: str, data: bytes) -> UploadJob:
    """An upload to the user's own collection as a job, as the HTTP route submits it."""
    service = services.collections()
    return services.upload_jobs().submit(
        user,
        "collection",
        len(data),
        lambda: (user, service.accept_upload(user, name, data, max_bytes=50_000_000).name),
        filename=name,
    )


def _small_job(services: Services, name: str) -> tuple[float, float]:
    """Bob's small upload as a job: (seconds until accepted, until done and searchable)."""
    service = services.collections()
    jobs = services.upload_jobs()
    started = time.perf_counter()
    job = _submit(services, "bob", name, _text(600, 3))
    accepted = time.perf_counter() - started
    job = jobs.wait("bob", job.id, 3_600, poll=0.02)
    if job.status != "succeeded":
        raise SystemExit(f"bob's job failed: {job.error}")
    service.search("bob", "harbour ferry")
    return accepted, time.perf_counter() - started


def _searches_during_job(services: Services, large: bytes, name: str) -> tuple[list[float], float]:
    """Search bob's collection while alice's large upload runs as a job (the server's path):
    (the searches' seconds, the job's seconds)."""
    service = services.collections()
    jobs = services.upload_jobs()
    started = time.perf_counter()
    job = _submit(services, "alice", name, large)
    while jobs.get("alice", job.id).status == "queued":
        time.sleep(0.01)
    samples: list[float] = []  # the worker is already up (a warm-up job ran before)
    while not samples or not jobs.get("alice", job.id).done:
        samples.extend(_searches(service, 5))
    if jobs.get("alice", job.id).status != "succeeded":
        raise SystemExit(f"alice's job failed: {jobs.get('alice', job.id).error}")
    return samples, time.perf_counter() - started


def _runner_comparison(folder: Path, large: bytes, queries: int) -> dict[str, tuple[float, ...]]:
    """Search p95 idle and during a large upload job, per upload runner: (idle, during,
    the job's seconds, searches during)."""
    figures: dict[str, tuple[float, ...]] = {}
    for runner in ("thread", "process"):
        data_dir = folder / runner
        services = bootstrap(
            Settings(
                data_dir=data_dir,
                max_upload_chars=10_000_000,
                review_uploads=False,
                upload_runner=runner,
                upload_workers=1,
            )
        )
        service = services.collections()
        seed = data_dir / "seed"
        seed.mkdir(parents=True)
        for i in range(20):
            (seed / f"doc{i}.md").write_bytes(_text(2_000, i))
        service.add("alice", seed)
        service.add("bob", seed)
        # The worker (a process) starts with the first job: one small job warms it up.
        _small_job(services, "warm.md")
        idle = _p95(_searches(service, queries))
        during, seconds = _searches_during_job(services, large, "large.md")
        figures[runner] = (idle, _p95(during), seconds, len(during))
    return figures


def _while_large(
    service: CollectionService, large: bytes, name: str, measure: Callable[[], T]
) -> tuple[T, float]:
    """Run `measure` while alice's large upload ingests; (its result, the large's seconds)."""
    done: dict[str, float] = {}

    def ingest() -> None:
        started = time.perf_counter()
        service.upload_document("alice", name, large, max_bytes=50_000_000)
        done["seconds"] = time.perf_counter() - started

    thread = threading.Thread(target=ingest)
    thread.start()
    time.sleep(1.0)  # alice's ingest is under way (reading and embedding)
    result = measure()
    thread.join()
    return result, done["seconds"]


class _OneLock:
    """The code before: one write lock for every collection."""

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def __call__(self, name: str) -> threading.Lock:
        del name
        return self.lock


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--large-chars", type=int, default=300_000)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument(
        "--runners-only", action="store_true", help="only the thread vs process comparison"
    )
    args = parser.parse_args()
    if args.runners_only:
        with tempfile.TemporaryDirectory() as folder:
            runners = _runner_comparison(Path(folder), _text(args.large_chars, 5), args.queries)
        _print_runners(runners)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder)
        services = bootstrap(
            Settings(data_dir=data_dir, max_upload_chars=10_000_000, review_uploads=False)
        )
        service = services.collections()
        seed = data_dir / "seed"
        seed.mkdir()
        for i in range(20):
            (seed / f"doc{i}.md").write_bytes(_text(2_000, i))
        service.add("alice", seed)
        service.add("bob", seed)
        large = _text(args.large_chars, 5)
        service.search("bob", "warm up")

        idle_search = _p95(_searches(service, args.queries))
        idle_upload = _small_upload(service, "idle.md")
        loaded, large_seconds = _while_large(
            service, large, "large-1.md", lambda: _searches(service, args.queries)
        )
        loaded_search = _p95(loaded)
        idle_job = _small_job(services, "idle-job.md")
        (job_accepted, job_done), _ = _while_large(
            service, large, "large-0.md", lambda: _small_job(services, "during-job.md")
        )
        during, _ = _while_large(
            service, large, "large-2.md", lambda: _small_upload(service, "during.md")
        )
        service._writing = _OneLock()  # type: ignore[method-assign]
        global_lock, _ = _while_large(
            service, large, "large-3.md", lambda: _small_upload(service, "global.md")
        )
        runners = _runner_comparison(data_dir / "runners", large, args.queries)
    print(f"large upload: {args.large_chars:,} characters, ingested in {large_seconds:.1f} s")
    print(
        f"search p95 idle {idle_search * 1000:.1f} ms; during the large ingest "
        f"{loaded_search * 1000:.1f} ms; ratio {loaded_search / idle_search:.2f}"
    )
    print(
        f"small upload accepted and searchable: idle {idle_upload:.2f} s; during the large "
        f"ingest {during:.2f} s (ratio {during / idle_upload:.2f}); under one global write "
        f"lock {global_lock:.2f} s (ratio {global_lock / idle_upload:.2f})"
    )
    print(
        f"small upload as a job (202): accepted idle {idle_job[0] * 1000:.0f} ms, during the "
        f"large ingest {job_accepted * 1000:.0f} ms (ratio {job_accepted / idle_job[0]:.2f}); "
        f"done and searchable idle {idle_job[1]:.2f} s, during {job_done:.2f} s"
    )
    print(
        f"accept time, job vs the synchronous answer during the large ingest: "
        f"{during / job_accepted:.0f}x faster ({job_accepted:.3f} s vs {during:.2f} s)"
    )
    print(
        f"per-collection locks vs one global lock, small upload: {global_lock / during:.1f}x faster"
    )
    _print_runners(runners)
    return 0


def _print_runners(runners: dict[str, tuple[float, ...]]) -> None:
    for runner, (idle, during_job, seconds, count) in runners.items():
        print(
            f"upload runner {runner}: search p95 idle {idle * 1000:.1f} ms, during the large "
            f"upload job {during_job * 1000:.1f} ms ({count} searches; ratio "
            f"{during_job / idle:.2f}); the job took {seconds:.1f} s"
        )
    thread, process = runners["thread"], runners["process"]
    print(
        f"search p95 during a large upload, worker process vs serving-process thread: "
        f"{thread[1] / process[1]:.2f}x faster ({process[1] * 1000:.1f} ms vs "
        f"{thread[1] * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    sys.exit(main())
