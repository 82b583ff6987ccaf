"""The workspace page in Debian's Chromium against a real uvicorn server.

The page itself, the context it exposes, and the chat bubble (the book pages' own) on a task
page: asked to add a comment, it proposes `add_comment` on that task; approved, the comment
shows on the page.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, sync_playwright

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.entrypoints.http.probe import free_port
from lectern.settings import Settings
from tests.conftest import IN_CI
from tests.workspace_world import Seeded, seeded

pytestmark = pytest.mark.slow
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def world(tmp_path: Path) -> Seeded:
    return seeded(tmp_path)


@pytest.fixture
def base_url(world: Seeded, tmp_path: Path) -> Iterator[str]:
    services = bootstrap(
        Settings(data_dir=tmp_path / "served", api_keys="alice:alice-key,vera:vera-key"),
        collections=world.collections,
        workspace_store=world.store,
    )
    app = create_app(services, load_indexes=False)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    if not _serving(url, 60):
        pytest.fail("the server did not start")
    yield url
    server.should_exit = True
    thread.join(timeout=10)


def _serving(url: str, seconds: float) -> bool:
    """True once /health answers (the workspace needs no search indexes, so not /ready)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    return False


@pytest.fixture
def browser() -> Iterator[Browser]:
    if not CHROMIUM.is_file():
        message = f"no Chromium at {CHROMIUM}: `make test` installs the Debian package"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
        )
        yield launched
        launched.close()


def test_a_task_page_shows_and_takes_comments_and_exposes_its_context(
    base_url: str, browser: Browser, world: Seeded, tmp_path: Path
) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1100, "height": 900})
    context.add_init_script("sessionStorage.setItem('lectern-api-key', 'alice-key')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base_url}/workspace#/projects/{world.vpn.id}")
    page.wait_for_selector(".board")
    columns = page.locator(".column h3").all_inner_texts()
    assert columns == ["To do (2)", "In progress (0)", "In review (1)", "Done (0)"]
    assert "Waiting for the vendor maintenance window" in page.inner_text("main")
    page.click(f"a[href='#/tasks/{world.patch.id}']")
    page.wait_for_selector("#comments")
    assert page.evaluate("window.lecternPageContext()") == {
        "type": "task",
        "id": world.patch.id,
        "name": "Patch the Check Point gateways",
        "project_id": world.vpn.id,
    }
    page.fill("#comments textarea", "<b>The patch is deployed.</b>")
    page.click("#comments button[type=submit]")
    page.wait_for_selector("text=The patch is deployed.")
    shown = page.locator(".comment").last
    assert shown.locator("b").count() == 0  # text, never markup
    assert "<b>The patch is deployed.</b>" in shown.inner_text()
    page.screenshot(path=str(tmp_path / "task.png"), full_page=True)
    assert [c.text for c in world.service.comments("alice", task_id=world.patch.id)][-1] == (
        "<b>The patch is deployed.</b>"
    )
    assert errors == []


def test_a_viewer_sees_no_edit_forms(base_url: str, browser: Browser, world: Seeded) -> None:
    context = browser.new_context(bypass_csp=True)
    context.add_init_script("sessionStorage.setItem('lectern-api-key', 'vera-key')")
    page = context.new_page()
    page.goto(f"{base_url}/workspace#/tasks/{world.patch.id}")
    page.wait_for_selector("#comments")
    assert page.locator("#comments textarea").count() == 0
    assert page.locator("select").first.is_disabled()


def test_the_bubble_on_a_task_page_comments_on_that_task(
    base_url: str, browser: Browser, world: Seeded, tmp_path: Path
) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1200, "height": 900})
    context.add_init_script("sessionStorage.setItem('lectern-api-key', 'alice-key')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base_url}/workspace#/tasks/{world.patch.id}")
    page.wait_for_selector("#comments")
    page.click("#chat-toggle")
    assert page.inner_text("#chat-context") == "About: Patch the Check Point gateways"
    page.fill("#chat-input", "add a comment that the patch is deployed")
    page.click("#chat-send")
    card = page.locator(".action-card")
    card.wait_for()
    assert "add_comment" in page.inner_text(".chat-tools")
    assert "Patch the Check Point gateways" in card.inner_text()
    new_values = card.locator("td.new").all_inner_texts()
    assert "The patch is deployed." in new_values and world.patch.id in new_values
    assert card.get_attribute("data-status") == "pending"
    assert world.service.comments("alice", task_id=world.patch.id)[-1].text == (
        "Hotfix staged on the lab gateway."
    )  # nothing changed before the approval
    card.locator("button.approve").click()
    page.wait_for_selector(".action-card[data-status=executed]")
    page.wait_for_selector(".comment >> text=the patch is deployed")
    stored = world.service.comments("alice", task_id=world.patch.id)[-1]
    assert stored.author == "alice" and stored.text == "The patch is deployed."
    page.screenshot(path=str(tmp_path / "workspace-bubble.png"), full_page=True)
    assert errors == []


def test_a_page_context_naming_another_organizations_task_is_404(
    base_url: str, world: Seeded
) -> None:
    headers = {"X-API-Key": "alice-key"}
    for page_context in (
        {"type": "task", "id": world.rival_task.id, "name": "anything"},
        {"type": "project", "id": world.other.id},
        {"type": "dashboard", "id": "attention", "project_id": world.other.id},
        {"type": "document", "id": world.rival_document.id},
    ):
        response = httpx.post(
            f"{base_url}/assistant/chat",
            json={
                "message": "add a comment that the patch is deployed",
                "page_context": page_context,
            },
            headers=headers,
            timeout=30,
        )
        assert response.status_code == 404, page_context
        assert "Steal" not in response.text and "Umbrella" not in response.text
    assert world.service.comments("mallory", task_id=world.rival_task.id) == []
