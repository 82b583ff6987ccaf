"""Workspace constructs from dev14 (second pass): a later part that moves on, never a second
object of the earlier verb; a KEV entry or technique that is a document; "who's on this" on a
task's page; a task moved over to a person; "comment there" and a bare comment after a
change; a place before a quoted title; a sentence more joined by "also"; a detail said alone
between changes; a label before the message; a task as a heading; a blocker told to be moot.
"""

from __future__ import annotations

from typing import Any

from lectern.adapters.llm.rule_policy import _LEAD_FILLER
from lectern.adapters.understanding.request_sentence import Request
from lectern.adapters.understanding.workspace_gapping import may_share_verb
from lectern.adapters.understanding.workspace_moot import moot_blocker
from lectern.adapters.understanding.workspace_parts import changes_in_parts
from lectern.adapters.understanding.workspace_told_task import task_led, told_task_named
from lectern.domain.assistant import ToolCall
from tests.unit.test_workspace_phrasings import NAMES, SYSTEM, _calls, _on_page, _rules

DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
HUNT = "Hunt for unusual VPN logins"
PATCH = "Patch the Check Point gateways"
REVIEW = "Review NetScaler session tokens"
VENDOR = "Waiting for the vendor maintenance window"
WITH_VERA = f"{SYSTEM}\n- member: vera (Vera Viewer)"
TASKS = NAMES.of("task")


def _closed(text: str) -> list[str]:
    return [a["task_id"] for t, a in _calls(text) if t == "complete_task"]


def test_a_later_part_that_moves_on_never_takes_the_earlier_verb() -> None:
    # "move to the vpn project" closed the VPN hunt too (a wrong action)
    assert _calls("close the drill and move to the vpn project") == [
        ("complete_task", {"task_id": DRILL})
    ]
    assert _closed("mark the runbook done and then move on to the hunt") == [RUNBOOK]
    assert _closed("complete the runbook and then go to the phishing project") == [RUNBOOK]
    assert _closed("close the netscaler review, then move on to the check point patch") == [REVIEW]
    # an object without a verb of its own still shares the first one
    assert [
        a["task_id"]
        for _, a in _calls("give the netscaler review to bob and the runbook to bob too")
    ] == [
        REVIEW,
        RUNBOOK,
    ]


def test_only_an_object_may_borrow_the_earlier_verb() -> None:
    for part in ("the runbook to bob too", "runbook to bob", "the netscaler review"):
        assert may_share_verb(part, NAMES), part
    for part in (
        "move to the vpn project",
        "move on to the hunt",
        "patch the gateways",
        "go to phishing awareness",
        "the vpn one",
    ):
        assert not may_share_verb(part, NAMES), part


def test_a_kev_entry_or_a_technique_is_a_document_not_the_task_with_its_words() -> None:
    documents = {
        "open the citrix netscaler kev entry": "CVE-2023-4966: Citrix NetScaler session hijacking",
        "pull up the check point cve record": (
            "CVE-2024-24919: Check Point Quantum Gateway information disclosure"
        ),
        "open the external remote services technique": "T1133: External Remote Services",
    }
    for text, document in documents.items():
        assert _calls(text) == [("get_document_details", {"document_id": document})], text
    # the source alone names no one document
    stages = _rules().plan("show me the ATT&CK technique", [], SYSTEM)
    assert stages is None or not isinstance(stages[0](None), list)


def test_who_is_on_the_task_in_view_is_its_details_not_the_team() -> None:
    page = _on_page("task", "t1", PATCH)
    for text in ("who's on this and any comments?", "who's got this one?", "who is on this?"):
        assert _calls(text, page) == [("get_task_details", {"task_id": "t1"})], text
    assert _calls("who's on the team", page)[0][0] == "get_team_members"


def test_tasks_moved_over_to_a_person_are_assigned_to_them() -> None:
    def assigned(text: str) -> list[tuple[str, str]]:
        return [(a["task_id"], a["assignee_id"]) for _, a in _calls(text, WITH_VERA)]

    assert assigned("move the check point patch and the phishing drill over to vera") == [
        (PATCH, "vera"),
        (DRILL, "vera"),
    ]
    assert assigned("shift the runbook and the netscaler review over to bob") == [
        (RUNBOOK, "bob"),
        (REVIEW, "bob"),
    ]
    assert assigned("pass the hunt to bob") == [(HUNT, "bob")]
    # a status is no person
    assert _calls("move the drill to in progress") == [
        ("update_task", {"task_id": DRILL, "status": "in_progress"})
    ]


def test_a_later_comment_there_or_without_its_task_is_on_the_earlier_task() -> None:
    assert _calls(
        "add a blocker on the hunt task: no access to the VPN logs yet. and comment there "
        "asking Bob to request the access"
    ) == [
        ("create_blocker", {"task_id": HUNT, "description": "No access to the VPN logs yet"}),
        ("add_comment", {"task_id": HUNT, "content": "Asking Bob to request the access."}),
    ]
    assert _calls("mark the runbook in review and leave a note there that legal has the draft") == [
        ("update_task", {"task_id": RUNBOOK, "status": "in_review"}),
        ("add_comment", {"task_id": RUNBOOK, "content": "Legal has the draft."}),
    ]
    assert _calls("close the drill and add a comment that HR signed off on the 16th") == [
        ("complete_task", {"task_id": DRILL}),
        ("add_comment", {"task_id": DRILL, "content": "HR signed off on the 16th."}),
    ]


def test_a_new_tasks_place_before_its_quoted_title_and_a_change_after_it() -> None:
    made = ("create_task", {"project_id": "Phishing awareness", "title": "Book the training room"})
    assert _calls("new task on phishing 'Book the training room'") == [made]
    assert _calls("add a task in vpn hardening 'Rotate the VPN keys' for bob") == [
        (
            "create_task",
            {
                "project_id": "VPN gateway hardening",
                "title": "Rotate the VPN keys",
                "assignee_id": "bob",
            },
        )
    ]
    for joint in (". also", ", and"):
        calls = _calls(
            f"new task on phishing 'Book the training room', give it to bob{joint} comment on "
            "the drill that room booking is in progress"
        )
        assert calls == [
            ("create_task", {**made[1], "assignee_id": "bob"}),
            ("add_comment", {"task_id": DRILL, "content": "Room booking is in progress."}),
        ], joint


def test_a_sentence_more_joined_by_also_is_a_request_of_its_own() -> None:
    assert _calls("list the vpn tasks. also who's on the team") == [
        ("get_tasks", {"project_id": "VPN gateway hardening"}),
        ("get_team_members", {}),
    ]
    assert _calls("close the hunt. also assign the runbook to bob") == [
        ("complete_task", {"task_id": HUNT}),
        ("assign_task", {"task_id": RUNBOOK, "assignee_id": "bob"}),
    ]


def test_a_detail_said_alone_between_changes_is_a_change_of_the_same_task() -> None:
    assert _calls("give the drill to alice, due nov 20, and comment 'hr confirmed dates'") == [
        ("assign_task", {"task_id": DRILL, "assignee_id": "alice"}),
        ("update_task", {"task_id": DRILL, "due_date": "2026-11-20"}),
        ("add_comment", {"task_id": DRILL, "content": "Hr confirmed dates."}),
    ]
    assert _calls(
        "assign the runbook to bob, high priority, and note that legal needs it first"
    ) == [
        ("assign_task", {"task_id": RUNBOOK, "assignee_id": "bob"}),
        ("update_task", {"task_id": RUNBOOK, "priority": "high"}),
        ("add_comment", {"task_id": RUNBOOK, "content": "Legal needs it first."}),
    ]
    assert _calls("assign the runbook to bob, due friday, high priority") == [
        ("assign_task", {"task_id": RUNBOOK, "assignee_id": "bob"}),
        ("update_task", {"task_id": RUNBOOK, "due_date": "2026-11-06", "priority": "high"}),
    ]
    assert _calls("set the hunt task to urgent, due 2026-11-20, and assign it to me") == [
        ("update_task", {"task_id": HUNT, "priority": "urgent", "due_date": "2026-11-20"}),
        ("assign_task", {"task_id": HUNT, "assignee_id": "alice"}),
    ]


def test_a_label_before_the_message_is_not_the_verb_update() -> None:
    said = "Update: I've agreed the drill dates with HR. Please close the task."
    assert _LEAD_FILLER.sub("", said).startswith("I've agreed")
    assert _LEAD_FILLER.sub("", "Progress - bob is out. assign the hunt to me").startswith("bob")
    assert _LEAD_FILLER.sub("", "update the drill to done") == "update the drill to done"
    # "the task" after a telling that names one is that task; a status names none
    told = told_task_named(Request("I've agreed the drill dates.", "Please close the task."), TASKS)
    assert told.request == f"Please close {DRILL}."
    told = told_task_named(
        Request("The runbook draft went to legal.", "Set the task to in review."), TASKS
    )
    assert told.request == f"Set {RUNBOOK} to in review."


def test_a_task_said_as_a_heading_is_what_it_means() -> None:
    assert task_led("drill: give it to alice, due nov 20", TASKS) == (
        f"give {DRILL} to alice, due nov 20"
    )
    assert task_led("the netscaler review: assign it to bob", TASKS) == f"assign {REVIEW} to bob"
    assert task_led("re the hunt: close it", TASKS) == f"close {HUNT}"
    # a heading no task is, a rest with no "it", or an "it" after a first part, stays as said
    said = "on the Check Point task: set the priority to urgent, assign it to me"
    assert task_led(said, TASKS) == said
    assert task_led("vpn project: new task 'Rotate keys'", TASKS) == (
        "vpn project: new task 'Rotate keys'"
    )
    assert task_led("note: comment 'it works' on the hunt", TASKS) == (
        "note: comment 'it works' on the hunt"
    )


def _read(part: str, task: str | None) -> list[ToolCall] | None:
    stages = _rules().plan(part, [], SYSTEM, it=task)
    if not stages:
        # the meaning reader's stand-in: what was told of a task done
        return [ToolCall("t", "complete_task", {"task_id": PATCH})] if "finished" in part else None
    calls = stages[0](None)
    return calls if isinstance(calls, list) else None


def test_a_blocker_told_to_be_moot_is_resolved_by_what_was_told() -> None:
    assert moot_blocker("bob finished the patching, so the vendor window blocker is moot now") == (
        "bob finished the patching",
        "resolve the vendor window blocker: bob finished the patching",
    )
    assert moot_blocker("we got the logs, so the log access blocker isn't an issue anymore") == (
        "we got the logs",
        "resolve the log access blocker: we got the logs",
    )
    assert moot_blocker("the vendor blocker is an issue") is None
    assert moot_blocker("the hunt is blocked") is None
    actions = frozenset({"complete_task", "resolve_blocker"})
    calls: list[tuple[str, dict[str, Any]]] = [
        (c.name, dict(c.arguments))
        for c in changes_in_parts(
            "bob finished the check point patching, so the vendor window blocker is moot now",
            _read,
            actions,
        )
    ]
    assert calls == [
        ("complete_task", {"task_id": PATCH}),
        (
            "resolve_blocker",
            {"blocker_id": VENDOR, "resolution": "Bob finished the check point patching"},
        ),
    ]
    [(tool, arguments)] = [
        (c.name, dict(c.arguments))
        for c in changes_in_parts("the vendor window blocker is no longer needed", _read, actions)
    ]
    assert (tool, arguments["blocker_id"]) == ("resolve_blocker", VENDOR)
