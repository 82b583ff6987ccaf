"""The understanding pool v2 (dev2, test2): loadable by the runners, and true to its data.

Every file loads with the loader its runner uses; every tool named is one the assistant
offers; every task, project and person a workspace case names is in the seeded demo world;
every book named is in the catalog sources; every guideline answer's numbers are in each accepted
section or page, and every KB source is a page of the FastAPI docs (these last checks run when
the shared data is there).
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from lectern.application.assistant import action_tools, query_tools
from lectern.application.assistant.workspace_actions import WORKSPACE_ACTION_TOOLS
from lectern.application.assistant.workspace_tools import WORKSPACE_QUERY_TOOLS
from lectern.application.evaluation.answering import load_support_questions
from lectern.application.evaluation.assistant import load_conversations
from lectern.application.evaluation.understanding import SURFACES, split_file
from lectern.application.evaluation.workspace import load_workspace_conversations
from lectern.application.workspace.demo import DemoUsers, seed_demo
from lectern.application.workspace.service import WorkspaceService
from lectern.domain.normalize.works import split_series
from lectern.entrypoints.cli.evaluate_understanding import SPLIT_CHOICES
from tests.conftest import SHARED_BOOKS, SHARED_DATA, catalog_url_for

BOOK_TOOLS = (
    query_tools.SearchBooks,
    query_tools.GetBookDetails,
    query_tools.SimilarBooks,
    query_tools.CatalogFacets,
    query_tools.GetReadingLists,
    query_tools.GetListDetails,
    action_tools.CreateList,
    action_tools.RenameList,
    action_tools.DeleteList,
    action_tools.AddToList,
    action_tools.RemoveFromList,
    action_tools.RateBook,
    action_tools.ProposeCorrection,
)
WORKSPACE_TOOLS = {tool.name for tool in (*WORKSPACE_QUERY_TOOLS, *WORKSPACE_ACTION_TOOLS)}
INTENTS = {"greeting", "thanks", "capabilities", "off_topic"}
POOL_V2 = ("dev2", "test2")
"""The pool's halves (the third pool, dev3, has tests of its own)."""
LABEL = re.compile(r"^\[(NIST SP 800-63[ABC]?) §([\d.]+)\]$|^\[RFC (\d+) p\.(\d+)\]$")


def _file(split: str, surface: str) -> Path:
    found = split_file(split, surface)
    assert found is not None, f"{split}/{surface}.json is not packaged"
    return Path(str(found))


def _items(split: str, surface: str) -> list[dict[str, Any]]:
    data = json.loads(_file(split, surface).read_text(encoding="utf-8"))
    assert set(data) == {
        "version",
        "about",
        "questions" if surface in ("guideline", "kb") else "cases",
    }
    return list(data.get("cases") or data["questions"])


def _pool(surface: str) -> list[dict[str, Any]]:
    return [item for split in POOL_V2 for item in _items(split, surface)]


def test_the_cli_takes_both_halves_and_every_surface_has_them() -> None:
    assert {"dev2", "test2"} <= set(SPLIT_CHOICES)
    for surface in SURFACES:
        dev2 = {item["id"] for item in _items("dev2", surface)}
        test2 = {item["id"] for item in _items("test2", surface)}
        assert dev2 and test2 and not dev2 & test2


def test_the_pool_is_as_large_and_as_varied_as_promised() -> None:
    every = [item for surface in SURFACES for item in _pool(surface)]
    assert len(every) >= 240
    assert {item["origin"] for item in every} == {"pool-v2"}
    kinds = Counter(item["kind"] for s in ("workspace", "assistant") for item in _pool(s))
    assert kinds["clarify"] >= 40
    assert all(count >= 12 for count in kinds.values()), kinds
    ids = [item["id"] for item in every]
    assert len(ids) == len(set(ids))


def test_a_guideline_session_stays_in_one_half() -> None:
    for split in POOL_V2:
        other = next(s for s in POOL_V2 if s != split)
        mine = {q.get("session") for q in _items(split, "guideline")} - {None}
        theirs = {q.get("session") for q in _items(other, "guideline")} - {None}
        assert not mine & theirs


# --- workspace -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeded_names(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
    from lectern.adapters.catalog.workspace_store import SqlAlchemyWorkspaceStore

    path = tmp_path_factory.mktemp("pool-v2") / "catalog.db"
    catalog = SqlAlchemyBookCatalog.from_url(catalog_url_for(path))
    service = WorkspaceService(SqlAlchemyWorkspaceStore(catalog.engine))
    users = DemoUsers(viewer="vera")
    demo = seed_demo(service, users)
    names = {
        "task": set(demo.tasks),
        "project": {demo.vpn.name, demo.phishing.name},
        "people": {users.owner, users.member, "vera"},
    }
    catalog.engine.dispose()
    return names


def _references(value: Any) -> Iterator[str]:
    if isinstance(value, str) and value.startswith("$"):
        yield value
    elif isinstance(value, Mapping):
        for inner in value.values():
            yield from _references(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from _references(inner)


@pytest.mark.parametrize("split", POOL_V2)
def test_workspace_cases_name_offered_tools_and_seeded_things(
    split: str, seeded_names: dict[str, set[str]]
) -> None:
    cases = load_workspace_conversations(_file(split, "workspace"))
    assert len(cases) == len(_items(split, "workspace"))
    for case in cases:
        created: set[str] = set()
        for turn in case.turns:
            assert turn.user in seeded_names["people"]
            for reference in _references([turn.page, list(turn.expect_calls or ())]):
                kind, _, name = reference[1:].partition(":")
                assert name in seeded_names[kind], f"{case.id}: {reference}"
            for call in turn.expect_calls or ():
                assert call["tool"] in WORKSPACE_TOOLS, f"{case.id}: {call['tool']}"
                args = call.get("args", {})
                if "assignee_id" in args and args["assignee_id"] is not None:
                    assert args["assignee_id"] in seeded_names["people"]
                if call["tool"] in ("create_task", "update_task") and "title" in args:
                    created.add(args["title"].casefold())
            if turn.expect_clarify or turn.expect_intent:
                assert turn.expect_calls == ()
        known = {t.casefold() for t in seeded_names["task"]} | created
        for task in case.expect.get("tasks", []):
            assert task["title"].casefold() in known, f"{case.id}: {task['title']}"
        for comment in case.expect.get("comments", []):
            assert comment["task"] in seeded_names["task"]


# --- book assistant --------------------------------------------------------------------


@cache
def _source_titles() -> frozenset[str] | None:
    sources = {
        "goodbooks-10k/books.csv": ("title", "original_title"),
        "7k-books/books.csv": ("title",),
        "goodreads-openlibrary/books.csv": ("title",),
    }
    titles: set[str] = set()
    for name, columns in sources.items():
        path = SHARED_BOOKS / name
        if not path.is_file():
            return None
        with path.open(encoding="utf-8", newline="") as rows:
            for row in csv.DictReader(rows):
                for column in columns:
                    if row.get(column):
                        titles.add(split_series(row[column])[0].casefold())
    return frozenset(titles)


@pytest.mark.parametrize("split", POOL_V2)
def test_book_cases_name_offered_tools_and_catalog_books(split: str) -> None:
    cases = load_conversations(_file(split, "assistant"))
    assert len(cases) == len(_items(split, "assistant"))
    offered = {tool.name for tool in BOOK_TOOLS}
    named: set[str] = set()
    for case in cases:
        assert all(call.tool in offered for call in case.calls), case.id
        if case.expect_clarify or case.expect_intent:
            assert case.calls == () and (case.expect_intent in INTENTS or case.expect_clarify)
        named |= {t for titles in case.setup_lists.values() for t in titles}
        named |= set(case.setup_ratings) | set(case.expect_ratings or {})
        named |= {t for titles in (case.expect_lists or {}).values() for t in titles}
        named |= {c.args["book"] for c in case.calls if "book" in c.args}
        if case.page_book:
            named.add(case.page_book)
    titles = _source_titles()
    if titles is None:
        pytest.skip(f"no book sources at {SHARED_BOOKS}")
    assert sorted(t for t in named if t.casefold() not in titles) == []


# --- guideline chat and KB reply -------------------------------------------------------

GUIDANCE = SHARED_DATA / "guidance"


def _nist_section(volume: str, number: str) -> str:
    folder = GUIDANCE / "nist-sp800-63-3" / f"sp800-63{volume[-1].lower()}"
    for path in sorted(folder.glob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for start, line in enumerate(lines):
            if line.startswith("#") and re.search(rf"(^|\s|>){re.escape(number)}(\s|$)", line):
                end = next(
                    (i for i in range(start + 1, len(lines)) if lines[i].startswith("#")),
                    len(lines),
                )
                return "\n".join(lines[start:end])
    return ""


def _cited_text(label: str) -> str:
    match = LABEL.match(label)
    assert match, label
    if match.group(1):
        return _nist_section(match.group(1), match.group(2))
    path = GUIDANCE / "rfc" / f"rfc{match.group(3)}.txt"
    pages = path.read_text(encoding="utf-8", errors="replace").split("\f")
    page = int(match.group(4))
    return " ".join(pages[page - 1].split()) if page <= len(pages) else ""


@pytest.mark.parametrize("split", POOL_V2)
def test_guideline_answers_are_in_the_cited_text(split: str) -> None:
    questions = _items(split, "guideline")
    for question in questions:
        assert question["profile"] in ("nist", "rfc")
        assert bool(question["expect_labels"]) == (question["kind"] in ("answerable", "follow_up"))
        assert all(LABEL.match(label) for label in question["expect_labels"]), question["id"]
    if not GUIDANCE.is_dir():
        pytest.skip(f"no guidance documents at {GUIDANCE}")
    for question in questions:
        if not question["expect_labels"]:
            continue
        texts = [_cited_text(label) for label in question["expect_labels"]]
        assert all(texts), question["id"]
        numbers = [str(n) for n in question["expect_numbers"]]
        assert all(all(n in text for n in numbers) for text in texts), question["id"]


@pytest.mark.parametrize("split", POOL_V2)
def test_kb_questions_load_and_cite_pages_of_the_docs(split: str) -> None:
    _, cases = load_support_questions(_file(split, "kb"))
    questions = _items(split, "kb")
    assert len(cases) == len(questions)
    for question in questions:
        assert question["answerable"] == bool(question["sources"])
    docs = SHARED_DATA / "kb" / "fastapi-docs" / "docs"
    if not docs.is_dir():
        pytest.skip(f"no FastAPI docs at {docs}")
    for question in questions:
        for source in question["sources"]:
            assert (docs / source.removeprefix("kb:")).is_file(), source
