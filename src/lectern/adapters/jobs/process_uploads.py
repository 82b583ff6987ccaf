"""Upload jobs in worker processes of their own (the embedded default, without Redis).

An ingest is CPU work in Python (extraction, passages, tokens) around the embedder; on the
serving process's threads it holds the GIL and the cores that searches need (search p95
rose by up to a third on 2 cores during a 300,000-character upload). Here each job runs in
one of `workers` spawned processes at the lowest CPU priority (`nice` 19), on a handler
that `start` builds in that process (bootstrap's: services from the server's settings,
embedding on half the cores, which share the database and the data folder with the
server): the job's row says how far it got, and the server loads a collection's new index
generation on its next search, as it does for a job that `lectern workspace worker` ran on
rq.

A worker process is started on the first job and kept for the next ones. If one dies (out
of memory, killed), the jobs it held are failed with the reason (`on_lost`) and the pool is
started again for the next job.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import structlog

from lectern.application.upload_jobs import INTERRUPTED

log = structlog.get_logger(__name__)

_run: Callable[[str], object] | None = None
"""The worker process's job handler (set by `_start_worker`)."""


def watch_parent(
    parent: int, on_gone: Callable[[], object], *, every: float = 1.0
) -> threading.Thread:
    """Call `on_gone` once this process's parent is no longer `parent`.

    The parent died: a killed server must not leave its workers behind, holding memory and
    the database.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        on_gone()

    thread = threading.Thread(target=watch, name="upload-parent-watch", daemon=True)
    thread.start()
    return thread


StartWorker = Callable[[], Callable[[str], object]]
"""Builds a worker process's job handler, in that process; picklable (spawned processes get
it by reference: a module-level function, or a `functools.partial` of one)."""


def _start_worker(start: StartWorker, niceness: int, parent: int) -> None:
    """In a new worker process: lower its priority and build the handler it runs jobs with."""
    global _run
    # A job cut short here stays `running` with this process as its owner: the server's
    # next start-up fails it with the reason (UploadJobs.recover).
    watch_parent(parent, lambda: os._exit(0))
    if niceness:
        try:
            os.nice(niceness)
        except OSError as error:  # a platform or sandbox without nice: run at normal priority
            log.warning("upload worker priority unchanged", error=str(error))
    _run = start()


def _run_job(job_id: str) -> str:
    """What a worker process runs for one job (the job records its own outcome)."""
    if _run is None:
        raise RuntimeError("this process was not started as an upload worker")
    _run(job_id)
    return job_id


class ProcessUploadQueue:
    """Runs each submitted job id on one of `workers` niced worker processes."""

    def __init__(
        self,
        start: StartWorker,
        on_lost: Callable[[str, str], object],
        *,
        workers: int = 2,
        niceness: int = 19,
    ) -> None:
        """No process starts until the first job.

        `start()` runs once in each worker process and returns its job handler;
        `on_lost(job_id, reason)` fails a job whose worker process died.
        """
        self.start = start
        self.on_lost = on_lost
        self.workers = workers
        self.niceness = niceness
        self.futures: list[Future[str]] = []
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                # spawn, not fork: the server has threads (a fork copies their locks held).
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(self.start, self.niceness, os.getpid()),
                )
            return self._executor

    def submit(self, job_id: str) -> None:
        """Queue the job."""
        try:
            future = self._pool().submit(_run_job, job_id)
        except BrokenProcessPool:
            self._restart()
            future = self._pool().submit(_run_job, job_id)
        future.add_done_callback(lambda done: self._finished(job_id, done))
        self.futures = [f for f in self.futures if not f.done()]
        self.futures.append(future)

    def _finished(self, job_id: str, future: Future[str]) -> None:
        if future.cancelled():  # stopped before it ran: still queued, the next start runs it
            return
        error = future.exception()
        if error is None:
            return
        if isinstance(error, BrokenProcessPool):
            reason = INTERRUPTED
            self._restart()
        else:
            reason = f"the upload worker failed: {type(error).__name__}: {error}"
        log.error("upload job lost", job=job_id, error=f"{type(error).__name__}: {error}")
        try:
            self.on_lost(job_id, reason)
        except Exception as failure:  # noqa: BLE001 - recovery at start-up fails it then
            log.error("upload job not marked failed", job=job_id, error=str(failure))

    def _restart(self) -> None:
        """Drop a broken pool; the next job starts a new one."""
        with self._lock:
            broken, self._executor = self._executor, None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)

    def drain(self) -> None:
        """Wait for every queued job (tests and the bench)."""
        for future in list(self.futures):
            future.exception()

    def stop(self) -> None:
        """Stop at once (the server shuts down).

        Queued jobs stay queued for the next start; a running one is cut short and failed as
        interrupted.
        """
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is None:
            return
        # Python 3.14 terminates a pool's workers itself; before, the pool keeps them in
        # `_processes` (a private name, stable since 3.8). `shutdown` alone would wait for a
        # running ingest, which may take minutes, before the server could exit.
        terminate = getattr(executor, "terminate_workers", None)
        if callable(terminate):
            terminate()
            return
        for process in list(getattr(executor, "_processes", {}).values()):
            process.terminate()
        executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Finish the queued jobs and stop the worker processes."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)
