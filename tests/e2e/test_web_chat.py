"""The chat bubble in a real browser (Debian's Chromium through Playwright) against a real
uvicorn server over the tiny catalog: a streamed answer with citations, a citation opened,
action cards approved and rejected, the list page, an expired action. Screenshots go to
the test's tmp dir."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from lectern.application.providers import InMemoryProviderRecords
from lectern.bootstrap import bootstrap
from lectern.domain.books import SourceRecord
from lectern.entrypoints.http.app import create_app
from lectern.settings import Settings
from tests.conftest import IN_CI
from tests.e2e.serving import serve_in_thread

pytestmark = pytest.mark.slow
CHROMIUM = Path("/usr/bin/chromium")


class Clock:
    """The server's clock, moved by the test to let an action expire."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture(scope="module")
def served(
    indexed_data_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Clock]]:
    data_dir = tmp_path_factory.mktemp("web-chat") / "var"
    shutil.copytree(indexed_data_dir, data_dir)
    clock = Clock()
    app = create_app(bootstrap(Settings(data_dir=data_dir), clock=clock))
    with serve_in_thread(app) as url:
        yield url, clock


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


def _ask(page: Page, text: str) -> None:
    before = page.locator(".chat-msg.assistant[data-done]").count()
    page.fill("#chat-input", text)
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"document.querySelectorAll('.chat-msg.assistant[data-done]').length > {before}"
    )


def _page_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_ask_open_a_citation_approve_reject_and_see_the_list(
    served: tuple[str, Clock], browser: Browser, tmp_path: Path
) -> None:
    url, _ = served
    page = browser.new_page(bypass_csp=True, viewport={"width": 1100, "height": 900})
    errors = _page_errors(page)
    page.goto(url + "/")
    page.focus("#chat-toggle")
    page.keyboard.press("Enter")  # keyboard alone opens it, and the input takes the focus
    assert page.evaluate("document.activeElement.id") == "chat-input"
    _ask(page, "find books about Panem")
    answer = page.locator(".chat-msg.assistant").last
    assert int(answer.get_attribute("data-chunks") or 0) > 1  # streamed, in pieces
    assert answer.locator(".chat-tool[data-tool='search_books']").count() == 1
    assert answer.locator(".chat-tool[data-outcome='ok']").count() == 1
    citation = answer.locator("a.citation").first
    snippet = citation.locator("q").inner_text()
    assert "Panem" in snippet
    page.screenshot(path=str(tmp_path / "chat-answer.png"))

    citation.focus()  # a link broken over lines: its centre may be the text beside it
    page.keyboard.press("Enter")
    page.wait_for_selector("#book-view:not([hidden]) dd.cited mark")
    assert page.locator("#book-view-title").inner_text() == "The Hunger Games"
    marked = " ".join(page.locator("#book-view dd.cited mark").all_inner_texts())
    assert " ".join(marked.split()).casefold() == " ".join(snippet.split()).casefold()
    assert page.locator("#book-view dd.cited").get_attribute("data-field") == "description"
    page.screenshot(path=str(tmp_path / "citation-opened.png"))

    # The chat came along: open, with its history, now about this book.
    page.wait_for_selector("#chat-panel:not([hidden]) .chat-msg.user")
    assert "The Hunger Games" in page.locator("#chat-context").inner_text()

    _ask(page, "find two dystopian books and add them to a new list called Summer")
    cards = page.locator(".chat-msg.assistant").last.locator(".action-card")
    assert cards.count() == 3
    # By id: each decision adds a message, so positions in the log move.
    ids = [cards.nth(i).get_attribute("id") for i in range(3)]
    create, keep, drop = (page.locator(f"#{i}") for i in ids)
    assert "Create the reading list 'Summer'" in create.locator(".action-title").inner_text()
    assert create.locator(".diff td.new").first.inner_text() == "Summer"
    assert "expires in" in create.locator(".action-status").inner_text()
    page.screenshot(path=str(tmp_path / "action-cards.png"))

    keep_title = keep.locator(".action-title").inner_text()
    drop_title = drop.locator(".action-title").inner_text()
    keep.get_by_role("button", name="Approve").click()  # before its list exists: refused
    page.wait_for_function(
        "el => el.querySelector('.action-status').textContent.includes('first')",
        arg=keep.element_handle(),
    )
    assert keep.get_attribute("data-status") == "pending"
    create.get_by_role("button", name="Approve").click()
    page.wait_for_selector(f"#{create.get_attribute('id')}[data-status='executed']")
    keep.get_by_role("button", name="Approve").click()
    page.wait_for_selector(f"#{keep.get_attribute('id')}[data-status='executed']")
    drop.get_by_role("button", name="Reject").click()
    page.wait_for_selector(f"#{drop.get_attribute('id')}[data-status='rejected']")
    # The card turns on the decision's event; the reply's text follows it: wait for its end.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.chat-msg.assistant')].pop().dataset.done"
    )
    replies = page.locator(".chat-msg.assistant").all_inner_texts()
    assert any(r.startswith("Done: Add") for r in replies)
    assert replies[-1].startswith("OK, I did not do it: Add")
    page.screenshot(path=str(tmp_path / "decided.png"))

    page.click("text=Reading lists")
    page.wait_for_selector("#list-view:not([hidden]) .entry")
    assert page.locator("#list-title").inner_text() == "Summer"
    entries = page.locator(".entry a").all_inner_texts()
    assert len(entries) == 1 and entries[0] in keep_title and entries[0] not in drop_title
    page.screenshot(path=str(tmp_path / "reading-list.png"))
    page.locator(".entry a").first.click()
    page.wait_for_selector("#book-view:not([hidden])")
    assert page.locator("#book-view-title").inner_text() == entries[0]
    assert errors == []


def test_an_expired_action_shows_as_expired(
    served: tuple[str, Clock], browser: Browser, tmp_path: Path
) -> None:
    url, clock = served
    page = browser.new_page(bypass_csp=True, viewport={"width": 1100, "height": 900})
    errors = _page_errors(page)
    page.goto(url + "/reading-lists")
    page.click("#chat-toggle")
    _ask(page, "create a list called Too Late")
    card = page.locator(".action-card").last
    assert card.get_attribute("data-status") == "pending"
    clock.now += timedelta(hours=2)  # the server's clock: the hour to approve has passed
    card.get_by_role("button", name="Approve").click()
    page.wait_for_selector(f"#{card.get_attribute('id')}[data-status='expired']")
    assert card.locator(".action-status").inner_text().startswith("Expired")
    assert card.locator(".action-buttons").is_hidden()
    page.screenshot(path=str(tmp_path / "expired.png"))
    assert errors == []


def test_phone_width_markdown_is_built_safely_and_flags_raise_a_banner(
    served: tuple[str, Clock], browser: Browser, tmp_path: Path
) -> None:
    url, _ = served
    page = browser.new_page(bypass_csp=True, viewport={"width": 375, "height": 740})
    errors = _page_errors(page)
    page.goto(url + "/")
    page.click("#chat-toggle")
    _ask(page, "what's the weather in Paris?")
    answer = page.locator(".chat-msg.assistant").last
    banner = answer.locator(".chat-flags")
    assert banner.is_visible() and "off_topic" in (banner.get_attribute("data-flags") or "")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    box = page.locator("#chat-panel").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    page.screenshot(path=str(tmp_path / "phone.png"))
    built = page.evaluate(
        """async () => {
            const { renderMarkdown } = await import('/static/markdown.js');
            const box = document.createElement('div');
            box.append(renderMarkdown(
              '<img src=x onerror="window.pwned=1"> **bold** [x](javascript:alert(1)) ' +
              '[ok](/reading-lists)\\n1. "a quote" [book:b1#title]',
              { citation: (q) => { const a = document.createElement('a');
                                   a.className = 'citation'; a.textContent = q; return a; } }));
            return { imgs: box.querySelectorAll('img').length,
                     links: [...box.querySelectorAll('a')].map(a => a.getAttribute('href')),
                     strong: box.querySelectorAll('strong').length,
                     items: box.querySelectorAll('ol li').length,
                     text: box.textContent, pwned: window.pwned === 1 };
        }"""
    )
    assert built["imgs"] == 0 and not built["pwned"]
    assert built["links"] == ["/reading-lists", None]  # no javascript: link; the citation
    assert built["strong"] == 1 and built["items"] == 1
    assert "<img" in built["text"]  # shown as text
    page.keyboard.press("Escape")
    assert page.locator("#chat-panel").is_hidden()
    assert page.evaluate("document.activeElement.id") == "chat-toggle"
    assert errors == []


def test_a_correction_card_shows_its_review(
    indexed_data_dir: Path, browser: Browser, tmp_path: Path
) -> None:
    data_dir = tmp_path / "var"
    shutil.copytree(indexed_data_dir, data_dir)
    records = InMemoryProviderRecords()
    services = bootstrap(Settings(data_dir=data_dir), provider_records=records)
    book = next(
        b
        for batch in services.catalog.iter_batches()
        for b in batch
        if b.title == "The Hunger Games"
    )
    entry = services.catalog.get_entry(book.id)
    assert entry is not None
    ref = entry.sources[0]
    records.save([SourceRecord(ref.source, ref.source_id, book.title, published_year=2009)])
    with serve_in_thread(create_app(services)) as url:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1100, "height": 900})
        errors = _page_errors(page)
        page.goto(url + "/")
        page.click("#chat-toggle")
        _ask(page, "the year of The Hunger Games is wrong, it should be 2009")
        card = page.locator(".action-card").last
        review = card.locator(".action-review")
        assert review.get_attribute("data-citations") == "1"
        text = review.inner_text()
        assert "Automatic review" in text
        assert f"the new value '2009' is stated by \"2009\" [{ref.source} {ref.source_id}]" in text
        assert card.get_attribute("data-status") == "pending"
        page.screenshot(path=str(tmp_path / "correction-review.png"))
        assert errors == []
