"""Workspace compound requests of dev15 whose second (or first) part was dropped.

A comment's words after a telling name no task; a semicolon ends a telling; a verb said
once for two people; changes asked as had done ("get the hunt moved"); a look-up asked as
whether we may; changes said as what should be so; "the X one" after a document or task
shown; things named alone ("blockers. then team roster."); a later part starting with a
change's verb that no rule reads is asked about.
"""

from __future__ import annotations

from lectern.adapters.understanding.request_sentence import Request, request_after_circumstances
from lectern.adapters.understanding.workspace_frames import unframed_change
from lectern.adapters.understanding.workspace_gapping import gapped_people
from lectern.adapters.understanding.workspace_parts import changes_in_parts
from lectern.adapters.understanding.workspace_told_task import told_task_named
from lectern.domain.assistant import AIResponse, ToolCall
from tests.unit.test_workspace_phrasings import SYSTEM, _calls, _rules

PATCH = "Patch the Check Point gateways"
HUNT = "Hunt for unusual VPN logins"
DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
NETSCALER = "Review NetScaler session tokens"
TASKS = [PATCH, NETSCALER, HUNT, RUNBOOK, DRILL]


def _asked(text: str) -> str:
    stages = _rules().plan(text, [], SYSTEM)
    assert stages is not None, text
    reply = stages[0](None)
    assert isinstance(reply, AIResponse), (text, reply)
    return reply.text


def test_a_comments_words_after_a_telling_name_no_task() -> None:
    for told, request in (
        (
            "the check point one is done.",
            "close it and drop a note that all four gateways are patched",
        ),
        ("the drill went fine.", "close it and comment that the hunt for logins can start"),
        (
            "the runbook draft is up.",
            "mark it in review and add a note saying the netscaler part is thin",
        ),
    ):
        named = told_task_named(Request(told, request), TASKS)
        assert "it" not in named.request.split()[:2], named
    # a note that says where it goes still names its task
    kept = told_task_named(Request("the drill went fine.", "add a note on the hunt that x"), TASKS)
    assert kept.request == "add a note on the hunt that x"


def test_a_note_dropped_is_a_comment_and_a_part_of_its_own() -> None:
    assert _calls("close the drill and drop a note that the vendor confirmed") == [
        ("complete_task", {"task_id": DRILL}),
        ("add_comment", {"task_id": DRILL, "content": "The vendor confirmed."}),
    ]
    assert _calls("mark the runbook done and drop a comment saying legal signed off") == [
        ("complete_task", {"task_id": RUNBOOK}),
        ("add_comment", {"task_id": RUNBOOK, "content": "Legal signed off."}),
    ]


def test_a_semicolon_ends_the_telling_before_a_request() -> None:
    said = request_after_circumstances(
        "token review came back clean; close the netscaler task and comment that no sessions "
        "were hijacked"
    )
    assert said is not None
    assert said.request.startswith("Close the netscaler task")
    said = request_after_circumstances("the vendor called back; resolve the window blocker")
    assert said is not None and said.request == "Resolve the window blocker"
    # a request first is read whole
    assert request_after_circumstances("close the drill; it went fine") is None


def test_a_verb_said_once_for_two_people_is_a_change_each() -> None:
    people = ["alice", "bob"]
    assert gapped_people("put alice on the check point patch and bob on the hunt", people) == [
        "put alice on the check point patch",
        "put bob on the hunt",
    ]
    assert gapped_people("give alice the drill and bob the runbook too", people) == [
        "give alice the drill",
        "give bob the runbook",
    ]
    assert gapped_people("please assign bob to the runbook, and alice to the drill", people)
    # one person twice, a person told of, or two people for one task: not two changes
    assert gapped_people("put bob on the runbook and me on the drill", people) == [
        "put bob on the runbook",
        "put me on the drill",
    ]
    assert gapped_people("put alice on the patch and alice on the hunt", people) == []
    assert gapped_people("tell alice the drill is done and bob is next", people) == []
    assert gapped_people("assign the drill to alice and bob", people) == []

    def read(part: str, _: str | None) -> list[ToolCall] | None:
        person, task = part.split()[1], part.split()[-1]
        return [ToolCall("t", "assign_task", {"task_id": task, "assignee_id": person})]

    calls = changes_in_parts(
        "stick bob on the runbook & alice on the drill", read, frozenset({"assign_task"}), people
    )
    assert [c.arguments["assignee_id"] for c in calls] == ["bob", "alice"]


def test_changes_asked_as_had_done_are_the_changes() -> None:
    assert unframed_change("can we get the hunt moved to friday and bob put on it?") == (
        "move the hunt to friday and put bob on it"
    )
    assert unframed_change("could you have the drill closed") == "close the drill"
    assert unframed_change("get bob assigned to the runbook and the drill pushed to monday") == (
        "assign bob to the runbook and push the drill to monday"
    )
    # someone who does it is no object: "have bob put a note on the drill"
    assert unframed_change("have bob put a note on the drill") == "have bob put a note on the drill"
    assert _calls("could you have the drill closed") == [("complete_task", {"task_id": DRILL})]


def test_a_look_up_asked_as_whether_we_may_is_the_look_up() -> None:
    assert _calls("can we list the phishing tasks and then the blockers on vpn?") == [
        ("get_tasks", {"project_id": "Phishing awareness"}),
        ("get_blockers", {"project_id": "VPN gateway hardening"}),
    ]
    assert unframed_change("could we see the blockers") == "show me the blockers"
    assert unframed_change("can I pull up the runbook?") == "pull up the runbook"


def test_changes_said_as_what_should_be_so_are_the_changes() -> None:
    assert _calls(
        "The vendor maintenance window blocker should be marked resolved (the window was "
        "granted for Saturday), and the Check Point patch task should be marked done."
    ) == [
        (
            "resolve_blocker",
            {
                "blocker_id": "Waiting for the vendor maintenance window",
                "resolution": "The window was granted for Saturday",
            },
        ),
        ("complete_task", {"task_id": PATCH}),
    ]
    assert _calls("Make sure bob owns the VPN login hunt, and it should be high priority.") == [
        ("assign_task", {"task_id": HUNT, "assignee_id": "bob"}),
        ("update_task", {"task_id": HUNT, "priority": "high"}),
    ]
    assert _calls("the runbook needs to be set to in review and the hunt should be urgent") == [
        ("update_task", {"task_id": RUNBOOK, "status": "in_review"}),
        ("update_task", {"task_id": HUNT, "priority": "urgent"}),
    ]
    assert _calls("ensure alice is on the drill") == [
        ("assign_task", {"task_id": DRILL, "assignee_id": "alice"})
    ]
    assert _calls(
        "Please set the drill to high priority and give the runbook a due date on 20 November."
    ) == [
        ("update_task", {"task_id": DRILL, "priority": "high"}),
        ("update_task", {"task_id": RUNBOOK, "due_date": "2026-11-20"}),
    ]
    assert _calls("close the drill, and give the runbook a due date of the 20th") == [
        ("complete_task", {"task_id": DRILL}),
        ("update_task", {"task_id": RUNBOOK, "due_date": "2026-11-20"}),
    ]
    assert _calls("give the hunt a deadline of friday") == [
        ("update_task", {"task_id": HUNT, "due_date": "2026-11-06"})
    ]
    # quoted words are what to write
    assert _calls("add a comment to the drill 'the hunt should be marked done'") == [
        ("add_comment", {"task_id": DRILL, "content": "The hunt should be marked done."})
    ]
    # an expectation is no request
    assert unframed_change("the drill should be done by now") == "the drill should be done by now"
    assert unframed_change("make sure it has a due date") == "make sure it has a due date"


def test_the_x_one_after_a_document_or_task_shown_is_another_of_its_kind() -> None:
    assert _calls("show me the Citrix write-up, and the Check Point one too?") == [
        (
            "get_document_details",
            {"document_id": "CVE-2023-4966: Citrix NetScaler session hijacking"},
        ),
        (
            "get_document_details",
            {"document_id": "CVE-2024-24919: Check Point Quantum Gateway information disclosure"},
        ),
    ]
    assert _calls("pull up the T1133 doc, then the T1190 one as well") == [
        ("get_document_details", {"document_id": "T1133: External Remote Services"}),
        ("get_document_details", {"document_id": "T1190: Exploit Public-Facing Application"}),
    ]
    assert _calls("show me the netscaler task and then the runbook one") == [
        ("get_task_details", {"task_id": NETSCALER}),
        ("get_task_details", {"task_id": RUNBOOK}),
    ]


def test_things_named_alone_then_more_are_things_to_show() -> None:
    assert _calls("blockers. then team roster.") == [
        ("get_blockers", {}),
        ("get_team_members", {}),
    ]
    assert _calls("team, and then the blockers") == [
        ("get_team_members", {}),
        ("get_blockers", {}),
    ]
    assert _calls("blockers, then who's on the team?") == [
        ("get_blockers", {}),
        ("get_team_members", {}),
    ]


def test_a_later_change_no_rule_reads_is_asked_about_never_dropped() -> None:
    for said, first in (
        ("mark the runbook done and push the vendor for an answer", "mark the runbook done"),
        ("close the drill and tell the vendor we are ready", "close the drill"),
        ("close the netscaler task and update the wiki", "close the netscaler task"),
    ):
        assert f"I can do the first part ({first!r})" in _asked(said)
    # a comment's words may hold a joint; moving on is no request
    assert _calls("add a comment to the drill: reviewed and set aside for now") == [
        ("add_comment", {"task_id": DRILL, "content": "Reviewed and set aside for now."})
    ]
    assert _calls("assign the drill to bob and move on to the hunt") == [
        ("assign_task", {"task_id": DRILL, "assignee_id": "bob"})
    ]


def test_a_later_part_that_says_again_who_takes_the_task_is_no_second_request() -> None:
    # dev10 (lost when unread later parts began to be asked about): said twice, done once
    for said, person in (
        ("i'll take the phishing drill, put it on me", "alice"),
        ("give the runbook to bob, assign it to bob", "bob"),
        ("i will take the runbook, put it on me", "alice"),
    ):
        calls = _calls(said)
        assert [tool for tool, _ in calls] == ["assign_task"], (said, calls)
        assert calls[0][1]["assignee_id"] == person


def test_a_request_asked_as_whether_we_may_follows_what_was_told() -> None:
    # found by hand: read whole, "bob's out sick" lent bob to the assignment (a wrong action)
    for told, request in (
        ("bob's out sick.", "Can we get the netscaler review moved to monday and me put on it?"),
        ("The drill went fine.", "Can we close it?"),
        ("bob is away this week.", "Could i take the hunt?"),
    ):
        found = request_after_circumstances(f"{told} {request}")
        assert found == Request(told, request), found
    # a telling that opens with "I get" is no request
    found = request_after_circumstances("I get the feeling the drill is late. Close it.")
    assert found is not None and found.request == "Close it."
