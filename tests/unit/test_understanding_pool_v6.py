"""The understanding pool v6 (dev6, test5): loadable by the runners, and true to its data.

The guideline chat and the KB reply only. Every file holds every question's required fields;
the pool is as large and as varied as promised (answerable, follow-up, unanswerable and
off-scope guideline questions on both profiles; answerable and unanswerable KB questions);
every guideline answer's numbers are in each accepted section or page, and every KB source is
a page of the FastAPI docs (these last checks run when the shared data is there); the two
splits are the seeded deal of the pool, a guideline session dealt whole.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from lectern.application.evaluation.answering import load_support_questions
from lectern.application.evaluation.understanding import (
    MORE_SPLITS,
    SPLITS,
    SURFACES,
    split_file,
)
from lectern.entrypoints.cli.evaluate_understanding import SPLIT_CHOICES
from tests.conftest import SHARED_DATA
from tests.unit.test_understanding_pool_v2 import LABEL, _cited_text

POOL = ("dev6", "test5")
SURFACES_V6 = ("guideline", "kb")
TOOLS_DIR = Path(__file__).resolve().parents[2] / "tools"
GUIDANCE = SHARED_DATA / "guidance"


def _file(split: str, surface: str) -> Path:
    found = split_file(split, surface)
    assert found is not None, f"{split}/{surface}.json is not packaged"
    return Path(str(found))


def _data(split: str, surface: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_file(split, surface).read_text(encoding="utf-8"))
    assert set(data) == {"version", "about", "questions"}
    assert data["version"] == f"understanding-{surface}-{split}-pool-v6"
    return data


def _items(split: str, surface: str) -> list[dict[str, Any]]:
    return list(_data(split, surface)["questions"])


def _pool(surface: str) -> list[dict[str, Any]]:
    return [item for split in POOL for item in _items(split, surface)]


def test_both_halves_are_named_by_the_cli_and_not_run_by_all() -> None:
    for split in POOL:
        assert split in SPLIT_CHOICES and split in MORE_SPLITS and split not in SPLITS
    for surface in SURFACES_V6:
        dev6 = {item["id"] for item in _items("dev6", surface)}
        test5 = {item["id"] for item in _items("test5", surface)}
        assert dev6 and test5 and not dev6 & test5
    for surface in set(SURFACES) - set(SURFACES_V6):
        assert all(split_file(split, surface) is None for split in POOL)


def test_test5_says_it_is_held_out() -> None:
    for surface in SURFACES_V6:
        about = _data("test5", surface)["about"]
        assert about.endswith(
            "This is TEST5, HELD OUT: do not read it while changing the rules; run it once, "
            "at the end of issue 26, and report that run."
        )
        assert "had not read the rules" in about
        assert "DEV6" in _data("dev6", surface)["about"]


def _split_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "split_understanding_pool", TOOLS_DIR / "split_understanding_pool.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclass looks its module up
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


def test_the_splits_are_the_seeded_deal_of_the_pool() -> None:
    tool = _split_tool()
    pool = tool.POOLS["pool-v6"]
    assert pool.seed == "pool-v6-2026-11-28" and pool.splits == POOL
    assert set(pool.surfaces) == set(SURFACES_V6)
    assert tool.check(pool)
    for surface in SURFACES_V6:
        dev6, test5 = tool.deal(surface, _pool(surface), pool.seed)
        assert {i["id"] for i in dev6} == {i["id"] for i in _items("dev6", surface)}
        assert {i["id"] for i in test5} == {i["id"] for i in _items("test5", surface)}
        assert len(dev6) >= len(test5)


def test_the_guideline_pool_is_as_promised() -> None:
    questions = _pool("guideline")
    assert len(questions) >= 40
    assert {q["origin"] for q in questions} == {"pool-v6"}
    assert all(q["id"].startswith("p6-g-") for q in questions)
    ids = [q["id"] for q in questions]
    assert len(ids) == len(set(ids))
    kinds = Counter((q["profile"], q["kind"]) for q in questions)
    for profile in ("nist", "rfc"):
        for kind in ("answerable", "follow_up", "unanswerable", "off_scope"):
            assert kinds[(profile, kind)] >= 1, (profile, kind)
    assert sum(not q["expect_labels"] for q in questions) >= 12
    for split in POOL:
        other = next(s for s in POOL if s != split)
        mine = {q.get("session") for q in _items(split, "guideline")} - {None}
        theirs = {q.get("session") for q in _items(other, "guideline")} - {None}
        assert not mine & theirs
    sessions = Counter(q["session"] for q in questions if q.get("session"))
    assert all(count >= 2 for count in sessions.values())
    assert all(q.get("session") for q in questions if q["kind"] == "follow_up")


@pytest.mark.parametrize("split", POOL)
def test_guideline_answers_are_in_the_cited_text(split: str) -> None:
    questions = _items(split, "guideline")
    for question in questions:
        assert question["profile"] in ("nist", "rfc")
        assert bool(question["expect_labels"]) == (question["kind"] in ("answerable", "follow_up"))
        assert all(LABEL.match(label) for label in question["expect_labels"]), question["id"]
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


def test_the_kb_pool_is_as_promised() -> None:
    questions = _pool("kb")
    assert len(questions) >= 30
    assert {q["origin"] for q in questions} == {"pool-v6"}
    assert all(q["id"].startswith("p6-k-") for q in questions)
    assert sum(not q["answerable"] for q in questions) >= 10
    ids = [q["id"] for q in questions]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("split", POOL)
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
