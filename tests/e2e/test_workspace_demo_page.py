"""`/workspace` after the demo, from a fresh data directory, without API keys: the page's
user is the local user, and `lectern workspace demo` seeded the workspace for that user.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import sync_playwright

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.conftest import IN_CI
from tests.e2e.serving import serve_in_thread
from tests.e2e.test_workspace_cli import THREAT, _subsets

pytestmark = pytest.mark.slow
CHROMIUM = Path("/usr/bin/chromium")


def _lectern(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"LECTERN_API_KEYS", "API_KEY"}}
    return subprocess.run(
        [sys.executable, "-m", "lectern", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**env, "LECTERN_DATA_DIR": str(data_dir), "COLUMNS": "200"},
    )


def _healthy(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    return False


def test_the_workspace_page_shows_the_demo_projects_to_the_local_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not (THREAT / "cisa-kev").is_dir():
        pytest.skip(f"the shared threat data is not at {THREAT}")
    if not CHROMIUM.is_file():
        message = f"no Chromium at {CHROMIUM}: `make test` installs the Debian package"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    monkeypatch.delenv("LECTERN_API_KEYS", raising=False)
    monkeypatch.delenv("API_KEY", raising=False)
    data_dir = tmp_path / "var"
    kev, _ = _subsets(tmp_path)
    # As make demo: KEV only (ATT&CK is one target away, make collections-extra).
    added = _lectern(data_dir, "collections", "add", "kev", str(kev), "--mapping", "cisa-kev")
    assert added.returncode == 0, added.stderr
    made = _lectern(data_dir, "workspace", "demo")
    assert made.returncode == 0, made.stderr
    assert "the ATT&CK techniques are not linked" in made.stdout
    assert "Open http://127.0.0.1:8000/workspace after" in made.stdout

    services = bootstrap(Settings(data_dir=data_dir))
    with serve_in_thread(create_app(services, load_indexes=False), ready=False) as url:
        assert _healthy(url, 60), "the server did not start"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
            )
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{url}/workspace")
            page.wait_for_selector("text=VPN gateway hardening")
            main = page.inner_text("main")
            page.screenshot(path=str(tmp_path / "workspace.png"), full_page=True)
            browser.close()
    assert "Demo Security Team" in main
    assert "VPN gateway hardening" in main and "Phishing awareness" in main
    assert errors == []
