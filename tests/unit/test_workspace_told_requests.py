"""Workspace constructs from dev15: a request told as what a report allows ("..., so the patch
task can close") or as a requirement ("has to be finished by <day>"), a blocker told then
asked to be logged, a request in the passive, clipped requests (a task heading with one field,
a label, fragments after a new task's title, a kind then "list"), and a report asked to be
noted on the task it names. Each test holds the dev sentence beside phrasings of its own.
"""

from __future__ import annotations

from lectern.adapters.llm.told_first import told_first
from lectern.adapters.understanding.request_sentence import Request
from lectern.adapters.understanding.workspace_told_request import told_request
from lectern.adapters.understanding.workspace_told_task import task_led
from tests.unit.test_workspace_phrasings import NAMES, SYSTEM, _calls, _on_page, _rules

DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
HUNT = "Hunt for unusual VPN logins"
PATCH = "Patch the Check Point gateways"
REVIEW = "Review NetScaler session tokens"
VENDOR = "Waiting for the vendor maintenance window"
VPN = "VPN gateway hardening"
TASKS = NAMES.of("task")


def _led(text: str) -> list[tuple[str, dict[str, object]]]:
    return _calls(task_led(text, TASKS))


def _on_task(text: str) -> list[tuple[str, dict[str, object]]]:
    return _calls(text, _on_page("task", "t-1", HUNT))


def test_a_report_then_so_the_task_can_close_completes_the_task() -> None:
    # the vendor's blocker had been resolved instead (a wrong action)
    for said, task in (
        (
            "fyi vendor confirmed the hotfix is live on all four gateways, so the check point "
            "patch task can close",
            PATCH,
        ),
        (
            "bob pushed the last config to the gateways this morning, which means the check "
            "point patch can be marked done",
            PATCH,
        ),
        (
            "heads up: the tokens were rotated yesterday so the netscaler review can be closed",
            REVIEW,
        ),
        ("legal signed off on the template, so the runbook can close.", RUNBOOK),
    ):
        assert _calls(said) == [("complete_task", {"task_id": task})], said


def test_a_blocker_that_can_be_closed_is_resolved_by_the_report() -> None:
    said = (
        "fyi the vendor called back and we've got a window thursday night, so that blocker "
        "about waiting on them can be closed"
    )
    assert _calls(said) == [
        (
            "resolve_blocker",
            {
                "blocker_id": VENDOR,
                "resolution": "The vendor called back and we've got a window thursday night",
            },
        )
    ]
    assert _calls(
        "the vendor finally gave us a slot on saturday, so the vendor window blocker can be lifted"
    ) == [
        (
            "resolve_blocker",
            {"blocker_id": VENDOR, "resolution": "The vendor finally gave us a slot on saturday"},
        )
    ]


def test_a_request_before_so_keeps_the_clause_after_as_its_reason() -> None:
    said = "resolve the vendor blocker so the patch can close"
    assert told_request(said) == said
    assert told_request("can you close the drill so the runbook can be closed") != (
        "close the runbook"
    )


def test_has_to_be_finished_by_a_day_is_the_due_date_never_a_completion() -> None:
    # "finished" had completed the drill (a wrong action)
    for said, task, day in (
        (
            "The phishing drill has to be finished by the end of the month, make sure that's "
            "on it.",
            DRILL,
            "2026-11-30",
        ),
        ("the runbook needs to be done before december 15", RUNBOOK, "2026-12-15"),
        ("the hunt has to be wrapped up by the 20th", HUNT, "2026-11-20"),
        (
            "The netscaler review must be completed by the 13th, please put that on it.",
            REVIEW,
            "2026-11-13",
        ),
    ):
        assert _calls(said) == [("update_task", {"task_id": task, "due_date": day})], said
    # a question about the deadline changes nothing
    assert _rules().plan("does the runbook have to be done by friday?", [], SYSTEM) is None


def test_a_blocker_told_then_asked_to_be_logged_is_that_blocker() -> None:
    for said, task, why in (
        ("drill blocked. HR sign-off pending. log it.", DRILL, "HR sign-off pending"),
        (
            "The runbook is stopped because we are waiting the approval of legal. Register a "
            "blocker, please.",
            RUNBOOK,
            "We are waiting the approval of legal",
        ),
        ("hunt stuck - firewall logs not exported yet. please log it", HUNT, "Firewall logs"),
        (
            "the netscaler review is on hold until citrix replies, can you add a blocker",
            REVIEW,
            "Until citrix replies",
        ),
    ):
        calls = _calls(said)
        assert len(calls) == 1 and calls[0][0] == "create_blocker", (said, calls)
        assert calls[0][1]["task_id"] == task
        assert str(calls[0][1]["description"]).startswith(why), (said, calls)


def test_a_passive_request_to_add_or_search_is_the_request() -> None:
    assert _calls(
        "A blocker should be recorded on the NetScaler session tokens task: the Citrix support "
        "case is still open."
    ) == [
        (
            "create_blocker",
            {"task_id": REVIEW, "description": "The Citrix support case is still open"},
        )
    ]
    assert _calls("a comment should be added to the drill: HR wants it after the holidays") == [
        ("add_comment", {"task_id": DRILL, "content": "HR wants it after the holidays."})
    ]
    assert _calls("All mentions of the maintenance window should be searched for.") == [
        ("search_content", {"query": "All mentions of the maintenance window"})
    ]
    assert told_request("all references of the hotfix should be looked up") == (
        "search for all references of the hotfix"
    )
    # a state change said in the passive is no request read here
    assert told_request("the runbook should be closed") == "the runbook should be closed"


def test_a_task_heading_with_one_change_clipped_is_that_change() -> None:
    assert _led("runbook: unassign. nobody on it for now.") == [
        ("assign_task", {"task_id": RUNBOOK, "assignee_id": None})
    ]
    assert _led("check point patch: due friday.") == [
        ("update_task", {"task_id": PATCH, "due_date": "2026-11-06"})
    ]
    assert _led("hunt: urgent.") == [("update_task", {"task_id": HUNT, "priority": "urgent"})]
    assert _led("netscaler review: in review") == [
        ("update_task", {"task_id": REVIEW, "status": "in_review"})
    ]
    assert _led("drill: assign to bob.") == [
        ("assign_task", {"task_id": DRILL, "assignee_id": "bob"})
    ]
    assert _led("drill: done") == [("complete_task", {"task_id": DRILL})]


def test_a_field_said_as_a_label_on_a_page_is_set_on_its_task() -> None:
    assert _on_task("assign: me.") == [("assign_task", {"task_id": "t-1", "assignee_id": "alice"})]
    assert _on_task("owner: bob") == [("assign_task", {"task_id": "t-1", "assignee_id": "bob"})]
    assert _on_task("priority: urgent") == [
        ("update_task", {"task_id": "t-1", "priority": "urgent"})
    ]


def test_the_current_one_and_a_state_after_on_mean_the_task_in_view() -> None:
    assert _on_task("mark the current one done") == [("complete_task", {"task_id": "t-1"})]
    assert _on_task("close the task I'm looking at") == [("complete_task", {"task_id": "t-1"})]
    assert _on_task("Please set this on in progress.") == [
        ("update_task", {"task_id": "t-1", "status": "in_progress"})
    ]
    assert _on_task("put it on in review") == [
        ("update_task", {"task_id": "t-1", "status": "in_review"})
    ]


def test_a_new_task_with_its_place_as_a_heading_and_its_details_as_fragments() -> None:
    assert _calls("new task, vpn project: 'Rotate the VPN certificates'. bob. high.") == [
        (
            "create_task",
            {
                "project_id": VPN,
                "title": "Rotate the VPN certificates",
                "priority": "high",
                "assignee_id": "bob",
            },
        )
    ]
    assert _calls('new task, phishing project: "Book the training room". me. urgent.') == [
        (
            "create_task",
            {
                "project_id": "Phishing awareness",
                "title": "Book the training room",
                "priority": "urgent",
                "assignee_id": "alice",
            },
        )
    ]
    assert _calls("add task, vpn project: 'Audit firewall rules'") == [
        ("create_task", {"project_id": VPN, "title": "Audit firewall rules"})
    ]


def test_a_kind_then_list_lists_that_kind() -> None:
    assert _calls("projects. list.") == [("get_projects", {})]
    assert _calls("blockers. list.") == [("get_blockers", {})]

    class _Plan:
        def __init__(self, text: str) -> None:
            stages = _rules().plan(text, [], SYSTEM) or []
            self.steps = list(stages)

    # split into a telling and a request, the two sentences are read whole
    planned = told_first(Request("projects.", "List."), _Plan)
    assert planned.steps[0](None) and planned.steps[0](None)[0].name == "get_projects"


def test_a_report_asked_to_be_noted_on_the_task_it_names_is_a_comment() -> None:
    assert _led(
        "fyi HR approved the week of the 16th for the drill, pls note that on the task"
    ) == [
        (
            "add_comment",
            {"task_id": DRILL, "content": "HR approved the week of the 16th for the drill."},
        )
    ]
    assert _led(
        "the vendor says the netscaler fix ships in december, can you note that on the task"
    ) == [
        (
            "add_comment",
            {"task_id": REVIEW, "content": "The vendor says the netscaler fix ships in december."},
        )
    ]
    assert (
        _led("bob found two more suspicious logins in the hunt logs. please add that to the task")[
            0
        ][1]["task_id"]
        == HUNT
    )
    # no task named: left as said (asked which task)
    said = "HR approved the week of the 16th, pls note that on the task"
    assert task_led(said, TASKS) == said


def test_who_is_stuck_is_no_task_to_block() -> None:
    # dev10: "we're" had become the task of a new blocker
    for said in (
        "we're stuck on one of my tasks can you note that",
        "I'm blocked on something, log it",
        "the team is held up waiting on legal, please record it",
    ):
        assert told_request(said) == said
