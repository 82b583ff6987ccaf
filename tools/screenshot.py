"""Screenshots into <data dir>/screenshots/: the results page with highlighted citations,
and the assistant's chat with its answer and the action cards of a proposed change.

Serves the app on a free local port over the configured data directory (ingested and
indexed), searches and chats in Debian's Chromium through Playwright. The chat's lists and
pending actions go to a throwaway database, so the screenshot changes nothing of yours.

Usage: python tools/screenshot.py ["QUERY"] ["CHAT MESSAGE"]
"""

from __future__ import annotations

import sys
import tempfile
import threading

import uvicorn
from playwright.sync_api import sync_playwright

from lectern.adapters.actions.sqlalchemy_actions import SqlAlchemyPendingActions
from lectern.adapters.catalog.library import SqlAlchemyLibrary
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.entrypoints.http.probe import free_port, wait_until_ready
from lectern.settings import load_settings

CHROMIUM = "/usr/bin/chromium"
CHAT = "find three cozy mysteries after 2000 and add them to a new list called Autumn"


def main() -> None:
    query = sys.argv[1] if len(sys.argv) > 1 else "dark fantasy heist in a magical city"
    message = sys.argv[2] if len(sys.argv) > 2 else CHAT
    settings = load_settings()
    scratch = tempfile.TemporaryDirectory(prefix="lectern-screenshot-")
    throwaway = SqlAlchemyBookCatalog.from_url(f"sqlite:///{scratch.name}/assistant.db")
    services = bootstrap(
        settings,
        library=SqlAlchemyLibrary(throwaway.engine),
        pending_actions=SqlAlchemyPendingActions(throwaway.engine),
    )
    app = create_app(services)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{port}"
    if not wait_until_ready(url, 60):
        sys.exit("the server did not become ready: run `lectern ingest` and `lectern index`")
    target = settings.data_dir / "screenshots"
    target.mkdir(parents=True, exist_ok=True)
    results, chat = target / "results.png", target / "chat.png"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 1100, "height": 1400})
        page.goto(f"{url}/?q={query}")
        page.wait_for_selector(".card mark", timeout=60_000)
        page.screenshot(path=str(results), full_page=False)
        page = browser.new_page(viewport={"width": 1100, "height": 1000})
        page.goto(f"{url}/?q={query}")
        page.wait_for_selector(".card", timeout=60_000)
        page.click("#chat-toggle")
        page.fill("#chat-input", message)
        page.keyboard.press("Enter")
        page.wait_for_selector(".chat-msg.assistant[data-done]", timeout=60_000)
        card = page.locator(".action-card").first
        if card.count():
            card.scroll_into_view_if_needed()
        page.screenshot(path=str(chat), full_page=False)
        browser.close()
    server.should_exit = True
    throwaway.close()
    scratch.cleanup()
    print(f"screenshots: {results.resolve()} {chat.resolve()}")


if __name__ == "__main__":
    main()
