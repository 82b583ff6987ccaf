"""Workspace phrasings of pool-v12 the rules missed (second half), one mechanism per test.

A task's description added or set (a change of the task, never a new task titled by it),
and a change asked as whether it is possible; a verb without its object, or a pointer with
nothing in view, asked about; a leading verb mistyped; bare details after a quoted title.
Then: "that" pointing at the sentence told before (a comment, a resolution, a blocker, the
task "that task" means); "take me off it" after a part naming the task; a project's tasks
asked by state, and its state asked with its counts; "look up X" of no catalog book.
"""

from __future__ import annotations

from typing import Any

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.llm.workspace_lookup import workspace_look_up
from lectern.adapters.understanding.request_sentence import Request, request_after_circumstances
from lectern.adapters.understanding.workspace_by_state import tasks_by_state
from lectern.adapters.understanding.workspace_frames import unframed_change
from lectern.adapters.understanding.workspace_parts import parts
from lectern.adapters.understanding.workspace_told_task import told_task_named
from lectern.adapters.understanding.workspace_typos import verb_respelt
from lectern.domain.assistant import AIResponse, Message, ToolSpec
from tests.unit.test_workspace_dev11 import TOOLS, _policy_calls
from tests.unit.test_workspace_phrasings import (
    NAMES,
    SYSTEM,
    _asked,
    _call,
    _calls,
    _on_page,
    _planned,
    _rules,
)

ALL_TOOLS = [
    *TOOLS,
    *(ToolSpec(n, n, {"type": "object"}) for n in ("resolve_blocker", "get_blockers")),
]

RUNBOOK = "Write the incident runbook"


def test_a_description_added_to_a_task_changes_the_task() -> None:
    assert _policy_calls(
        "Would it be possible to add a description to the runbook task: cover VPN compromise "
        "and session hijacking"
    ) == [
        (
            "update_task",
            {"task_id": RUNBOOK, "description": "cover VPN compromise and session hijacking"},
        )
    ]
    assert _calls("give the drill a description: pick a date with HR first") == [
        (
            "update_task",
            {"task_id": "Schedule the phishing drill", "description": "pick a date with HR first"},
        )
    ]
    assert _calls("change the hunt's description to look at logins outside office hours") == [
        (
            "update_task",
            {
                "task_id": "Hunt for unusual VPN logins",
                "description": "look at logins outside office hours",
            },
        )
    ]
    assert _calls("the description of the patch task should be: all five gateways") == [
        (
            "update_task",
            {"task_id": "Patch the Check Point gateways", "description": "all five gateways"},
        )
    ]
    # Without the words, what it should say is asked.
    assert "description" in _asked("add a description to the runbook")


def test_a_change_asked_as_whether_it_is_possible_is_the_change() -> None:
    assert unframed_change("is it possible to close the drill?") == "close the drill"
    assert unframed_change("any chance you could bump the hunt to urgent") == (
        "bump the hunt to urgent"
    )
    # A how-to question is no frame.
    assert unframed_change("how do I assign tasks?") == "how do I assign tasks?"


def test_a_verb_without_its_object_is_asked_about() -> None:
    for text in ("search", "look up", "find please"):
        assert "search for" in _asked(text)
    for text in (
        "add a blocker to the patch task",
        "put a blocker on the hunt task",
        "log a new blocker against the drill",
    ):
        assert "What is blocking" in _asked(text), text
    # With its reason, it is the blocker.
    [(tool, _)] = _calls("add a blocker to the patch task: the vendor is late")
    assert tool == "create_blocker"


def test_these_with_nothing_shown_is_asked_about() -> None:
    for text in (
        "add these to the phishing project",
        "move those into vpn gateway hardening",
        "put all of them in the phishing project",
    ):
        assert "Which ones" in _asked(text), text
    # After a reply that showed something, "these" may point at it: not asked here.
    shown = [Message("user", "search for tokens"), Message("assistant", "I found 2 results")]
    assert "Which ones" not in (_asked_or_none("add these to the phishing project", shown) or "")


def _asked_or_none(text: str, history: list[Message]) -> str | None:
    stages = _rules().plan(text, history, "")
    return None if stages is None else str(stages[0](None))


def test_a_document_pointed_at_with_none_in_view_is_asked_about() -> None:
    for text in ("what does this document say?", "what does that record say", "open this doc"):
        assert "Which document" in _asked(text), text
    page = _on_page("document", "doc-3", "T1133: External Remote Services")
    assert _calls("what does this document say?", page) == [
        ("get_document_details", {"document_id": "doc-3"})
    ]


def test_a_mistyped_leading_verb_is_read_as_meant() -> None:
    assert verb_respelt("asign the drill to bob") == "assign the drill to bob"
    assert verb_respelt("compelte the hunt") == "complete the hunt"
    # Another form of a verb, or an ordinary word, stays as typed.
    assert verb_respelt("created a task?") == "created a task?"
    assert verb_respelt("closed the drill") == "closed the drill"
    assert _calls('creat task "Update the VPN client on laptops" vpn project urgent') == [
        (
            "create_task",
            {
                "project_id": "VPN gateway hardening",
                "title": "Update the VPN client on laptops",
                "priority": "urgent",
            },
        )
    ]


def test_bare_details_after_a_quoted_title_are_its_place_and_priority() -> None:
    assert _calls('create task "Rotate keys" phishing project high') == [
        (
            "create_task",
            {"project_id": "Phishing awareness", "title": "Rotate keys", "priority": "high"},
        )
    ]
    assert _calls("new task 'Call the vendor' vpn hardening project") == [
        ("create_task", {"project_id": "VPN gateway hardening", "title": "Call the vendor"})
    ]


def _all_tools_calls(text: str) -> list[tuple[str, dict[str, Any]]]:
    reply = RulePolicy().complete_with_tools([Message("user", text)], ALL_TOOLS, system=SYSTEM)
    assert isinstance(reply, AIResponse)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def test_that_said_before_the_request_is_what_it_keeps() -> None:
    # The request's "that" is the sentence before: read with it, as one message.
    for text in (
        "I spoke with the network team and they say the old gateways in Lyon are out of "
        "scope. Please add that as a comment on the Check Point gateway task.",
        "Bob says the old gateways in Lyon are out of scope. Post that on the patch task.",
    ):
        assert request_after_circumstances(text) is None, text
        [(tool, arguments)] = _calls(text)
        assert tool == "add_comment" and "Lyon" in arguments["content"], text
    assert (
        request_after_circumstances("The vendor gave us Sunday 2am. Close that blocker with that?")
        is None
    )
    # "with that" is no resolution: what was told is.
    assert _planned(
        "resolve_blocker",
        "We finally got the maintenance window from the vendor (Sunday 2am). Could you close "
        "that blocker with that?",
    ) == [
        (
            "resolve_blocker",
            {
                "blocker_id": "Waiting for the vendor maintenance window",
                "resolution": "We finally got the maintenance window from the vendor (Sunday 2am)",
            },
        )
    ]


def test_a_task_said_to_be_blocked_then_log_that_is_a_blocker() -> None:
    assert _calls(
        "the hotfix fails on the older appliances so the check point patch is blocked. log that "
        "and bump the task to urgent"
    ) == [
        (
            "create_blocker",
            {
                "task_id": "Patch the Check Point gateways",
                "description": "The hotfix fails on the older appliances",
            },
        ),
        ("update_task", {"task_id": "Patch the Check Point gateways", "priority": "urgent"}),
    ]
    assert _calls("legal hasn't signed off, the runbook is stuck. record that") == [
        ("create_blocker", {"task_id": RUNBOOK, "description": "Legal hasn't signed off"})
    ]
    # What blocks nothing is no blocker.
    assert _rules().plan("the drill went well. log that", [], SYSTEM) is None


def test_that_task_is_the_one_the_telling_sentence_names() -> None:
    told = told_task_named(
        Request("Check Point gateways are all patched!", "mark that task done"),
        NAMES.of("task"),
    )
    assert told.request == "mark Patch the Check Point gateways done"
    assert _all_tools_calls(
        "Check Point gateways are all patched! mark that task done and resolve its blocker "
        "with 'patched during the vendor window'"
    ) == [
        ("complete_task", {"task_id": "Patch the Check Point gateways"}),
        (
            "resolve_blocker",
            {
                "blocker_id": "Waiting for the vendor maintenance window",
                "resolution": "Patched during the vendor window",
            },
        ),
    ]
    assert _all_tools_calls("The phishing drill went fine. Close it.") == [
        ("complete_task", {"task_id": "Schedule the phishing drill"})
    ]
    assert _all_tools_calls("the runbook is finally written. mark it done") == [
        ("complete_task", {"task_id": RUNBOOK})
    ]


def test_take_me_off_it_is_the_task_it_means() -> None:
    assert parts("nobody should own the netscaler token review for now, take me off it") == [
        "nobody should own the netscaler token review for now",
        "take me off it",
    ]
    for text in ("take me off it", "take bob off it", "take me off this"):
        stages = _rules().plan(text, [], SYSTEM, it="Review NetScaler session tokens")
        assert stages is not None, text
        assert [(c.name, dict(c.arguments)) for c in stages[0](None)] == [
            ("assign_task", {"task_id": "Review NetScaler session tokens", "assignee_id": None})
        ]


def test_a_projects_tasks_asked_by_state_are_listed() -> None:
    done = [("get_tasks", {"project_id": "VPN gateway hardening", "status": "done"})]
    assert _calls("anything finished yet in the vpn project? show me the done ones") == done
    assert _calls("show me the done ones in the vpn project") == done
    assert _calls("what's still in progress in phishing awareness") == [
        ("get_tasks", {"project_id": "Phishing awareness", "status": "in_progress"})
    ]
    # No project of the reader's: not this reading.
    assert tasks_by_state("anything done in the logs?", NAMES.of("project")) is None


def test_a_projects_state_asked_with_its_counts_opens_the_project() -> None:
    vpn = [("get_project_details", {"project_id": "VPN gateway hardening"})]
    assert (
        _calls(
            "I'm presenting at standup in ten minutes. What's the state of the VPN gateway "
            "project, how many tasks done, anything overdue?"
        )
        == vpn
    )
    assert _calls("give me the status of the vpn project") == vpn
    assert _calls("how's the progress on the phishing project? anything late?") == [
        ("get_project_details", {"project_id": "Phishing awareness"})
    ]


def test_a_look_up_of_no_catalog_book_searches_the_workspace() -> None:
    def search(text: str, books: tuple[str, ...] = ("Dune",)) -> list[Any]:
        stages = workspace_look_up(text, lambda t: t in books, lambda _: None, _call)
        return [(c.name, dict(c.arguments)) for c in stages[0](None)] if stages else []

    assert search("look up simulation") == [("search_content", {"query": "simulation"})]
    assert search("look up remote access please") == [
        ("search_content", {"query": "remote access"})
    ]
    # A catalog book, or a request for books, is the catalog's.
    assert search("look up Dune") == []
    assert search("look up books about dragons") == []


def test_projects_counted_are_listed_with_their_open_blockers() -> None:
    assert _calls("how many projects are there and do any have open blockers?") == [
        ("get_projects", {})
    ]
    assert _calls("what's the project count") == [("get_projects", {})]
    assert _calls("how many active projects do we have?") == [
        ("get_projects", {"status": "active"})
    ]
