"""The guideline chat page in a real browser (Debian's Chromium through Playwright) against
a real uvicorn server: a streamed answer whose inline citation opens the cited section with
the quoted words highlighted, a follow-up in the same session, and the yellow banner when a
model's invented number was removed. Screenshots go to the test's tmp dir."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage
from playwright.sync_api import Browser, Page, sync_playwright

from lectern.adapters.llm.tool_calling import LangChainToolModel
from lectern.application.collections import CollectionService
from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.collection_wiring import collection_service
from tests.conftest import IN_CI
from tests.e2e.serving import serve_in_thread
from tests.e2e.test_guideline_chat import QUESTION, _documents
from tests.fakes import ScriptedChatModel

pytestmark = pytest.mark.slow
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CollectionService]:
    root = tmp_path_factory.mktemp("guide-web")
    nist, rfc = _documents(root / "docs")
    service = collection_service(root / "var")
    service.add("nist", nist)
    service.add("rfc", rfc)
    return root / "var", service


@pytest.fixture(scope="module")
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


@contextmanager
def _serve(world: tuple[Path, CollectionService], **overrides: object) -> Iterator[str]:
    data_dir, service = world
    services = bootstrap(
        Settings(data_dir=data_dir, guide_min_similarity=0.05), collections=service, **overrides
    )
    with serve_in_thread(create_app(services, load_indexes=False), ready=False) as url:
        yield url


def _ask(page: Page, text: str) -> None:
    before = page.locator(".chat-msg.assistant[data-done]").count()
    page.fill("#guide-input", text)
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"document.querySelectorAll('.chat-msg.assistant[data-done]').length > {before}"
    )


def test_ask_open_the_cited_section_and_follow_up(
    world: tuple[Path, CollectionService], browser: Browser, tmp_path: Path
) -> None:
    with _serve(world) as url:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/guidelines")
        page.wait_for_selector("#guide-profile option", state="attached")
        assert page.locator("#guide-profile").input_value() == "nist"
        _ask(page, QUESTION)
        answer = page.locator(".chat-msg.assistant").last
        assert "at least 8 characters" in answer.inner_text()
        link = answer.locator("a.guide-citation")
        assert link.inner_text() == "[NIST SP 800-63B §5.1.1.1]"
        assert page.locator(".guide-flags").count() == 0
        link.click()
        page.wait_for_selector("#source-view:not([hidden]) mark")
        assert "8 characters" in page.locator("#source-text mark").inner_text()
        assert "§5.1.1.1" in page.locator("#source-title").inner_text()
        page.screenshot(path=str(tmp_path / "guide-answer.png"), full_page=True)
        _ask(page, "How often must the subscriber reauthenticate at AAL2?")
        _ask(page, "and for AAL3?")
        last = page.locator(".chat-msg.assistant").last
        assert last.locator("a.guide-citation").inner_text() == "[NIST SP 800-63B §4.3.3]"
        page.goto(link_href(url, answer))
        page.wait_for_selector("#source-view:not([hidden]) mark")
        assert errors == []
        page.close()


def link_href(url: str, answer: object) -> str:
    href = answer.locator("a.guide-citation").get_attribute("href")  # type: ignore[attr-defined]
    assert href and href.startswith("/guidelines?profile=nist&label=")
    return f"{url}{href}"


def test_a_removed_invented_number_raises_the_yellow_banner(
    world: tuple[Path, CollectionService], browser: Browser, tmp_path: Path
) -> None:
    search = AIMessage(
        content="",
        tool_calls=[
            {
                "id": "s1",
                "name": "search_guidelines",
                "args": {"query": "secret length"},
                "type": "tool_call",
            }
        ],
    )
    invented = (
        "Subscriber-chosen secrets SHALL be at least 8 characters [NIST SP 800-63B §5.1.1.1]. "
        "They expire after 90 days [NIST SP 800-63B §5.1.1.1]."
    )
    model = LangChainToolModel(ScriptedChatModel(script=[search, invented]), "scripted")
    with _serve(world, guide_model=model) as url:
        page = browser.new_page(bypass_csp=True)
        page.goto(f"{url}/guidelines")
        page.wait_for_selector("#guide-profile option", state="attached")
        _ask(page, "How long must a secret be and when does it expire?")
        answer = page.locator(".chat-msg.assistant").last
        flags = answer.locator(".guide-flags")
        assert flags.get_attribute("data-flags") == "unsupported_number"
        assert "number the documents do not state" in flags.inner_text()
        assert "90 days" not in answer.inner_text()
        page.screenshot(path=str(tmp_path / "guide-banner.png"))
        page.close()
