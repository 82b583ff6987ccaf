"""A stored task or project called by everyday words (rule policy + the layer + MiniLM).

Each test holds the dev15 sentence beside phrasings of our own: the words before "task" or
"project" name nothing stored by spelling, so they are read by meaning; words that name
nothing stored ("the firewall audit task") are still asked about.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.workspace_everyday import by_everyday_names
from tests.workspace_world import WorkspaceWorld, conversation_worlds

DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
VPN = "VPN gateway hardening"
PHISHING = "Phishing awareness"
NAMES = Names(
    {
        "project": [VPN, PHISHING],
        "task": [
            "Patch the Check Point gateways",
            "Review NetScaler session tokens",
            "Hunt for unusual VPN logins",
            RUNBOOK,
            DRILL,
        ],
        "member": ["alice", "bob"],
    },
    {"alice": "Alice Analyst", "bob": "Bob Builder"},
)


@pytest.fixture
def workspace(tmp_path: Path, layer: Understanding) -> WorkspaceWorld:
    return conversation_worlds(tmp_path, RulePolicy(layer=layer))()


def _calls(reply: object) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]  # type: ignore[attr-defined]


def test_everyday_words_for_a_task_are_its_stored_title(layer: Understanding) -> None:
    said = {
        # dev15
        "can you leave a note on the fake-email test task that HR wants it": DRILL,
        "who owns the email scam simulation task?": DRILL,
        "close the emergency playbook task": RUNBOOK,
    }
    for text, name in said.items():
        assert name in by_everyday_names(layer, text, NAMES), text


def test_everyday_words_for_a_project_are_its_stored_name(layer: Understanding) -> None:
    said = {
        # dev15
        "is anything holding up the network tunnel project?": VPN,
        "could you add a to-do to the fake-email test project called 'X'?": PHISHING,
        "show the docs on the secure tunnel project": VPN,
        "add a task to the email scam training project called 'Order posters'": PHISHING,
    }
    for text, name in said.items():
        assert name in by_everyday_names(layer, text, NAMES), text


def test_words_that_name_nothing_stored_stay_as_written(layer: Understanding) -> None:
    for text in (
        "close the firewall audit task",
        "what's in the firewall migration project",
        "what's blocking the red team project",
        "assign the printer task to bob",
        "tasks of the SOC tooling project",
        "close the okta migration task",
        # which task by its state or order, and words a stored name holds: not by meaning
        "close the overdue task",
        "show the new task",
        "open the high priority task",
        "close the vpn login hunt task",
        "close bob's task",
    ):
        assert by_everyday_names(layer, text, NAMES) == text, text


def test_without_the_layer_the_words_stay() -> None:
    text = "is anything holding up the network tunnel project?"
    assert by_everyday_names(None, text, NAMES) == text


def test_a_request_on_a_project_called_by_everyday_words(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "is anything holding up the network tunnel project?")
    assert _calls(reply) == [("get_blockers", {"project_id": VPN})]
    reply = workspace.assistant.chat(
        "alice", "any documents linked to the secure tunnel project? I'm new here"
    )
    assert _calls(reply) == [("get_documents", {"project_id": VPN})]


def test_a_change_on_a_task_called_by_everyday_words(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat(
        "alice", "please comment on the email scam simulation task that legal signed off"
    )
    assert [(n, a["task_id"]) for n, a in _calls(reply)] == [("add_comment", DRILL)]


def test_a_task_that_names_nothing_stored_is_still_asked(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "close the firewall audit task")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text


def test_a_stored_task_opened_by_its_words_alone(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "can you open the VPN login hunt for me?")
    assert _calls(reply) == [("get_task_details", {"task_id": "Hunt for unusual VPN logins"})]
