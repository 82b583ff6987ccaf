"""A report then "so that one / that blocker can go", over the rule policy + MiniLM (session 21).

"that one" after a report is the task the report names; "that blocker" is the blocker on the
task the report names, and a task the report names that holds no blocker is said so (it had
resolved the one blocker there was, another task's: a wrong action). "resolve the blocker on
<task>" asks the same way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import Understanding
from tests.workspace_world import conversation_worlds

PATCH = "Patch the Check Point gateways"
REVIEW = "Review NetScaler session tokens"
HUNT = "Hunt for unusual VPN logins"
VENDOR = "Waiting for the vendor maintenance window"


@pytest.fixture
def worlds(tmp_path: Path, layer: Understanding) -> Any:
    return conversation_worlds(tmp_path, RulePolicy(layer=layer))


def _reply(world: Any, text: str) -> Any:
    return world.assistant.chat("alice", text)


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("fyi bob finished the token review, so that one can be ticked off", REVIEW),
        ("the hunt is done, so this one can be closed", HUNT),
        ("we patched all four gateways, so that one can be marked done", PATCH),
        ("heads up: the netscaler tokens were rotated, so that one can be closed now", REVIEW),
        ("bob wrapped up the vpn login hunt yesterday, so that one can be completed", HUNT),
    ],
)
def test_that_one_after_a_report_is_the_task_it_names(worlds: Any, said: str, task: str) -> None:
    reply = _reply(worlds(), said)
    assert [(c.name, c.arguments["task_id"]) for c in reply.tool_calls] == [
        ("complete_task", task)
    ], said


def test_which_means_that_one_is_at_worst_asked_about(worlds: Any) -> None:
    # Left (session 21): "which means" before the pointer is read as a report, and asked.
    said = "bob wrapped up the vpn login hunt yesterday which means that one can be completed"
    reply = _reply(worlds(), said)
    assert [(c.name, c.arguments["task_id"]) for c in reply.tool_calls] in (
        [],
        [("complete_task", HUNT)],
    )


@pytest.mark.parametrize(
    "said",
    [
        "heads up: legal signed off on the runbook, so that blocker can be closed",
        "the phishing drill got HR's ok, so that blocker can be resolved",
        "resolve the blocker on the runbook",
        "please close the blocker on the phishing drill",
    ],
)
def test_a_blocker_on_a_task_that_holds_none_is_said_not_swapped(worlds: Any, said: str) -> None:
    reply = _reply(worlds(), said)
    assert not reply.tool_calls, said
    assert "has no open blocker" in reply.text, said


def test_the_blocker_on_the_task_the_report_names_is_resolved(worlds: Any) -> None:
    for said in (
        "the vendor confirmed the window for the check point patch, so that blocker can be closed",
        "resolve the blocker on the check point patch: window approved",
    ):
        reply = _reply(worlds(), said)
        assert [(c.name, c.arguments["blocker_id"]) for c in reply.tool_calls] == [
            ("resolve_blocker", VENDOR)
        ], said


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("the runbook is blocked on legal review, log it", "Write the incident runbook"),
        ("the runbook is blocked on legal sign-off, log it", "Write the incident runbook"),
        ("the drill is stuck waiting for HR, record it", "Schedule the phishing drill"),
        ("the hunt is blocked on log access, note that", HUNT),
    ],
)
def test_log_it_after_a_told_blocker_records_it_and_changes_nothing_else(
    worlds: Any, said: str, task: str
) -> None:
    # Found by the lead (session 21, older than the pass): "log it" read as a part of its own
    # completed the runbook beside the blocker: a wrong action.
    reply = _reply(worlds(), said)
    assert [(c.name, c.arguments["task_id"]) for c in reply.tool_calls] == [
        ("create_blocker", task)
    ], said
