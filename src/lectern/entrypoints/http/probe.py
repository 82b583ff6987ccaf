"""Waiting for a served Lectern to be ready (used by `make screenshot`, benches and tests)."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

import httpx


def wait_until_ready(
    base_url: str, seconds: float = 120.0, *, alive: Callable[[], bool] = lambda: True
) -> bool:
    """True once GET /health/ready answers 200; False after `seconds` or if `alive()` fails."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and alive():
        try:
            if httpx.get(f"{base_url}/health/ready", timeout=1).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    return False


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
