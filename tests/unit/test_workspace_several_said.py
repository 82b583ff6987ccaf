"""Workspace messages of several requests, resolutions told as news, and status in people's words.

From dev19 (issue 26, nineteenth pass): a project's state asked without the look-up words
("what's left?", "sitrep on ... — # tasks open", "Kindly revert with the current status of
..."); two projects asked about at once; several objects each with words of its own (titles
with details, hand-off pairs, "and the runbook too", a checklist of ticks); changes said in
the passive, sentence by sentence; a blocker told as cleared with what cleared it; a
go-ahead after a resolution; small look-ups ("yet", "sitting in review", "in-progress", every
blocker, a review waiting on the reader). Each construct with its dev sentence, phrasings of
our own and near misses that must stay as they were.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from lectern.adapters.understanding.not_asked import not_asked
from lectern.adapters.understanding.workspace_cleared_told import cleared_told, without_go_ahead
from lectern.adapters.understanding.workspace_should_be import said_as_changes
from lectern.adapters.understanding.workspace_status_said import (
    every_project_status_asked,
    project_status_asked,
)
from lectern.adapters.understanding.workspace_ticked import ticked_done
from tests.unit.test_workspace_phrasings import SYSTEM, _on_page, _planned, _rules

PATCH = "Patch the Check Point gateways"
HUNT = "Hunt for unusual VPN logins"
DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
NETSCALER = "Review NetScaler session tokens"
TASKS = [PATCH, NETSCALER, HUNT, RUNBOOK, DRILL]
VPN = "VPN gateway hardening"
PHISHING = "Phishing awareness"
WINDOW = "Waiting for the vendor maintenance window"
ON_VPN = _on_page("project", VPN, VPN)
ON_PHISHING = _on_page("project", PHISHING, PHISHING)
ON_HUNT = _on_page("task", HUNT, HUNT)


def _read(text: str, system: str = SYSTEM) -> list[tuple[str, dict[str, Any]]] | None:
    """The calls the rules plan, or None when they read nothing (another reading's turn)."""
    stages = _rules().plan(text, [], system)
    if stages is None:
        return None
    calls = stages[0](None)
    if not isinstance(calls, list):
        return None
    return [(c.name, dict(c.arguments)) for c in calls]


# --- a project's state in people's words -----------------------------------------------------


@pytest.mark.parametrize(
    ("said", "project"),
    [
        ("what's left on phishing awareness?", PHISHING),  # dev19
        ("Kindly revert with the current status of Phishing awareness project.", PHISHING),
        ("sitrep on the vpn gateway project pls — # tasks open, # overdue, open blockers", VPN),
        ("whats remaining for the vpn project", VPN),
        ("what is still outstanding in phishing awareness", PHISHING),
        ("please reply with the latest status of the VPN gateway hardening project", VPN),
        ("pls share the status update on phishing awareness", PHISHING),
        ("status update on the phishing awareness project: number of tasks, overdue", PHISHING),
        ("quick sitrep on the VPN project please", VPN),
        ("where do we stand with phishing awareness?", PHISHING),
    ],
)
def test_a_projects_state_asked_in_other_words_opens_its_details(said: str, project: str) -> None:
    assert _read(said) == [("get_project_details", {"project_id": project})]


@pytest.mark.parametrize(
    ("said", "system", "project"),
    [
        ("what's left?", ON_PHISHING, PHISHING),  # dev19
        ("how's this one looking", ON_VPN, VPN),  # dev19
        ("how is this project going?", ON_VPN, VPN),
        ("so what's still left", ON_PHISHING, PHISHING),
        ("how's it coming along so far", ON_VPN, VPN),
        ("how is this one shaping up", ON_PHISHING, PHISHING),
    ],
)
def test_the_project_in_view_is_the_one_asked_about(said: str, system: str, project: str) -> None:
    assert _read(said, system) == [("get_project_details", {"project_id": project})]


def test_a_state_asked_of_a_task_or_of_nothing_in_view_is_not_a_projects() -> None:
    # "what's left?" on a task's page, or anywhere, is read as before (no project's details)
    assert _read("what's left?", ON_HUNT) != [("get_project_details", {"project_id": HUNT})]
    assert project_status_asked("what's left on the runbook?") == "the runbook"
    assert _read("what's left on the runbook?") != [
        ("get_project_details", {"project_id": RUNBOOK})
    ]
    # counts of something else after the dash: not the details' parts
    assert project_status_asked("sitrep on the vpn project - who is free next week") is None
    assert project_status_asked("what's left of the budget after the vendor invoice") is None
    # "left to do" asks for the tasks (dev7): read as before
    assert project_status_asked("what's left to do on the VPN project?") is None


@pytest.mark.parametrize(
    "said",
    [
        "need a status across all projects for the weekly sync, open blockers included",  # dev19
        "give me a status update across all the projects",
        "progress on every project please",
        "rundown of all our projects for the board",
        "can I get an overview across all projects?",
    ],
)
def test_a_status_across_every_project_lists_the_projects(said: str) -> None:
    assert every_project_status_asked(said)
    assert _read(said) == [("get_projects", {})]


def test_blockers_of_one_project_are_not_every_projects_status() -> None:
    assert not every_project_status_asked("status of all blockers on the vpn project")


@pytest.mark.parametrize(
    ("said", "projects"),
    [
        ("where are we on VPN and on phishing?", [VPN, PHISHING]),  # dev19
        ("where do we stand with phishing awareness and vpn", [PHISHING, VPN]),
        ("where are we at on phishing, and on the vpn project?", [PHISHING, VPN]),
        ("where are things with vpn & phishing awareness", [VPN, PHISHING]),
        ("how far along is vpn and phishing", [VPN, PHISHING]),
    ],
)
def test_two_projects_asked_about_at_once_are_each_opened(said: str, projects: list[str]) -> None:
    assert _read(said) == [("get_project_details", {"project_id": p}) for p in projects]


def test_one_project_asked_about_is_opened_once() -> None:
    assert _read("where are we on VPN?") == [("get_project_details", {"project_id": VPN})]


# --- is the task in view blocked ---------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "is this one blocked by anything?",  # dev19
        "is this blocked?",
        "is it still blocked",
        "is this task held up by anything",
        "so is it stuck on something?",
    ],
)
def test_whether_the_task_in_view_is_blocked_opens_it(said: str) -> None:
    assert _read(said, ON_HUNT) == [("get_task_details", {"task_id": HUNT})]


def test_whether_this_project_is_blocked_is_not_the_tasks() -> None:
    assert _read("is this project blocked by anything?", ON_HUNT) != [
        ("get_task_details", {"task_id": HUNT})
    ]


# --- several objects, each with its own words ---------------------------------------------------


def test_new_tasks_announced_each_with_its_own_details() -> None:
    assert _read(
        "add two tasks to phishing awareness: 'Collect click-rate metrics' due nov 30 and "
        "'Brief the exec team' due dec 4"  # dev19
    ) == [
        (
            "create_task",
            {
                "project_id": PHISHING,
                "title": "Collect click-rate metrics",
                "due_date": "2026-11-30",
            },
        ),
        (
            "create_task",
            {"project_id": PHISHING, "title": "Brief the exec team", "due_date": "2026-12-04"},
        ),
    ]
    [one, two] = _read(
        'create three tasks in the vpn project: "Rotate keys" high priority, "Audit MFA" due '
        'friday and "Check logs"'
    )[:2] or [None, None]
    assert one is not None and two is not None
    assert one[1]["title"] == "Rotate keys" and one[1]["priority"] == "high"
    assert two[1]["title"] == "Audit MFA" and two[1]["due_date"] == "2026-11-06"
    made = _read(
        "make 2 new tasks for phishing awareness: 'Print posters' urgent priority; "
        "'Book room' due nov 20"
    )
    assert made is not None and [c[1]["title"] for c in made] == ["Print posters", "Book room"]
    assert made[0][1]["priority"] == "urgent" and made[1][1]["due_date"] == "2026-11-20"
    made = _read("add tasks to vpn: 'Patch lab box' due tomorrow, 'Retire old certs' low priority")
    assert made is not None and len(made) == 2
    assert made[0][1]["due_date"] == "2026-11-03" and made[1][1]["priority"] == "low"


def test_titles_alone_after_the_announcement_keep_the_plain_reading() -> None:
    assert _read("add two tasks to phishing awareness: 'A one' and 'B two'") == [
        ("create_task", {"project_id": PHISHING, "title": "A one"}),
        ("create_task", {"project_id": PHISHING, "title": "B two"}),
    ]


@pytest.mark.parametrize(
    ("said", "pairs"),
    [
        (
            # dev19
            "reshuffle: check point patching -> alice, phishing drill -> alice, hunt -> bob",
            [(PATCH, "alice"), (DRILL, "alice"), (HUNT, "bob")],
        ),
        (
            "reassignments: the runbook to bob, the drill to alice",
            [(RUNBOOK, "bob"), (DRILL, "alice")],
        ),
        ("hunt → alice; netscaler review → bob", [(HUNT, "alice"), (NETSCALER, "bob")]),
        ("owners - drill: bob, runbook: alice", [(DRILL, "bob"), (RUNBOOK, "alice")]),
        (
            "handoffs: the hunt to Bob Builder and the runbook to me",
            [(HUNT, "bob"), (RUNBOOK, "alice")],
        ),
    ],
)
def test_hand_offs_listed_as_pairs_are_each_an_assignment(
    said: str, pairs: list[tuple[str, str]]
) -> None:
    assert _read(said) == [("assign_task", {"task_id": t, "assignee_id": p}) for t, p in pairs]


def test_pairs_that_are_not_hand_offs_are_left_alone() -> None:
    # a state, not a person; one task to two people; a stranger
    for said in (
        "drill -> done, hunt -> in review",
        "the hunt to alice, the hunt to bob",
        "the hunt to carol, the drill to bob",
    ):
        made = _read(said)
        assert not made or any(c[0] != "assign_task" for c in made), said


@pytest.mark.parametrize(
    ("said", "tool", "first", "second", "values"),
    [
        ("mark the drill done, and the runbook too", "complete_task", DRILL, RUNBOOK, {}),  # dev19
        (
            "give the hunt to bob, and the drill too",
            "assign_task",
            HUNT,
            DRILL,
            {"assignee_id": "bob"},
        ),
        (
            "set the runbook to high priority and the netscaler review as well",
            "update_task",
            RUNBOOK,
            NETSCALER,
            {"priority": "high"},
        ),
        ("close the netscaler review and the hunt also", "complete_task", NETSCALER, HUNT, {}),
        (
            "assign the runbook to alice, plus the drill too",
            "assign_task",
            RUNBOOK,
            DRILL,
            {"assignee_id": "alice"},
        ),
    ],
)
def test_a_whole_change_then_another_task_too_is_the_same_change_to_each(
    said: str, tool: str, first: str, second: str, values: dict[str, str]
) -> None:
    assert _read(said) == [
        (tool, {"task_id": first, **values}),
        (tool, {"task_id": second, **values}),
    ]


def test_another_person_or_project_too_is_no_second_task() -> None:
    assert _read("give the hunt to bob and alice too") is None


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        (
            "✅ netscaler review ✅ runbook - both done",
            "mark the netscaler review and the runbook as done",
        ),
        ("netscaler review ✅ runbook ✅", "mark the netscaler review and the runbook as done"),
        ("✔ drill ✔ hunt ✔ runbook", "mark the drill, the hunt and the runbook as done"),
        ("[x] drill [x] runbook — all done", "mark the drill and the runbook as done"),
        (
            "☑ the hunt ☑ the check point patching: done",
            "mark the hunt and the check point patching as done",
        ),
    ],
)
def test_tasks_ticked_off_are_each_marked_done(said: str, asked: str) -> None:
    assert ticked_done(said, TASKS) == asked


def test_ticks_that_are_no_checklist_of_tasks_are_left() -> None:
    assert ticked_done("✅ netscaler review", TASKS) is None  # one tick: read as before
    assert ticked_done("✅ add bob ✅ runbook", TASKS) is None  # words no task's
    assert ticked_done("✅ netscaler review ✅ runbook - both done?", TASKS) is None  # asked


# --- changes said in the passive, a sentence each --------------------------------------------


def test_changes_said_as_what_should_happen_sentence_by_sentence() -> None:
    assert said_as_changes(
        "A few things. The runbook needs to be pushed to the end of the month. The hunt should "
        "be given to Alice. And it should be noted on the drill that HR wants it after the 16th."
    ) == (
        "push The runbook to the end of the month and give The hunt to Alice and note on the "
        "drill that HR wants it after the 16th"
    )
    assert said_as_changes(
        "Couple of things. The drill should be moved to friday. "
        "The runbook should be handed to bob."
    ) == ("push The drill to friday and give The runbook to bob")
    assert said_as_changes("the hunt needs to be handed over to Bob Builder") == (
        "give the hunt to Bob Builder"
    )
    assert said_as_changes("the runbook should be pushed back to friday") == (
        "push the runbook to friday"
    )
    assert said_as_changes("it should be recorded on the hunt that logs go back 90 days") == (
        "note on the hunt that logs go back 90 days"
    )
    assert said_as_changes("the drill has to be reassigned to alice") == "give the drill to alice"


def test_the_passive_read_as_changes_plans_each() -> None:
    assert _read(
        "push the runbook to the end of the month and give the hunt to Alice and note on the "
        "drill that HR wants it after the 16th"
    ) in (
        None,  # left to the compound reading of `rule_policy`, which plans all three
        [
            ("update_task", {"task_id": RUNBOOK, "due_date": "2026-11-30"}),
            ("assign_task", {"task_id": HUNT, "assignee_id": "alice"}),
            ("add_comment", {"task_id": DRILL, "content": "HR wants it after the 16th."}),
        ],
    )


def test_what_is_not_a_change_said_in_the_passive_stays() -> None:
    assert said_as_changes("It should be noted that HR wants it after the 16th.") is None
    assert said_as_changes("the runbook should be done by now") is None
    assert said_as_changes("the drill should be moved to phishing awareness") is None
    # one sentence not so said keeps the whole as typed
    assert said_as_changes("The hunt should be given to Alice. It is a big one.") != (
        "give The hunt to Alice and It is a big one"
    )


# --- a blocker told as cleared ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        (
            "blocker's cleared, hotfix went in last night",
            "resolve the blocker: hotfix went in last night",
        ),
        (
            "The blocking point with the vendor is solved, they gave us the window of Sunday.",
            "resolve the blocker with the vendor: they gave us the window of Sunday",
        ),
        (
            "resolve the waiting for the vendor maintenance window blocker we got the window for "
            "thursday night",
            "resolve the waiting for the vendor maintenance window blocker: we got the window for "
            "thursday night",
        ),
        (
            "the vendor blocker is sorted - window confirmed for sat",
            "resolve the vendor blocker: window confirmed for sat",
        ),
        (
            "good news: the window blocker has been lifted because the vendor signed off",
            "resolve the window blocker: the vendor signed off",
        ),
        (
            "impediment on the patching is gone, change board approved it",
            "resolve the blocker on the patching: change board approved it",
        ),
        (
            "close the vendor blocker they have confirmed saturday 02:00",
            "close the vendor blocker: they have confirmed saturday 02:00",
        ),
    ],
)
def test_a_blocker_told_cleared_with_what_did_it_is_resolved(said: str, asked: str) -> None:
    assert cleared_told(said) == asked


def test_a_blocker_told_cleared_is_asked_for_not_only_told() -> None:
    assert not not_asked("blocker's cleared, hotfix went in last night")
    assert not not_asked("The blocking point with the vendor is solved, they gave us the window")
    # a report of what someone did, or of a past state, stays a report
    assert not_asked("bob resolved the blocker yesterday")
    assert not_asked("the blocker was cleared yesterday, the vendor patched")


def test_what_is_no_resolution_told_is_left() -> None:
    assert cleared_told("the vendor blocker is gone") is None  # nothing said of what did it
    assert cleared_told("the blocker was cleared yesterday, vendor patched") is None
    assert cleared_told("resolve the vendor blocker they mentioned") is None
    assert cleared_told("is the vendor blocker cleared, did they send the window?") is None


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("window got scheduled for sat 02:00, yep do it", "window got scheduled for sat 02:00"),
        ("vendor confirmed thursday - go ahead", "vendor confirmed thursday"),
        ("they sent the slot. yes please do", "they sent the slot"),
        ("patched last night, ok do it now", "patched last night"),
        ("hotfix is in; thanks", "hotfix is in"),
        ("yep do it", "yep do it"),  # nothing but the go-ahead: kept
    ],
)
def test_a_go_ahead_after_what_happened_is_no_part_of_it(said: str, kept: str) -> None:
    assert without_go_ahead(said) == kept


def test_the_resolution_is_what_happened_before_the_go_ahead() -> None:
    # the answer to "What resolved ...?" (dev19), and words of our own
    for said, kept in (
        ("window got scheduled for sat 2am, yep do it", "2am"),
        ("the vendor window was confirmed for thursday - go ahead", "thursday"),
        ("vendor window slot booked for sunday night, ok do it", "sunday"),
    ):
        [(tool, arguments)] = _planned("resolve_blocker", said)
        assert tool == "resolve_blocker" and arguments["blocker_id"] == WINDOW, said
        assert kept in arguments["resolution"], said
        assert not re.search(r"do it|go ahead", arguments["resolution"]), said


# --- small look-ups ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("any comments on the runbook yet?", RUNBOOK),  # dev19
        ("any notes on the drill so far?", DRILL),
        ("are there any comments on the hunt yet", HUNT),
        ("any comments on the netscaler review lately?", NETSCALER),
        ("any new notes on the check point patching at all?", PATCH),
    ],
)
def test_when_comments_are_asked_is_no_part_of_the_task(said: str, task: str) -> None:
    assert _read(said) == [("get_task_details", {"task_id": task})]


@pytest.mark.parametrize(
    ("said", "project", "status"),
    [
        ("show me everything sitting in review on the vpn project", VPN, "in_review"),  # dev19
        ("list everything stuck in progress in phishing awareness", PHISHING, "in_progress"),
        ("what's sitting in review in vpn?", VPN, "in_review"),
        ("anything parked in review on the vpn project?", VPN, "in_review"),
        ("show me all the tasks sitting in to do on phishing awareness", PHISHING, "todo"),
    ],
)
def test_everything_sitting_in_a_state_lists_the_tasks_in_it(
    said: str, project: str, status: str
) -> None:
    assert _read(said) == [("get_tasks", {"project_id": project, "status": status})]


def test_a_state_written_with_its_hyphen_is_that_state() -> None:
    from lectern.adapters.understanding.slots import status_of

    assert status_of("just the in-progress stuff") == "in_progress"
    assert status_of("only the in-review ones") == "in_review"


@pytest.mark.parametrize(
    ("said", "project"),
    [
        ("every blocker on vpn, open or closed, I want the full history", VPN),  # dev19
        ("all the blockers on phishing awareness, resolved ones too", PHISHING),
        ("every blocker in the vpn project", VPN),
        ("all of the blockers for phishing awareness", PHISHING),
        ("every single blocker on vpn please", VPN),
    ],
)
def test_every_blocker_named_lists_them(said: str, project: str) -> None:
    made = _read(said)
    assert made is not None and made[0] == ("get_blockers", {"project_id": project})


def test_every_blocker_said_resolved_is_no_listing() -> None:
    assert _read("all blockers on vpn are resolved") is None


@pytest.mark.parametrize(
    "said",
    [
        "is there anything waiting on a review from me?",  # dev19
        "anything waiting for a review by me?",
        "what's pending on an approval from me right now",
        "is anything sitting on a sign-off from me?",
        "anything waiting on a sign-off from me today",
    ],
)
def test_a_review_waiting_on_the_reader_is_the_attention_summary(said: str) -> None:
    assert _read(said) == [("get_attention_summary", {})]


def test_a_named_task_waiting_on_the_reader_is_not_the_summary() -> None:
    assert _read("is the netscaler review waiting on me?") != [("get_attention_summary", {})]
