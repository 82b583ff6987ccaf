"""The understanding pool v3 (dev3): loadable by the runners, and true to its data.

Book assistant and workspace only. Every file loads with the loader its runner uses and holds
every case's required fields; every tool named is one the assistant offers, and every tool
has its phrasings; every task, project, blocker, document and person a workspace case names
is in the seeded demo world; every book named is in the catalog sources (when the shared data
is there).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from lectern.application.evaluation.assistant import load_conversations
from lectern.application.evaluation.understanding import MORE_SPLITS, SPLITS, split_file
from lectern.application.evaluation.workspace import load_workspace_conversations
from lectern.application.workspace.demo import DEMO_ATTACK, DEMO_KEV, DemoUsers, seed_demo
from lectern.application.workspace.service import WorkspaceService
from lectern.entrypoints.cli.evaluate_understanding import SPLIT_CHOICES
from tests.conftest import catalog_url_for
from tests.unit.test_understanding_pool_v2 import (
    BOOK_TOOLS,
    INTENTS,
    WORKSPACE_TOOLS,
    _source_titles,
)

SURFACES = ("assistant", "workspace")
TODAY = "2026-11-02"
"""The date relative-date cases assume (the clock of tests/workspace_world.py)."""


def _file(surface: str) -> Path:
    found = split_file("dev3", surface)
    assert found is not None, f"dev3/{surface}.json is not packaged"
    return Path(str(found))


def _data(surface: str) -> dict[str, Any]:
    data = json.loads(_file(surface).read_text(encoding="utf-8"))
    assert set(data) == {"version", "about", "cases"}
    assert data["version"] == f"understanding-{surface}-dev3-pool-v3"
    return data


def test_dev3_is_named_by_the_cli_and_not_run_by_all() -> None:
    assert "dev3" in SPLIT_CHOICES and "dev3" in MORE_SPLITS and "dev3" not in SPLITS
    assert split_file("dev3", "guideline") is None and split_file("dev3", "kb") is None


@pytest.mark.parametrize("surface", SURFACES)
def test_the_pool_is_as_large_and_as_varied_as_promised(surface: str) -> None:
    cases = _data(surface)["cases"]
    assert len(cases) >= 90
    assert {c["origin"] for c in cases} == {"pool-v3"}
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids))
    kinds = Counter(c["kind"] for c in cases)
    assert kinds["clarify"] >= 15 and kinds["compound"] >= 8 and kinds["context"] >= 8
    assert all(kinds[intent] >= 3 for intent in INTENTS)
    tools = {t.name for t in BOOK_TOOLS} if surface == "assistant" else WORKSPACE_TOOLS
    assert all(kinds[tool] >= 6 for tool in tools), kinds
    assert set(kinds) <= tools | INTENTS | {"clarify", "compound", "context"}


def test_book_cases_have_their_fields() -> None:
    for case in _data("assistant")["cases"]:
        assert {"id", "kind", "expect_calls", "origin"} <= set(case), case["id"]
        assert ("request" in case) != ("turns" in case), case["id"]
        if case["kind"] == "clarify":
            assert case.get("expect_clarify") is True and case["expect_calls"] == []
        elif case["kind"] in INTENTS:
            assert case.get("expect_intent") == case["kind"] and case["expect_calls"] == []
        else:
            assert case["expect_calls"], case["id"]
        if case["kind"] == "compound":
            assert len(case["expect_calls"]) >= 2, case["id"]


def test_workspace_cases_have_their_fields() -> None:
    for case in _data("workspace")["cases"]:
        assert {"id", "kind", "turns", "expect", "origin"} <= set(case), case["id"]
        assert case.get("today", TODAY) == TODAY
        last = case["turns"][-1]
        assert all("say" in turn for turn in case["turns"])
        if case["kind"] == "clarify":
            assert last.get("expect_clarify") is True and last["expect_calls"] == []
            assert case["expect"] == {"unchanged": True}
        elif case["kind"] in INTENTS:
            assert last.get("expect_intent") == case["kind"] and last["expect_calls"] == []
        else:
            assert last["expect_calls"], case["id"]
        if case["kind"] == "compound":
            assert len(last["expect_calls"]) >= 2, case["id"]
        if case["kind"] == "context":
            assert "page" in last or len(case["turns"]) > 1, case["id"]


# --- workspace -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeded_names(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
    from lectern.adapters.catalog.workspace_store import SqlAlchemyWorkspaceStore

    path = tmp_path_factory.mktemp("pool-v3") / "catalog.db"
    catalog = SqlAlchemyBookCatalog.from_url(catalog_url_for(path))
    service = WorkspaceService(SqlAlchemyWorkspaceStore(catalog.engine))
    users = DemoUsers(viewer="vera")
    demo = seed_demo(service, users)
    names = {
        "task": set(demo.tasks),
        "project": {demo.vpn.name, demo.phishing.name},
        "blocker": set(demo.blockers),
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


def test_workspace_cases_name_offered_tools_and_seeded_things(
    seeded_names: dict[str, set[str]],
) -> None:
    cases = load_workspace_conversations(_file("workspace"))
    assert len(cases) == len(_data("workspace")["cases"])
    labels = (*DEMO_KEV, *DEMO_ATTACK)
    for case in cases:
        created: set[str] = set()
        for turn in case.turns:
            assert turn.user in seeded_names["people"]
            for reference in _references([turn.page, list(turn.expect_calls or ())]):
                kind, _, name = reference[1:].partition(":")
                if kind == "document":
                    # A linked KEV or ATT&CK record, titled "<label>: <name>".
                    assert name.split(": ", 1)[0] in labels, f"{case.id}: {reference}"
                else:
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
        for blocker in case.expect.get("blockers", []):
            assert blocker.get("task", next(iter(seeded_names["task"]))) in seeded_names["task"]


# --- book assistant --------------------------------------------------------------------


def test_book_cases_name_offered_tools_and_catalog_books() -> None:
    cases = load_conversations(_file("assistant"))
    assert len(cases) == len(_data("assistant")["cases"])
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
        pytest.skip("no book sources in the shared data")
    assert sorted(t for t in named if t.casefold() not in titles) == []
