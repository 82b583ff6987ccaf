"""Workspace phrasings the rules missed, one mechanism per test (none a sentence of the sets).

A contraction typed without its apostrophe; the reader's own work in one named project; a
task's comments asked after; an object after "or only read"; a due date said alone about the
task in view; a new task's quoted title after a comma, its project named by part of its name,
and a look-up asked after it; a title that ends with its sentence; a blocker's reason after a
dash and the task named before it; what resolved a blocker beside the request to close it; a
change followed by a sentence that only says why; a document opened by its id or from its
page; a task known by the document it is about. From dev9: a project no stored one is
called; a new task put "here" or in a project named whole before its title; a weekday with
the day's number; a priority or due date said as a fact; a look-up then two changes, and the
reader taking a task; a named task's blockers; a field asked though the task's name holds a
value word; searches by anyone and of quoted words; a quoted blocker; "that task" after a
search; projects by state; attention in one project; a task planned for a day. From dev10:
shorthand ("proj", "prio", "ticket", an arrow, a plus); a new task named only by its place,
or after its purpose ("name it X"), and a priority said alone; a document by its title's
words; a verb's particle after the task ("close this out"); a day counted from today and a
task named by another form of its verb; quoted words that name no task; a removal restated;
a value taken back; a day and a priority said together; a person told in a comment; the
reader taking a task and starting it; a blocker's reason run on after a name; "that" kept
as a comment or a blocker, and asked when the task is left unnamed; projects asked for inside
a longer message; what "it" is about.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from lectern.adapters.llm.workspace_rules import WorkspaceRules
from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.slots import due_clause, priority_of
from lectern.adapters.understanding.workspace_documents import document_named
from lectern.adapters.understanding.workspace_parts import changes_in_parts
from lectern.adapters.understanding.workspace_patterns import ASSIGNED, CAPABILITIES
from lectern.adapters.understanding.workspace_plan import Where, plan_workspace
from lectern.adapters.understanding.workspace_shorthand import spelt_out
from lectern.application.assistant.names import NAMES_HEADER
from lectern.domain.assistant import AIResponse, Message, ToolCall

SYSTEM = "\n".join(
    [
        NAMES_HEADER,
        "- project: VPN gateway hardening",
        "- project: Phishing awareness",
        "- task: Patch the Check Point gateways",
        "- task: Review NetScaler session tokens",
        "- task: Hunt for unusual VPN logins",
        "- task: Write the incident runbook",
        "- task: Schedule the phishing drill",
        "- blocker: Waiting for the vendor maintenance window (on Patch the Check Point gateways)",
        "- document: CVE-2024-24919: Check Point Quantum Gateway information disclosure",
        "- document: CVE-2023-4966: Citrix NetScaler session hijacking",
        "- document: T1133: External Remote Services",
        "- document: T1190: Exploit Public-Facing Application",
        "- member: alice (Alice Analyst)",
        "- member: bob (Bob Builder)",
        "- reader: alice",
    ]
)
NAMES = names_from_prompt(SYSTEM)
NOWHERE = Where(None, None, "alice")
MONDAY = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _call(tool: str, **arguments: Any) -> ToolCall:
    return ToolCall("t", tool, dict(arguments))


def _rules() -> WorkspaceRules:
    return WorkspaceRules(_call, clock=lambda: MONDAY)


def _on_page(kind: str, ident: str, name: str) -> str:
    return f"The reader is on a {kind} page {name!r} (id {ident}).\n{SYSTEM}"


def _calls(text: str, system: str = SYSTEM) -> list[tuple[str, dict[str, Any]]]:
    stages = _rules().plan(text, [], system)
    assert stages is not None, text
    calls = stages[0](None)
    assert isinstance(calls, list), (text, calls)
    return [(c.name, dict(c.arguments)) for c in calls]


def _planned(intent: str, text: str) -> list[tuple[str, dict[str, Any]]]:
    planned = plan_workspace(intent, text, NAMES, NOWHERE, _call, MONDAY)
    assert isinstance(planned, list), planned
    return [(c.name, dict(c.arguments)) for c in planned]


def test_a_contraction_typed_without_its_apostrophe_reads_as_with_it() -> None:
    assert _calls("whats overdue right now") == [("get_attention_summary", {})]
    # Quoted words are the reader's own: a title keeps them as typed.
    [(tool, arguments)] = _calls("add 'Find out whats leaking' to the phishing awareness project")
    assert (tool, arguments["title"]) == ("create_task", "Find out whats leaking")


def test_the_readers_own_work_in_one_named_project_lists_their_tasks_there() -> None:
    mine = ("get_tasks", {"project_id": "Phishing awareness", "assignee_id": "alice"})
    assert _calls("what's on my plate in the phishing awareness project") == [mine]
    assert _calls("what's on my plate for phishing awareness") == [mine]
    assert _planned(
        "get_attention_summary", "anything for me to do within phishing awareness?"
    ) == [mine]
    # Without a project it stays the summary across every project.
    assert _planned("get_attention_summary", "anything for me to do today?") == [
        ("get_attention_summary", {})
    ]


def test_whether_a_task_named_whole_has_comments_opens_the_task() -> None:
    assert _calls("are there any notes on Hunt for unusual VPN logins") == [
        ("get_task_details", {"task_id": "Hunt for unusual VPN logins"})
    ]
    # Words that are only partly a task's, or a project's as much, stay a search.
    [(tool, _)] = _calls("any notes on odd hours for vpn logins")
    assert tool == "search_content"
    [(tool, _)] = _calls("any comments on the vpn project?")
    assert tool == "search_content"
    [(tool, _)] = _calls("any comments about gateway outages in our projects?")
    assert tool == "search_content"


def test_what_is_only_read_may_be_said_again_after_or_only_read() -> None:
    assert CAPABILITIES.match("edit projects or just look at them?") is not None
    assert CAPABILITIES.match("update tasks, or only see them") is not None


def test_a_due_date_said_alone_is_the_task_in_views() -> None:
    page = _on_page("task", "task-7", "Write the incident runbook")
    assert _calls("it's due the 20th please", page) == [
        ("update_task", {"task_id": "task-7", "due_date": "2026-11-20"})
    ]
    # A date followed by more words is not said alone.
    stages = _rules().plan("deadline tomorrow for the hunt", [], page)
    made = stages[0](None) if stages else []
    assert not (isinstance(made, list) and made and made[0].arguments.get("task_id") == "task-7")
    # With no task in view, which one is asked.
    stages = _rules().plan("due friday", [], SYSTEM)
    assert stages is not None
    assert not isinstance(stages[0](None), list)


def test_a_quoted_title_after_a_comma_is_the_title() -> None:
    [(tool, arguments)] = _calls(
        "make a low priority task in Phishing awareness, 'Order the posters'? It is for the drill."
    )
    assert (tool, arguments["title"], arguments["priority"]) == (
        "create_task",
        "Order the posters",
        "low",
    )


def test_a_new_task_goes_in_a_project_named_by_part_of_its_name() -> None:
    assert _calls("add task 'Rotate the gateway keys' under vpn hardening by 2026-12-01") == [
        (
            "create_task",
            {
                "project_id": "VPN gateway hardening",
                "title": "Rotate the gateway keys",
                "due_date": "2026-12-01",
            },
        )
    ]


def test_a_look_up_asked_after_a_new_quoted_task_is_a_second_request() -> None:
    assert _calls("put 'Rotate the gateway keys' in vpn hardening, then show me the T1133 doc") == [
        (
            "create_task",
            {"project_id": "VPN gateway hardening", "title": "Rotate the gateway keys"},
        ),
        ("get_document_details", {"document_id": "T1133: External Remote Services"}),
    ]


def test_a_title_after_a_colon_ends_with_its_sentence() -> None:
    [(tool, arguments)] = _planned(
        "create_task", "Put under Phishing awareness: Print the flyers. Bob should own it."
    )
    assert (tool, arguments["title"]) == ("create_task", "Print the flyers")


def test_a_blockers_reason_may_follow_any_dash_and_its_task_comes_before() -> None:
    assert _calls("flag a blocker on the hunt task – the log export is broken") == [
        (
            "create_blocker",
            {"task_id": "Hunt for unusual VPN logins", "description": "The log export is broken"},
        )
    ]
    assert _planned("create_blocker", "hold the runbook task — the printer is out of toner") == [
        (
            "create_blocker",
            {"task_id": "Write the incident runbook", "description": "The printer is out of toner"},
        )
    ]


def test_a_blocker_in_a_named_project_or_on_a_task_said_as_it_is_no_other_tasks() -> None:
    [(_, in_project)] = _planned(
        "create_blocker", "log a blocker in phishing awareness: the print shop closed"
    )
    assert "task_id" not in in_project and in_project["project_id"] == "Phishing awareness"
    [(_, on_it)] = _planned(
        "create_blocker", "new VPN task 'Check the tokens', blocked on it: no access"
    )
    assert "task_id" not in on_it


def test_what_resolved_a_blocker_is_not_the_request_to_close_it() -> None:
    assert _planned(
        "resolve_blocker", "The vendor confirmed a slot for Sunday; please clear the blocker"
    ) == [
        (
            "resolve_blocker",
            {
                "blocker_id": "Waiting for the vendor maintenance window",
                "resolution": "The vendor confirmed a slot for Sunday",
            },
        )
    ]
    [(_, arguments)] = _planned(
        "resolve_blocker", "Legal signed the contract, so lift that blocker please"
    )
    assert arguments["resolution"] == "Legal signed the contract"


def test_a_change_followed_by_a_sentence_that_only_says_why_is_the_change() -> None:
    assert _calls("Set the hunt task to in progress. I started on it this morning.") == [
        ("update_task", {"task_id": "Hunt for unusual VPN logins", "status": "in_progress"})
    ]
    assert _calls("Mark the runbook done. It went through legal already.") == [
        ("complete_task", {"task_id": "Write the incident runbook"})
    ]
    # A later sentence about another task, or said short with "too", may be a second request.
    for text in (
        "Mark the runbook done. The phishing drill is next.",
        "Give the hunt to bob. The runbook too.",
    ):
        stages = _rules().plan(text, [], SYSTEM)
        made = stages[0](None) if stages else None
        assert not (isinstance(made, list) and len(made) == 1), text


def test_a_document_is_opened_by_its_id_or_from_its_page() -> None:
    assert _calls("pull up T1190, and show me the runbook task as well") == [
        ("get_document_details", {"document_id": "T1190: Exploit Public-Facing Application"}),
        ("get_task_details", {"task_id": "Write the incident runbook"}),
    ]
    page = _on_page("document", "doc-3", "T1133: External Remote Services")
    assert _calls("tell me a bit more about this", page) == [
        ("get_document_details", {"document_id": "doc-3"})
    ]


def test_a_task_may_be_known_by_the_document_it_is_about() -> None:
    quantum = ("assign_task", {"task_id": "Patch the Check Point gateways", "assignee_id": "bob"})
    assert _planned("assign_task", "could bob handle the quantum one") == [quantum]
    assert _calls("assign the quantum one to bob") == [quantum]
    # A word that only begins like a document's names nothing; "it" is the task in view.
    about = "- document: CVE-2099-0001: Incident Runbook Overflow"
    with_printer = names_from_prompt(f"{SYSTEM}\n{about}")
    asked = plan_workspace("assign_task", "let bob take over", with_printer, NOWHERE, _call)
    assert not isinstance(asked, list)
    in_view = Where("Hunt for unusual VPN logins", None, "alice")
    [it] = plan_workspace("assign_task", "fine, bob can take it over", with_printer, in_view, _call)
    assert it.arguments["task_id"] == "Hunt for unusual VPN logins"
    # A document no task's title points at names no task: asked.
    asked = plan_workspace("assign_task", "give bob the remote services one", NAMES, NOWHERE, _call)
    assert not isinstance(asked, list)  # a question, no call


# --- dev9 (pool-v9): classes of phrasing, each in words of its own ---------------------------


def _read_part(part: str, task: str | None) -> list[ToolCall] | None:
    """One part of a message of several changes, read by the workspace rules alone."""
    stages = _rules().plan(part, [], SYSTEM, it=task)
    if not stages:
        return None
    calls = stages[0](None)
    return calls if isinstance(calls, list) else None


def _planned_or_asked(intent: str, text: str) -> str:
    """The question a plan by meaning answers with."""
    planned = plan_workspace(intent, text, NAMES, NOWHERE, _call, MONDAY)
    assert not isinstance(planned, list), planned
    assert planned is not None
    return planned.question


def _asked(text: str, system: str = SYSTEM, history: list[Message] | None = None) -> str:
    """The question a request is answered with (it must make no call)."""
    stages = _rules().plan(text, history or [], system)
    assert stages is not None, text
    told = stages[0](None)
    assert isinstance(told, AIResponse), (text, told)
    return told.text


def test_a_project_no_stored_one_is_called_is_asked_about() -> None:
    for text in (
        "open a task in the cloud migration project: inventory the buckets",
        "show me the tasks in the red team project",
    ):
        assert "can't find a project called" in _asked(text)
    # Part of a stored project's name still names it.
    [(tool, arguments)] = _calls("show me the tasks in the phishing project")
    assert (tool, arguments["project_id"]) == ("get_tasks", "Phishing awareness")


def test_a_new_task_put_here_or_in_a_project_named_whole_before_its_title() -> None:
    page = _on_page("project", "p-9", "VPN gateway hardening")
    assert _calls('stick "Renew the VPN certificates" in here', page) == [
        ("create_task", {"project_id": "p-9", "title": "Renew the VPN certificates"})
    ]
    assert _calls("create a task here named 'Audit the firewall logs'", page) == [
        ("create_task", {"project_id": "p-9", "title": "Audit the firewall logs"})
    ]
    assert _calls('new task to Phishing awareness titled "Book the auditorium", due friday') == [
        (
            "create_task",
            {
                "project_id": "Phishing awareness",
                "title": "Book the auditorium",
                "due_date": "2026-11-06",
            },
        )
    ]
    # Another project's words in the title leave the place as it was named.
    [(_, arguments)] = _calls("new task to Phishing awareness: compare notes with the vpn project")
    assert (arguments["project_id"], arguments["title"]) == (
        "Phishing awareness",
        "Compare notes with the vpn project",
    )


def test_a_weekday_said_with_the_days_number_is_that_day() -> None:
    assert due_clause("due Thursday the 19th", MONDAY) == ("2026-11-19", 0, 21)
    assert _calls("shift the hunt deadline to Thursday the 19th") == [
        ("update_task", {"task_id": "Hunt for unusual VPN logins", "due_date": "2026-11-19"})
    ]


def test_a_priority_or_due_date_said_as_a_fact_is_the_change() -> None:
    assert _calls("the phishing drill is high priority now; the CEO keeps asking") == [
        ("update_task", {"task_id": "Schedule the phishing drill", "priority": "high"})
    ]
    assert _calls("runbook: new deadline is the 27th") == [
        ("update_task", {"task_id": "Write the incident runbook", "due_date": "2026-11-27"})
    ]
    # What follows the dash asks for more: not the priority alone.
    stages = _rules().plan("the hunt is urgent - hand it to bob", [], SYSTEM)
    made = stages[0](None) if stages else None
    assert not (isinstance(made, list) and len(made) == 1)
    # A date that names no day is asked.
    assert "When should it be due" in _asked("new deadline for the hunt is whenever works")


def test_changes_joined_to_a_look_up_or_to_the_reader_taking_a_task() -> None:
    assert _calls("grab the runbook for me, then put it in review") == [
        ("assign_task", {"task_id": "Write the incident runbook", "assignee_id": "alice"}),
        ("update_task", {"task_id": "Write the incident runbook", "status": "in_review"}),
    ]
    assert _calls("clear the owner of the drill and set it back to to do") == [
        ("assign_task", {"task_id": "Schedule the phishing drill", "assignee_id": None}),
        ("update_task", {"task_id": "Schedule the phishing drill", "status": "todo"}),
    ]
    assert _calls(
        "open the hunt details, then mark it in progress and leave a comment 'logs pulled'"
    ) == [
        ("get_task_details", {"task_id": "Hunt for unusual VPN logins"}),
        ("update_task", {"task_id": "Hunt for unusual VPN logins", "status": "in_progress"}),
        ("add_comment", {"task_id": "Hunt for unusual VPN logins", "content": "Logs pulled."}),
    ]


def test_what_blocks_a_named_task_is_in_its_details() -> None:
    assert _calls("what's blocking the hunt?") == [
        ("get_task_details", {"task_id": "Hunt for unusual VPN logins"})
    ]
    # A word the project has as much as a task is the project's blockers.
    [(tool, arguments)] = _calls("what's blocking vpn?")
    assert (tool, arguments["project_id"]) == ("get_blockers", "VPN gateway hardening")


def test_a_field_named_without_a_value_is_asked_though_the_task_has_a_value_word() -> None:
    assert "What should the priority" in _asked("set the priority for the token review")


def test_a_search_by_anyone_or_of_quoted_words_everywhere() -> None:
    assert _calls("where did the team talk about hotfixes?") == [
        ("search_content", {"query": "hotfixes"})
    ]
    assert _calls("search for 'session tokens' everywhere") == [
        ("search_content", {"query": "session tokens"})
    ]


def test_a_blocker_named_by_its_quoted_words_is_resolved_with_the_reason() -> None:
    assert _calls("lift 'Waiting for the vendor maintenance window' - the vendor said yes") == [
        (
            "resolve_blocker",
            {
                "blocker_id": "Waiting for the vendor maintenance window",
                "resolution": "The vendor said yes",
            },
        )
    ]


def test_that_task_after_a_search_is_the_one_task_it_found() -> None:
    found = (
        "I found 2 results:\n1. comment 'comment by bob': x [passage:comment:"
        "11111111-2222-3333-4444-555555555555]\n2. task 'Hunt for unusual VPN logins': y "
        "[passage:task:aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee]"
    )
    history = [Message(role="user", content="search vpn"), Message(role="assistant", content=found)]
    stages = _rules().plan("note on that task: exports checked", history, SYSTEM)
    assert stages is not None
    [call] = stages[0](None)
    assert call.arguments["task_id"] == "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"


def test_projects_listed_by_their_state() -> None:
    assert _planned("get_projects", "which projects are finished?") == [
        ("get_projects", {"status": "completed"})
    ]
    assert _planned("get_projects", "any paused projects") == [
        ("get_projects", {"status": "on_hold"})
    ]


def test_what_needs_attention_in_one_named_project_is_its_details() -> None:
    assert _calls("what's overdue in the vpn project") == [
        ("get_project_details", {"project_id": "VPN gateway hardening"})
    ]
    assert _planned("get_attention_summary", "anything late within phishing awareness?") == [
        ("get_project_details", {"project_id": "Phishing awareness"})
    ]
    # Tasks in review with no project named: across every project, as the summary has them.
    assert _planned("get_tasks", "anything waiting for review?") == [("get_attention_summary", {})]


def test_a_task_planned_for_a_day_is_due_then_and_a_vague_day_is_asked() -> None:
    assert _calls("pencil in the hunt for the 18th") == [
        ("update_task", {"task_id": "Hunt for unusual VPN logins", "due_date": "2026-11-18"})
    ]
    assert "When should it be due" in _asked("plan the runbook for once things calm down")


def test_a_reason_after_a_comma_is_no_part_of_the_task_named() -> None:
    assert _calls("mark the token review thing as done, it's wrapped up") == [
        ("complete_task", {"task_id": "Review NetScaler session tokens"})
    ]
    # A later clause that changes a field of its own is not a reason: read whole, as before.
    assert _rules().plan("assign the runbook to bob, it's urgent", [], SYSTEM) is None


def test_a_place_before_a_colon_is_where_a_new_task_goes() -> None:
    assert _calls("new task for the vpn project: inventory the gateways") == [
        ("create_task", {"project_id": "VPN gateway hardening", "title": "Inventory the gateways"})
    ]
    assert _calls("add a task under phishing awareness: print the posters") == [
        ("create_task", {"project_id": "Phishing awareness", "title": "Print the posters"})
    ]


def test_what_someone_has_on_is_their_tasks() -> None:
    for said in (
        "what has bob got on this week",
        "what's on bob's plate right now",
        "what's bob got on today",
    ):
        stages = _rules().plan(said, [], SYSTEM)
        assert stages is not None, said
        [projects] = stages[0](None)
        assert projects.name == "get_projects"
        found = ASSIGNED.search(said)
        assert found is not None and "bob" in found.groups()


# From dev10 (each in fresh words).


def test_shorthand_is_read_as_the_words_it_stands_for() -> None:
    assert _calls("raise prio of the runbook to urgent") == [
        ("update_task", {"task_id": "Write the incident runbook", "priority": "urgent"})
    ]
    assert _calls("docs for the phishing proj") == [
        ("get_documents", {"project_id": "Phishing awareness"})
    ]
    assert _calls("plz put 'Collect gateway serials' in phishing proj") == [
        ("create_task", {"project_id": "Phishing awareness", "title": "Collect gateway serials"})
    ]
    # Quoted words are said as typed: "w/" inside a comment stays.
    assert spelt_out("runbook -> in review + note 'synced w/ legal re: proj'") == (
        "runbook to in review and note 'synced w/ legal re: proj'"
    )


def test_a_new_task_named_only_by_its_place_is_asked_for_a_title() -> None:
    for said in (
        "we need one more task for our phishing project",
        "make an extra task to phishing awareness",
    ):
        assert _planned_or_asked("create_task", said) == "What should the new task be called?"


def test_a_new_task_named_after_its_purpose_and_a_priority_said_alone() -> None:
    said = (
        "new ticket in phishing awareness to sort out the posters name it Print the posters "
        "give bob"
    )
    assert _calls(said) == [
        (
            "create_task",
            {
                "project_id": "Phishing awareness",
                "title": "Print the posters",
                "assignee_id": "bob",
            },
        )
    ]
    assert _calls("add 'Order badges' to the phishing project, high, due thursday") == [
        (
            "create_task",
            {
                "project_id": "Phishing awareness",
                "title": "Order badges",
                "due_date": "2026-11-05",
                "priority": "high",
            },
        )
    ]


def test_a_document_named_by_its_titles_words() -> None:
    assert _calls("bring up the remote services doc") == [
        ("get_document_details", {"document_id": "T1133: External Remote Services"})
    ]
    assert _calls("info on the check point quantum gateway advisory please") == [
        (
            "get_document_details",
            {"document_id": "CVE-2024-24919: Check Point Quantum Gateway information disclosure"},
        )
    ]
    # Words a project or a task holds as much are theirs, not a document's.
    assert document_named("details on the vpn gateway hardening", NAMES) is None


def test_a_verbs_particle_after_the_task() -> None:
    drill = _on_page("task", "t-9", "Schedule the phishing drill")
    assert _calls("wrap this one up", drill) == [("complete_task", {"task_id": "t-9"})]
    assert _calls("close the runbook out now") == [
        ("complete_task", {"task_id": "Write the incident runbook"})
    ]


def test_a_due_date_counted_from_today_for_a_task_named_by_another_form_of_its_verb() -> None:
    assert _calls("change the deadline of the scheduling task to two weeks from now") == [
        ("update_task", {"task_id": "Schedule the phishing drill", "due_date": "2026-11-16"})
    ]


def test_quoted_words_of_a_comment_name_no_task() -> None:
    in_view = Where("Write the incident runbook", None, "alice")
    planned = plan_workspace(
        "add_comment", "note 'check point folks signed off'", NAMES, in_view, _call, MONDAY
    )
    assert isinstance(planned, list)
    assert [(c.name, c.arguments["task_id"]) for c in planned] == [
        ("add_comment", "Write the incident runbook")
    ]


def test_a_removal_restated_after_a_comma() -> None:
    assert _calls("take alice off the token review, no one's on it for the moment") == [
        ("assign_task", {"task_id": "Review NetScaler session tokens", "assignee_id": None})
    ]


def test_a_value_taken_back_is_replaced_by_the_one_settled_on() -> None:
    assert priority_of("drop the drill to medium... no actually, leave it high") == "high"
    assert priority_of("make the runbook urgent, i mean low") == "low"


def test_a_due_day_and_a_priority_said_together_then_a_comment_by_a_person() -> None:
    said = "move the runbook due friday and high, and tell alice in a comment that legal wants it"
    assert _calls(said) == [
        (
            "update_task",
            {"task_id": "Write the incident runbook", "due_date": "2026-11-06", "priority": "high"},
        ),
        ("add_comment", {"task_id": "Write the incident runbook", "content": "Legal wants it."}),
    ]


def test_the_reader_taking_a_task_and_starting_it() -> None:
    assert changes_in_parts(
        "I grab the runbook and I start it today",
        _read_part,
        frozenset({"assign_task", "update_task"}),
    ) == [
        _call("assign_task", task_id="Write the incident runbook", assignee_id="alice"),
        _call("update_task", task_id="Write the incident runbook", status="in_progress"),
    ]


def test_a_blocker_on_a_thing_named_whole_with_its_reason_run_on() -> None:
    assert _calls("flag a blocker against the phishing awareness project venue not confirmed") == [
        (
            "create_blocker",
            {"project_id": "Phishing awareness", "description": "Venue not confirmed"},
        )
    ]


def test_what_was_just_said_kept_as_a_comment_or_a_blocker() -> None:
    assert _calls("the legal team approved the wording so add this under the runbook") == [
        (
            "add_comment",
            {
                "task_id": "Write the incident runbook",
                "content": "The legal team approved the wording.",
            },
        )
    ]
    said = "ok, the phishing drill, the room booking fell through, would you flag that as a blocker"
    assert _calls(said) == [
        (
            "create_blocker",
            {
                "task_id": "Schedule the phishing drill",
                "description": "The room booking fell through",
            },
        )
    ]


def test_the_list_of_projects_asked_inside_a_longer_message() -> None:
    for said in (
        "hello! first day here, could you send me an overview of all the projects",
        "is it alright if I see what projects we have",
    ):
        assert _calls(said) == [("get_projects", {})], said


def test_what_the_task_in_view_is_about() -> None:
    runbook = _on_page("task", "t-4", "Write the incident runbook")
    assert _calls("how can we unblock this one? what is it all about", runbook) == [
        ("get_task_details", {"task_id": "t-4"})
    ]


def test_a_statement_kept_on_a_task_left_unnamed_is_asked() -> None:
    question = _asked("we hit a wall with one of our tasks, could you log it")
    assert "Which task" in question
