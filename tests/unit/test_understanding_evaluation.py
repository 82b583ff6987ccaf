"""The understanding sets' figures: clarification precision/recall, wrong actions, splits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lectern.application.evaluation.assistant import CaseOutcome, ConversationCase, ExpectedCall
from lectern.application.evaluation.understanding import (
    Judged,
    figures,
    judge_assistant,
    judge_guideline,
    splits_present,
)


def _outcome(**changes: object) -> CaseOutcome:
    base: dict[str, object] = {
        "id": "c",
        "kind": "k",
        "tools_ok": True,
        "state_ok": True,
        "calls": [],
        "state": {},
        "problems": [],
        "seconds": 0.1,
        "turn_ms": (12.0,),
    }
    base.update(changes)
    return CaseOutcome(**base)  # type: ignore[arg-type]


def test_a_clarifying_case_is_right_only_when_the_reply_asks_back() -> None:
    case = ConversationCase("c", "clarify", ("add it to my list",), (), expect_clarify=True)
    assert judge_assistant(case, _outcome(clarified=True)).tools_ok
    assert not judge_assistant(case, _outcome(clarified=False)).tools_ok


def test_an_action_other_than_the_expected_one_is_a_wrong_action() -> None:
    case = ConversationCase(
        "c", "add", ("stick Dracula on my list",), (ExpectedCall("add_to_list"),)
    )
    assert not judge_assistant(case, _outcome(proposed=("add_to_list",))).wrong_action
    assert judge_assistant(case, _outcome(proposed=("delete_list",))).wrong_action
    nothing = ConversationCase("c", "greeting", ("hi",), (), expect_intent="greeting")
    assert judge_assistant(nothing, _outcome(proposed=("create_list",))).wrong_action


def test_figures_count_questions_asked_and_due() -> None:
    judged = [
        Judged(True, True, True, True, False, 10.0),
        Judged(False, True, False, True, False, 20.0),
        Judged(False, True, True, False, False, 30.0),
        Judged(True, True, False, False, True, 40.0),
    ]
    result = figures(judged)
    assert result["clarify_precision"] == 0.5
    assert result["clarify_recall"] == 0.5
    assert result["wrong_action_rate"] == 0.25
    assert result["tool_accuracy"] == 0.5
    assert result["latency_p50_ms"] == 20.0


def test_the_dev_split_is_packaged_for_every_surface() -> None:
    for surface in ("assistant", "workspace", "guideline", "kb"):
        assert [split for split, _ in splits_present(surface, ("dev",))] == ["dev"]


def test_a_turn_that_should_ask_back_is_checked_even_without_expect_calls(tmp_path: Path) -> None:
    # The held-out split writes a clarifying turn without `expect_calls`; such a turn
    # expects no call and is judged (it was skipped as a set-up turn before).
    from lectern.application.evaluation.workspace import load_workspace_conversations

    path = tmp_path / "cases.json"
    path.write_text(
        json.dumps(
            {
                "cases": [
                    {
                        "id": "c",
                        "kind": "clarify",
                        "turns": [
                            {"say": "set up", "approve": False},
                            {"say": "mark it done", "expect_clarify": True},
                            {"say": "hi", "expect_intent": "greeting"},
                        ],
                        "expect": {"unchanged": True},
                    }
                ]
            }
        ),
        encoding="utf-8",
    )
    [case] = load_workspace_conversations(path)
    assert [t.expect_calls for t in case.turns] == [None, (), ()]


def test_the_book_sets_say_why_they_did_not_run_without_a_catalog(tmp_path: Path) -> None:
    # It crashed with a traceback (FileNotFoundError copying catalog.db) on a fresh install.
    from lectern.entrypoints.cli.evaluate_understanding import run_understanding
    from lectern.settings import Settings

    fresh = run_understanding(Settings(data_dir=tmp_path), ("dev",), ("assistant",), "kb")
    reason = fresh["surfaces"]["assistant"]["dev"]
    assert reason.startswith("not run: no book catalog") and "lectern ingest" in reason
    elsewhere = Settings(data_dir=tmp_path, catalog_url="postgresql://127.0.0.1/none")
    reason = run_understanding(elsewhere, ("dev",), ("assistant",), "kb")["surfaces"]
    assert reason["assistant"]["dev"].startswith("not run: the book sets run on a copy")


def test_a_workspace_case_is_read_on_its_own_day(tmp_path: Path) -> None:
    from datetime import UTC, date, datetime

    from lectern.application.evaluation.workspace import load_workspace_conversations
    from lectern.entrypoints.cli.evaluate_understanding import _fixed_clock

    turn = {"say": "push it to friday", "expect_clarify": True}
    cases = [
        {"id": "dated", "kind": "update_task", "today": "2026-11-02", "turns": [turn]},
        {"id": "undated", "kind": "update_task", "turns": [turn]},
    ]
    path = tmp_path / "workspace.json"
    path.write_text(json.dumps({"cases": cases}), encoding="utf-8")
    dated, undated = load_workspace_conversations(path)
    assert (dated.today, undated.today) == (date(2026, 11, 2), None)
    assert _fixed_clock(date(2026, 11, 2))() == datetime(2026, 11, 2, 9, tzinfo=UTC)


def test_a_guideline_answer_citing_the_base_volume_by_its_revision_is_right() -> None:
    """The collection labels SP 800-63-3's own sections "[NIST SP 800-63-3 §6]"; a question
    written against "SP 800-63" (its common name) accepts them. The lettered volumes stay apart."""
    question = {"expect_labels": ["[NIST SP 800-63 §6]"], "expect_numbers": []}
    cited = {"answer": '"..." [NIST SP 800-63-3 §6]', "labels": ["[NIST SP 800-63-3 §6]"]}
    assert judge_guideline(question, cited).tools_ok
    other = {"answer": '"..." [NIST SP 800-63A §6]', "labels": ["[NIST SP 800-63A §6]"]}
    assert not judge_guideline(question, other).tools_ok
    elsewhere = {"answer": '"..." [NIST SP 800-63-3 §7]', "labels": ["[NIST SP 800-63-3 §7]"]}
    assert not judge_guideline(question, elsewhere).tools_ok


def test_a_model_provider_without_its_model_is_refused_before_any_case(tmp_path: Path) -> None:
    # It ran: every model step failed, the rules' question stood, and the figures were the
    # rules' printed under "hybrid" (session 17, a data directory without var/models).
    from lectern.entrypoints.cli.evaluate_understanding import run_understanding
    from lectern.errors import ConfigurationError
    from lectern.settings import Settings

    for provider in ("hybrid", "local"):
        settings = Settings(data_dir=tmp_path, assistant_provider=provider)
        with pytest.raises(
            ConfigurationError, match="no local model at .*LECTERN_LOCAL_MODEL_PATH"
        ):
            run_understanding(settings, ("dev",), ("assistant",), "kb")
    rules = run_understanding(Settings(data_dir=tmp_path), ("dev",), ("assistant",), "kb")
    assert rules["surfaces"]["assistant"]["dev"].startswith("not run: no book catalog")
