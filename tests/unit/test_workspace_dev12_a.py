"""Workspace constructs from dev12: several objects sharing one verb, a person filtering a
listing, a follow-up that repeats the last action with another object, a document named by
the word for one, and a task named by what it is about.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lectern.adapters.llm.told_first import told_first
from lectern.adapters.understanding.request_sentence import Request
from lectern.domain.assistant import AIResponse, Message
from tests.unit.test_workspace_phrasings import SYSTEM, _calls, _planned, _rules


@dataclass
class _Plan:
    """The rules' plan of a request, as `told_first` reads one."""

    steps: list[Any]

    @classmethod
    def of(cls, request: str) -> _Plan:
        return cls(_rules().plan(request, [], SYSTEM) or [])

    def calls(self) -> list[tuple[str, dict[str, Any]]]:
        first = self.steps[0](None) if self.steps else []
        return [(c.name, dict(c.arguments)) for c in first] if isinstance(first, list) else []


def _asked(text: str) -> str:
    stages = _rules().plan(text, [], SYSTEM)
    assert stages is not None, text
    asked = stages[0](None)
    assert isinstance(asked, AIResponse) and not asked.tool_calls, (text, asked)
    return asked.text


def test_several_tasks_sharing_one_verb_get_one_call_each_in_the_order_said() -> None:
    assert _calls("assign both the runbook and the netscaler token review to bob") == [
        ("assign_task", {"task_id": "Write the incident runbook", "assignee_id": "bob"}),
        ("assign_task", {"task_id": "Review NetScaler session tokens", "assignee_id": "bob"}),
    ]
    assert _calls("mark the drill, the hunt and the runbook as done") == [
        ("complete_task", {"task_id": "Schedule the phishing drill"}),
        ("complete_task", {"task_id": "Hunt for unusual VPN logins"}),
        ("complete_task", {"task_id": "Write the incident runbook"}),
    ]
    assert _calls("set the drill and the hunt to high priority") == [
        ("update_task", {"task_id": "Schedule the phishing drill", "priority": "high"}),
        ("update_task", {"task_id": "Hunt for unusual VPN logins", "priority": "high"}),
    ]
    # A task whose name holds a preposition is one object ("the hunt for unusual vpn logins").
    assert _calls("hand the runbook and the hunt for unusual vpn logins over to bob") == [
        ("assign_task", {"task_id": "Write the incident runbook", "assignee_id": "bob"}),
        ("assign_task", {"task_id": "Hunt for unusual VPN logins", "assignee_id": "bob"}),
    ]
    # A comment for two tasks: its words are said once, after the list.
    assert _calls("add a comment to the runbook and the hunt: legal checked") == [
        ("add_comment", {"task_id": task, "content": "Legal checked."})
        for task in ("Write the incident runbook", "Hunt for unusual VPN logins")
    ]
    assert _calls("close the check point patch & the token review") == [
        ("complete_task", {"task_id": "Patch the Check Point gateways"}),
        ("complete_task", {"task_id": "Review NetScaler session tokens"}),
    ]


def test_an_object_of_the_list_that_is_no_stored_task_is_asked() -> None:
    assert "firewall audit" in _asked("assign the runbook and the firewall audit to bob")
    assert "weekly sync" in _asked("mark the drill, the weekly sync and the hunt done")


def test_what_is_no_list_of_objects_stays_as_it_was() -> None:
    # a comment's words, two changes of their own, a quoted title with "and" in it
    assert _calls("add a comment to the runbook: checked the drill, the hunt and the patch") == [
        (
            "add_comment",
            {
                "task_id": "Write the incident runbook",
                "content": "Checked the drill, the hunt and the patch.",
            },
        )
    ]
    assert _calls("assign the runbook to bob and the drill to alice") == [
        ("assign_task", {"task_id": "Write the incident runbook", "assignee_id": "bob"}),
        ("assign_task", {"task_id": "Schedule the phishing drill", "assignee_id": "alice"}),
    ]
    assert _calls("add a task 'Review and sign off' to the vpn project") == [
        ("create_task", {"project_id": "VPN gateway hardening", "title": "Review and sign off"})
    ]


def test_several_quoted_titles_are_as_many_new_tasks() -> None:
    said = (
        'add three tasks to phishing awareness: "Pick a simulation date", '
        '"Write the landing page" and "Brief the managers"'
    )
    assert _calls(said) == [
        ("create_task", {"project_id": "Phishing awareness", "title": title})
        for title in ("Pick a simulation date", "Write the landing page", "Brief the managers")
    ]
    assert _calls("add 'Train sales' and 'Train support' to the phishing project") == [
        ("create_task", {"project_id": "Phishing awareness", "title": "Train sales"}),
        ("create_task", {"project_id": "Phishing awareness", "title": "Train support"}),
    ]
    assert _calls(
        "create tasks 'Order tokens' & 'Ship tokens' in the vpn project, high priority"
    ) == [
        (
            "create_task",
            {"project_id": "VPN gateway hardening", "title": title, "priority": "high"},
        )
        for title in ("Order tokens", "Ship tokens")
    ]


def test_a_person_named_in_a_listing_of_tasks_filters_it() -> None:
    assert _calls("what tasks does bob have in the vpn project") == [
        ("get_tasks", {"project_id": "VPN gateway hardening", "assignee_id": "bob"})
    ]
    assert _calls("which tickets has alice got in phishing awareness") == [
        ("get_tasks", {"project_id": "Phishing awareness", "assignee_id": "alice"})
    ]
    # The reader named by name is a filter too (said by alice herself).
    assert _planned("get_tasks", "tasks for alice in vpn hardening") == [
        ("get_tasks", {"project_id": "VPN gateway hardening", "assignee_id": "alice"})
    ]
    assert _planned("get_tasks", "bob's work in phishing awareness") == [
        ("get_tasks", {"project_id": "Phishing awareness", "assignee_id": "bob"})
    ]
    assert _planned("get_tasks", "show tasks in the vpn project") == [
        ("get_tasks", {"project_id": "VPN gateway hardening"})
    ]


def test_a_record_a_doc_or_an_advisory_is_a_document_not_a_task() -> None:
    check_point = "CVE-2024-24919: Check Point Quantum Gateway information disclosure"
    assert _calls("open the Check Point record") == [
        ("get_document_details", {"document_id": check_point})
    ]
    assert _calls("pull up the citrix record") == [
        (
            "get_document_details",
            {"document_id": "CVE-2023-4966: Citrix NetScaler session hijacking"},
        )
    ]
    assert _calls("show me the T1133 record") == [
        ("get_document_details", {"document_id": "T1133: External Remote Services"})
    ]
    # A document's comments are in its details, though a task shares some of its words.
    assert _calls("any comments on the checkpoint quantum gateway vuln doc?") == [
        ("get_document_details", {"document_id": check_point})
    ]
    assert _calls("any comments on the citrix netscaler advisory?") == [
        (
            "get_document_details",
            {"document_id": "CVE-2023-4966: Citrix NetScaler session hijacking"},
        )
    ]
    # A task's words said whole stay the task's.
    assert _calls("any notes on the drill task?") == [
        ("get_task_details", {"task_id": "Schedule the phishing drill"})
    ]


def test_that_record_with_no_document_in_view_is_asked() -> None:
    assert "document" in _asked("pull up that record")
    assert "document" in _asked("open this doc")


def test_that_record_after_circumstances_naming_its_id_is_that_document() -> None:
    said = "I need to brief the CISO on the Check Point bug (CVE-2024-24919)."
    told = told_first(Request(said, "Pull up that record"), _Plan.of)
    check_point = "CVE-2024-24919: Check Point Quantum Gateway information disclosure"
    assert told.calls() == [("get_document_details", {"document_id": check_point})]
    told = told_first(Request("Red team used T1133 on us last night.", "open that one"), _Plan.of)
    assert told.calls() == [
        ("get_document_details", {"document_id": "T1133: External Remote Services"})
    ]
    # Two ids told: which one is meant stays asked.
    said = "CVE-2023-4966 and CVE-2024-24919 both landed today."
    assert told_first(Request(said, "open that record"), _Plan.of).calls() == []


def test_a_task_named_by_what_it_is_about_wins_over_a_project_sharing_a_word() -> None:
    assert _calls("details of the vpn login hunt") == [
        ("get_task_details", {"task_id": "Hunt for unusual VPN logins"})
    ]
    assert _calls("what's the status of the token review") == [
        ("get_task_details", {"task_id": "Review NetScaler session tokens"})
    ]
    assert _calls("details of the vpn project") == [
        ("get_project_details", {"project_id": "VPN gateway hardening"})
    ]
    assert _calls("status of the vpn gateway work") == [
        ("get_project_details", {"project_id": "VPN gateway hardening"})
    ]


def _after(reply: str, text: str, said: str = "earlier") -> list[tuple[str, dict[str, Any]]]:
    history = [Message("user", said), Message("assistant", reply)]
    stages = _rules().plan(text, history, SYSTEM)
    assert stages is not None, text
    calls = stages[0](None)
    assert isinstance(calls, list), (text, calls)
    return [(c.name, dict(c.arguments)) for c in calls]


_DOCUMENT_SHOWN = (
    'CVE-2024-24919: Check Point Quantum Gateway information disclosure [CVE-2024-24919]: "..." '
    "[passage:document:9312aebd-b2b9-4ee0-a662-3bbfebaf42ca]"
)
_TASK_SHOWN = (
    "Write the incident runbook (in progress, medium priority) "
    "[task:9e736ab0-a1ee-4920-8104-5eef8506a06a]"
)
_COMMENT_PROPOSED = (
    "I have prepared this change for your approval (nothing has changed yet):\n"
    "1. Comment on the task 'Write the incident runbook' [action f8cf] task_id: null -> "
    '"9e73"; author: null -> "alice"; text: null -> "Legal reviewed section 3."'
)
_LISTING = (
    "2 tasks:\n"
    "1. Patch the Check Point gateways (todo, high priority, assigned to bob, due 2026-11-26) "
    "[task:f17bd34c-548a-4dc4-bec0-676ae7f32761]\n"
    "2. Hunt for unusual VPN logins (todo, low priority) "
    "[task:fbeb4641-8a05-4561-a160-fd8c102cb5b4]"
)


def test_another_object_after_a_look_up_looks_that_one_up() -> None:
    citrix = "CVE-2023-4966: Citrix NetScaler session hijacking"
    assert _after(_DOCUMENT_SHOWN, "and the citrix one?") == [
        ("get_document_details", {"document_id": citrix})
    ]
    # the rule policy drops a leading "and": the object alone, with "one" or "?", is enough
    assert _after(_DOCUMENT_SHOWN, "the citrix one?") == [
        ("get_document_details", {"document_id": citrix})
    ]
    assert _after(_DOCUMENT_SHOWN, "what about T1190?") == [
        ("get_document_details", {"document_id": "T1190: Exploit Public-Facing Application"})
    ]
    assert _after(_TASK_SHOWN, "and the drill?") == [
        ("get_task_details", {"task_id": "Schedule the phishing drill"})
    ]


def test_the_same_comment_on_another_task_writes_it_there() -> None:
    said = "add a comment to the runbook: legal reviewed section 3"
    expected = [
        (
            "add_comment",
            {"task_id": "Review NetScaler session tokens", "content": "Legal reviewed section 3."},
        )
    ]
    assert (
        _after(_COMMENT_PROPOSED, "put the same comment on the netscaler review", said) == expected
    )
    assert _after(_COMMENT_PROPOSED, "same note for the token review please", said) == expected
    assert _after(_COMMENT_PROPOSED, "same for the drill", said) == [
        (
            "add_comment",
            {"task_id": "Schedule the phishing drill", "content": "Legal reviewed section 3."},
        )
    ]


def test_a_task_picked_by_a_property_a_listing_showed() -> None:
    hunt = "Hunt for unusual VPN logins"
    assert _after(_LISTING, "assign the low priority one to bob") == [
        ("assign_task", {"task_id": hunt, "assignee_id": "bob"})
    ]
    assert _after(_LISTING, "mark bob's one done") == [
        ("complete_task", {"task_id": "Patch the Check Point gateways"})
    ]
    assert _after(_LISTING, "make the high priority task urgent") == [
        ("update_task", {"task_id": "Patch the Check Point gateways", "priority": "urgent"})
    ]
    # A property both listed tasks have is asked about.
    stages = _rules().plan("close the todo one", [Message("assistant", _LISTING)], SYSTEM)
    assert stages is not None
    asked = stages[0](None)
    assert isinstance(asked, AIResponse) and "Which task" in asked.text
