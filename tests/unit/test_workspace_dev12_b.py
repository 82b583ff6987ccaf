"""Workspace phrasings of pool-v12 the rules missed (second half), one mechanism per test.

A task's description added or set (a change of the task, never a new task titled by it),
and a change asked as whether it is possible; a verb without its object, or a pointer with
nothing in view, asked about; a leading verb mistyped; bare details after a quoted title.
"""

from __future__ import annotations

from lectern.adapters.understanding.workspace_frames import unframed_change
from lectern.adapters.understanding.workspace_typos import verb_respelt
from lectern.domain.assistant import Message
from tests.unit.test_workspace_dev11 import _policy_calls
from tests.unit.test_workspace_phrasings import _asked, _calls, _on_page

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
    from tests.unit.test_workspace_phrasings import _rules

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
