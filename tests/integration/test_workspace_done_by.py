"""A deadline said with "done by" is a due date; a creation verb before a quoted title makes it.

Rule policy + the layer + MiniLM, through the assistant service. dev20's "create 'Disable
legacy IKEv1' on vpn hardening. high prio, needs to be done by EOW" proposed completing the
hunt task: "done" was read as the task finished, and nothing said a task was being made
without the word "task". Each test holds the construct in phrasings of our own, and the
near misses that must stay as they were ("the hunt is done" closes it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import CUES, Understanding
from tests.workspace_world import WorkspaceWorld, conversation_worlds

HUNT = "Hunt for unusual VPN logins"
VPN = "VPN gateway hardening"
PHISHING = "Phishing awareness"
CHANGES = {"complete_task", "update_task", "create_task", "assign_task", "add_comment"}


@pytest.fixture
def workspace(tmp_path: Path, layer: Understanding) -> WorkspaceWorld:
    return conversation_worlds(tmp_path, RulePolicy(layer=layer))()


def _calls(workspace: WorkspaceWorld, text: str) -> list[tuple[str, dict[str, object]]]:
    reply = workspace.assistant.chat("alice", text)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize(
    "said",
    [
        "needs to be done by EOW",
        "get the hunt done by end of next week",
        "the drill has to be finished before december 10",
        "should be completed no later than friday",
        "must be done until the 20th",
    ],
)
def test_done_before_a_deadline_is_no_cue_of_completion(said: str) -> None:
    assert not CUES["complete_task"].search(said)


@pytest.mark.parametrize("said", ["the hunt is done", "drill finished", "close out the runbook"])
def test_done_said_alone_still_cues_completion(said: str) -> None:
    assert CUES["complete_task"].search(said)


def test_a_deadline_with_done_by_closes_nothing(workspace: WorkspaceWorld) -> None:
    for said in (
        "get the hunt done by end of next week",
        "the phishing drill needs to be finished before december 10",
    ):
        made = [name for name, _ in _calls(workspace, said)]
        assert "complete_task" not in made, (said, made)
    # a deadline for a task named: its due date moved, nothing closed
    for said in (
        "we need the runbook done by friday",
        "can we get the runbook done by next friday",
    ):
        calls = _calls(workspace, said)
        assert [name for name, _ in calls] == ["update_task"], (said, calls)
        assert calls[0][1]["due_date"] and "status" not in calls[0][1], (said, calls)


def test_a_task_done_by_a_day_said_as_past_is_completed(workspace: WorkspaceWorld) -> None:
    # review: only a deadline needed is a due date; one met is a completion
    for said in (
        "the runbook was done by tuesday, mark it complete",
        "bob had the runbook done by monday so close it out",
        "i got the drill finished before friday, tick it off",
    ):
        made = [name for name, _ in _calls(workspace, said)]
        assert made == ["complete_task"], (said, made)


def test_a_creation_verb_before_a_quoted_title_makes_the_task(workspace: WorkspaceWorld) -> None:
    # dev20: had proposed completing the hunt task
    calls = _calls(
        workspace,
        "create 'Disable legacy IKEv1' on vpn hardening. high prio, needs to be done by EOW",
    )
    assert [name for name, _ in calls] == ["create_task"]
    assert calls[0][1]["title"] == "Disable legacy IKEv1"
    assert calls[0][1]["project_id"] == VPN
    assert calls[0][1]["priority"] == "high"
    assert calls[0][1]["due_date"]  # end of the week, counted from the world's clock
    for said, project, title in (
        ("log 'Rotate the admin keys' under phishing awareness", PHISHING, "Rotate the admin keys"),
        ("create \"Check gateway firmware\" on the vpn project", VPN, "Check gateway firmware"),
        ("raise 'Renew the VPN certificate' in vpn gateway hardening", VPN,
         "Renew the VPN certificate"),
    ):  # fmt: skip
        calls = _calls(workspace, said)
        assert [name for name, _ in calls] == ["create_task"], (said, calls)
        assert (calls[0][1]["title"], calls[0][1]["project_id"]) == (title, project)


def test_opening_a_quoted_document_still_opens_it(workspace: WorkspaceWorld) -> None:
    calls = _calls(workspace, "open 'T1133: External Remote Services'")
    assert not CHANGES & {name for name, _ in calls}, calls
