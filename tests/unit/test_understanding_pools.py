"""The understanding pools v2 to v8: loadable by the runners, and true to their data.

One set of checks, run over each pool's `Pool` below (v3, v5 and v7: book assistant and
workspace; v6: guideline chat and KB reply; v2, v4 and v8: all four): every file loads with the
loader its runner uses (and, from v3 on, holds every case's required fields); each pool is as
large and as varied as it promised; every tool named is one the assistant offers; every task,
project, blocker, document and person a workspace case names is in the seeded demo world;
every book named is in the catalog sources, every guideline answer's numbers are in each
accepted section or page, and every KB source is a page of the FastAPI docs (these last
checks run when the shared data is there); a guideline session stays in one half; the
held-out halves say so, and the halves are the seeded deal of their pool.

The pools were written at different times, and the checks grew with them: what a pool
promised, and which checks it was written against, are fields of its `Pool`, so each
pool is held to exactly what it was held to in its own module before they were folded here.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from lectern.application.assistant import action_tools, query_tools
from lectern.application.assistant.workspace_actions import WORKSPACE_ACTION_TOOLS
from lectern.application.assistant.workspace_tools import WORKSPACE_QUERY_TOOLS
from lectern.application.evaluation.answering import load_support_questions
from lectern.application.evaluation.assistant import load_conversations
from lectern.application.evaluation.understanding import (
    MORE_SPLITS,
    SPLITS,
    SURFACES,
    split_file,
)
from lectern.application.evaluation.workspace import load_workspace_conversations
from lectern.application.workspace.demo import DEMO_ATTACK, DEMO_KEV, DemoUsers, seed_demo
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
LABEL = re.compile(r"^\[(NIST SP 800-63[ABC]?) §([\d.]+)\]$|^\[RFC (\d+) p\.(\d+)\]$")
TODAY = "2026-11-02"
"""The date relative-date cases assume (the clock of tests/workspace_world.py, a Monday)."""
TOOLS_DIR = Path(__file__).resolve().parents[2] / "tools"
GUIDANCE = SHARED_DATA / "guidance"


@dataclass(frozen=True, slots=True)
class Variety:
    """The least a pool promised of each surface's cases (book assistant, workspace)."""

    cases: int
    clarify: int
    compound: int
    context: int
    per_intent: int
    """Cases of each conversational intent (greeting, thanks, ...)."""
    per_tool: int
    """Cases of each tool: its phrasings."""


@dataclass(frozen=True, slots=True)
class Questions:
    """The least a pool promised of a surface's questions (guideline chat, KB reply)."""

    questions: int
    declined: int
    """Questions the right reply declines: no accepted label (guideline), unanswerable (KB)."""
    id_prefix: str | None = None
    """What every question's id starts with."""


@dataclass(frozen=True, slots=True)
class Pool:
    """One understanding pool: its halves, its promises, and the checks it was written for."""

    origin: str
    """Every case's `origin`, and the suffix of every file's `version`."""
    splits: tuple[str, ...]
    """The tuning half first, then the held-out half when there is one."""
    surfaces: tuple[str, ...]
    versioned: bool = True
    """Each file's `version` is `understanding-<surface>-<split>-<origin>` (checked from v3)."""
    apart_from_all: bool = True
    """`all` does not run the halves, only the CLI names them (checked from v3)."""
    variety: Variety | None = None
    """Per-surface promises; with them, every case is checked field by field (from v3)."""
    held_out: str | None = None
    """How the held-out half's `about` ends."""
    held_out_says: str | None = None
    """Something else the held-out half's `about` says (v6: who wrote it)."""
    seed: str | None = None
    """The seed `tools/split_understanding_pool.py` deals this pool's halves with."""
    deal_is_the_files: bool = False
    """The deal gives exactly the packaged halves, over exactly these surfaces (v5)."""
    named: tuple[str, ...] = ("task", "project", "blocker", "people", "document")
    """The kinds a workspace case's `$kind:name` may take (v2's came before blockers and
    linked documents); a document is a linked KEV or ATT&CK record."""
    due_dates_this_year: bool = True
    """A due date in a case without `today` is in 2026 (checked from v4)."""
    book_context_has_context: bool = True
    """A book `context` case has a page book or earlier turns (checked from v4)."""
    clarify_after_a_change: bool = True
    """A clarifying workspace case may follow a turn that changed something (from v4)."""
    dated_only_when_due: bool = False
    """Only a workspace case whose expectation depends on the date carries `today` (v5)."""
    titles_vary: tuple[int, int] | None = None
    """At least this many distinct books named, none named more than this many times."""
    guideline: Questions | None = None
    kb: Questions | None = None
    numbers_as_written: bool = False
    """A guideline question's expected numbers are strings, as an answer writes them (v6)."""


POOL_V2 = Pool(
    "pool-v2",
    ("dev2", "test2"),
    SURFACES,
    versioned=False,
    apart_from_all=False,
    named=("task", "project", "people"),
    due_dates_this_year=False,
)
POOL_V3 = Pool(
    "pool-v3",
    ("dev3",),
    ("assistant", "workspace"),
    variety=Variety(cases=90, clarify=15, compound=8, context=8, per_intent=3, per_tool=6),
    due_dates_this_year=False,
    book_context_has_context=False,
    clarify_after_a_change=False,
)
POOL_V4 = Pool(
    "pool-v4",
    ("dev4", "test3"),
    SURFACES,
    variety=Variety(cases=150, clarify=26, compound=20, context=14, per_intent=4, per_tool=8),
    held_out=(
        "This is TEST3, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of the work on issue 26, and report that run."
    ),
    seed="pool-v4-2026-11-27",
    titles_vary=(30, 12),
    guideline=Questions(questions=30, declined=6),
    kb=Questions(questions=24, declined=5),
)
POOL_V5 = Pool(
    "pool-v5",
    ("dev5", "test4"),
    ("assistant", "workspace"),
    variety=Variety(cases=110, clarify=16, compound=12, context=10, per_intent=3, per_tool=6),
    held_out=(
        "This is TEST4, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of the next pass on issue 26, and report that run."
    ),
    seed="pool-v5-2026-11-27",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(40, 6),
)
POOL_V6 = Pool(
    "pool-v6",
    ("dev6", "test5"),
    ("guideline", "kb"),
    held_out=(
        "This is TEST5, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v6-2026-11-28",
    deal_is_the_files=True,
    guideline=Questions(questions=40, declined=12, id_prefix="p6-g-"),
    kb=Questions(questions=30, declined=10, id_prefix="p6-k-"),
    numbers_as_written=True,
)
POOL_V7 = Pool(
    "pool-v7",
    ("dev7", "test6"),
    ("assistant", "workspace"),
    variety=Variety(cases=150, clarify=24, compound=17, context=15, per_intent=4, per_tool=6),
    held_out=(
        "This is TEST6, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v7-2026-11-29",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(55, 5),
)
POOL_V8 = Pool(
    "pool-v8",
    ("dev8", "test7"),
    SURFACES,
    variety=Variety(cases=160, clarify=25, compound=17, context=15, per_intent=4, per_tool=6),
    held_out=(
        "This is TEST7, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v8-2026-11-30",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(60, 5),
    guideline=Questions(questions=70, declined=16, id_prefix="p8-g-"),
    kb=Questions(questions=50, declined=15, id_prefix="p8-k-"),
    numbers_as_written=True,
)
POOL_V9 = Pool(
    "pool-v9",
    ("dev9", "test8"),
    ("assistant", "workspace"),
    variety=Variety(cases=200, clarify=28, compound=20, context=16, per_intent=5, per_tool=8),
    held_out=(
        "This is TEST8, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v9-2026-12-01",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(70, 5),
)
POOL_V10 = Pool(
    "pool-v10",
    ("dev10", "test9"),
    ("assistant", "workspace"),
    variety=Variety(cases=170, clarify=28, compound=20, context=16, per_intent=5, per_tool=8),
    held_out=(
        "This is TEST9, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v10-2026-12-02",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(70, 5),
)
POOL_V11 = Pool(
    "pool-v11",
    ("dev11", "test10"),
    ("assistant", "workspace"),
    variety=Variety(cases=210, clarify=30, compound=22, context=18, per_intent=5, per_tool=9),
    held_out=(
        "This is TEST10, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v11-2026-12-03",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(75, 5),
)
POOL_V12 = Pool(
    "pool-v12",
    ("dev12", "test11"),
    ("assistant", "workspace"),
    variety=Variety(cases=230, clarify=32, compound=24, context=20, per_intent=5, per_tool=10),
    held_out=(
        "This is TEST11, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v12-2026-12-04",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(80, 5),
)
POOL_V13 = Pool(
    "pool-v13",
    ("dev13", "test12"),
    SURFACES,
    variety=Variety(cases=230, clarify=32, compound=24, context=20, per_intent=5, per_tool=10),
    held_out=(
        "This is TEST12, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v13-2026-12-05",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(80, 5),
    guideline=Questions(questions=60, declined=14, id_prefix="p13-g-"),
    kb=Questions(questions=44, declined=12, id_prefix="p13-k-"),
    numbers_as_written=True,
)
POOL_V14 = Pool(
    "pool-v14",
    ("dev14", "test13"),
    ("assistant", "workspace"),
    variety=Variety(cases=230, clarify=32, compound=24, context=20, per_intent=5, per_tool=10),
    held_out=(
        "This is TEST13, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v14-2026-12-06",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(80, 5),
)
POOL_V15 = Pool(
    "pool-v15",
    ("dev15", "test14"),
    ("assistant", "workspace"),
    variety=Variety(cases=230, clarify=32, compound=24, context=20, per_intent=5, per_tool=10),
    held_out=(
        "This is TEST14, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v15-2026-12-07",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(80, 5),
)
POOL_V16 = Pool(
    "pool-v16",
    ("dev16", "test15"),
    ("assistant", "workspace"),
    variety=Variety(cases=230, clarify=32, compound=24, context=20, per_intent=5, per_tool=10),
    held_out=(
        "This is TEST15, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v16-2026-12-08",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(80, 5),
)
POOL_V17 = Pool(
    "pool-v17",
    ("dev17", "test16"),
    ("guideline", "kb"),
    held_out=(
        "This is TEST16, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v17-2026-12-09",
    deal_is_the_files=True,
    guideline=Questions(questions=64, declined=16, id_prefix="p17-g-"),
    kb=Questions(questions=46, declined=14, id_prefix="p17-k-"),
    numbers_as_written=True,
)
POOL_V18 = Pool(
    "pool-v18",
    ("dev18", "test17"),
    ("assistant", "workspace"),
    variety=Variety(cases=230, clarify=32, compound=24, context=20, per_intent=5, per_tool=10),
    held_out=(
        "This is TEST17, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v18-2026-12-10",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(80, 5),
)
POOL_V19 = Pool(
    "pool-v19",
    ("dev19", "test18"),
    ("assistant", "workspace"),
    variety=Variety(cases=230, clarify=32, compound=24, context=20, per_intent=5, per_tool=10),
    held_out=(
        "This is TEST18, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v19-2026-12-11",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(80, 5),
)
POOL_V20 = Pool(
    "pool-v20",
    ("dev20", "test19"),
    SURFACES,
    variety=Variety(cases=230, clarify=32, compound=24, context=20, per_intent=5, per_tool=10),
    held_out=(
        "This is TEST19, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v20-2026-12-12",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(80, 5),
    guideline=Questions(questions=64, declined=16, id_prefix="p20-g-"),
    kb=Questions(questions=46, declined=14, id_prefix="p20-k-"),
    numbers_as_written=True,
)
POOL_V21 = Pool(
    "pool-v21",
    ("dev21", "test20"),
    SURFACES,
    variety=Variety(cases=230, clarify=32, compound=24, context=20, per_intent=5, per_tool=10),
    held_out=(
        "This is TEST20, HELD OUT: do not read it while changing the rules; run it once, "
        "at the end of this pass on issue 26, and report that run."
    ),
    held_out_says="had not read the rules",
    seed="pool-v21-2026-12-13",
    deal_is_the_files=True,
    dated_only_when_due=True,
    titles_vary=(80, 6),  # two writers each chose Of Mice and Men (6 of 309 cases)
    guideline=Questions(questions=64, declined=16, id_prefix="p21-g-"),
    kb=Questions(questions=46, declined=14, id_prefix="p21-k-"),
    numbers_as_written=True,
)
POOLS = (
    POOL_V2,
    POOL_V3,
    POOL_V4,
    POOL_V5,
    POOL_V6,
    POOL_V7,
    POOL_V8,
    POOL_V9,
    POOL_V10,
    POOL_V11,
    POOL_V12,
    POOL_V13,
    POOL_V14,
    POOL_V15,
    POOL_V16,
    POOL_V17,
    POOL_V18,
    POOL_V19,
    POOL_V20,
    POOL_V21,
)


def _pools(*, having: str | None = None, surface: str | None = None) -> list[Any]:
    """The pools as test parameters (named by origin): those with a `having` and `surface`."""
    return [
        pytest.param(pool, id=pool.origin)
        for pool in POOLS
        if (having is None or getattr(pool, having) is not None)
        and (surface is None or surface in pool.surfaces)
    ]


def _with(name: str) -> list[Any]:
    """(pool, its field `name`) as test parameters (named by origin), where the field is set."""
    return [
        pytest.param(pool, getattr(pool, name), id=pool.origin)
        for pool in POOLS
        if getattr(pool, name) is not None
    ]


def _halves(surface: str | None = None) -> list[Any]:
    """Every (pool, split) as test parameters (named by split), the pools with `surface`."""
    return [
        pytest.param(pool, split, id=split)
        for pool in POOLS
        if surface is None or surface in pool.surfaces
        for split in pool.splits
    ]


def _file(split: str, surface: str) -> Path:
    found = split_file(split, surface)
    assert found is not None, f"{split}/{surface}.json is not packaged"
    return Path(str(found))


def _data(pool: Pool, split: str, surface: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_file(split, surface).read_text(encoding="utf-8"))
    key = "questions" if surface in ("guideline", "kb") else "cases"
    assert set(data) == {"version", "about", key}
    if pool.versioned:
        assert data["version"] == f"understanding-{surface}-{split}-{pool.origin}"
    return data


def _items(pool: Pool, split: str, surface: str) -> list[dict[str, Any]]:
    data = _data(pool, split, surface)
    return list(data.get("cases") or data["questions"])


def _pool(pool: Pool, surface: str) -> list[dict[str, Any]]:
    return [item for split in pool.splits for item in _items(pool, split, surface)]


# --- the halves ------------------------------------------------------------------------


@pytest.mark.parametrize("pool", _pools())
def test_the_cli_names_the_halves_and_every_surface_has_both(pool: Pool) -> None:
    if pool.apart_from_all:
        for split in pool.splits:
            assert split in SPLIT_CHOICES and split in MORE_SPLITS and split not in SPLITS
    else:
        assert set(pool.splits) <= set(SPLIT_CHOICES)
    if len(pool.splits) == 2:
        first, second = pool.splits
        for surface in pool.surfaces:
            tuning = {item["id"] for item in _items(pool, first, surface)}
            held = {item["id"] for item in _items(pool, second, surface)}
            assert tuning and held and not tuning & held
    for surface in set(SURFACES) - set(pool.surfaces):
        assert all(split_file(split, surface) is None for split in pool.splits)


@pytest.mark.parametrize(("pool", "ending"), _with("held_out"))
def test_the_held_out_half_says_so(pool: Pool, ending: str) -> None:
    tuning, held = pool.splits
    for surface in pool.surfaces:
        about = _data(pool, held, surface)["about"]
        assert about.endswith(ending)
        if pool.held_out_says is not None:
            assert pool.held_out_says in about
        assert tuning.upper() in _data(pool, tuning, surface)["about"]


def test_the_case_tool_refuses_every_held_out_split() -> None:
    spec = importlib.util.spec_from_file_location(
        "understanding_cases", TOOLS_DIR / "understanding_cases.py"
    )
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    held_out = {pool.splits[-1] for pool in POOLS if pool.held_out is not None}
    assert {"test4", "test5", "test6"} <= held_out
    assert all(split.startswith("dev") for split in tool.TUNABLE)
    assert not held_out & set(tool.TUNABLE)
    assert "dev7" in tool.TUNABLE


def _split_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "split_understanding_pool", TOOLS_DIR / "split_understanding_pool.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclass looks its module up
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


def _units(items: list[dict[str, Any]]) -> set[str]:
    """The deal's units: a guideline session, else a case."""
    return {str(item.get("session") or item["id"]) for item in items}


@pytest.mark.parametrize(("pool", "seed"), _with("seed"))
def test_the_splits_are_the_seeded_deal_of_the_pool(pool: Pool, seed: str) -> None:
    tool = _split_tool()
    dealt = tool.POOLS[pool.origin]
    assert dealt.seed == seed and dealt.splits == pool.splits
    if pool.deal_is_the_files:
        assert set(dealt.surfaces) == set(pool.surfaces)
    assert tool.check(dealt)
    tuning, held = pool.splits
    for surface in pool.surfaces:
        first, second = tool.deal(surface, _pool(pool, surface), dealt.seed)
        if pool.deal_is_the_files:
            assert {i["id"] for i in first} == {i["id"] for i in _items(pool, tuning, surface)}
            assert {i["id"] for i in second} == {i["id"] for i in _items(pool, held, surface)}
            # Dealt alternately by unit (a guideline session is one): the tuning half gets
            # the first, so at least as many units; its questions may be fewer.
            assert len(_units(first)) >= len(_units(second))
        else:
            assert [i["id"] for i in first] != [] and len(first) >= len(second)


# --- size and fields -------------------------------------------------------------------


def _at_least(least: int, pool: Pool, items: list[dict[str, Any]]) -> None:
    """At least `least` items, all of this pool, no id twice."""
    assert len(items) >= least
    assert {item["origin"] for item in items} == {pool.origin}
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids))


def test_pool_v2_is_as_large_and_as_varied_as_promised() -> None:
    every = [item for surface in SURFACES for item in _pool(POOL_V2, surface)]
    _at_least(240, POOL_V2, every)
    kinds = Counter(item["kind"] for s in ("workspace", "assistant") for item in _pool(POOL_V2, s))
    assert kinds["clarify"] >= 40
    assert all(count >= 12 for count in kinds.values()), kinds


@pytest.mark.parametrize("surface", ["assistant", "workspace"])
@pytest.mark.parametrize(("pool", "promised"), _with("variety"))
def test_the_pool_is_as_large_and_as_varied_as_promised(
    pool: Pool, promised: Variety, surface: str
) -> None:
    cases = _pool(pool, surface)
    _at_least(promised.cases, pool, cases)
    kinds = Counter(c["kind"] for c in cases)
    assert (
        kinds["clarify"] >= promised.clarify
        and kinds["compound"] >= promised.compound
        and kinds["context"] >= promised.context
    )
    assert all(kinds[intent] >= promised.per_intent for intent in INTENTS), kinds
    tools = {t.name for t in BOOK_TOOLS} if surface == "assistant" else WORKSPACE_TOOLS
    assert all(kinds[tool] >= promised.per_tool for tool in tools), kinds
    assert set(kinds) <= tools | INTENTS | {"clarify", "compound", "context"}


def _expects_what_its_kind_says(case_id: str, kind: str, step: Mapping[str, Any]) -> None:
    """A case's last step (a book case, a workspace case's last turn) fits the case's kind."""
    if kind == "clarify":
        assert step.get("expect_clarify") is True and step["expect_calls"] == []
    elif kind in INTENTS:
        assert step.get("expect_intent") == kind and step["expect_calls"] == []
    else:
        assert step["expect_calls"], case_id
    if kind == "compound":
        assert len(step["expect_calls"]) >= 2, case_id


@pytest.mark.parametrize("pool", _pools(having="variety"))
def test_book_cases_have_their_fields(pool: Pool) -> None:
    for case in _pool(pool, "assistant"):
        assert {"id", "kind", "expect_calls", "origin"} <= set(case), case["id"]
        assert ("request" in case) != ("turns" in case), case["id"]
        _expects_what_its_kind_says(case["id"], case["kind"], case)
        if case["kind"] == "context" and pool.book_context_has_context:
            assert "page_book" in case or len(case.get("turns", [])) > 1, case["id"]


@pytest.mark.parametrize("pool", _pools(having="variety"))
def test_workspace_cases_have_their_fields(pool: Pool) -> None:
    for case in _pool(pool, "workspace"):
        assert {"id", "kind", "turns", "expect", "origin"} <= set(case), case["id"]
        assert case.get("today", TODAY) == TODAY
        last = case["turns"][-1]
        assert all("say" in turn for turn in case["turns"])
        _expects_what_its_kind_says(case["id"], case["kind"], last)
        if case["kind"] == "clarify":
            # Nothing changed, unless an earlier turn set the scene by changing something.
            set_the_scene = pool.clarify_after_a_change and any(
                turn.get("approve") for turn in case["turns"][:-1]
            )
            if not set_the_scene:
                assert case["expect"] == {"unchanged": True}, case["id"]
        if case["kind"] == "context":
            assert "page" in last or len(case["turns"]) > 1, case["id"]
        if pool.dated_only_when_due and "today" in case:
            # Only a case whose expectation depends on the date carries one: a due date.
            dated = [
                call
                for turn in case["turns"]
                for call in turn["expect_calls"]
                if "due_date" in call.get("args", {})
            ]
            assert dated, case["id"]


# --- workspace -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeded_names(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
    from lectern.adapters.catalog.workspace_store import SqlAlchemyWorkspaceStore

    path = tmp_path_factory.mktemp("pools") / "catalog.db"
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


@pytest.mark.parametrize(("pool", "split"), _halves("workspace"))
def test_workspace_cases_name_offered_tools_and_seeded_things(
    pool: Pool, split: str, seeded_names: dict[str, set[str]]
) -> None:
    cases = load_workspace_conversations(_file(split, "workspace"))
    assert len(cases) == len(_items(pool, split, "workspace"))
    # A kind the pool may not name is missing here, and naming it fails the lookup below.
    nameable = {kind: seeded_names[kind] for kind in pool.named if kind != "document"}
    labels = (*DEMO_KEV, *DEMO_ATTACK)
    for case in cases:
        created: set[str] = set()
        for turn in case.turns:
            assert turn.user in seeded_names["people"]
            for reference in _references([turn.page, list(turn.expect_calls or ())]):
                kind, _, name = reference[1:].partition(":")
                if kind == "document" and kind in pool.named:
                    # A linked KEV or ATT&CK record, titled "<label>: <name>", as the
                    # evaluation's world titles it (not the unit tests' small world).
                    label, _, title = name.partition(": ")
                    assert label in labels, f"{case.id}: {reference}"
                    linked = _linked_titles()
                    if linked is not None:
                        assert linked.get(label) == title, f"{case.id}: {reference}"
                else:
                    assert name in nameable[kind], f"{case.id}: {reference}"
            for call in turn.expect_calls or ():
                assert call["tool"] in WORKSPACE_TOOLS, f"{case.id}: {call['tool']}"
                args = call.get("args", {})
                if "assignee_id" in args and args["assignee_id"] is not None:
                    assert args["assignee_id"] in seeded_names["people"]
                if "due_date" in args and pool.due_dates_this_year:
                    assert case.today is not None or args["due_date"][:4] == "2026", case.id
                if call["tool"] in ("create_task", "update_task") and "title" in args:
                    created.add(args["title"].casefold())
            if turn.expect_clarify or turn.expect_intent:
                assert turn.expect_calls == ()
        known = {t.casefold() for t in seeded_names["task"]} | created
        for task in case.expect.get("tasks", []):
            assert task["title"].casefold() in known, f"{case.id}: {task['title']}"
        for comment in case.expect.get("comments", []):
            assert comment["task"] in seeded_names["task"]
        if "blocker" in pool.named:
            for blocker in case.expect.get("blockers", []):
                task = blocker.get("task", next(iter(seeded_names["task"])))
                assert task in seeded_names["task"]


@cache
def _linked_titles() -> dict[str, str] | None:
    """The demo's linked records' titles in the shared KEV and ATT&CK data, by label."""
    kev = SHARED_DATA / "threat/cisa-kev/known_exploited_vulnerabilities.json"
    attack = SHARED_DATA / "threat/mitre-attack/enterprise-attack-pattern.jsonl"
    if not (kev.is_file() and attack.is_file()):
        return None
    titles = {
        row["cveID"]: row["vulnerabilityName"]
        for row in json.loads(kev.read_text(encoding="utf-8"))["vulnerabilities"]
        if row["cveID"] in DEMO_KEV
    }
    for line in attack.read_text(encoding="utf-8").splitlines():
        pattern = json.loads(line)
        for ref in pattern.get("external_references", ()):
            if ref.get("source_name") == "mitre-attack" and ref.get("external_id") in DEMO_ATTACK:
                titles[ref["external_id"]] = pattern["name"]
    return titles


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


@pytest.mark.parametrize(("pool", "split"), _halves("assistant"))
def test_book_cases_name_offered_tools_and_catalog_books(pool: Pool, split: str) -> None:
    cases = load_conversations(_file(split, "assistant"))
    assert len(cases) == len(_items(pool, split, "assistant"))
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


@pytest.mark.parametrize(("pool", "titles"), _with("titles_vary"))
def test_book_titles_vary(pool: Pool, titles: tuple[int, int]) -> None:
    least, most = titles
    books = Counter(
        call["args"]["book"]
        for case in _pool(pool, "assistant")
        for call in case["expect_calls"]
        if "book" in call.get("args", {})
    )
    assert len(books) >= least and max(books.values()) <= most, books


# --- guideline chat and KB reply -------------------------------------------------------


@pytest.mark.parametrize("pool", _pools(surface="guideline"))
def test_a_guideline_session_stays_in_one_half(pool: Pool) -> None:
    for split in pool.splits:
        other = next(s for s in pool.splits if s != split)
        mine = {q.get("session") for q in _items(pool, split, "guideline")} - {None}
        theirs = {q.get("session") for q in _items(pool, other, "guideline")} - {None}
        assert not mine & theirs


def _promised_questions() -> list[Any]:
    return [
        pytest.param(pool, surface, promised, id=f"{pool.origin}-{surface}")
        for pool in POOLS
        for surface, promised in (("guideline", pool.guideline), ("kb", pool.kb))
        if promised is not None
    ]


@pytest.mark.parametrize(("pool", "surface", "promised"), _promised_questions())
def test_the_questions_are_as_many_as_promised(
    pool: Pool, surface: str, promised: Questions
) -> None:
    questions = _pool(pool, surface)
    _at_least(promised.questions, pool, questions)
    if promised.id_prefix is not None:
        assert all(q["id"].startswith(promised.id_prefix) for q in questions)
    answered = "expect_labels" if surface == "guideline" else "answerable"
    assert sum(not q[answered] for q in questions) >= promised.declined


def test_the_v6_guideline_pool_has_every_kind_and_whole_sessions() -> None:
    questions = _pool(POOL_V6, "guideline")
    kinds = Counter((q["profile"], q["kind"]) for q in questions)
    for profile in ("nist", "rfc"):
        for kind in ("answerable", "follow_up", "unanswerable", "off_scope"):
            assert kinds[(profile, kind)] >= 1, (profile, kind)
    sessions = Counter(q["session"] for q in questions if q.get("session"))
    assert all(count >= 2 for count in sessions.values())
    assert all(q.get("session") for q in questions if q["kind"] == "follow_up")


def _nist_section(volume: str, number: str) -> str:
    # SP 800-63A/B/C have their letter; the base volume (SP 800-63-3) is in sp800-63-3/.
    suffix = volume[-1].lower() if volume[-1].isalpha() else "-3"
    folder = GUIDANCE / "nist-sp800-63-3" / f"sp800-63{suffix}"
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


@pytest.mark.parametrize(("pool", "split"), _halves("guideline"))
def test_guideline_answers_are_in_the_cited_text(pool: Pool, split: str) -> None:
    questions = _items(pool, split, "guideline")
    for question in questions:
        assert question["profile"] in ("nist", "rfc")
        assert bool(question["expect_labels"]) == (question["kind"] in ("answerable", "follow_up"))
        assert all(LABEL.match(label) for label in question["expect_labels"]), question["id"]
        if pool.numbers_as_written:
            assert all(isinstance(n, str) for n in question["expect_numbers"]), question["id"]
    if not GUIDANCE.is_dir():
        pytest.skip(f"no guidance documents at {GUIDANCE}")
    for question in questions:
        if not question["expect_labels"]:
            continue
        texts = [_cited_text(label) for label in question["expect_labels"]]
        assert all(texts), question["id"]
        numbers = [str(n) for n in question["expect_numbers"]]
        assert all(all(n in text for n in numbers) for text in texts), question["id"]


@pytest.mark.parametrize(("pool", "split"), _halves("kb"))
def test_kb_questions_load_and_cite_pages_of_the_docs(pool: Pool, split: str) -> None:
    _, cases = load_support_questions(_file(split, "kb"))
    questions = _items(pool, split, "kb")
    assert len(cases) == len(questions)
    for question in questions:
        assert question["answerable"] == bool(question["sources"])
    docs = SHARED_DATA / "kb" / "fastapi-docs" / "docs"
    if not docs.is_dir():
        pytest.skip(f"no FastAPI docs at {docs}")
    for question in questions:
        for source in question["sources"]:
            assert (docs / source.removeprefix("kb:")).is_file(), source
