"""Screenshot of the results page, with highlighted citations, into <data dir>/screenshots/.

Serves the app on a free local port over the configured data directory (ingested and
indexed), searches in Debian's Chromium through Playwright, and saves a full-page PNG.

Usage: python tools/screenshot.py ["QUERY"]
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.entrypoints.http.probe import free_port, wait_until_ready
from lectern.settings import load_settings

CHROMIUM = "/usr/bin/chromium"


def main() -> None:
    query = sys.argv[1] if len(sys.argv) > 1 else "dark fantasy heist in a magical city"
    settings = load_settings()
    app = create_app(bootstrap(settings))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{port}"
    if not wait_until_ready(url, 60):
        sys.exit("the server did not become ready: run `lectern ingest` and `lectern index`")
    target = settings.data_dir / "screenshots"
    target.mkdir(parents=True, exist_ok=True)
    path = target / "results.png"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 1100, "height": 1400})
        page.goto(f"{url}/?q={query}")
        page.wait_for_selector(".card mark", timeout=60_000)
        page.screenshot(path=str(path), full_page=False)
        browser.close()
    server.should_exit = True
    print(f"screenshot: {Path(path).resolve()}")


if __name__ == "__main__":
    main()
