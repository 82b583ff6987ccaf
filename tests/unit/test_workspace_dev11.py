"""Workspace phrasings of pool-v11 the rules missed, one mechanism per test, in fresh words.

A request told after its circumstances; a blocker asked with no words of its own after the
statement that is them; an assignee followed by "instead"; a due date set on the task in
view; "this one" on a task's page; documents called by their title's words and "document";
a month and day just gone; capabilities asked by an example; a tracker's "board". Then: a
change taken back; "n" typed for "and"; the person said before the task, and a priority word
that is nobody; "a new one" after a part about a task; "the task" with none in view.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.llm.workspace_rules import WorkspaceRules
from lectern.adapters.understanding.request_sentence import request_after_circumstances
from lectern.adapters.understanding.slots import due_clause
from lectern.adapters.understanding.workspace_changed_mind import changed_mind
from lectern.adapters.understanding.workspace_documents import said_document
from lectern.adapters.understanding.workspace_shorthand import spelt_out
from lectern.domain.assistant import AIResponse, Message, ToolCall, ToolSpec
from tests.unit.test_workspace_phrasings import SYSTEM, _asked, _calls, _on_page

NOV_27 = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
TOOLS = [
    ToolSpec(name, name, {"type": "object"})
    for name in (
        "get_projects",
        "get_tasks",
        "get_task_details",
        "get_document_details",
        "assign_task",
        "update_task",
        "create_task",
        "create_blocker",
        "add_comment",
        "complete_task",
        "search_content",
    )
]


def _policy_calls(text: str, system: str = SYSTEM) -> list[tuple[str, dict[str, Any]]]:
    reply = RulePolicy().complete_with_tools([Message("user", text)], TOOLS, system=system)
    assert isinstance(reply, AIResponse)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def test_a_request_told_after_its_circumstances_is_read_from_its_sentence() -> None:
    said = request_after_circumstances(
        "The vendor moved the window again and nobody told us. Put 'Call the vendor' in "
        "vpn gateway hardening."
    )
    assert said is not None
    assert said.request == "Put 'Call the vendor' in vpn gateway hardening."
    # The telling sentence lends no title and no person to the request.
    assert _policy_calls(
        "Maya is off sick and the drill cannot wait. Just give the drill task to bob."
    ) == [("assign_task", {"task_id": "Schedule the phishing drill", "assignee_id": "bob"})]
    # A first sentence that asks, or one sentence, is read whole.
    assert request_after_circumstances("Close the drill. It went fine.") is None
    assert request_after_circumstances("Is the hunt done? Close it then.") is None
    assert request_after_circumstances("close the drill, it went fine") is None


def test_a_blocker_asked_with_no_words_of_its_own_keeps_the_statement_before() -> None:
    assert _calls("the runbook is stuck, legal has not answered yet. raise a blocker") == [
        (
            "create_blocker",
            {"task_id": "Write the incident runbook", "description": "Legal has not answered yet"},
        )
    ]


def test_words_after_the_assignee_say_when_not_who() -> None:
    assert _calls("hand the hunt task to bob for now") == [
        ("assign_task", {"task_id": "Hunt for unusual VPN logins", "assignee_id": "bob"})
    ]


def test_a_due_date_set_without_its_task_is_the_task_in_views() -> None:
    page = _on_page("task", "task-9", "Hunt for unusual VPN logins")
    [(tool, arguments)] = _calls("move the deadline to the 3rd of December", page)
    assert (tool, arguments["task_id"]) == ("update_task", "task-9")
    # A task named after the field is still that task.
    [(_, named)] = _calls("push the deadline for the runbook to friday", page)
    assert named["task_id"] == "Write the incident runbook"


def test_this_one_on_a_tasks_page_is_the_task_not_a_project() -> None:
    page = _on_page("task", "task-9", "Hunt for unusual VPN logins")
    assert _calls("what's the history of this one?", page) == [
        ("get_task_details", {"task_id": "task-9"})
    ]


def test_a_document_is_called_by_its_title_words_before_the_word_document() -> None:
    assert said_document("could I read the Exploit Public-Facing Application doc") == (
        "Exploit Public-Facing Application"
    )
    assert said_document("open this document") is None
    assert _calls("what does the External Remote Services doc recommend?") == [
        ("get_document_details", {"document_id": "T1133: External Remote Services"})
    ]
    # Whether a document has comments is in its details, not a search.
    assert _calls("any notes on the T1190 document?") == [
        ("get_document_details", {"document_id": "T1190: Exploit Public-Facing Application"})
    ]


def test_a_month_and_day_just_gone_are_this_years() -> None:
    assert due_clause("due October 30", NOV_27, moved=True)[0] == "2026-10-30"  # type: ignore[index]
    # Further back, the next one; a year said is kept.
    assert due_clause("due September 2", NOV_27, moved=True)[0] == "2027-09-02"  # type: ignore[index]
    assert due_clause("due November 2, 2027", NOV_27, moved=True)[0] == "2027-11-02"  # type: ignore[index]
    rules = WorkspaceRules(lambda tool, **a: ToolCall("t", tool, dict(a)), clock=lambda: NOV_27)
    stages = rules.plan("set the deadline of the drill to November 25", [], SYSTEM)
    assert stages is not None
    [call] = stages[0](None)  # type: ignore[misc]
    assert call.arguments["due_date"] == "2026-11-25"


def test_capabilities_asked_by_an_example_are_told() -> None:
    stages = WorkspaceRules(lambda tool, **a: ToolCall("t", tool, dict(a))).plan(
        "could you do things like close tasks and stuff", [], SYSTEM
    )
    assert stages is not None
    told = stages[0](None)
    assert isinstance(told, AIResponse)
    assert "approve" in told.text


def test_a_board_is_what_a_tracker_calls_a_project() -> None:
    assert _calls("which boards are there") == [("get_projects", {})]


def test_what_a_request_records_may_be_the_circumstances_told_before_it() -> None:
    tools = [*TOOLS, ToolSpec("resolve_blocker", "resolve_blocker", {"type": "object"})]
    reply = RulePolicy().complete_with_tools(
        [Message("user", "the vendor confirmed Saturday night. resolve the check point blocker")],
        tools,
        system=SYSTEM,
    )
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        (
            "resolve_blocker",
            {
                "blocker_id": "Waiting for the vendor maintenance window",
                "resolution": "The vendor confirmed Saturday night",
            },
        )
    ]
    # Never a new task's title.
    assert _policy_calls("We argued about it all day. Make a task out of it.") == []


def test_that_one_after_a_listing_of_several_tasks_is_asked() -> None:
    listing = (
        "3 tasks:\n1. Patch the Check Point gateways [task:11111111-1111-1111-1111-111111111111]\n"
        "2. Hunt for unusual VPN logins [task:22222222-2222-2222-2222-222222222222]\n"
        "3. Write the incident runbook [task:33333333-3333-3333-3333-333333333333]"
    )
    history = [Message("user", "list the vpn work"), Message("assistant", listing)]
    question = _asked("hand that one over to bob", history=history)
    assert "Which task" in question
    # One task shown: "that one" is it.
    shown = "Hunt for unusual VPN logins [task:22222222-2222-2222-2222-222222222222]"
    one = [Message("user", "the hunt task?"), Message("assistant", shown)]
    stages = WorkspaceRules(lambda tool, **a: ToolCall("t", tool, a)).plan(
        "hand that one over to bob", one, SYSTEM
    )
    assert stages is not None
    call = stages[0](None)
    assert call[0].arguments["task_id"] == "22222222-2222-2222-2222-222222222222"


RUNBOOK_ID = "44444444-4444-4444-4444-444444444444"


def test_a_change_taken_back_is_never_proposed_and_it_keeps_its_task() -> None:
    page = _on_page("task", RUNBOOK_ID, "Write the incident runbook")
    # The assignment is taken back; "it" after is the task "this one" pointed at.
    assert _policy_calls(
        "hand this one to alice, no wait, keep the assignee and just mark it in progress", page
    ) == [("update_task", {"task_id": RUNBOOK_ID, "status": "in_progress"})]
    # A task named in the part taken back is what "it" means in the part kept.
    assert _policy_calls("move the hunt to low priority, on second thought, close it instead") == [
        ("complete_task", {"task_id": "Hunt for unusual VPN logins"})
    ]
    drill = ["Schedule the phishing drill"]
    assert changed_mind("assign the drill task to bob, scratch that, set it to medium", drill) == (
        "set Schedule the phishing drill to medium"
    )
    # No take-back, or nothing for "it" to mean: the message as it is.
    assert changed_mind("give the drill to bob and set it to high", ()) == (
        "give the drill to bob and set it to high"
    )
    assert changed_mind("add Dune to Summer, wait, give it 4 stars", ()) == (
        "add Dune to Summer, wait, give it 4 stars"
    )


def test_n_typed_for_and_joins_a_second_request() -> None:
    assert spelt_out("finish the patching n add a note saying the reboot went fine") == (
        "finish the patching and add a note saying the reboot went fine"
    )
    assert _calls("close the hunt n comment that nothing turned up") == [
        ("complete_task", {"task_id": "Hunt for unusual VPN logins"}),
        (
            "add_comment",
            {"task_id": "Hunt for unusual VPN logins", "content": "Nothing turned up."},
        ),
    ]
    # A letter n inside words or names is left alone.
    assert spelt_out("rename it to 'Plan n review'") == "rename it to 'Plan n review'"


def test_a_person_said_before_the_task_and_a_priority_word_is_never_an_assignee() -> None:
    assert _calls("assign to bob the netscaler review") == [
        ("assign_task", {"task_id": "Review NetScaler session tokens", "assignee_id": "bob"})
    ]
    assert _calls("assign to me the runbook and also bump the priority of it to urgent") == [
        ("assign_task", {"task_id": "Write the incident runbook", "assignee_id": "alice"}),
        ("update_task", {"task_id": "Write the incident runbook", "priority": "urgent"}),
    ]
    assert all(c[0] != "assign_task" for c in _policy_calls("hand the drill task to medium"))


def test_a_new_one_after_a_part_about_a_task_is_a_new_task() -> None:
    assert _calls(
        "finish the hunt, then create another one in vpn gateway hardening called 'Hunt again'"
    ) == [
        ("complete_task", {"task_id": "Hunt for unusual VPN logins"}),
        ("create_task", {"project_id": "VPN gateway hardening", "title": "Hunt again"}),
    ]


def test_the_task_with_none_in_view_is_asked_which() -> None:
    assert "Which task" in _asked("give me an update on the task")
    page = _on_page("task", RUNBOOK_ID, "Write the incident runbook")
    assert _calls("give me an update on the task", page) == [
        ("get_task_details", {"task_id": RUNBOOK_ID})
    ]


def test_a_board_of_people_is_no_project() -> None:
    from lectern.adapters.understanding.workspace_shorthand import spelt_out

    assert spelt_out("list the boards") == "list the projects"
    assert "change board" in spelt_out("the change board signed it off")
    assert "review board" in spelt_out("waiting on the review board")
