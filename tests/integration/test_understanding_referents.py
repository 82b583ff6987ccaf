"""What the workspace request names decides its reading (rule policy + the layer + MiniLM).

Each test is one mechanism, phrased fresh (none is a sentence of the understanding sets):
a stored name decides whether a reference is a task or a project, a project named where a
task is meant is asked back, and a dismissal changes nothing and asks nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.mentions import Names
from lectern.adapters.understanding.off_topic import OFF_TOPIC
from lectern.adapters.understanding.ruled_out import ruled_out as _ruled_out
from lectern.adapters.understanding.workspace_patterns import CREATE_TASK
from lectern.adapters.understanding.workspace_plan import _title
from lectern.domain.assistant import PageContext
from tests.workspace_world import WorkspaceWorld, conversation_worlds


@pytest.fixture
def workspace(tmp_path: Path, layer: Understanding) -> WorkspaceWorld:
    return conversation_worlds(tmp_path, RulePolicy(layer=layer))()


def _names(reply: object) -> list[str]:
    return [c.name for c in reply.tool_calls]  # type: ignore[attr-defined]


def test_a_project_shaped_reference_to_a_stored_task_opens_the_task(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "give me the progress of the netscaler token review")
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("get_task_details", {"task_id": "Review NetScaler session tokens"})
    ]


def test_one_stored_task_named_with_the_word_task_is_its_details(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "show me the incident runbook task")
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("get_task_details", {"task_id": "Write the incident runbook"})
    ]
    every = workspace.assistant.chat("alice", "list all the task items in the VPN project")
    assert _names(every) == ["get_tasks"]


def test_a_project_named_where_a_task_is_meant_is_asked_back(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "mark the VPN gateway task as done")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text and reply.suggestions


def test_open_tasks_is_not_a_new_task() -> None:
    assert CREATE_TASK.match("open tasks in the VPN gateway hardening project") is None
    assert CREATE_TASK.match("open a task to rotate the keys") is not None


def test_an_identifier_with_hyphens_is_not_arithmetic() -> None:
    assert OFF_TOPIC.search("anything about CVE-2023-4966?") is None
    assert OFF_TOPIC.search("what is 12-4?") is not None


def test_what_a_named_document_says_opens_that_document(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "what does the rollout plan say about rollback?")
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls][:1] == [
        ("get_document_details", {"document_id": "rollout plan"})
    ]
    task = workspace.assistant.chat("alice", "what does the runbook task say?")
    assert "get_document_details" not in _names(task)


@pytest.mark.parametrize("said", ["nah forget it", "never mind, leave it"])
def test_a_dismissal_changes_nothing_and_asks_nothing(workspace: WorkspaceWorld, said: str) -> None:
    reply = workspace.assistant.chat("alice", said)
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" not in reply.text and not reply.suggestions


def test_a_task_spoken_of_as_new_rules_out_changing_a_stored_one() -> None:
    gone = _ruled_out("we should have a task for printing posters, assign it to bob", Names())
    assert {"assign_task", "complete_task", "update_task", "add_comment"} <= gone
    assert "assign_task" not in _ruled_out("assign the poster task to bob", Names())


def test_a_new_tasks_title_stands_after_its_clearest_marker() -> None:
    assert _title("add a low task to the audit project: Archive old tickets") == (
        "Archive old tickets"
    )
    assert _title("open a task to rotate the keys") == "Rotate the keys"


def test_spoken_sums_and_verses_are_off_topic() -> None:
    assert OFF_TOPIC.search("what is 6 times 7") is not None
    assert OFF_TOPIC.search("write me a limerick about dogs") is not None


def test_a_task_pencilled_in_with_its_purpose_is_proposed_in_its_project(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat(
        "alice", "could you pencil in a task on the VPN project to rotate the certs, give it to bob"
    )
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        (
            "create_task",
            {
                "title": "Rotate the certs",
                "project_id": "VPN gateway hardening",
                "assignee_id": "bob",
            },
        )
    ]
    assert [a.preview.tool_name for a in reply.actions] == ["create_task"]


@pytest.mark.parametrize(
    "said", ["ugh the vpn thing is stuck, whats blocking it", "why is the check point patch stuck"]
)
def test_asking_what_holds_something_up_lists_its_blockers(
    workspace: WorkspaceWorld, said: str
) -> None:
    reply = workspace.assistant.chat("alice", said)
    assert _names(reply) == ["get_blockers"] and reply.actions == ()
    assert "vendor maintenance window" in reply.text


def test_which_tasks_are_overdue_tells_the_overdue_ones_only(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "which tasks are overdue?")
    assert _names(reply) == ["get_attention_summary"]
    assert reply.text.startswith("Overdue (1):")
    assert "Blocked" not in reply.text and "In review" not in reply.text


def _calls(reply: object) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]  # type: ignore[attr-defined]


def test_unblocking_a_task_resolves_the_blocker_that_holds_it_up(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat(
        "alice", "unblock the checkpoint gateways task, the vendor gave us Sunday night"
    )
    assert _calls(reply) == [
        (
            "resolve_blocker",
            {
                "blocker_id": "Waiting for the vendor maintenance window",
                "resolution": "The vendor gave us Sunday night",
            },
        )
    ]


def test_a_stuck_task_with_its_reason_records_a_blocker_and_a_question_records_none(
    workspace: WorkspaceWorld,
) -> None:
    stuck = workspace.assistant.chat("alice", "the runbook is stuck: nobody has the wiki login")
    assert _calls(stuck) == [
        (
            "create_blocker",
            {"task_id": "Write the incident runbook", "description": "Nobody has the wiki login"},
        )
    ]
    asked = workspace.assistant.chat("alice", "the runbook is stuck, why is that")
    assert "create_blocker" not in _names(asked)


def test_a_request_led_by_its_project_puts_the_new_task_there(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat(
        "alice", "phishing project: new task 'Print the awareness posters' for me"
    )
    assert _calls(reply) == [
        (
            "create_task",
            {
                "project_id": "Phishing awareness",
                "title": "Print the awareness posters",
                "assignee_id": "alice",
            },
        )
    ]


def test_the_second_change_may_borrow_the_first_ones_verb(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat(
        "alice", "hand the phishing drill to alice and the netscaler review to bob as well"
    )
    assert _calls(reply) == [
        ("assign_task", {"task_id": "Schedule the phishing drill", "assignee_id": "alice"}),
        ("assign_task", {"task_id": "Review NetScaler session tokens", "assignee_id": "bob"}),
    ]


def test_two_questions_get_both_answers(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "show the blockers and list the team")
    assert _names(reply) == ["get_blockers", "get_team_members"]
    assert "maintenance window" in reply.text and "bob" in reply.text


def test_a_priority_and_a_date_set_together_are_one_change(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "bump the runbook to high, due 2026-12-01")
    assert _calls(reply) == [
        (
            "update_task",
            {"task_id": "Write the incident runbook", "priority": "high", "due_date": "2026-12-01"},
        )
    ]


def test_a_search_in_the_workspaces_words_searches_the_workspace(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "where did we discuss the session tokens")
    assert _calls(reply)[0][0] == "search_content"
    named = workspace.assistant.chat("alice", "search the phishing project for posters")
    assert _calls(named) == [
        ("search_content", {"query": "posters", "project_id": "Phishing awareness"})
    ]


def test_a_second_request_no_rule_reads_is_asked_about_not_dropped(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat(
        "alice", "complete the phishing drill and then ping vera about the posters somehow"
    )
    assert reply.tool_calls == () and reply.actions == ()
    assert "ping vera" in reply.text


def test_a_question_then_a_change_on_its_task_does_both(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "pull up the runbook task, then give it to bob")
    assert _calls(reply) == [
        ("get_task_details", {"task_id": "Write the incident runbook"}),
        ("assign_task", {"task_id": "Write the incident runbook", "assignee_id": "bob"}),
    ]


def test_taking_a_task_assigns_it_to_the_reader_and_too_ends_the_second_part(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "I'll grab the phishing drill, mark it urgent too")
    assert _calls(reply) == [
        ("assign_task", {"task_id": "Schedule the phishing drill", "assignee_id": "alice"}),
        ("update_task", {"task_id": "Schedule the phishing drill", "priority": "urgent"}),
    ]


def test_a_due_date_without_a_day_is_asked_for_and_a_resolution_without_a_reason_too(
    workspace: WorkspaceWorld,
) -> None:
    vague = workspace.assistant.chat("alice", "make the runbook due at some point")
    assert vague.tool_calls == () and "When should it be due" in vague.text
    bare = workspace.assistant.chat("alice", "please clear the blocker")
    assert bare.tool_calls == () and bare.actions == ()


def test_a_deadline_shifted_and_a_priority_bumped_are_both_proposed(
    workspace: WorkspaceWorld,
) -> None:
    said = "change the drill deadline to the 28th and make it low"
    reply = workspace.assistant.chat("alice", said)
    assert [c.name for c in reply.tool_calls] == ["update_task", "update_task"]
    assert {k for c in reply.tool_calls for k in c.arguments} >= {"due_date", "priority"}


def test_blockers_of_a_project_named_without_the_word_project(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "anything blocking phishing awareness?")
    assert _calls(reply) == [("get_blockers", {"project_id": "Phishing awareness"})]


def test_telling_the_people_on_a_task_something_is_a_comment(workspace: WorkspaceWorld) -> None:
    said = "let the team on the runbook task know that the draft is up for review"
    reply = workspace.assistant.chat("alice", said)
    assert _calls(reply) == [
        (
            "add_comment",
            {"task_id": "Write the incident runbook", "content": "The draft is up for review."},
        )
    ]
    said = "let the folks on the runbook task know it slipped a week"
    bare = workspace.assistant.chat("alice", said)
    assert [c.name for c in bare.tool_calls] == ["add_comment"]
    assert "slipped a week" in bare.tool_calls[0].arguments["content"]


def test_a_terse_report_of_a_task_done_then_a_word_to_the_team_is_two_changes(
    workspace: WorkspaceWorld,
) -> None:
    said = "phishing drill done, tell everyone on it that the invites went out"
    reply = workspace.assistant.chat("alice", said)
    assert [c.name for c in reply.tool_calls] == ["complete_task", "add_comment"]
    assert reply.tool_calls[0].arguments["task_id"] == "Schedule the phishing drill"
    # A terse "done" of no stored task proposes nothing.
    thanks = workspace.assistant.chat("alice", "cool, all done")
    assert "complete_task" not in [c.name for c in thanks.tool_calls]


def test_a_new_task_the_reader_says_they_will_own_is_theirs(workspace: WorkspaceWorld) -> None:
    said = "we need a task to rotate the VPN certificates in the VPN project, urgent, I'll take it"
    reply = workspace.assistant.chat("alice", said)
    assert [c.name for c in reply.tool_calls] == ["create_task"]
    arguments = reply.tool_calls[0].arguments
    assert arguments["assignee_id"] == "alice"
    assert "take" not in arguments["title"].casefold()


def test_taking_a_task_over_from_someone_assigns_it_to_the_reader(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "I'm taking over the runbook from bob")
    assert _calls(reply) == [
        ("assign_task", {"task_id": "Write the incident runbook", "assignee_id": "alice"})
    ]


def test_a_project_named_among_other_words_is_still_that_project(
    workspace: WorkspaceWorld,
) -> None:
    said = "which blockers were lifted lately in the vpn project"
    reply = workspace.assistant.chat("alice", said)
    assert _calls(reply) == [
        ("get_blockers", {"project_id": "VPN gateway hardening", "status": "resolved"})
    ]
    team = workspace.assistant.chat("alice", "who are the members of vpn gateway hardening")
    assert _calls(team) == [("get_team_members", {"project_id": "VPN gateway hardening"})]


def test_a_priority_word_alone_and_the_field_named_first_both_set_the_priority(
    workspace: WorkspaceWorld,
) -> None:
    both = workspace.assistant.chat("alice", "hand the runbook to bob and set it urgent")
    assert [c.name for c in both.tool_calls] == ["assign_task", "update_task"]
    assert both.tool_calls[1].arguments["priority"] == "urgent"
    field_first = workspace.assistant.chat("alice", "raise the priority on the runbook to urgent")
    assert _calls(field_first) == [
        ("update_task", {"task_id": "Write the incident runbook", "priority": "urgent"})
    ]
    owned = workspace.assistant.chat("alice", "set the runbook's priority to low")
    assert _calls(owned) == [
        ("update_task", {"task_id": "Write the incident runbook", "priority": "low"})
    ]


def test_blockers_asked_for_as_unresolved_are_the_open_ones(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "show me the unresolved blockers")
    assert _calls(reply) == [("get_blockers", {"status": "open"})]


def test_what_resolved_a_blocker_may_be_said_in_a_sentence_of_its_own(
    workspace: WorkspaceWorld,
) -> None:
    said = "Please clear the vendor maintenance window blocker. The change board approved it."
    reply = workspace.assistant.chat("alice", said)
    assert [c.name for c in reply.tool_calls] == ["resolve_blocker"]
    assert "change board" in reply.tool_calls[0].arguments["resolution"]


def test_a_project_no_one_has_is_asked_about_not_guessed(workspace: WorkspaceWorld) -> None:
    said = "how is the work going on the Marketing Launch project?"
    reply = workspace.assistant.chat("alice", said)
    assert reply.tool_calls == () and reply.actions == ()
    assert "Marketing Launch" in reply.text and "?" in reply.text
    known = workspace.assistant.chat("alice", "how is the work going on the VPN project?")
    assert known.tool_calls != ()


def _calls(reply: object) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]  # type: ignore[attr-defined]


def test_a_part_no_pattern_knows_is_read_by_meaning_and_the_next_part_kept(
    workspace: WorkspaceWorld,
) -> None:
    # "put bob on ..." is no assignment shape of the patterns; "make it urgent" was dropped.
    reply = workspace.assistant.chat("alice", "stick bob on the vpn login hunt and make it urgent")
    assert _calls(reply) == [
        ("assign_task", {"task_id": "Hunt for unusual VPN logins", "assignee_id": "bob"}),
        ("update_task", {"task_id": "Hunt for unusual VPN logins", "priority": "urgent"}),
    ]
    pushed = workspace.assistant.chat(
        "alice", "hand the runbook over to bob, and push it back to friday"
    )
    assert [c[0] for c in _calls(pushed)] == ["assign_task", "update_task"]
    assert {c[1]["task_id"] for c in _calls(pushed)} == {"Write the incident runbook"}
    assert "due_date" in _calls(pushed)[1][1]


def test_a_joint_inside_a_quoted_title_is_not_a_second_request(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat(
        "alice", "create a task 'Review and close the firewall tickets' in the vpn project"
    )
    assert _calls(reply) == [
        (
            "create_task",
            {
                "project_id": "VPN gateway hardening",
                "title": "Review and close the firewall tickets",
            },
        )
    ]


def test_there_in_a_second_look_up_is_the_first_parts_project(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat(
        "alice", "list the blockers in the vpn project, then the tasks still todo there"
    )
    assert _calls(reply) == [
        ("get_blockers", {"project_id": "VPN gateway hardening"}),
        ("get_tasks", {"project_id": "VPN gateway hardening", "status": "todo"}),
    ]


@pytest.mark.parametrize(
    "said",
    [
        "remove the owner from the runbook",
        "take the runbook off everybody",
        "no one should have the runbook for the time being",
        "unassign the runbook for now",
    ],
)
def test_clearing_a_tasks_assignee_may_be_said_many_ways(
    workspace: WorkspaceWorld, said: str
) -> None:
    reply = workspace.assistant.chat("alice", said)
    assert _calls(reply) == [
        ("assign_task", {"task_id": "Write the incident runbook", "assignee_id": None})
    ]


def test_taking_a_task_off_one_person_and_handing_it_on_is_one_assignment(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat(
        "alice", "take bob off the check point patching, hand it to vera"
    )
    assert _calls(reply) == [
        ("assign_task", {"task_id": "Patch the Check Point gateways", "assignee_id": "vera"})
    ]


def test_one_change_said_twice_in_a_message_is_proposed_once(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "the runbook is finished, complete it")
    assert _calls(reply) == [("complete_task", {"task_id": "Write the incident runbook"})]


def test_an_assignment_to_the_reader_may_end_in_for_now(workspace: WorkspaceWorld) -> None:
    shown = workspace.assistant.chat("alice", "show me the hunt task")
    reply = workspace.assistant.chat(
        "alice", "hand it to me for now", conversation=shown.conversation
    )
    assert [(c.name, c.arguments["assignee_id"]) for c in reply.tool_calls] == [
        ("assign_task", "alice")
    ]


def test_one_person_told_something_on_a_task_is_a_comment_on_it(
    workspace: WorkspaceWorld,
) -> None:
    both = workspace.assistant.chat(
        "alice", "hand the runbook to bob and let him know on it that the wiki is back up"
    )
    assert _calls(both) == [
        ("assign_task", {"task_id": "Write the incident runbook", "assignee_id": "bob"}),
        (
            "add_comment",
            {"task_id": "Write the incident runbook", "content": "The wiki is back up."},
        ),
    ]
    told = workspace.assistant.chat("alice", "tell vera on the phishing drill that HR signed off")
    assert _calls(told) == [
        ("add_comment", {"task_id": "Schedule the phishing drill", "content": "HR signed off."})
    ]


def test_a_resolution_labelled_in_parentheses_after_too_is_the_resolution(
    workspace: WorkspaceWorld,
) -> None:
    said = "clear the vendor window blocker too (resolution: slot booked for Sunday)"
    reply = workspace.assistant.chat("alice", said)
    assert _calls(reply) == [
        (
            "resolve_blocker",
            {
                "blocker_id": "Waiting for the vendor maintenance window",
                "resolution": "Slot booked for Sunday",
            },
        )
    ]


def test_its_in_a_later_look_up_is_the_first_parts_project_and_one_its_kind(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "list the phishing awareness tasks and its blockers")
    assert _calls(reply) == [
        ("get_tasks", {"project_id": "Phishing awareness"}),
        ("get_blockers", {"project_id": "Phishing awareness"}),
    ]
    one = workspace.assistant.chat(
        "alice", "show the documents of the vpn project, then open the citrix one"
    )
    assert [c[0] for c in _calls(one)] == ["get_documents", "get_document_details"]
    assert "NetScaler" in str(_calls(one)[1][1]["document_id"])


def test_a_search_beside_a_workspace_look_up_is_the_workspaces(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "search for mimikatz and then open the runbook task")
    assert _calls(reply) == [
        ("search_content", {"query": "mimikatz"}),
        ("get_task_details", {"task_id": "Write the incident runbook"}),
    ]


def test_a_blockers_reason_in_parentheses_or_after_because_is_its_description(
    workspace: WorkspaceWorld,
) -> None:
    bracketed = workspace.assistant.chat(
        "alice", "flag a blocker on the phishing drill (no sign-off from legal) and make it low"
    )
    assert _calls(bracketed) == [
        (
            "create_blocker",
            {"task_id": "Schedule the phishing drill", "description": "No sign-off from legal"},
        ),
        ("update_task", {"task_id": "Schedule the phishing drill", "priority": "low"}),
    ]
    because = workspace.assistant.chat(
        "alice", "the runbook can't proceed because the wiki is down, log that as a blocker"
    )
    assert _calls(because) == [
        (
            "create_blocker",
            {"task_id": "Write the incident runbook", "description": "The wiki is down"},
        )
    ]
    bare = workspace.assistant.chat("alice", "make a blocker")
    assert bare.tool_calls == () and "?" in bare.text
    until = workspace.assistant.chat(
        "alice", "the netscaler review can't continue till the vendor replies"
    )
    assert _calls(until) == [
        (
            "create_blocker",
            {
                "task_id": "Review NetScaler session tokens",
                "description": "Waiting until the vendor replies",
            },
        )
    ]
    mood = workspace.assistant.chat("alice", "I can't go on because the coffee ran out")
    assert "create_blocker" not in _names(mood)


def test_a_blocker_on_a_project_named_without_the_word_project(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "blocker on vpn gateway hardening: budget frozen")
    assert _calls(reply) == [
        ("create_blocker", {"project_id": "VPN gateway hardening", "description": "Budget frozen"})
    ]


def test_a_new_task_then_a_change_on_another_named_task_are_both_proposed(
    workspace: WorkspaceWorld,
) -> None:
    said = (
        "add a task 'Book the auditorium' to phishing awareness, and put a blocker on the "
        "runbook saying legal review pending"
    )
    reply = workspace.assistant.chat("alice", said)
    assert _calls(reply) == [
        ("create_task", {"project_id": "Phishing awareness", "title": "Book the auditorium"}),
        (
            "create_blocker",
            {"task_id": "Write the incident runbook", "description": "Legal review pending"},
        ),
    ]


def test_blockers_asked_for_of_both_kinds_have_no_status(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "show all blockers including the closed ones")
    assert _calls(reply) == [("get_blockers", {})]


def test_what_is_waiting_on_the_reader_is_the_attention_summary(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("bob", "what's still waiting on me?")
    assert _names(reply) == ["get_attention_summary"]


def test_a_field_to_change_named_without_its_value_is_asked(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "update the status of the hunt task")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text and "in progress" in reply.text


def test_asking_whether_the_assistant_can_change_things_is_told_what_it_can_do(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat(
        "alice", "are you allowed to edit projects, or just read only?"
    )
    assert reply.tool_calls == () and not reply.suggestions
    assert "propose changes" in reply.text


def test_what_the_reader_is_on_in_a_project_lists_their_tasks_there(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("bob", "what am i responsible for in vpn gateway hardening")
    assert _calls(reply) == [
        ("get_tasks", {"project_id": "VPN gateway hardening", "assignee_id": "bob"})
    ]


def test_who_is_doing_a_task_opens_the_task(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "who is handling the netscaler review right now?")
    assert _calls(reply) == [("get_task_details", {"task_id": "Review NetScaler session tokens"})]
    team = workspace.assistant.chat("alice", "which people could I give tasks to?")
    assert _names(team) == ["get_team_members"]


def test_a_projects_numbers_are_its_details(workspace: WorkspaceWorld) -> None:
    said = "give me the numbers for phishing awareness: how many are open?"
    reply = workspace.assistant.chat("alice", said)
    assert _calls(reply) == [("get_project_details", {"project_id": "Phishing awareness"})]


def test_a_document_read_and_asked_about_or_pointed_at_on_its_page_is_opened(
    workspace: WorkspaceWorld,
) -> None:
    read = workspace.assistant.chat(
        "alice", "read the T1133 document and tell me how attackers get in"
    )
    assert _names(read) == ["get_document_details"]
    document = next(iter(workspace.demo.documents.values()))
    title = next(iter(workspace.demo.documents))
    page = PageContext("document", document, title, project_id=workspace.demo.vpn.id)
    pointed = workspace.assistant.chat("alice", "what does this one advise?", page=page)
    assert _calls(pointed) == [("get_document_details", {"document_id": document})]


def test_a_task_no_longer_blocked_resolves_its_blocker(workspace: WorkspaceWorld) -> None:
    said = "the check point gateways are no longer stuck, the vendor picked Sunday"
    reply = workspace.assistant.chat("alice", said)
    assert _calls(reply) == [
        (
            "resolve_blocker",
            {
                "blocker_id": "Waiting for the vendor maintenance window",
                "resolution": "The vendor picked Sunday",
            },
        )
    ]


def test_asking_which_tasks_are_stuck_is_the_summarys_blocked_part(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "which tasks are currently stuck")
    assert _names(reply) == ["get_attention_summary"]
    assert reply.text.startswith("Blocked")


def test_a_part_read_by_meaning_unsurely_never_adds_a_change(workspace: WorkspaceWorld) -> None:
    # "take me off X" reads as completing X, unsurely (0.75): it must not become a change.
    reply = workspace.assistant.chat("alice", "take me off the vpn hunt and put bob on it")
    assert "complete_task" not in _names(reply)
    assert ("assign_task", {"task_id": "Hunt for unusual VPN logins", "assignee_id": "bob"}) in (
        _calls(reply)
    )


def test_one_change_said_twice_in_two_parts_is_proposed_once(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat(
        "alice", "I've kicked off the phishing drill, set it to in progress"
    )
    assert _calls(reply) == [
        ("update_task", {"task_id": "Schedule the phishing drill", "status": "in_progress"})
    ]


def test_a_state_asked_of_a_project_lists_its_tasks_in_that_state(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "what's finished in phishing awareness so far?")
    assert _calls(reply) == [("get_tasks", {"project_id": "Phishing awareness", "status": "done"})]


def test_over_as_a_place_is_no_state(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat(
        "alice", "any idea what's still open over in phishing awareness?"
    )
    assert _calls(reply) == [("get_tasks", {"project_id": "Phishing awareness", "status": "todo"})]
