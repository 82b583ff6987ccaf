"""Workspace constructs from dev13: a new task's title announced ("the title is 'X'") and a
wish that frames the request; a message asking for a new task never read as a change to an
old one; a comment run on after its task's name, or said with "remark"; a blocker said short
("<task> blocked, <why>") or of a project the reader is stuck on; a change asked as whether
the task can be it; a change restated after a dash; "the other att&ck one"; a project's
summary asked with its task counts; "same for X" after a change; questions about the task in
view; the reader's work across every project; "anything written anywhere about X"; a
project's documents named before the kind; "his tasks" after someone's.
"""

from __future__ import annotations

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.workspace_frames import unframed_change
from lectern.adapters.understanding.workspace_plan import plan_workspace
from lectern.domain.assistant import AIResponse, Message
from tests.unit.test_workspace_phrasings import (
    NAMES,
    NOWHERE,
    SYSTEM,
    _call,
    _calls,
    _on_page,
    _rules,
)

VPN = "VPN gateway hardening"


def _reply(text: str, history: list[Message]) -> list[tuple[str, dict[str, object]]] | str:
    stages = _rules().plan(text, history, SYSTEM)
    assert stages is not None, text
    first = stages[0](None)
    if isinstance(first, AIResponse):
        return first.text
    return [(c.name, dict(c.arguments)) for c in first]


def test_a_new_tasks_title_announced_after_its_place_is_the_title() -> None:
    assert _calls(
        "I would like to add task in VPN project, the title is 'Update the VPN client', "
        "assign to alice"
    ) == [
        (
            "create_task",
            {"project_id": VPN, "title": "Update the VPN client", "assignee_id": "alice"},
        )
    ]
    assert _calls(
        "Hi, is it possible to add a new task to the VPN gateway hardening project? It should "
        'be called "Test the failover gateway".'
    ) == [("create_task", {"project_id": VPN, "title": "Test the failover gateway"})]
    assert _calls(
        "we'd like to add a task to phishing awareness, its name should be 'Book it'"
    ) == [("create_task", {"project_id": "Phishing awareness", "title": "Book it"})]
    assert _calls("add a task in the vpn project, title: Rotate the certificates") == [
        ("create_task", {"project_id": VPN, "title": "Rotate the certificates"})
    ]
    assert _calls("add task to phishing awareness, it should be called Book the room") == [
        ("create_task", {"project_id": "Phishing awareness", "title": "Book the room"})
    ]
    # A title that only begins like an announcement, or holds one inside its quotes, is kept.
    [(_, arguments)] = _calls("create a task in vpn project: the title is wrong on the portal")
    assert arguments["title"] == "The title is wrong on the portal"
    [(_, arguments)] = _calls("add a task to the vpn project called 'Check the title: it is ok'")
    assert arguments["title"] == "Check the title: it is ok"


def test_a_wish_for_a_change_frames_it() -> None:
    assert unframed_change("I would like to close the runbook") == "close the runbook"
    assert unframed_change("we'd like to add a task") == "add a task"
    assert unframed_change("i want to assign the drill to bob") == "assign the drill to bob"
    # A wish to know something is no change.
    assert unframed_change("I would like to know who is on the drill") == (
        "I would like to know who is on the drill"
    )


def test_a_new_task_asked_for_is_never_a_change_to_a_stored_one() -> None:
    for intent, text in (
        ("assign_task", "add task in VPN project, the title is 'Update the client', assign alice"),
        ("complete_task", "create a new task for the vpn logins, done already"),
        ("update_task", "make a task in the vpn project, high priority"),
    ):
        planned = plan_workspace(intent, text, NAMES, NOWHERE, _call)
        assert isinstance(planned, Clarification), (intent, text, planned)
    # A stored task changed is not asked about.
    planned = plan_workspace(
        "assign_task", "assign the vpn logins hunt to alice", NAMES, NOWHERE, _call
    )
    assert not isinstance(planned, Clarification)


def test_a_comment_run_on_after_its_tasks_name_is_that_tasks_comment() -> None:
    assert _calls("comment on the check point patch two of four gateways done") == [
        (
            "add_comment",
            {"task_id": "Patch the Check Point gateways", "content": "Two of four gateways done."},
        )
    ]
    assert _calls("comment on the runbook draft is in the shared drive") == [
        (
            "add_comment",
            {"task_id": "Write the incident runbook", "content": "Draft is in the shared drive."},
        )
    ]
    assert _calls("note on the drill task templates approved") == [
        (
            "add_comment",
            {"task_id": "Schedule the phishing drill", "content": "Templates approved."},
        )
    ]
    # Nothing after the name, or a second request after it, is no run-on comment.
    for text in ("comment on the runbook", "comment on the runbook and close it now please"):
        stages = _rules().plan(text, [], SYSTEM)
        first = stages[0](None) if stages else None
        assert not (isinstance(first, list) and first and first[0].name == "add_comment"), text


def test_a_remark_is_a_comment() -> None:
    assert _calls("remark on the phishing drill task: use the new templates") == [
        (
            "add_comment",
            {"task_id": "Schedule the phishing drill", "content": "Use the new templates."},
        )
    ]
    assert _calls("add a remark to the runbook: draft in the shared drive") == [
        (
            "add_comment",
            {"task_id": "Write the incident runbook", "content": "Draft in the shared drive."},
        )
    ]


def test_a_blocker_said_short_or_of_a_project_one_is_stuck_on() -> None:
    [(tool, arguments)] = _calls("netscaler review blocked, waiting on citrix support ticket")
    assert (tool, arguments["task_id"]) == ("create_blocker", "Review NetScaler session tokens")
    assert "citrix support" in arguments["description"]
    assert _calls("runbook stuck - waiting for the template from legal") == [
        (
            "create_blocker",
            {
                "task_id": "Write the incident runbook",
                "description": "Waiting for the template from legal",
            },
        )
    ]
    assert _calls(
        "we're stuck on vpn gateway hardening, the firewall team is on leave. can you log that "
        "as a blocker"
    ) == [("create_blocker", {"project_id": VPN, "description": "The firewall team is on leave"})]
    assert _calls(
        "we are blocked on phishing awareness, the print shop is closed. record that as a blocker"
    ) == [
        (
            "create_blocker",
            {"project_id": "Phishing awareness", "description": "The print shop is closed"},
        )
    ]
    # Stuck on a task (its name, not the project's), the task is what is held up.
    [(_, arguments)] = _calls(
        "we're stuck on the phishing drill, the print shop is closed. log that as a blocker"
    )
    assert arguments["task_id"] == "Schedule the phishing drill"


def test_a_change_asked_as_whether_the_task_can_be_it() -> None:
    assert _calls("can the vpn logins hunt be due on 2026-11-30 please") == [
        ("update_task", {"task_id": "Hunt for unusual VPN logins", "due_date": "2026-11-30"})
    ]
    assert _calls("could the drill be high priority?") == [
        ("update_task", {"task_id": "Schedule the phishing drill", "priority": "high"})
    ]
    assert _calls("can the runbook be moved to in progress") == [
        ("update_task", {"task_id": "Write the incident runbook", "status": "in_progress"})
    ]
    # Whether something can be done by a day is a question, not this frame.
    assert unframed_change("can the drill be done by friday?") == "can the drill be done by friday?"


def test_a_change_restated_after_a_dash_is_made_once() -> None:
    hunt = ("update_task", {"task_id": "Hunt for unusual VPN logins", "status": "in_progress"})
    assert _calls("start the hunt task - put it in progress") == [hunt]
    assert _calls("close the drill - mark it done") == [
        ("complete_task", {"task_id": "Schedule the phishing drill"})
    ]
    # A dash inside a comment's words stays in the comment.
    [(tool, arguments)] = _calls("add a comment to the runbook: draft done - mark it later")
    assert (tool, arguments["content"]) == ("add_comment", "Draft done - mark it later.")


def test_the_other_one_of_a_family_after_a_look_up() -> None:
    shown = [
        Message("user", "open the T1133 doc"),
        Message(
            "assistant",
            'T1133: External Remote Services [T1133]: "External Remote Services ..." '
            "[passage:document:265ac502-62ac-4e62-a593-4452a51eed8f]",
        ),
    ]
    other = [("get_document_details", {"document_id": "T1190: Exploit Public-Facing Application"})]
    assert _reply("and the other att&ck one", shown) == other
    assert _reply("and the other one?", shown) == other
    assert _reply("what about the other technique?", shown) == other
    # Two CVEs are linked: "the other CVE" is no one document, and left to the other rules.
    assert _rules().plan("what about the other CVE", shown, SYSTEM) is None
    project = [
        Message("assistant", f"Project {VPN} [project:265ac502-62ac-4e62-a593-4452a51eed8f]")
    ]
    assert _reply("and the other project?", project) == [
        ("get_project_details", {"project_id": "Phishing awareness"})
    ]


def test_a_projects_summary_asked_with_its_task_counts_is_its_details() -> None:
    details = [("get_project_details", {"project_id": VPN})]
    assert (
        _calls(
            "Could you please give me a summary of the VPN gateway hardening project, including "
            "how many tasks are done?"
        )
        == details
    )
    assert _calls("Can you show me the description of the VPN project and its task counts?") == (
        details
    )
    assert _calls("give me an overview of the phishing project with the number of tasks") == [
        ("get_project_details", {"project_id": "Phishing awareness"})
    ]
    # A task's summary stays the task's.
    assert _calls("give me a summary of the runbook task") == [
        ("get_task_details", {"task_id": "Write the incident runbook"})
    ]


def _proposal(line: str) -> list[Message]:
    return [
        Message("user", "mark the runbook done"),
        Message(
            "assistant",
            f"I have prepared this change for your approval (nothing has changed yet):\n1. {line}",
        ),
    ]


def test_same_for_another_task_repeats_the_last_turns_change() -> None:
    completed = _proposal(
        "Complete the task 'Write the incident runbook' [action a-1] "
        'status: "in_progress" -> "done"'
    )
    assert _reply("same for the drill", completed) == [
        ("complete_task", {"task_id": "Schedule the phishing drill"})
    ]
    assert _reply("do the same for the hunt please", completed) == [
        ("complete_task", {"task_id": "Hunt for unusual VPN logins"})
    ]
    updated = _proposal(
        "Update the task 'Write the incident runbook' [action a-1] "
        'priority: "medium" -> "high"; due_date: null -> "2026-11-20"'
    )
    assert _reply("same for the drill", updated) == [
        (
            "update_task",
            {
                "task_id": "Schedule the phishing drill",
                "priority": "high",
                "due_date": "2026-11-20",
            },
        )
    ]
    assigned = _proposal(
        "Assign the task 'Write the incident runbook' [action a-1] assignee: null -> \"bob\""
    )
    assert _reply("same for the hunt too", assigned) == [
        ("assign_task", {"task_id": "Hunt for unusual VPN logins", "assignee_id": "bob"})
    ]
    # A new title is the task's own: not repeated on another task.
    renamed = _proposal(
        "Update the task 'Write the incident runbook' [action a-1] "
        'title: "Write the incident runbook" -> "Runbook v2"'
    )
    assert _rules().plan("same for the drill", renamed, SYSTEM) is None or _reply(
        "same for the drill", renamed
    ) != [("update_task", {"task_id": "Schedule the phishing drill", "title": "Runbook v2"})]


def test_questions_about_the_task_in_view_open_its_details() -> None:
    page = _on_page("task", "task-7", "Review NetScaler session tokens")
    details = [("get_task_details", {"task_id": "task-7"})]
    for text in (
        "who is this assigned to, and are there comments?",
        "who owns this, and what's its priority?",
        "when is it due and who has it",
    ):
        assert _calls(text, page) == details, text
    # A change asked beside it, or a question about the team, is not one.
    assert _calls("who is on the team?", page) != details
    stages = _rules().plan("who is this assigned to and can you close it", [], page)
    assert stages is None or stages[0](None) != details


def test_the_readers_work_across_every_project_is_the_summary() -> None:
    summary = [("get_attention_summary", {})]
    assert _calls("what is assigned to me across all projects") == summary
    assert _calls("show my tasks in every project") == summary
    assert _calls("what's on me across all of the projects?") == summary
    assert _calls("list all projects") == [("get_projects", {})]


def test_anything_written_anywhere_about_words_is_a_search() -> None:
    assert _calls("anything written anywhere about vpn logs?") == [
        ("search_content", {"query": "vpn logs"})
    ]
    assert _calls("anything anywhere about session tokens") == [
        ("search_content", {"query": "session tokens"})
    ]
    assert _calls("is there anything noted somewhere about the firewall team?") == [
        ("search_content", {"query": "firewall team"})
    ]


def test_a_projects_documents_named_before_the_kind_and_a_second_look_up() -> None:
    listed = ("get_documents", {"project_id": VPN})
    assert _calls("list the vpn docs") == [listed]
    assert _calls("list the vpn docs and open the check point one") == [
        listed,
        (
            "get_document_details",
            {"document_id": "CVE-2024-24919: Check Point Quantum Gateway information disclosure"},
        ),
    ]
    assert _rules().plan("list the docs", [], SYSTEM) is None


def test_his_tasks_after_someones_are_that_persons() -> None:
    assert _calls("show me bob's tasks in vpn and his tasks in phishing") == [
        ("get_tasks", {"project_id": VPN, "assignee_id": "bob"}),
        ("get_tasks", {"project_id": "Phishing awareness", "assignee_id": "bob"}),
    ]
    assert _calls("list alice's tasks in phishing, then her tasks in vpn") == [
        ("get_tasks", {"project_id": "Phishing awareness", "assignee_id": "alice"}),
        ("get_tasks", {"project_id": VPN, "assignee_id": "alice"}),
    ]
    # "the tasks" after them are everyone's.
    assert _calls("show me bob's tasks in vpn and the tasks in phishing")[1] == (
        "get_tasks",
        {"project_id": "Phishing awareness"},
    )
