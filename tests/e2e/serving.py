"""Real servers for the end-to-end tests: an app under uvicorn on a thread, or `lectern serve`
as its own process."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from fastapi import FastAPI

from lectern.entrypoints.http.probe import free_port, wait_until_ready

LECTERN = Path(sys.executable).parent / "lectern"


@contextmanager
def serve_in_thread(app: FastAPI, *, ready: bool = True) -> Iterator[str]:
    """The app under uvicorn on 127.0.0.1 (a thread of this process); yields its URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        if ready and not wait_until_ready(url, 60):
            raise RuntimeError("the server did not become ready")
        if not ready and not _accepting(port, 60):
            # No request before the test's own (it counts them), but never before the socket
            # is bound: under load the first request raced uvicorn's start-up.
            raise RuntimeError("the server did not start listening")
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def lectern_serve(data_dir: Path, **env: str) -> Iterator[str]:
    """`lectern serve` as a subprocess over `data_dir`; yields its URL."""
    port = free_port()
    environment = {
        **os.environ,
        "LECTERN_DATA_DIR": str(data_dir),
        "LECTERN_LOG_LEVEL": "WARNING",
        **env,
    }
    process = subprocess.Popen(
        [str(LECTERN), "serve", "--port", str(port)],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        if not wait_until_ready(url, 120, alive=lambda: process.poll() is None):
            process.kill()
            _, errors = process.communicate(timeout=10)
            raise RuntimeError(f"lectern serve did not become ready: {errors[-2000:]}")
        yield url
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        if process.stderr is not None:
            process.stderr.close()


def _accepting(port: int, seconds: float) -> bool:
    """Whether 127.0.0.1:`port` accepts a TCP connection within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.05)
    return False
