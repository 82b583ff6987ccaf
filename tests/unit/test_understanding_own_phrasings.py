"""Mechanisms behind requests found by trying the assistant (none is a sentence of the sets).

Each test is one mechanism: a task spoken of as new with what it is for is a creation; a
question in a later clause asks and changes nothing; the attention summary tells only the
parts a request names; the decision acts on look-ups below the floor; slots the plans had
asked back for ("a 3", star symbols, a quoted list name, a status word inside a message).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lectern.adapters.llm.workspace_replies import attention_reply
from lectern.adapters.llm.workspace_rules import WorkspaceRules
from lectern.adapters.understanding.book_plan import plan_books
from lectern.adapters.understanding.intents import (
    IntentReading,
    IntentScore,
    NearestExampleClassifier,
    reading_of,
)
from lectern.adapters.understanding.layer import CUES, Understanding, respelled
from lectern.adapters.understanding.mentions import Names, names_from_prompt
from lectern.adapters.understanding.ruled_out import ruled_out as _ruled_out
from lectern.adapters.understanding.slots import (
    attention_sections_of,
    due_clause,
    due_date_of,
    list_name_of,
    stars_of,
    without_status,
)
from lectern.adapters.understanding.workspace_plan import Where, plan_workspace
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import AIResponse, ToolCall
from tests.fakes import FakeEmbedder

WORLD = names_from_prompt(
    "\n".join(
        [
            NAMES_HEADER,
            "- project: VPN gateway hardening",
            "- project: Phishing awareness",
            "- task: Patch the Check Point gateways",
            "- task: Review NetScaler session tokens",
            "- task: Hunt for unusual VPN logins",
            "- task: Write the incident runbook",
            "- member: alice (Alice Admin)",
            "- member: bob (Bob Builder)",
            "- reader: alice",
        ]
    )
)
NOWHERE = Where(None, None, "alice")


def _call(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall("t", tool, dict(arguments))


def _planned(intent: str, text: str, names: Names = WORLD) -> list[tuple[str, dict[str, Any]]]:
    planned = plan_workspace(intent, text, names, NOWHERE, _call)
    assert isinstance(planned, list), planned
    return [(c.name, dict(c.arguments)) for c in planned]


# --- "pencil in a task on the VPN project to rotate the certs, give it to bob" ----------


def test_a_task_spoken_of_as_new_with_its_purpose_is_a_creation() -> None:
    said = "could you jot down a task under the phishing project to order posters, give it to bob"
    assert CUES["create_task"].search(said)
    assert {"assign_task", "complete_task", "update_task"} <= _ruled_out(said, WORLD)
    assert _planned("create_task", said) == [
        (
            "create_task",
            {"title": "Order posters", "project_id": "Phishing awareness", "assignee_id": "bob"},
        )
    ]


def test_asking_whether_such_a_task_exists_is_no_creation() -> None:
    for asked in ("is there a task to order posters?", "any task for the posters"):
        assert not CUES["create_task"].search(asked)


# --- "ugh the vpn thing is stuck, whats blocking it" ------------------------------------


def test_a_question_in_a_later_clause_asks_and_changes_nothing() -> None:
    said = "argh the gateway work is stuck again, what's holding it"
    assert CUES["get_blockers"].search(said)
    assert not CUES["create_blocker"].search(said)
    assert {"create_blocker", "update_task"} <= _ruled_out(said, WORLD)
    assert _planned("get_blockers", said) == [
        ("get_blockers", {"project_id": "VPN gateway hardening"})
    ]


def test_why_is_something_stuck_asks_for_its_blockers() -> None:
    said = "why is the token review stuck"
    assert CUES["get_blockers"].search(said)
    assert "create_blocker" in _ruled_out(said, WORLD)


def test_a_change_before_a_later_question_still_counts() -> None:
    said = "wrap up the runbook, which one is next"
    assert "complete_task" not in _ruled_out(said, WORLD)


# --- "which tasks are overdue?" ---------------------------------------------------------

SUMMARY = {
    "overdue": [{"task_id": "t1", "title": "Patch the gateways", "status": "todo"}],
    "blocked": [{"task_id": "t2", "title": "Rotate keys", "status": "todo", "blockers": ["x"]}],
    "in_review": [],
    "assigned_to_me": [{"task_id": "t3", "title": "Write the runbook", "status": "todo"}],
    "open_blockers": 1,
}


def _told(text: str) -> str:
    call = _call("get_attention_summary")
    return attention_reply(attention_sections_of(text))(
        SimpleNamespace(calls=[call], results=[SUMMARY])
    )


def test_the_attention_summary_tells_only_the_parts_a_request_names() -> None:
    assert attention_sections_of("anything past due?") == ("overdue",)
    assert attention_sections_of("what's late or stuck") == ("overdue", "blocked")
    assert attention_sections_of("what needs my attention, anything overdue") == ()
    late = _told("which of my tasks slipped past their due date? anything late")
    assert "Patch the gateways" in late
    assert "Rotate keys" not in late and "Write the runbook" not in late
    assert "Nothing is waiting in review" in _told("anything in review?")
    whole = _told("what should I work on")
    assert all(t in whole for t in ("Patch the gateways", "Rotate keys", "Write the runbook"))


def test_the_overdue_pattern_reply_is_focused_too() -> None:
    rules = WorkspaceRules(_call)
    stages = rules.plan("which tasks are late?", [], "")
    assert stages is not None
    calls = stages[0](None)
    assert [c.name for c in calls] == ["get_attention_summary"]  # type: ignore[union-attr]
    reply = stages[1](SimpleNamespace(calls=calls, results=[SUMMARY]))
    assert "Patch the gateways" in reply.text  # type: ignore[union-attr]
    assert "Rotate keys" not in reply.text  # type: ignore[union-attr]


# --- the decision: look-ups act below the floor, changes wait ----------------------------


def _reading(best: str, runner_up: str, lead: float) -> IntentReading:
    return reading_of([IntentScore(best, 0.5 + lead), IntentScore(runner_up, 0.5)])


def test_a_look_up_below_the_floor_acts_and_a_change_asks(tmp_path: Path) -> None:
    layer = Understanding(
        NearestExampleClassifier(FakeEmbedder(["a"]), {"greeting": ("a",)}, tmp_path)
    )
    unsure_look = _reading("get_task_details", "get_tasks", 0.004)
    assert unsure_look.confidence < layer.floor and unsure_look.confidence >= layer.read_floor
    assert layer.decided(unsure_look) == "get_task_details"
    assert layer.decided(_reading("complete_task", "get_tasks", 0.004)) is None
    assert layer.decided(_reading("thanks", "greeting", 0.004)) is None


# --- slots the plans asked back for -------------------------------------------------------


def test_ratings_as_a_bare_number_after_give_or_as_star_symbols() -> None:
    assert stars_of("I would give Middlemarch a 4") == 4
    assert stars_of("Beloved ★★") == 2
    assert stars_of("Persuasion ⭐⭐⭐") == 3
    assert stars_of("give me a 4 book list") is None


def test_a_quoted_name_beside_the_word_list_names_the_list() -> None:
    assert list_name_of("start a 'Winter 2028' list for me") == "Winter 2028"
    assert list_name_of('make the list "Road trip"') == "Road trip"


def test_a_status_word_is_not_part_of_a_task_name() -> None:
    assert without_status("the runbook is ready for review now") == "the runbook is now"
    assert _planned("update_task", "the runbook is under review") == [
        ("update_task", {"task_id": "Write the incident runbook", "status": "in_review"})
    ]


def test_call_a_list_something_else_instead_is_a_rename_whatever_comes_before() -> None:
    names = names_from_prompt(f"{NAMES_HEADER}\n- list: Summer\n- list: Halloween")
    planned = plan_books(
        "rename_list", "I'd like to call the summer list Beach instead", names, str, _call
    )
    assert isinstance(planned, list)
    assert planned[0].arguments == {"list": "Summer", "new_name": "Beach"}


def test_a_year_a_book_should_have_is_a_correction_of_its_year() -> None:
    names = Names()
    planned = plan_books(
        "propose_correction",
        "the publication year of this one should read 1931",
        names,
        lambda _: "page-book",
        _call,
    )
    assert isinstance(planned, list)
    assert planned[0].arguments == {"book": "page-book", "published_year": 1931}


def test_a_request_led_by_add_or_remove_may_be_a_list_entry_without_the_word_list() -> None:
    lists = names_from_prompt(f"{NAMES_HEADER}\n- list: Summer\n- list: Halloween")
    assert "add_to_list" not in _ruled_out("add Middlemarch", lists)
    assert "remove_from_list" not in _ruled_out("take out Beloved", lists)
    assert "add_to_list" in _ruled_out("add Middlemarch", Names())
    assert "add_to_list" in _ruled_out("what is Middlemarch about", lists)
    planned = plan_books("add_to_list", "add Middlemarch", lists, str, _call)
    assert not isinstance(planned, list)  # which list: asked


def test_a_book_named_by_its_author_goes_back_to_the_policy_to_ask() -> None:
    lists = names_from_prompt(f"{NAMES_HEADER}\n- list: Mysteries")
    asked: list[str] = []

    def it(reference: str) -> str:
        asked.append(reference)
        raise LookupError(reference)

    with pytest.raises(LookupError):
        plan_books("add_to_list", "put the Sayers novel on Mysteries", lists, it, _call)
    assert asked == ["the Sayers novel"]


def test_a_quoted_item_added_to_a_project_is_a_new_task() -> None:
    said = "would you be able to add 'Archive the old scans' to the audit project?"
    assert CUES["create_task"].search(said)
    assert not CUES["create_task"].search("add 'Dune' to my summer list")


def test_a_misspelt_cue_word_is_read_as_meant_and_names_are_left_alone() -> None:
    assert respelled("compelted the Okta reveiw") == "completed the Okta reveiw"
    assert respelled("anything overdeu for me") == "anything overdue for me"
    assert respelled("done with Okta") == "done with Okta"
    assert respelled("write on it, comments closed") == "write on it, comments closed"
    assert CUES["complete_task"].search(respelled("i finsihed the badge audit"))


def test_docs_and_files_are_the_projects_documents() -> None:
    rules = WorkspaceRules(_call)
    stages = rules.plan("show the files for the audit project", [], "")
    assert stages is not None
    [call] = stages[0](None)  # type: ignore[misc]
    assert (call.name, call.arguments) == ("get_documents", {"project_id": "audit"})


def test_a_follow_up_with_only_a_new_title_repeats_the_last_creation() -> None:
    from lectern.domain.assistant import Message

    rules = WorkspaceRules(_call)
    told = Message("assistant", "Done: Create the task 'Order posters' in 'Phishing awareness'.")
    for said in ("and 'Order stickers' too", "also 'Order stickers', same project"):
        stages = rules.plan(said, [Message("user", "..."), told], "")
        assert stages is not None
        [call] = stages[0](None)  # type: ignore[misc]
        assert (call.name, call.arguments) == (
            "create_task",
            {"project_id": "Phishing awareness", "title": "Order stickers"},
        )
    assert rules.plan("'Order stickers'", [told], "") is None  # no word says "again"
    assert rules.plan("and 'Order stickers' too", [], "") is None  # nothing to repeat


def test_a_due_clause_is_read_against_the_clock_and_to_only_when_a_date_moves() -> None:
    monday = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    assert due_clause("book the room, due next week", monday) == ("2026-11-09", 15, 28)
    assert due_date_of("push it to next friday", monday) is None
    assert due_date_of("push it to next friday", monday, moved=True) == "2026-11-06"
    assert due_date_of("a task to rotate the certs", monday, moved=True) is None


def test_due_dates_people_write_are_counted_from_the_clock() -> None:
    monday = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    said = {
        "ship it, due this Friday": "2026-11-06",
        "close the books by end of the month": "2026-11-30",
        "wrap up by end of next week": "2026-11-13",
        "due on the 14th": "2026-11-14",
        "by the 1st": "2026-12-01",
        "by wed": "2026-11-04",
        "due Nov 20": "2026-11-20",
        "by 3rd of December": "2026-12-03",
        "due in two weeks": "2026-11-16",
    }
    for text, day in said.items():
        assert due_date_of(text, monday) == day, text
    assert due_date_of("move the review to the 20th", monday, moved=True) == "2026-11-20"
    assert due_date_of("a task for bob to check the logs", monday) is None


def test_a_new_tasks_title_is_the_title_and_not_the_words_around_it() -> None:
    rules = WorkspaceRules(_call, clock=lambda: datetime(2026, 11, 2, 9, 0, tzinfo=UTC))
    system = "\n".join(
        [
            NAMES_HEADER,
            "- project: VPN gateway hardening",
            "- project: Phishing awareness",
            "- member: alice (Alice Admin)",
            "- member: bob (Bob Builder)",
            "- reader: alice",
        ]
    )
    said = {
        "create a low priority task on Phishing awareness called Print the posters": {
            "project_id": "Phishing awareness",
            "title": "Print the posters",
            "priority": "low",
        },
    }
    for text, arguments in said.items():
        stages = rules.plan(text, [], system)
        assert stages is not None, text
        [call] = stages[0](None)  # type: ignore[misc]
        assert (call.name, call.arguments) == ("create_task", arguments), text
    # Read by meaning when no pattern fits: the quoted words are the title, not the colon's.
    said_so = "vpn project: new task 'Check the spare gateway' for bob, due this friday"
    monday = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    [call] = plan_workspace("create_task", said_so, WORLD, NOWHERE, _call, monday)  # type: ignore[misc]
    assert call.arguments["title"] == "Check the spare gateway"
    assert (call.arguments["assignee_id"], call.arguments["due_date"]) == ("bob", "2026-11-06")


def test_several_workspace_changes_in_one_message_are_each_planned() -> None:
    rules = WorkspaceRules(_call)
    system = "\n".join(
        [
            NAMES_HEADER,
            "- project: VPN gateway hardening",
            "- task: Hunt for unusual VPN logins",
            "- task: Write the incident runbook",
            "- member: bob (Bob Builder)",
            "- reader: alice",
        ]
    )
    said = {
        "finish the hunt task and add a comment on it 'logs reviewed'": [
            ("complete_task", {"task_id": "Hunt for unusual VPN logins"}),
            (
                "add_comment",
                {"task_id": "Hunt for unusual VPN logins", "content": "Logs reviewed."},
            ),
        ],
        "close out the runbook and create a task in VPN gateway hardening called Publish it": [
            ("complete_task", {"task_id": "Write the incident runbook"}),
            ("create_task", {"project_id": "VPN gateway hardening", "title": "Publish it"}),
        ],
    }
    for text, expected in said.items():
        stages = rules.plan(text, [], system)
        assert stages is not None, text
        calls = stages[0](None)  # type: ignore[misc]
        assert [(c.name, c.arguments) for c in calls] == expected, text


def test_a_workspace_change_that_names_no_one_thing_is_asked_back() -> None:
    rules = WorkspaceRules(_call)
    system = "\n".join(
        [
            NAMES_HEADER,
            "- project: VPN gateway hardening",
            "- project: Phishing awareness",
            "- task: Hunt for unusual VPN logins",
            "- task: Write the incident runbook",
            "- member: bob (Bob Builder)",
            "- reader: alice",
        ]
    )
    for text in (
        "finish bob's task",  # a person's tasks, not one of them
        "add a task: renew the wildcard certificate",  # two projects, none named, no page
        "make a task for bob",  # who it is for, not what it is
        "comment on the printer task: toner is low",  # no task is called anything like it
    ):
        stages = rules.plan(text, [], system)
        assert stages is not None, text
        reply = stages[0](None)  # type: ignore[misc]
        assert isinstance(reply, AIResponse), text
        assert "?" in reply.text and not reply.tool_calls, text
