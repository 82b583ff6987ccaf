"""Workspace requests found wrong by trying the product by hand (session 18), one construct each.

"What's bob working on" asks whose tasks, not which state: his open work includes what he
has not started. "Close the drill and the hunt's still waiting": a part after "and" whose verb
is contracted onto its subject tells about it; it is not a second task to close. "Close the
drill. bob finished it": a member telling why after the change is no part of the task's name.
"Reopen it" is never a completion, and "it isn't done" is asked, not completed.
"""

from __future__ import annotations

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.workspace_plan import plan_workspace
from tests.unit.test_workspace_phrasings import (
    MONDAY,
    NAMES,
    NOWHERE,
    SYSTEM,
    _call,
    _calls,
    _planned,
    _rules,
)


def test_what_someone_is_working_on_lists_their_tasks_in_every_state() -> None:
    bobs = ("get_tasks", {"project_id": "VPN gateway hardening", "assignee_id": "bob"})
    assert _planned("get_tasks", "what's bob working on in the vpn project?") == [bobs]
    assert _planned("get_tasks", "what is bob working on in VPN gateway hardening") == [bobs]
    assert _planned("get_tasks", "anything bob's working on over in the vpn project") == [bobs]


def test_a_state_said_beside_the_person_still_filters() -> None:
    started = {"project_id": "VPN gateway hardening", "assignee_id": "bob", "status": "in_progress"}
    asked = "which of bob's tasks are in progress in the vpn project?"
    assert _planned("get_tasks", asked) == [("get_tasks", started)]


def test_a_clause_after_and_with_a_contracted_verb_only_tells() -> None:
    for text in (
        "close the drill and the hunt's still waiting",
        "close the drill and the hunt’s still waiting on logs",
        "mark the runbook done, and the netscaler review's next",
    ):
        calls = _calls(text)
        assert len(calls) == 1 and calls[0][0] == "complete_task", (text, calls)


def test_a_change_then_a_member_telling_why_is_the_change_alone() -> None:
    # "bob finished it" says why: it was read as part of the task's name ("drill. bob ...").
    assert _calls("close the drill. bob finished it") == [
        ("complete_task", {"task_id": "Schedule the phishing drill"})
    ]
    assert _calls("mark the runbook done, alice wrapped it up yesterday") == [
        ("complete_task", {"task_id": "Write the incident runbook"})
    ]


def test_a_later_sentence_naming_another_task_is_still_read_whole() -> None:
    # The member tells of another task: not only a reason, so the change is not guessed.
    stages = _rules().plan("close the drill. bob needs the hunt next", [], SYSTEM)
    assert stages is not None
    outcome = stages[0](None)
    assert not isinstance(outcome, list), outcome


def test_a_task_asked_back_to_its_start_is_never_completed() -> None:
    # "we never finished the drill, can you reopen it" was read near "finished": a completion.
    reopened = [("update_task", {"task_id": "Schedule the phishing drill", "status": "todo"})]
    for said in (
        "we never finished the drill, can you reopen it",
        "reopen the phishing drill please",
        "put the drill back to todo",
    ):
        assert _planned("complete_task", said) == reopened, said


def test_done_denied_is_asked_not_completed() -> None:
    for said in ("the drill isn't done yet", "the phishing drill is not finished"):
        planned = plan_workspace("complete_task", said, NAMES, NOWHERE, _call, MONDAY)
        assert isinstance(planned, Clarification), (said, planned)
    assert _planned("complete_task", "close the drill, it's finished") == [
        ("complete_task", {"task_id": "Schedule the phishing drill"})
    ]
