"""The web page in a real browser (Debian's Chromium driven by Playwright) against a real
`uvicorn` server on 127.0.0.1."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, sync_playwright

from lectern.bootstrap import bootstrap
from lectern.entrypoints.http.app import create_app
from lectern.entrypoints.http.probe import free_port, wait_until_ready
from lectern.settings import Settings
from tests.conftest import IN_CI

pytestmark = pytest.mark.slow
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def base_url(indexed_data_dir: Path) -> Iterator[str]:
    app = create_app(bootstrap(Settings(data_dir=indexed_data_dir)))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    if not wait_until_ready(url, 60):
        pytest.fail("the server did not become ready")
    yield url
    server.should_exit = True
    thread.join(timeout=10)


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


# The other tests bypass the CSP: Playwright's polling `wait_for_function` evaluates strings,
# which the policy forbids in the page. This one keeps it and checks the pages obey it.
def test_the_pages_run_under_the_content_security_policy(base_url: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    for path in ("/", "/reading-lists", "/workspace", "/guidelines"):
        response = page.goto(base_url + path)
        assert (
            response is not None
            and "script-src 'self'" in response.headers["content-security-policy"]
        )
        page.wait_for_load_state("networkidle")
    page.goto(base_url + "/")
    page.wait_for_selector("#language option:nth-child(2)", state="attached")
    page.fill("#q", "dystopian survival games")
    page.keyboard.press("Enter")
    page.wait_for_selector(".card")  # the page's own scripts ran and rendered results
    assert violations == []


def test_search_highlights_citations_and_finds_similar_books(
    base_url: str, browser: Browser, tmp_path: Path
) -> None:
    page = browser.new_page(bypass_csp=True, viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "/")
    page.wait_for_function("document.querySelectorAll('#language option').length > 1")
    page.fill("#q", "dystopian survival games")
    page.keyboard.press("Enter")
    page.wait_for_selector(".card")
    first = page.locator(".card").first
    assert "The Hunger Games" in first.locator("h3").inner_text()
    marks = page.locator(".card mark")
    assert marks.count() >= 1
    # A quote is highlighted inside the field it came from, not only listed.
    assert first.locator(".cats mark, .desc mark, h3 mark, .meta mark").count() >= 1
    assert page.locator("#banner").is_hidden()
    page.screenshot(path=str(tmp_path / "results.png"), full_page=True)
    first.locator(".similar-button").click()
    page.wait_for_selector("#similar-list .card")
    titles = page.locator("#similar-list .card h3").all_inner_texts()
    assert titles and "The Hunger Games" not in titles
    page.screenshot(path=str(tmp_path / "similar.png"))
    page.click("#similar-close")
    assert page.locator("#results").is_visible()
    assert (tmp_path / "results.png").stat().st_size > 10_000
    assert errors == []


def test_empty_results_and_phone_width(base_url: str, browser: Browser) -> None:
    page = browser.new_page(bypass_csp=True, viewport={"width": 375, "height": 740})
    page.goto(base_url + "/")
    page.click("#filters summary")
    page.fill("#min-year", "2099")  # nothing in the catalog is that recent
    page.fill("#q", "hunger games")
    page.focus("#q")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.getElementById('status').textContent.includes('No books match')"
    )
    assert page.locator(".card").count() == 0
    page.fill("#min-year", "")
    page.keyboard.press("Tab")
    page.click("#go")
    page.wait_for_selector(".card")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # no overflow


def test_understood_filters_show_as_chips_that_can_be_removed(
    base_url: str, browser: Browser
) -> None:
    page = browser.new_page(bypass_csp=True, viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "/")
    page.fill("#q", "dystopian novels in English published after 2000")
    page.keyboard.press("Enter")
    page.wait_for_selector(".chip[data-kind='language']")
    kinds = page.locator(".chip").evaluate_all("nodes => nodes.map(n => n.dataset.kind)")
    assert "language" in kinds and "years" in kinds
    assert "english" not in page.locator(".chip[data-kind='language']").inner_text().lower()
    metas = page.locator(".card .meta").all_inner_texts()
    years = [int(m.group(1)) for t in metas if (m := re.search(r"· (-?\d{1,4})\b", t))]
    assert years and all(y > 2000 for y in years)
    page.get_by_role("button", name="Remove years: 2001–").click()
    page.wait_for_function("!document.querySelector(\".chip[data-kind='years']\")")
    assert page.locator(".chip[data-kind='language']").count() == 1
    assert page.locator(".card").count() >= 1
    assert errors == []


def test_exclusions_and_page_limits_are_chips_the_reader_can_remove(
    base_url: str, browser: Browser
) -> None:
    page = browser.new_page(bypass_csp=True, viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "/")
    page.fill("#q", "dystopia for adults, not by Suzanne Collins, under 400 pages")
    page.keyboard.press("Enter")
    page.wait_for_selector(".chip[data-kind='exclusion']")
    chips = page.locator(".chip").all_inner_texts()
    assert any("at most 400 pages" in c for c in chips)
    assert any("not: young readers" in c for c in chips)
    assert any("not: Suzanne Collins" in c for c in chips)
    metas = " ".join(page.locator(".card .meta").all_inner_texts())
    assert "Suzanne Collins" not in metas
    page.get_by_role("button", name="Remove not: Suzanne Collins").click()
    page.wait_for_function("!document.querySelector(\".chip[data-kind='exclusion']\")")
    assert page.locator(".chip[data-kind='audience']").count() == 1
    assert page.locator(".chip[data-kind='pages']").count() == 1
    page.fill("#q", "the novel of a ring games")
    page.keyboard.press("Enter")
    page.wait_for_selector(".card")
    page.wait_for_function("document.querySelector('.card .meta').innerText.length > 0")
    assert any(re.search(r"· \d+ pages", t) for t in page.locator(".card .meta").all_inner_texts())
    assert errors == []


def test_an_absent_book_is_said_and_a_misspelt_one_offered(base_url: str, browser: Browser) -> None:
    page = browser.new_page(bypass_csp=True, viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "/")
    page.fill("#q", "books like Project Hail Mary")
    page.keyboard.press("Enter")
    page.wait_for_selector("#notice:not([hidden])")
    said = page.locator("#notice-text").inner_text()
    assert said.startswith("'Project Hail Mary' is not in the catalog") and "nearest" in said
    assert page.locator(".card").count() >= 1  # the nearest books, under the notice
    page.fill("#q", "books like The Hunger Gamez")
    page.keyboard.press("Enter")
    page.wait_for_selector("#readings button")
    offered = page.locator("#readings button").first
    assert offered.inner_text().startswith("The Hunger Games")
    offered.click()
    page.wait_for_selector("#book-view:not([hidden])")
    assert "The Hunger Games" in page.locator("#book-view").inner_text()
    page.fill("#q", "fantasy")  # a shelf the catalog holds: nothing to say above the books
    page.keyboard.press("Enter")
    page.wait_for_selector("#notice", state="hidden")
    assert errors == []
