"""Changes proposed that were not asked for (dev19's wrong actions), one construct per test.

A change refused and the one asked instead ("don't mark the runbook done - just move it to
review"); "the other one", which names no task; "it" just after a change was proposed; a
text put on a task with "add this to <task>: ..."; a blocker said as "a blocking / an
impediment / another blocker"; a new task led by its project's word with no verb before it.
Each dev19 sentence sits beside phrasings of our own and near-misses that must stay as they
were.
"""

from __future__ import annotations

from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import WORKSPACE_TOOLS
from lectern.adapters.understanding.workspace_kept_frames import kept_on_task
from lectern.adapters.understanding.workspace_refused import (
    instead_of_refused,
    other_one_unclear,
    proposed_task,
)
from lectern.domain.assistant import AIResponse, Message, ToolSpec
from tests.unit.test_workspace_phrasings import NAMES, SYSTEM, _rules

TOOLS = [ToolSpec(name, "", {}) for name in WORKSPACE_TOOLS]
TASKS = NAMES.of("task")
HUNT = "Hunt for unusual VPN logins"
RUNBOOK = "Write the incident runbook"
DRILL = "Schedule the phishing drill"
PATCH = "Patch the Check Point gateways"
REVIEW = "Review NetScaler session tokens"


def _said(text: str, history: tuple[Message, ...] = ()) -> AIResponse:
    return RulePolicy().complete_with_tools([*history, Message("user", text)], TOOLS, system=SYSTEM)


def _calls(text: str) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, dict(c.arguments)) for c in _said(text).tool_calls]


def _planned(text: str, history: list[Message]) -> AIResponse | list[tuple[str, dict[str, Any]]]:
    stages = _rules().plan(text, history, SYSTEM)
    assert stages is not None, text
    outcome = stages[0](None)
    if isinstance(outcome, AIResponse):
        return outcome
    return [(c.name, dict(c.arguments)) for c in outcome]


# --- a change refused, then the one asked instead ---------------------------------------


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (  # dev19
            "don't mark the runbook done, it isn't - just move it to review",
            ("update_task", {"task_id": RUNBOOK, "status": "in_review"}),
        ),
        (
            "do not close the drill, move it to in progress",
            ("update_task", {"task_id": DRILL, "status": "in_progress"}),
        ),
        (
            "no need to assign the hunt to bob, give it to alice",
            ("assign_task", {"task_id": HUNT, "assignee_id": "alice"}),
        ),
        (
            "dont mark the patch task done - set it to high priority instead",
            ("update_task", {"task_id": PATCH, "priority": "high"}),
        ),
        (
            "don't complete the netscaler review, it's not finished. put it in review",
            ("update_task", {"task_id": REVIEW, "status": "in_review"}),
        ),
        (
            "Please don't close the runbook but move it to review",
            ("update_task", {"task_id": RUNBOOK, "status": "in_review"}),
        ),
        (
            "don't mark the drill as done; just bump it to urgent",
            ("update_task", {"task_id": DRILL, "priority": "urgent"}),
        ),
        (
            "don't close the drill, just close the hunt",
            ("complete_task", {"task_id": HUNT}),
        ),
        (
            "you don't need to close the hunt, just assign it to bob",
            ("assign_task", {"task_id": HUNT, "assignee_id": "bob"}),
        ),
    ],
)
def test_only_the_change_asked_instead_of_a_refused_one_is_proposed(
    said: str, expected: tuple[str, dict[str, Any]]
) -> None:
    assert _calls(said) == [expected]


@pytest.mark.parametrize(
    "said",
    [
        "don't close the drill",
        "dont mark the runbook done",
        "don't close the drill, it isn't finished",
        "don't give the hunt to bob, alice is on it",
        "do not mark the runbook complete - I'll do it tomorrow",
        # "and" may join two refused changes
        "don't assign the hunt to bob and close it",
    ],
)
def test_a_refusal_with_nothing_asked_instead_changes_nothing(said: str) -> None:
    assert _said(said).tool_calls == ()


def test_the_refused_part_only_pointing_leaves_it_to_what_it_pointed_at() -> None:
    # dev19 (second turn): "it" is the task the last reply proposed a change on
    assert instead_of_refused("wait, no - don't give it to bob, give it to alice", TASKS) == (
        "give it to alice"
    )
    # a refused part that names no task and does not point: left whole
    said = "don't bother with comments, close it"
    assert instead_of_refused(said, TASKS) == said


# --- "it" just after a change was proposed ------------------------------------------------

_PROPOSAL = (
    "I have prepared this change for your approval (nothing has changed yet):\n"
    "1. Assign the task 'Hunt for unusual VPN logins' [action 21e6e7ba-8a90-43e5-a7d9-"
    '421e5ac40a46] assignee: null -> "bob"'
)


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("give it to alice", ("assign_task", {"task_id": HUNT, "assignee_id": "alice"})),
        ("make it urgent", ("update_task", {"task_id": HUNT, "priority": "urgent"})),
        ("hand it to alice then", ("assign_task", {"task_id": HUNT, "assignee_id": "alice"})),
    ],
)
def test_it_after_a_proposal_is_the_proposed_changes_task(
    said: str, expected: tuple[str, dict[str, Any]]
) -> None:
    history = [Message("user", "assign the hunt to bob"), Message("assistant", _PROPOSAL)]
    assert _planned(said, history) == [expected]


def test_a_proposal_on_several_tasks_names_no_task() -> None:
    two = _PROPOSAL + "\n2. Complete the task 'Write the incident runbook' [action 1234abcd-0]"
    assert proposed_task(_PROPOSAL, TASKS) == HUNT
    assert proposed_task(two, TASKS) is None
    assert proposed_task("Done: Assign the task 'Nothing stored' [action x]", TASKS) is None


# --- "the other one" ----------------------------------------------------------------------

_DONE = (
    "Done: Assign the task 'Hunt for unusual VPN logins'. "
    "[task:fa3b7859-ef24-433c-b594-eb603485e13c]"
)


@pytest.mark.parametrize(
    "said",
    [
        "and the other one to alice",  # dev19
        "give the other one to alice",
        "the other task to alice too",
        "assign the other one to bob as well",
        "close the other one",
        "mark teh other one done",
    ],
)
def test_the_other_one_is_asked_not_the_task_just_named(said: str) -> None:
    history = [Message("user", "give the hunt to bob"), Message("assistant", _DONE)]
    outcome = _planned(said, history)
    assert isinstance(outcome, AIResponse), outcome
    assert "other one" in outcome.text


def test_the_other_one_beside_a_named_task_is_left_to_the_rules() -> None:
    assert other_one_unclear("assign the runbook to alice, the other one stays", TASKS) is None
    assert other_one_unclear("give it to alice", TASKS) is None


# --- a text put on a task: a comment ------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "task", "words"),
    [
        (  # dev19
            "add this to the check point task:\n`Nov 01 03:12:44 gw02 vpnd[2211]: GET "
            "/clients/MyCRL aCSHELL/../../../../etc/shadow 200`\nexploitation attempt from "
            "45.137.21.9, blocked at edge",
            PATCH,
            "45.137.21.9",
        ),
        ("add this to the hunt task: saw 40 failed logins from 10.2.3.4", HUNT, "10.2.3.4"),
        ("paste this on the runbook - step 4 is `systemctl restart vpnd`", RUNBOOK, "systemctl"),
        ("put the following on the drill: HR wants it moved to the 12th", DRILL, "12th"),
        ("pls stick this under the netscaler review... case #88213 opened", REVIEW, "88213"),
        ("Drop this into the patch task:\nERROR 500 /api/v1/login\nseen twice", PATCH, "ERROR"),
    ],
)
def test_a_text_added_to_a_task_is_a_comment_on_it(said: str, task: str, words: str) -> None:
    [(tool, arguments)] = _calls(said)
    assert (tool, arguments["task_id"]) == ("add_comment", task)
    assert words in arguments["content"]


def test_a_text_added_to_no_stored_task_is_left_alone() -> None:
    assert kept_on_task("add this to my notes: buy milk", TASKS) is None
    assert kept_on_task("add this to the patch task", TASKS) is None


# --- a blocker said as a blocking, an impediment, another blocker -------------------------


@pytest.mark.parametrize(
    ("said", "task", "words"),
    [
        (  # dev19
            "There is a blocking on the phishing drill: the HR direction has not validated the "
            "date.",
            DRILL,
            "HR",
        ),
        (  # dev19
            "impediment on the NetScaler review — Citrix support case #88213 still open, can't "
            "confirm token invalidation",
            REVIEW,
            "88213",
        ),
        (  # dev19: no task before the reason, the reason names it
            "oh wonderful, another blocker: legal hasn't signed off on the drill emails",
            DRILL,
            "legal",
        ),
        ("new blocker on the hunt - SIEM retention is only 7 days", HUNT, "SIEM"),
        ("a blocking point for the runbook: the legal review is still pending", RUNBOOK, "legal"),
        ("roadblock on the check point patch: vendor hotfix pulled", PATCH, "hotfix"),
        ("ugh, one more impediment: the netscaler review needs citrix logs", REVIEW, "citrix"),
        (  # dev18
            "Impediment on Hunt for unusual VPN logins - no access to the VPN log archive yet.",
            HUNT,
            "archive",
        ),
    ],
)
def test_a_blocking_or_an_impediment_on_a_task_records_a_blocker(
    said: str, task: str, words: str
) -> None:
    [(tool, arguments)] = _calls(said)
    assert (tool, arguments["task_id"]) == ("create_blocker", task)
    assert words.casefold() in arguments["description"].casefold()


@pytest.mark.parametrize(
    "said",
    [
        "blocker on the drill: what is it?",
        "blocking on the drill: is it legal?",
        "the blocker on the drill: resolved",
        "impediment on the NetScaler review",
        "another blocker: legal hasn't signed off yet",  # names no task
        # dev16: a sentence about a blocker that ended, then a request of its own
        "impediment on the check point patching is gone, vendor confirmed the window -- resolve it",
        "the impediment on the drill is resolved: HR signed",
        "impediment on the drill cleared - legal signed off",
        "blocker on the hunt: close it",
        "blocker: the vendor window for the check point patch is cleared",
    ],
)
def test_a_blocker_frame_without_a_reason_or_a_task_is_not_rewritten(said: str) -> None:
    assert kept_on_task(said, TASKS, NAMES.of("project")) is None


@pytest.mark.parametrize(
    "said",
    [
        # a blocker on a project (dev5): "phishing" is also the drill's word
        "blocker for phishing awareness: mail gateway allowlist not configured",
        "impediment on the vpn gateway project - budget frozen",
        "another blocker: the phishing awareness budget is frozen for the drill",
        "add this to the vpn project: new gateway ordered",
    ],
)
def test_words_that_name_a_project_are_left_to_the_project_rules(said: str) -> None:
    assert kept_on_task(said, TASKS, NAMES.of("project")) is None


def test_a_blocker_on_a_project_stays_on_the_project() -> None:
    [(tool, arguments)] = _calls(
        "blocker for phishing awareness: mail gateway allowlist not configured"
    )
    assert (tool, arguments.get("project_id")) == ("create_blocker", "Phishing awareness")


# --- a new task led by its project's word, no verb ----------------------------------------


@pytest.mark.parametrize(
    ("said", "project", "title"),
    [
        (  # dev19
            'new vpn task "Audit MFA on the VPN portal", high priority, due end of the month',
            "VPN gateway hardening",
            "Audit MFA on the VPN portal",
        ),
        (
            'new vpn task "Audit MFA on the VPN portal"',
            "VPN gateway hardening",
            "Audit MFA on the VPN portal",
        ),
        (
            'New phishing task: "Brief the VPN helpdesk", due friday',
            "Phishing awareness",
            "Brief the VPN helpdesk",
        ),
        (
            "a new vpn gateway task 'Rotate the VPN certs' for bob",
            "VPN gateway hardening",
            "Rotate the VPN certs",
        ),
        ('new vpn task "Check VPN logs" urgent', "VPN gateway hardening", "Check VPN logs"),
        (
            "new phishing task - 'Collect VPN click rates'",
            "Phishing awareness",
            "Collect VPN click rates",
        ),
    ],
)
def test_a_new_task_with_a_quoted_title_is_created_in_the_project_named(
    said: str, project: str, title: str
) -> None:
    [(tool, arguments)] = _calls(said)
    assert (tool, arguments["project_id"], arguments["title"]) == ("create_task", project, title)


def test_a_new_quoted_task_keeps_its_details() -> None:
    [(_, arguments)] = _calls(
        'new vpn task "Audit MFA on the VPN portal", high priority, due end of the month'
    )
    assert arguments["priority"] == "high" and "due_date" in arguments


@pytest.mark.parametrize("said", ["new vpn task", "new vpn tasks?", "any new vpn tasks"])
def test_new_without_a_quoted_title_creates_nothing(said: str) -> None:
    assert all(name != "create_task" for name, _ in _calls(said))
