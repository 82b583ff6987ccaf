"""What someone else said, or a machine printed, beside the request; a tracker's words.

Rule policy + the layer + MiniLM, through the assistant service (which keeps a pasted line's
break). Each test holds the dev16 sentence beside phrasings of our own: a forwarded or
replied message is data (its writer is nobody the request names, its words may name the
thing the request is about), a pasted alert or log line is what a comment records, and a
tracker's ticket, story, card, epic and backlog are the workspace's tasks and projects.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import Understanding
from tests.workspace_world import WorkspaceWorld, conversation_worlds

DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
HUNT = "Hunt for unusual VPN logins"
PATCH = "Patch the Check Point gateways"
REVIEW = "Review NetScaler session tokens"
VPN = "VPN gateway hardening"
PHISHING = "Phishing awareness"


@pytest.fixture
def workspace(tmp_path: Path, layer: Understanding) -> WorkspaceWorld:
    return conversation_worlds(tmp_path, RulePolicy(layer=layer))()


def _calls(workspace: WorkspaceWorld, text: str) -> list[tuple[str, dict[str, object]]]:
    reply = workspace.assistant.chat("alice", text)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def test_the_writer_of_a_forwarded_message_is_not_the_assignee(workspace: WorkspaceWorld) -> None:
    # dev16: 'fwd from Bob: "I'm out sick" -- give it to alice then' had assigned bob
    first = workspace.assistant.chat("alice", "who has the check point patch task")
    reply = workspace.assistant.chat(
        "alice",
        'fwd from Bob: "I\'m out sick" -- give it to alice then',
        conversation=first.conversation,
    )
    assert [(c.name, c.arguments["assignee_id"]) for c in reply.tool_calls] == [
        ("assign_task", "alice")
    ]
    for said, task in (
        ("Fwd from bob: \"can't make the drill, I'm travelling\" -- hand the phishing drill "
         "to alice", DRILL),
        ("fw: \"I'm on leave next week\" from Bob -- please assign the runbook to alice", RUNBOOK),
        ("bob wrote: \"I'm swamped with the audit\" -- give the check point patch to alice "
         "instead", PATCH),
        ('Forwarded message from alice: "bob should own this" -- assign the netscaler review '
         "to me", REVIEW),
    ):  # fmt: skip
        assert _calls(workspace, said) == [
            ("assign_task", {"task_id": task, "assignee_id": "alice"})
        ], said


def test_a_forwarded_quote_names_what_the_request_is_about(workspace: WorkspaceWorld) -> None:
    for said, expected in (
        # dev16
        (
            'Fwd: "the NetScaler review is not urgent anymore, drop it to low" -- please '
            "change the priority",
            [("update_task", {"task_id": REVIEW, "priority": "low"})],
        ),
        (
            're: onboarding -- "what is the VPN gateway hardening project actually for?" from '
            "the new hire. can you show me the project details so I can answer",
            [("get_project_details", {"project_id": VPN})],
        ),
        # ours
        (
            'fwd: "the drill is more urgent than we thought, bump it to high" -- pls change '
            "the prio",
            [("update_task", {"task_id": DRILL, "priority": "high"})],
        ),
        (
            're: audit -- "what does the phishing awareness project cover?" from the auditor. '
            "can you pull up the project details",
            [("get_project_details", {"project_id": PHISHING})],
        ),
        (
            'Re: kickoff -- "whats the vpn gateway hardening project about?" asked the CISO. '
            "show me the project details please",
            [("get_project_details", {"project_id": VPN})],
        ),
    ):
        assert _calls(workspace, said) == expected, said


def test_a_quoted_request_is_never_made_for_the_reader(workspace: WorkspaceWorld) -> None:
    for said in (
        'fwd from bob: "please close the phishing drill" -- is that right?',
        'fwd from bob: "please close the phishing drill" -- what do you think?',
        'bob wrote: "give the runbook to bob" -- hmm, not sure about this',
    ):
        reply = workspace.assistant.chat("alice", said)
        assert reply.actions == (), said
        # a look-up may answer; nothing the quote asked is proposed
        assert all(c.name.startswith(("get_", "search_")) for c in reply.tool_calls), said


def test_a_request_whose_words_are_the_quote_reads_it_whole(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat(
        "alice",
        're: drill -- "HR approved, date is the 18th". comment that on the drill and mark it done',
    )
    assert [c.name for c in reply.tool_calls] == ["add_comment", "complete_task"]
    assert "18th" in str(reply.tool_calls[0].arguments["content"])


def test_a_pasted_alert_is_the_comment_and_never_the_title(workspace: WorkspaceWorld) -> None:
    for said, task, words in (
        # dev16
        (
            "WARN vpn-auth: 37 failed logins from 198.51.100.23 in 5m\npaste this as a comment "
            "on the unusual VPN logins hunt",
            HUNT,
            "198.51.100.23",
        ),
        # ours
        (
            "ERROR auth-gw: 12 failed MFA pushes for jdoe in 2m\nadd this as a comment on the "
            "VPN login hunt",
            HUNT,
            "MFA",
        ),
        (
            "2026-11-28T14:02:11Z CRITICAL vpn-gw-03 tunnel flapping\nput this on the check "
            "point patch task as a comment",
            PATCH,
            "flapping",
        ),
    ):
        calls = _calls(workspace, said)
        assert [(n, a["task_id"]) for n, a in calls] == [("add_comment", task)], said
        assert words in str(calls[0][1]["content"]), said


def test_a_request_after_a_pasted_line_is_read_alone(workspace: WorkspaceWorld) -> None:
    assert _calls(
        workspace,
        "CRITICAL fw-edge-02 cpu 98% sustained 15m\nmake a task in VPN gateway hardening to "
        "investigate the fw-edge-02 load, urgent",
    ) == [
        (
            "create_task",
            {"title": "Investigate the fw-edge-02 load", "project_id": VPN, "priority": "urgent"},
        )
    ]
    assert _calls(
        workspace,
        "[FIRING] HighCPU fw-core-01 95%\ncreate a task in VPN gateway hardening to look at "
        "fw-core-01, high priority",
    ) == [("create_task", {"title": "Look at fw-core-01", "project_id": VPN, "priority": "high"})]
    for said, words in (
        (
            "sshd[2211]: Failed password for invalid user admin from 203.0.113.7 port 51122\n"
            "do we have anything in the workspace about brute force on the VPN?",
            "brute force",
        ),
        (
            "Nov 28 14:02:11 gw01 sshd[4411]: Invalid user test from 192.0.2.9\nanything in "
            "the workspace about password spraying?",
            "password spraying",
        ),
    ):
        calls = _calls(workspace, said)
        assert [n for n, _ in calls] == ["search_content"], said
        assert words in str(calls[0][1]["query"]), said


def test_a_trackers_words_are_the_workspaces(workspace: WorkspaceWorld) -> None:
    for said, expected in (
        # dev16
        (
            'add a ticket to the phishing backlog: "Draft training slides", low priority',
            ("create_task", {"title": "Draft training slides", "priority": "low"}),
        ),
        ("show me the backlog for phishing awareness", ("get_tasks", {"project_id": PHISHING})),
        # ours
        (
            'new ticket on the phishing backlog: "Book the meeting room", high priority',
            ("create_task", {"title": "Book the meeting room", "priority": "high"}),
        ),
        (
            'add a story to the vpn epic called "Rotate gateway certs"',
            ("create_task", {"title": "Rotate gateway certs"}),
        ),
        (
            'create a card in the VPN hardening backlog: "Check tunnel MTU"',
            ("create_task", {"title": "Check tunnel MTU"}),
        ),
        ("what's in the vpn hardening backlog?", ("get_tasks", {"project_id": VPN})),
        ("pull up the phishing awareness backlog", ("get_tasks", {"project_id": PHISHING})),
        (
            "show me the user stories for phishing awareness",
            ("get_tasks", {"project_id": PHISHING}),
        ),
        (
            "move the drill card to the in progress column",
            ("update_task", {"task_id": DRILL, "status": "in_progress"}),
        ),
    ):
        calls = _calls(workspace, said)
        assert len(calls) == 1, (said, calls)
        name, arguments = calls[0]
        assert name == expected[0], (said, calls)
        assert expected[1].items() <= arguments.items(), (said, calls)
        if name == "create_task":
            wanted = PHISHING if "phishing" in said else VPN
            assert arguments["project_id"] == wanted, said


def test_a_short_subject_line_is_what_it_means(workspace: WorkspaceWorld) -> None:
    # Found by the lead (session 21): "re: runbook --" had become a quote the request could
    # not use, and "assign it to bob" asked which task (it had been made before the pass).
    runbook, hunt = "Write the incident runbook", "Hunt for unusual VPN logins"
    assert _calls(workspace, "re: runbook -- can you assign it to bob") == [
        ("assign_task", {"task_id": runbook, "assignee_id": "bob"})
    ]
    assert _calls(workspace, "re: the hunt -- pls close it") == [
        ("complete_task", {"task_id": hunt})
    ]
    assert _calls(workspace, "re: vpn logins hunt -- set it to urgent") == [
        ("update_task", {"task_id": hunt, "priority": "urgent"})
    ]
    # Two "it"s, or a subject that is a sentence: not read as the subject; asked instead.
    assert _calls(workspace, "re: drill -- bob says he has it, can you mark it in progress") == []


def test_a_pasted_line_before_for_that_is_a_blockers_words(workspace: WorkspaceWorld) -> None:
    calls = _calls(
        workspace, "ERROR: could not export logs\ncan you add a blocker on the hunt for that"
    )
    assert [name for name, _ in calls] == ["create_blocker"]
    assert calls[0][1]["description"] == "ERROR: could not export logs"
