"""SIGKILL during 30 concurrent approvals, five times: recovery leaves no action stranded.

A real `lectern serve` approves 30 pending `create_list` actions at once and is killed with
SIGKILL while they run. The next server settles what the crash left (at start-up and on its
timer, with a one-second lease): every action ends `executed` with its list written exactly
once, or `failed`/`pending` with nothing written; none stays `approved` or `executing`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from lectern.application.assistant.tools import ToolContext
from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.probe import free_port, wait_until_ready
from lectern.settings import Settings
from tests.e2e.serving import LECTERN

# Six server starts: minutes on a busy 2-core machine, more than the suite's 600 s default.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]
ACTIONS = 30
ROUNDS = 5
ALICE = {"X-API-Key": "alice-key"}
SERVER_ENV = {
    "LECTERN_API_KEYS": "alice:alice-key",
    "LECTERN_RATE_LIMIT": "10000/minute",
    "LECTERN_RATE_LIMIT_CHAT": "10000/minute",
    "LECTERN_ACTION_LEASE_SECONDS": "1",
    "LECTERN_RECOVERY_INTERVAL_SECONDS": "0.5",
    "LECTERN_LOG_LEVEL": "WARNING",
}


def _start(data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "LECTERN_DATA_DIR": str(data_dir), **SERVER_ENV}
    env.pop("LECTERN_CATALOG_URL", None)
    process = subprocess.Popen(
        [str(LECTERN), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    # Generous: the machine may be busy; a server that never comes up is killed, not leaked.
    try:
        ready = wait_until_ready(url, 300, alive=lambda: process.poll() is None)
    except BaseException:
        ready = False
        raise
    finally:
        if not ready:
            process.kill()
            process.wait()
    if not ready:
        raise AssertionError("lectern serve did not become ready")
    return process, url


def _seed(data_dir: Path, round_number: int) -> dict[str, str]:
    """30 pending create_list actions for alice: action id -> the list id it will write."""
    services = bootstrap(Settings(data_dir=data_dir))
    tool = services.tool_registry().action("create_list")
    assert tool is not None
    approvals = services.assistant().approvals
    seeded: dict[str, str] = {}
    for number in range(ACTIONS):
        context = ToolContext("alice", f"c{round_number}-{number}", datetime.now(UTC))
        preview = tool.preview(tool.parse({"name": f"r{round_number} list {number}"}), context)
        action = approvals.propose(preview, "alice", context.conversation)
        seeded[action.id] = str(preview.tool_input["list_id"])
    services.catalog.close()
    return seeded


def _statuses(database: Path, ids: dict[str, str]) -> dict[str, str]:
    with sqlite3.connect(database, timeout=5) as connection:
        rows = connection.execute("select id, status from pending_actions").fetchall()
    return {action: status for action, status in rows if action in ids}


def _lists_written(database: Path, ids: dict[str, str]) -> dict[str, int]:
    """How many reading lists each action's list id names (0 or 1 when written once)."""
    with sqlite3.connect(database, timeout=5) as connection:
        rows = connection.execute("select id from reading_lists").fetchall()
    present = [list_id for (list_id,) in rows]
    return {action: present.count(list_id) for action, list_id in ids.items()}


def _approve_all(url: str, ids: dict[str, str]) -> None:
    def approve(action_id: str) -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server is killed under it
            httpx.post(f"{url}/assistant/actions/{action_id}/approve", headers=ALICE, timeout=30)

    with ThreadPoolExecutor(ACTIONS) as pool:
        list(pool.map(approve, ids))


def test_sigkill_during_concurrent_approvals_strands_nothing(
    indexed_data_dir: Path, tmp_path: Path
) -> None:
    data_dir = tmp_path / "var"
    shutil.copytree(indexed_data_dir, data_dir)
    database = data_dir / "catalog.db"
    process, url = _start(data_dir)
    in_flight_at_kills = 0
    try:
        for round_number in range(ROUNDS):
            ids = _seed(data_dir, round_number)
            with ThreadPoolExecutor(1) as runner:
                running = runner.submit(_approve_all, url, ids)
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    seen = _statuses(database, ids)
                    if any(status != "pending" for status in seen.values()):
                        break
                    time.sleep(0.002)
                process.send_signal(signal.SIGKILL)
                process.wait()
                running.result()
            at_kill = _statuses(database, ids)
            in_flight_at_kills += sum(s in ("approved", "executing") for s in at_kill.values())

            process, url = _start(data_dir)  # start-up recovery, then the timer
            deadline = time.monotonic() + 30
            final = _statuses(database, ids)
            while time.monotonic() < deadline and any(
                s in ("approved", "executing") for s in final.values()
            ):
                time.sleep(0.2)
                final = _statuses(database, ids)
            written = _lists_written(database, ids)
            for action_id, status in final.items():
                if status == "executed":
                    assert written[action_id] == 1, (round_number, action_id)
                else:
                    assert status in ("failed", "pending"), (round_number, action_id, status)
                    assert written[action_id] == 0, (round_number, action_id, status)
            with httpx.Client(base_url=url, headers=ALICE, timeout=30) as http:
                shown = {
                    a["id"]: a["status"]
                    for a in http.get("/assistant/actions?include_decided=true").json()
                }
            assert {shown[a] for a in ids} <= {"executed", "failed", "pending"}
    finally:
        process.kill()
        process.wait()
    assert in_flight_at_kills > 0  # the kills did land mid-approval
