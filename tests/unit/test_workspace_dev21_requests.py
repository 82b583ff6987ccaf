"""Workspace requests of dev21's first reading, one mechanism per test, in fresh words.

Several things in one message (a change said once for the tasks listed after it, "I'm
taking X and starting on it", a second due date with its verb left out, a heading naming
the task, one look-up for two projects in turn); a request inside a pasted or framed
message (a bare search, show or "list them", a yes to a pasted ask, what a told comment
says, a spoken "did"); filters said exactly (a status in the store's own word, a details
listing, a new task's title after a dash). Each with near misses that must change nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.slots import status_of
from lectern.adapters.understanding.workspace_details_listed import details_unlisted
from lectern.adapters.understanding.workspace_doing_now import doing_now
from lectern.adapters.understanding.workspace_framed_request import framed_request
from lectern.adapters.understanding.workspace_gapped_due import gapped_due
from lectern.adapters.understanding.workspace_listed_objects import listed_objects
from lectern.adapters.understanding.workspace_places_in_order import places_in_order
from lectern.adapters.understanding.workspace_task_heading import task_heading
from lectern.domain.assistant import AIResponse, Message, ToolSpec
from tests.unit.test_workspace_dev11 import TOOLS as _SOME
from tests.unit.test_workspace_phrasings import NAMES, SYSTEM

PATCH = "Patch the Check Point gateways"
HUNT = "Hunt for unusual VPN logins"
DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
NETSCALER = "Review NetScaler session tokens"
VPN = "VPN gateway hardening"
PHISHING = "Phishing awareness"
MONDAY = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
TOOLS = [*_SOME, *(ToolSpec(n, n, {"type": "object"}) for n in ("get_blockers", "get_documents"))]


def _calls(text: str) -> list[tuple[str, dict[str, Any]]] | str:
    policy = RulePolicy(clock=lambda: MONDAY)
    reply = policy.complete_with_tools([Message("user", text)], TOOLS, system=SYSTEM)
    assert isinstance(reply, AIResponse)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls] or reply.text


def _changes(text: str) -> list[str]:
    said = _calls(text)
    return [] if isinstance(said, str) else [name for name, _ in said if name != "get_projects"]


# -- several things in one message ---------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "tasks", "person"),
    [
        ("hand both to bob: the netscaler review and the runbook", [NETSCALER, RUNBOOK], "bob"),
        ("give his tasks to alice - the drill and the hunt", [DRILL, HUNT], "alice"),
        (
            "assign these to bob: the patch, the drill and the runbook",
            [PATCH, DRILL, RUNBOOK],
            "bob",
        ),
        ("pls give all her stuff to bob - the hunt, the drill", [HUNT, DRILL], "bob"),
        ("hand them to alice: the patch and the netscaler review", [PATCH, NETSCALER], "alice"),
    ],
)
def test_a_change_said_once_for_the_tasks_listed_after_it_is_made_for_each(
    said: str, tasks: list[str], person: str
) -> None:
    assert _calls(said) == [
        ("assign_task", {"task_id": task, "assignee_id": person}) for task in tasks
    ]


@pytest.mark.parametrize(
    "said",
    [
        "move all his stuff to alice - he is out all week",
        "give both to bob - the hunt and the hunt task",  # one task twice
        "hand these to bob: the new starters and the interns",  # no stored task
        "give the hunt to bob - the drill can wait",  # a task of its own, no standing-in words
    ],
)
def test_no_tasks_listed_after_a_change_leaves_it_as_it_was(said: str) -> None:
    assert listed_objects(said, NAMES) == said


@pytest.mark.parametrize(
    ("said", "task", "started"),
    [
        ("I'm taking the netscaler review and starting on it now", NETSCALER, True),
        ("im grabbing the drill and beginning work on it today", DRILL, True),
        ("ok I'm picking up the runbook, and I'm kicking off it right away", RUNBOOK, True),
        ("I'm claiming the hunt", HUNT, False),
        ("I'm taking over the patch task", PATCH, False),
    ],
)
def test_what_the_reader_says_they_are_doing_is_the_change(
    said: str, task: str, started: bool
) -> None:
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert calls[0] == ("assign_task", {"task_id": task, "assignee_id": "alice"})
    assert (("update_task", {"task_id": task, "status": "in_progress"}) in calls) == started


@pytest.mark.parametrize(
    "said",
    [
        "I'm taking a look at the hunt",
        "I'm taking the day off tomorrow",
        "I'm starting to think the drill is pointless",
        "I'm taking notes on the runbook",
    ],
)
def test_a_reader_telling_what_they_do_that_is_no_task_changes_nothing(said: str) -> None:
    assert doing_now(said, NAMES) == said
    assert not {"assign_task", "update_task"} & set(_changes(said))


@pytest.mark.parametrize(
    ("said", "first", "second"),
    [
        ("drill due 20 nov please, and the runbook 25 nov", DRILL, RUNBOOK),
        ("the patch due 12 dec pls and the hunt 15 dec", PATCH, HUNT),
        ("runbook deadline 30 nov, and the netscaler review due 4 dec", RUNBOOK, NETSCALER),
        ("set the hunt due 2026-11-20 and the drill 2026-11-21", HUNT, DRILL),
        ("netscaler review due 10 dec and the patch 11 dec", NETSCALER, PATCH),
    ],
)
def test_a_second_due_date_with_its_verb_left_out_is_a_change_of_its_own(
    said: str, first: str, second: str
) -> None:
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert [(name, args["task_id"]) for name, args in calls] == [
        ("update_task", first),
        ("update_task", second),
    ]
    assert all(args.get("due_date") for _, args in calls)


@pytest.mark.parametrize(
    "said",
    [
        "runbook due 1 dec?",
        "the runbook due 1 dec and the hunt is next",
        "the runbook due 1 dec and the runbook 2 dec",
        "drill due friday and the new starters monday",
    ],
)
def test_no_second_task_with_its_date_leaves_the_message(said: str) -> None:
    assert gapped_due(said, NAMES) == said


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "re the drill: close and comment 'went fine'",
            [("complete_task", DRILL), ("add_comment", DRILL)],
        ),
        (
            "couple things on the netscaler review: hand over to bob and bump to high",
            [("assign_task", NETSCALER), ("update_task", NETSCALER)],
        ),
        (
            "two things for the runbook - set to in review, and comment 'legal has it'",
            [("update_task", RUNBOOK), ("add_comment", RUNBOOK)],
        ),
        (
            "on the hunt: record a blocker that the log export is broken, and make it urgent",
            [("create_blocker", HUNT), ("update_task", HUNT)],
        ),
        (
            "few things on the patch task: comment 'vendor called', then close it",
            [("add_comment", PATCH), ("complete_task", PATCH)],
        ),
    ],
)
def test_a_heading_naming_a_task_gives_it_to_the_requests_after_it(
    said: str, expected: list[tuple[str, str]]
) -> None:
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert [(name, args.get("task_id")) for name, args in calls] == expected


@pytest.mark.parametrize(
    "said",
    [
        "the hunt is blocked: comment 'no logs'",  # a telling, not a heading
        "the drill: what is it about",  # a question after it
        "end of day stuff: comment on the patch 'staged', close the drill",  # names nothing
        "on the hunt: ask bob what he thinks",  # no request to give the task to
        "checkpoint patching: start it, mark in progress",  # a label the clipped readers read
    ],
)
def test_a_heading_that_is_no_tasks_name_leaves_the_message(said: str) -> None:
    assert task_heading(said, NAMES) == said


@pytest.mark.parametrize(
    ("said", "tool", "projects"),
    [
        ("all of bob's tasks pls - vpn first, then phishing", "get_tasks", [VPN, PHISHING]),
        ("show me the open blockers: phishing first, then vpn", "get_blockers", [PHISHING, VPN]),
        ("bob's tasks - phishing awareness first and then vpn", "get_tasks", [PHISHING, VPN]),
        ("list the blockers, vpn first, then phishing", "get_blockers", [VPN, PHISHING]),
        ("alice's tasks: in phishing first, then in vpn", "get_tasks", [PHISHING, VPN]),
    ],
)
def test_one_look_up_for_two_projects_in_turn_is_one_for_each(
    said: str, tool: str, projects: list[str]
) -> None:
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert [(name, args["project_id"]) for name, args in calls] == [(tool, p) for p in projects]


@pytest.mark.parametrize(
    "said",
    [
        "close the drill - hunt first, then the runbook",  # tasks, not projects
        "all of bob's tasks - vpn first, then vpn again",  # one project twice
        "the team - alice first, then bob",  # no look-up of tasks, blockers or documents
    ],
)
def test_no_two_projects_in_turn_leaves_the_message(said: str) -> None:
    assert places_in_order(said, NAMES) == said


# -- a request inside a pasted or framed message --------------------------------------------


@pytest.mark.parametrize(
    ("said", "tool", "argument"),
    [
        (
            'from teams: "@bob could you take the drill?" he agreed, make it official',
            "assign_task",
            {"task_id": DRILL, "assignee_id": "bob"},
        ),
        (
            '"@alice can u grab the runbook" she said yes - go ahead',
            "assign_task",
            {"task_id": RUNBOOK, "assignee_id": "alice"},
        ),
        (
            'carol wondered "is there a doc about token rotation?" pls search',
            "search_content",
            {"query": "token rotation"},
        ),
        (
            "there's a bunch of tasks in the phishing awareness project nobody touched. show them",
            "get_tasks",
            {"project_id": PHISHING},
        ),
        (
            "there's a new comment on the runbook. what does it say",
            "get_task_details",
            {"task_id": RUNBOOK},
        ),
        ("drill task. show me", "get_task_details", {"task_id": DRILL}),
        ("netscaler review. details pls", "get_task_details", {"task_id": NETSCALER}),
        ("where'd anyone mention the backup tunnel", "search_content", {"query": "backup tunnel"}),
    ],
)
def test_a_request_pointing_back_at_framed_words_takes_its_object_from_them(
    said: str, tool: str, argument: dict[str, str]
) -> None:
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert [name for name, _ in calls] == [tool]
    assert argument.items() <= calls[0][1].items()


@pytest.mark.parametrize(
    "said",
    [
        '"@bob can u take the drill?" he said no',  # no yes
        '"@carol can u take the drill?" she said yes, make it official',  # nobody stored
        "there's a pile of tasks in the vpn project, close them",  # no look-up
        "the hunt is done. show",  # a telling, no thing named alone
        "bob wants a new comment on the runbook saying it's late",  # no comment told of
    ],
)
def test_framed_words_with_no_request_for_them_are_left(said: str) -> None:
    assert framed_request(said, NAMES) == said


def test_a_pasted_ask_never_becomes_a_change_without_its_yes() -> None:
    for said in ('"@bob can u take the drill?" he said no', "@bob wants the drill. thoughts?"):
        assert "assign_task" not in _changes(said)


# -- filters said exactly ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "status"),
    [
        ("which vpn tasks have status in_review", "in_review"),
        ("List tasks in phishing awareness with status in_progress", "in_progress"),
        ("list the vpn tasks whose status is to_do", "todo"),
        ("show tasks in the vpn project with status in_progress", "in_progress"),
        ("show phishing awareness tasks: status = in_review", "in_review"),
    ],
)
def test_a_status_in_the_stores_own_word_filters_the_tasks(said: str, status: str) -> None:
    assert status_of(said) == status
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert calls[0][0] == "get_tasks" and calls[0][1].get("status") == status


def test_a_status_in_the_stores_own_word_sets_the_task() -> None:
    assert _calls("set the hunt to in_progress") == [
        ("update_task", {"task_id": HUNT, "status": "in_progress"})
    ]


@pytest.mark.parametrize(
    "said",
    [
        "Show the full details of task 'Write the incident runbook': description and blockers.",
        "show me the details of the hunt, including comments, status and any blockers",
        "details of the drill - description, priority and due date",
        "show the patch task's full details with comments and blockers please",
        "show the netscaler review details: assignee, comments, and all blockers",
    ],
)
def test_the_parts_of_a_tasks_details_listed_ask_for_the_details_alone(said: str) -> None:
    assert details_unlisted(said) != said
    calls = _calls(said)
    assert isinstance(calls, list), calls
    assert [name for name, _ in calls] == ["get_task_details"]


@pytest.mark.parametrize(
    "said",
    [
        "show the hunt's details and any blockers on vpn",  # no listing after the request
        "show the drill and then the blockers",
        "details of the drill: bob is on it and the hunt",  # no part of the details listed
    ],
)
def test_no_listing_of_a_tasks_details_leaves_the_message(said: str) -> None:
    assert details_unlisted(said) == said


@pytest.mark.parametrize(
    ("said", "project", "title"),
    [
        ("new task in vpn - brief the CISO on patch status. high prio", VPN, "brief the ciso"),
        ("new task for phishing awareness - translate slides to Korean", PHISHING, "translate"),
        ("make a task in vpn — check the backup tunnel, due monday", VPN, "backup tunnel"),
        ("create task under phishing - book the training room", PHISHING, "training room"),
        ("add a task on the vpn project - rotate the lab certs", VPN, "rotate the lab certs"),
    ],
)
def test_a_new_tasks_title_after_a_dash_is_its_title(said: str, project: str, title: str) -> None:
    calls = _calls(said)
    assert isinstance(calls, list), calls
    [(name, args)] = calls
    assert name == "create_task" and args["project_id"] == project
    assert title in args["title"].casefold()


def test_a_dash_after_no_project_is_no_title() -> None:
    assert "create_task" not in _changes("new task - the vpn one is done")


def test_a_reader_taking_a_task_then_asking_more_is_left_to_the_parts() -> None:
    said = "I'm taking the hunt task, make it high priority too"
    assert doing_now(said, NAMES) == said


def test_a_field_label_or_a_later_sentence_is_no_heading() -> None:
    for said in ("runbook: unassign. nobody on it for now.", "the drill: close it"):
        assert task_heading(said, NAMES) == said
