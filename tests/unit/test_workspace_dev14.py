"""Workspace constructs from dev14: a change asked as whether it would be ok (a wish in the
past tense after "if you" among them), a request for "a new task" with no title, a look
asked as whether the reader may see it; "record that <a state or a blocker>"; a blocker
whose reason follows a comma; a later change said without its object ("+ assign to me").
"""

from __future__ import annotations

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.not_asked import not_asked
from lectern.adapters.understanding.workspace_frames import unframed_change
from lectern.adapters.understanding.workspace_plan import Where, plan_workspace
from lectern.adapters.understanding.workspace_record_that import record_that
from tests.unit.test_workspace_phrasings import NAMES, SYSTEM, _call, _calls, _rules

VPN = "VPN gateway hardening"
DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"


def test_a_change_asked_as_whether_it_would_be_ok_is_the_change() -> None:
    said = "would it be ok if you took me off the phishing drill? I can't do it this week"
    assert unframed_change(said).startswith("take me off the phishing drill")
    assert unframed_change("is it alright if you moved the hunt to high?") == (
        "move the hunt to high"
    )
    assert unframed_change("would it be okay to close the runbook") == "close the runbook"
    assert unframed_change("would you be so kind as to mark the drill done") == (
        "mark the drill done"
    )
    assert unframed_change("am I allowed to see the blockers of the vpn project?") == (
        "show me the blockers of the vpn project"
    )
    # the wish is a request, not a report of what was done
    assert not not_asked(said)
    assert not not_asked("is it ok if you gave the runbook to bob")
    assert _calls("would it be ok if you took me off the phishing drill?") == [
        ("assign_task", {"task_id": DRILL, "assignee_id": None})
    ]
    assert _calls(
        "am I allowed to see which tasks of the VPN gateway hardening project are assigned to me?"
    ) == [("get_tasks", {"project_id": VPN, "assignee_id": "alice"})]


def test_a_new_task_asked_for_without_its_title_is_asked() -> None:
    where = Where(None, None, "alice")
    for said in (
        "would it be ok to add a new task?",
        "could you create a task please",
        "I need to log another ticket",
    ):
        asked = plan_workspace("create_task", said, NAMES, where, _call)
        assert not isinstance(asked, list), said


def test_record_that_a_state_or_a_blocker_is_the_change() -> None:
    assert (
        record_that("record that the NetScaler session token review has moved back to in progress")
        == "set the NetScaler session token review to in progress"
    )
    assert _calls("please note that the runbook is now in review") == [
        ("update_task", {"task_id": RUNBOOK, "status": "in_review"})
    ]
    assert _calls(
        "Would you be so kind as to record that the VPN gateway hardening project is blocked "
        "pending the change advisory board's approval?"
    ) == [
        (
            "create_blocker",
            {"project_id": VPN, "description": "Pending the change advisory board's approval"},
        )
    ]
    assert _calls("log that the hunt task is blocked by the firewall team's leave") == [
        (
            "create_blocker",
            {"task_id": "Hunt for unusual VPN logins", "description": "The firewall team's leave"},
        )
    ]
    # a task said to wait on something is held up by it (found trying it by hand)
    assert _calls("record that the hunt is waiting on the firewall logs") == [
        (
            "create_blocker",
            {
                "task_id": "Hunt for unusual VPN logins",
                "description": "Waiting on the firewall logs",
            },
        )
    ]
    assert _calls("please note that the drill is still waiting for HR to pick a week") == [
        (
            "create_blocker",
            {
                "task_id": "Schedule the phishing drill",
                "description": "Waiting for HR to pick a week",
            },
        )
    ]
    assert _calls("blocker on the runbook task waiting on legal review") == [
        (
            "create_blocker",
            {"task_id": RUNBOOK, "description": "Waiting on legal review"},
        )
    ]
    # a statement of neither kind is left as typed
    assert record_that("record that bob liked the runbook") == "record that bob liked the runbook"
    assert record_that("record that bob is waiting") == "record that bob is waiting"


def test_a_blockers_reason_after_a_comma() -> None:
    assert _calls(
        "kindly raise one blocker on the runbook task, legal team has not shared the template yet"
    ) == [
        (
            "create_blocker",
            {"task_id": RUNBOOK, "description": "Legal team has not shared the template yet"},
        )
    ]
    assert _calls("log a blocker on the patch task, vendor has not replied about the window") == [
        (
            "create_blocker",
            {
                "task_id": "Patch the Check Point gateways",
                "description": "Vendor has not replied about the window",
            },
        )
    ]
    # a later request after the comma is no reason
    stages = _rules().plan("put a blocker on the drill, and assign it to bob", [], SYSTEM)
    first = stages[0](None) if stages else None
    assert not isinstance(first, list) or all(c.name != "create_blocker" for c in first)


def test_a_later_change_without_its_object_is_the_earlier_tasks() -> None:
    assert _calls("bump checkpoint patch to urgent + assign to me pls") == [
        ("update_task", {"task_id": "Patch the Check Point gateways", "priority": "urgent"}),
        ("assign_task", {"task_id": "Patch the Check Point gateways", "assignee_id": "alice"}),
    ]
    assert _calls("make the hunt high and assign to bob") == [
        ("update_task", {"task_id": "Hunt for unusual VPN logins", "priority": "high"}),
        ("assign_task", {"task_id": "Hunt for unusual VPN logins", "assignee_id": "bob"}),
    ]
    assert _calls("set the drill to high and give to bob") == [
        ("update_task", {"task_id": DRILL, "priority": "high"}),
        ("assign_task", {"task_id": DRILL, "assignee_id": "bob"}),
    ]


def test_one_more_task_after_a_comma_and_also_takes_the_same_change() -> None:
    # found trying it by hand: the second task was dropped without a word
    assert _calls("close out the check point patch, also the netscaler one") == [
        ("complete_task", {"task_id": "Patch the Check Point gateways"}),
        ("complete_task", {"task_id": "Review NetScaler session tokens"}),
    ]
    assert _calls("finish the hunt; also the runbook") == [
        ("complete_task", {"task_id": "Hunt for unusual VPN logins"}),
        ("complete_task", {"task_id": RUNBOOK}),
    ]
    # a project said after it is where the speaker goes next, never a second task closed
    assert _calls("close the drill, also the vpn project is next") == [
        ("complete_task", {"task_id": "Schedule the phishing drill"})
    ]


def test_one_asked_to_take_a_task_who_is_no_member_is_asked_about() -> None:
    # found trying it by hand: "bob", named with the reason, was made the assignee
    for said in (
        "could dave pick up the hunt? bob's swamped",
        "can someone take the runbook, bob is out",
        "can carol do the drill? bob has no time",
    ):
        planned = plan_workspace("assign_task", said, NAMES, Where(None, None, None), _call)
        assert isinstance(planned, Clarification), (said, planned)
    # a member asked, or "you" asked with the member after "for", is read as before
    assert _planned("could alice pick up the hunt? bob's swamped") == [
        ("assign_task", {"task_id": "Hunt for unusual VPN logins", "assignee_id": "alice"})
    ]
    assert _planned("can you take the runbook for bob") == [
        ("assign_task", {"task_id": RUNBOOK, "assignee_id": "bob"})
    ]


def _planned(said: str) -> list[tuple[str, dict[str, object]]]:
    planned = plan_workspace("assign_task", said, NAMES, Where(None, None, None), _call)
    assert isinstance(planned, list), planned
    return [(c.name, dict(c.arguments)) for c in planned]
