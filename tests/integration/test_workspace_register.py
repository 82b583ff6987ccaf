"""Requests in a control log's register ("please record ...") over the rule policy + MiniLM.

Each test holds the dev16 sentence beside phrasings of our own: an exception or impediment
is a blocker, a remediation item or control is a task, the control owner is the assignee,
remediated is resolved; "record on <task> that <words>" is a comment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import Understanding
from lectern.domain.assistant import PageContext
from tests.workspace_world import WorkspaceWorld, conversation_worlds

PATCH = "Patch the Check Point gateways"
REVIEW = "Review NetScaler session tokens"
HUNT = "Hunt for unusual VPN logins"
DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
VENDOR = "Waiting for the vendor maintenance window"


@pytest.fixture
def worlds(tmp_path: Path, layer: Understanding) -> Any:
    return conversation_worlds(tmp_path, RulePolicy(layer=layer))


def _calls(reply: object) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]  # type: ignore[attr-defined]


def _one(world: WorkspaceWorld, text: str, page: PageContext | None = None) -> list[Any]:
    return _calls(world.assistant.chat("alice", text, page=page))


def _task_page(world: WorkspaceWorld, title: str) -> PageContext:
    return PageContext("task", world.demo.tasks[title], title)


def test_record_on_a_task_that_words_is_a_comment(worlds: Any) -> None:
    for text, task, words in (
        # dev16
        (
            "Please record on 'Review NetScaler session tokens' that evidence of session "
            "termination was captured in ticket SEC-4411.",
            REVIEW,
            "SEC-4411",
        ),
        (
            "Kindly note against 'Patch the Check Point gateways' that the vendor advisory "
            "was attached to CHG-2201",
            PATCH,
            "CHG-2201",
        ),
        (
            "please record on the remediation item 'Hunt for unusual VPN logins' that no "
            "exceptions were found in the October logs",
            HUNT,
            "no exceptions",
        ),
        (
            "Log on 'Write the incident runbook' that the draft was reviewed by legal.",
            RUNBOOK,
            "legal",
        ),
        ("Please record on the phishing drill that HR has approved the date", DRILL, "HR"),
    ):
        calls = _one(worlds(), text)
        assert [(n, a["task_id"]) for n, a in calls] == [("add_comment", task)], text
        assert words.casefold() in str(calls[0][1]["content"]).casefold(), text


def test_record_on_the_item_in_view_is_a_comment_on_it(worlds: Any) -> None:
    for text, words in (
        # dev16
        (
            "Please record on this item that the control test passed with no exceptions.",
            "no exceptions",
        ),
        ("please note on this control that the sample of 25 changes was tested", "25 changes"),
        ("Record on this task that evidence was filed under AUD-77", "AUD-77"),
        ("kindly record on it that the walkthrough happened with the owner", "walkthrough"),
    ):
        world = worlds()
        calls = _one(world, text, _task_page(world, REVIEW))
        assert [(n, a["task_id"]) for n, a in calls] == [
            ("add_comment", world.demo.tasks[REVIEW])
        ] or [(n, a["task_id"]) for n, a in calls] == [("add_comment", REVIEW)], (text, calls)
        assert words.casefold() in str(calls[0][1]["content"]).casefold(), text


def test_record_that_a_remediation_item_is_completed_completes_it(worlds: Any) -> None:
    for text, task in (
        # dev16
        (
            "Please record that the remediation item 'Patch the Check Point gateways' has "
            "been completed and mark it closed.",
            PATCH,
        ),
        (
            "Kindly record that the control 'Review NetScaler session tokens' is now complete.",
            REVIEW,
        ),
        ("please log that 'Hunt for unusual VPN logins' was completed, and close it", HUNT),
        ("Record that the finding 'Write the incident runbook' has been remediated.", RUNBOOK),
        (
            "pls note that the corrective action item 'Schedule the phishing drill' has been "
            "finished",
            DRILL,
        ),
    ):
        assert _one(worlds(), text) == [("complete_task", {"task_id": task})], text


def test_record_that_an_exception_is_remediated_resolves_the_blocker(worlds: Any) -> None:
    for text, words in (
        # dev16: a new blocker had been recorded instead (a wrong action)
        (
            "Please record that the exception 'Waiting for the vendor maintenance window' is "
            "remediated: the change board approved the window on 2 November.",
            "change board",
        ),
        (
            "Kindly record the impediment 'Waiting for the vendor maintenance window' as "
            "resolved - CAB approved the slot for Saturday",
            "CAB approved",
        ),
        (
            "please note that the exception on the Check Point patch has been cleared, "
            "because the vendor confirmed the window",
            "vendor confirmed",
        ),
        (
            "Record that 'Waiting for the vendor maintenance window' was remediated: window "
            "granted for 14 Nov",
            "14 Nov",
        ),
        (
            "For audit purposes, please record that the exception on the Check Point patch is "
            "closed: CAB approval CHG-1182.",
            "CHG-1182",
        ),
        (
            "Please mark the exeption 'Waiting for the vendor maintenance window' as "
            "remediated: CAB approved.",
            "CAB approved",
        ),
    ):
        calls = _one(worlds(), text)
        assert [(n, a["blocker_id"]) for n, a in calls] == [("resolve_blocker", VENDOR)], text
        assert words.casefold() in str(calls[0][1]["resolution"]).casefold(), text


def test_that_exception_after_a_listing_is_the_listed_blocker(worlds: Any) -> None:
    for first, then, words in (
        # dev16
        (
            "Please list the open exceptions on VPN gateway hardening.",
            "Please record that exception as remediated: the vendor window was granted.",
            "granted",
        ),
        (
            "what impediments are open on the VPN gateway hardening project?",
            "kindly log this impediment as cleared, the vendor gave us Sunday night",
            "Sunday",
        ),
        (
            "Please list the open exceptions on VPN gateway hardening.",
            "Record that exception as resolved since the change board signed off",
            "change board",
        ),
    ):
        world = worlds()
        reply = world.assistant.chat("alice", first)
        calls = _calls(world.assistant.chat("alice", then, conversation=reply.conversation))
        assert [(n, a["blocker_id"]) for n, a in calls] == [("resolve_blocker", VENDOR)], then
        assert words.casefold() in str(calls[0][1]["resolution"]).casefold(), then


def test_an_impediment_recorded_on_a_task_is_a_blocker_on_that_task(worlds: Any) -> None:
    for text, task, words in (
        # dev16: the blocker had gone on the task's project
        (
            "Please record an impediment on 'Hunt for unusual VPN logins': the VPN log export "
            "has not been approved by the data owner.",
            HUNT,
            "log export",
        ),
        (
            "Kindly register an exception against 'Review NetScaler session tokens': the "
            "session logs are retained for 7 days only",
            REVIEW,
            "7 days",
        ),
        (
            "please log an impediment for the incident runbook: legal has not signed the template",
            RUNBOOK,
            "legal",
        ),
        (
            "Record a new exception on 'Schedule the phishing drill' - HR calendar not confirmed",
            DRILL,
            "HR calendar",
        ),
    ):
        calls = _one(worlds(), text)
        assert [(n, a.get("task_id")) for n, a in calls] == [("create_blocker", task)], text
        assert words.casefold() in str(calls[0][1]["description"]).casefold(), text


def test_the_following_and_a_control_owner_are_the_requests_they_frame(worlds: Any) -> None:
    for text, expected in (
        # dev16
        (
            "Please record the following: assign 'Hunt for unusual VPN logins' to Alice as "
            "control owner and set its priority to high.",
            [
                ("assign_task", {"task_id": HUNT, "assignee_id": "alice"}),
                ("update_task", {"task_id": HUNT, "priority": "high"}),
            ],
        ),
        (
            "Kindly note the following - assign 'Write the incident runbook' to Bob as the "
            "process owner",
            [("assign_task", {"task_id": RUNBOOK, "assignee_id": "bob"})],
        ),
        (
            "please record as follows: 'Schedule the phishing drill' is assigned to bob as "
            "control owner",
            [("assign_task", {"task_id": DRILL, "assignee_id": "bob"})],
        ),
        (
            "Assign 'Review NetScaler session tokens' to alice as its control owner, please.",
            [("assign_task", {"task_id": REVIEW, "assignee_id": "alice"})],
        ),
        (
            "Record the following: set the priority of 'Patch the Check Point gateways' to low",
            [("update_task", {"task_id": PATCH, "priority": "low"})],
        ),
        (
            "Please record that the control owner for 'Schedule the phishing drill' is now Bob.",
            [("assign_task", {"task_id": DRILL, "assignee_id": "bob"})],
        ),
        (
            "Please record the due date of 'Hunt for unusual VPN logins' as 30 November.",
            [("update_task", {"task_id": HUNT, "due_date": "2026-11-30"})],
        ),
    ):
        assert _one(worlds(), text) == expected, text


def test_which_actions_the_assistant_may_perform_is_what_it_can_do(worlds: Any) -> None:
    for text in (
        # dev16
        "Which actions are you able to perform on the workspace on my behalf, for the "
        "purposes of the audit?",
        "What operations are you permitted to carry out on my behalf?",
        "Please state which changes you are authorised to make in the workspace.",
        "which actions can you take for me in this workspace, for our SOX file?",
        "What functions are you allowed to execute on behalf of users?",
    ):
        reply = worlds().assistant.chat("alice", text)
        assert reply.tool_calls == () and reply.actions == (), text
        assert "I can" in reply.text, (text, reply.text)


def test_a_stored_blocker_spoken_of_is_never_a_new_one(worlds: Any) -> None:
    # dev16's shape: the quoted blocker's "Waiting for" had become a new blocker's words
    for text in (
        "Please record that the exception 'Waiting for the vendor maintenance window' was "
        "raised by the change board.",
        "note that the impediment 'Waiting for the vendor maintenance window' still stands",
    ):
        reply = worlds().assistant.chat("alice", text)
        assert reply.tool_calls == () and reply.actions == (), (text, reply.tool_calls)


def test_a_register_that_asks_no_change_makes_none(worlds: Any) -> None:
    # an exception raised is no exception remediated; words after "that" stay words
    for text in (
        "please record that the control test passed",
        "Please record that the remediation item 'Patch the Check Point gateways' was raised "
        "by internal audit.",
    ):
        calls = _one(worlds(), text)
        assert "resolve_blocker" not in [n for n, _ in calls], (text, calls)
        assert "complete_task" not in [n for n, _ in calls], (text, calls)
