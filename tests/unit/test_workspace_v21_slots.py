"""Workspace constructs from dev21, each a mechanism, with phrasings of my own and near misses.

- a blocker said as a label ("blocker: <why>") or told and asked to be logged is a new blocker
  on the task named or in view (asked with neither); words that say nothing ended never
  resolve an open blocker;
- the words to be written (a comment, a blocker, a title) are kept as typed: shorthand
  ("board" for a project) is spelt out in the request only, and a quoted stored name is which
  task, not the comment;
- an owner asked away with no one in their place is an assignment to null;
- a listed task picked by its place ("the second one"), and an unnamed "it" with no book in
  sight asked about as a task, never a book;
- a summary asked by its everyday words ("tl;dr this") on a document's or task's page;
- a description said as what it should say, then "could you change it?".
"""

from __future__ import annotations

from typing import Any

import pytest

from lectern.adapters.llm.told_first import _BARE_CHANGE
from lectern.adapters.llm.workspace_followups import picked_from_listing
from lectern.adapters.llm.workspace_refs import _Unclear
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.workspace_blocker_label import (
    labelled_blocker,
    new_blocker_said,
    still_holds,
)
from lectern.adapters.understanding.workspace_plan import Where, plan_workspace
from lectern.adapters.understanding.workspace_recorded import recorded
from lectern.adapters.understanding.workspace_shorthand import spelt_out
from lectern.adapters.understanding.workspace_unsaid import described
from lectern.adapters.understanding.workspace_which_one import asks_for_a_task
from lectern.domain.assistant import AIResponse, Message
from tests.unit.test_workspace_phrasings import (
    MONDAY,
    NAMES,
    NOWHERE,
    SYSTEM,
    _call,
    _calls,
    _on_page,
    _rules,
)

PATCH_PAGE = _on_page("task", "task-1", "Patch the Check Point gateways")
DRILL_PAGE = _on_page("task", "task-5", "Schedule the phishing drill")
DOC_PAGE = _on_page("document", "doc-3", "T1133: External Remote Services")


def _first(text: str, system: str = SYSTEM, history: list[Message] | None = None) -> Any:
    stages = _rules().plan(text, history or [], system)
    assert stages, text
    return stages[0](None)


def _asked(text: str, system: str = SYSTEM) -> bool:
    first = _first(text, system)
    return isinstance(first, AIResponse) and not first.tool_calls


# --- a blocker said as a label, or told and asked to be logged ------------------------------


@pytest.mark.parametrize(
    ("said", "description"),
    [
        ("blocker: change board hasn't approved the production window yet", "Change board hasn't"),
        ("new blocker - no read access to the gateway admin console", "No read access"),
        ("Blocked: the firewall team is on leave until the 14th.", "The firewall team"),
        ("impediment: waiting on the vendor's hotfix build", "Waiting on the vendor"),
        ("blocker — the lab gateway is still down", "The lab gateway"),
    ],
)
def test_a_labelled_blocker_is_a_new_blocker_on_the_task_in_view(
    said: str, description: str
) -> None:
    [(tool, arguments)] = _calls(said, PATCH_PAGE)
    assert tool == "create_blocker" and arguments["task_id"] == "task-1"
    assert arguments["description"].startswith(description)


def test_a_labelled_blocker_names_its_task_or_asks_for_one() -> None:
    [(tool, arguments)] = _calls("blocker: the runbook is waiting on legal sign-off")
    assert (tool, arguments["task_id"]) == ("create_blocker", "Write the incident runbook")
    # no task named and none in view: which task is asked, nothing is recorded
    assert _asked("blocker: waiting on vendor")
    assert _asked("new blocker - nobody has the archive password")


@pytest.mark.parametrize(
    "said",
    [
        "blocker: sorted, the vendor gave us saturday 2am",  # an ending, never a new one
        "blocker: resolved now that legal signed off",
        "blocker: what's holding this up?",  # a question after the label
        "blockers on this one?",
    ],
)
def test_a_label_that_tells_an_ending_or_asks_records_no_blocker(said: str) -> None:
    stages = _rules().plan(said, [], PATCH_PAGE)
    first = stages[0](None) if stages else []
    calls = first if isinstance(first, list) else list(first.tool_calls)
    assert not any(c.name in ("create_blocker", "resolve_blocker") for c in calls)


def test_the_label_reader_alone() -> None:
    assert labelled_blocker("blocker: waiting on vendor.") == "Waiting on vendor"
    assert labelled_blocker("blocker on the drill: venue") is None  # the CREATE_BLOCKER shape
    assert labelled_blocker("blocker: any news?") is None
    assert labelled_blocker("blockers: list them") is None


@pytest.mark.parametrize(
    ("said", "task", "description"),
    [
        (
            "the runbook's stuck waiting on legal review, log that as a blocker",
            "Write the incident runbook",
            "Waiting on legal review",
        ),
        (
            "the drill is held up by the venue booking - record that as a blocker",
            "Schedule the phishing drill",
            "The venue booking",
        ),
        (
            "the login hunt is blocked waiting for archive access. could you log that as a blocker",
            "Hunt for unusual VPN logins",
            "Waiting for archive access",
        ),
        (
            "netscaler review's stuck on citrix support, please add that as a blocker",
            "Review NetScaler session tokens",
            "On citrix support",
        ),
        (
            "the patch is on hold until the change board meets, flag it as a blocker",
            "Patch the Check Point gateways",
            "Until the change board meets",
        ),
    ],
)
def test_a_task_told_held_up_then_logged_is_its_blocker(
    said: str, task: str, description: str
) -> None:
    kept = recorded(said, NAMES)
    assert kept is not None and (kept.tool, kept.task) == ("create_blocker", task)
    assert kept.text == description


def test_a_hold_up_told_with_no_task_is_the_page_tasks_or_asked() -> None:
    said = "the change board still hasn't approved the window, log that as a blocker"
    [(tool, arguments)] = _calls(said, PATCH_PAGE)
    assert (tool, arguments["task_id"]) == ("create_blocker", "task-1")
    assert arguments["description"].startswith("The change board still hasn't")
    assert _asked("the change board still hasn't approved the window, log that as a blocker")


def test_nothing_said_to_end_never_resolves_an_open_blocker() -> None:
    where = Where("task-1", None, "alice")
    for said in (
        "the change board still hasn't approved the window, note that",
        "vendor hasn't replied yet about the window",
        "no word from the vendor on the window",
    ):
        planned = plan_workspace("resolve_blocker", said, NAMES, where, _call, MONDAY)
        assert isinstance(planned, Clarification), (said, planned)
    planned = plan_workspace(
        "resolve_blocker", "blocker: legal hasn't signed off", NAMES, where, _call, MONDAY
    )
    assert isinstance(planned, list) and planned[0].name == "create_blocker"
    # an ending said stays a resolution
    assert not still_holds("the patch isn't blocked anymore, we got a slot")
    assert not still_holds("vendor window blocker can go, they confirmed wed 11pm")
    assert not new_blocker_said("log that the blocker is resolved")


def test_a_request_to_log_is_no_part_of_the_blocker_read_by_meaning() -> None:
    planned = plan_workspace(
        "create_blocker",
        "the runbook is stuck waiting on legal review, log that as a blocker",
        NAMES,
        NOWHERE,
        _call,
        MONDAY,
    )
    assert isinstance(planned, list)
    assert "log that" not in planned[0].arguments["description"]
    unplaced = plan_workspace(
        "create_blocker", "waiting on legal, log that as a blocker", NAMES, NOWHERE, _call, MONDAY
    )
    assert isinstance(unplaced, Clarification)


# --- the words to be written are kept as typed ---------------------------------------------


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("note on netscaler review: board wants it closed by fri.", "board wants it closed"),
        ("comment on the drill: ticket raised with the venue", "ticket raised"),
        ("add a blocker on the runbook: the board backlog is huge", "board backlog"),
        ("new task in vpn proj: Brief the board on patch status", "Brief the board"),
        (
            "leave a comment on the hunt saying the board asked for tickets",
            "board asked for tickets",
        ),
        ("remark on the patch: board approved, eod tmrw", "board approved, eod tmrw"),
    ],
)
def test_shorthand_is_spelt_out_in_the_request_never_in_what_is_written(
    said: str, kept: str
) -> None:
    assert kept in spelt_out(said)


@pytest.mark.parametrize(
    ("said", "spelt"),
    [
        ("show me all the boards", "show me all the projects"),
        ("move the proj ticket to done", "move the project task to done"),
        ("comment on the proj ticket: done", "comment on the project task: done"),
        ("drill -> in progress", "drill to in progress"),
        ("new task in vpn proj: X", "new task in vpn project: X"),
    ],
)
def test_the_request_itself_is_still_spelt_out(said: str, spelt: str) -> None:
    assert spelt_out(said) == spelt


@pytest.mark.parametrize(
    ("said", "task", "content"),
    [
        (
            "could you put a comment on 'Hunt for unusual VPN logins' saying I'll start Wednesday?",
            "Hunt for unusual VPN logins",
            "I'll start Wednesday",
        ),
        (
            'leave a comment on "Write the incident runbook" saying legal has the draft',
            "Write the incident runbook",
            "Legal has the draft",
        ),
        (
            "comment on 'Schedule the phishing drill' that the venue is booked",
            "Schedule the phishing drill",
            "The venue is booked",
        ),
    ],
)
def test_a_quoted_stored_name_is_the_task_not_the_comment(
    said: str, task: str, content: str
) -> None:
    planned = plan_workspace("add_comment", said, NAMES, NOWHERE, _call, MONDAY)
    assert isinstance(planned, list)
    assert planned[0].arguments["task_id"] == task
    assert planned[0].arguments["content"].rstrip(".?") == content


def test_quoted_words_that_name_nothing_stay_the_comment() -> None:
    planned = plan_workspace(
        "add_comment", "comment 'ready for bob' on the runbook", NAMES, NOWHERE, _call, MONDAY
    )
    assert isinstance(planned, list) and planned[0].arguments["content"] == "Ready for bob"


# --- an owner asked away --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("nobody should own the netscaler review for now - unassign it", "Review NetScaler"),
        ("take bob off the check point patch for now, leave it unassigned", "Patch the Check"),
        ("take alice off the runbook - leave it with no owner", "Write the incident"),
        ("leave the drill unassigned", "Schedule the phishing"),
        ("take bob off the check point patch", "Patch the Check"),
        ("keep the login hunt without an owner for now", "Hunt for unusual"),
    ],
)
def test_an_owner_asked_away_is_an_assignment_to_no_one(said: str, task: str) -> None:
    [(tool, arguments)] = _calls(said)
    assert tool == "assign_task" and arguments["task_id"].startswith(task)
    assert arguments["assignee_id"] is None


def test_an_owner_named_in_their_place_is_assigned() -> None:
    [(tool, arguments)] = _calls("take bob off the patch and give it to alice")
    assert (tool, arguments["assignee_id"]) == ("assign_task", "alice")


def test_unassigning_read_by_meaning() -> None:
    where = Where("task-4", None, "alice")
    planned = plan_workspace(
        "assign_task", "nobody owns this for now, unassign it", NAMES, where, _call, MONDAY
    )
    assert isinstance(planned, list) and planned[0].arguments["assignee_id"] is None
    # a state asked about, and a person missing, are no removal
    for said in ("this one is unassigned, right?", "assign this please"):
        asked = plan_workspace("assign_task", said, NAMES, where, _call, MONDAY)
        assert isinstance(asked, Clarification), said


# --- places in a listing, and no book asked for on a workspace ------------------------------

LISTING = "\n".join(
    [
        "3 tasks:",
        "1. Patch the Check Point gateways (todo, high priority, assigned to bob) [task:a]",
        "2. Review NetScaler session tokens (in review, medium priority) [task:b]",
        "3. Hunt for unusual VPN logins (todo, low priority) [task:c]",
    ]
)
SHOWN = [Message(role="user", content="list the vpn tasks"), Message("assistant", LISTING)]


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("what's the second one about?", "Review NetScaler session tokens"),
        ("give the last one to alice", "Hunt for unusual VPN logins"),
        ("tell me about number 3", "Hunt for unusual VPN logins"),
        ("close the first task", "Patch the Check Point gateways"),
        ("and the 2nd one, who has it?", "Review NetScaler session tokens"),
    ],
)
def test_a_listed_task_picked_by_its_place(said: str, task: str) -> None:
    assert f"the task {task}" in picked_from_listing(said, SHOWN)


def test_a_place_the_listing_does_not_hold_is_asked_and_other_words_stay() -> None:
    with pytest.raises(_Unclear):
        picked_from_listing("what's the fifth one about?", SHOWN)
    assert picked_from_listing("first thing tomorrow, move the drill", SHOWN) == (
        "first thing tomorrow, move the drill"
    )
    assert picked_from_listing("what's the second one about?", []) == (
        "what's the second one about?"
    )


def test_an_unnamed_one_is_asked_about_as_a_task_where_no_book_is_in_sight() -> None:
    assert asks_for_a_task("what's the second one about?", PATCH_PAGE)
    assert asks_for_a_task("what's the second one about?", SYSTEM)
    assert asks_for_a_task("remind me what that one is about", SYSTEM)
    # a book, a list or a rating said: the book question stands
    assert not asks_for_a_task("add it to my reading list", SYSTEM)
    assert not asks_for_a_task("rate the second one 4 stars", SYSTEM)
    assert not asks_for_a_task("what's the second book about?", SYSTEM)
    # a reader with no projects: books only
    assert not asks_for_a_task("what's the second one about?", "You help with books.")


# --- a summary asked by its everyday words -------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "tl;dr this",
        "summarize this for me, short version",
        "can you give me the gist of this?",
        "tldr",
        "sum up this doc in two lines",
        "recap this briefly",
    ],
)
def test_a_summary_of_the_page_is_its_documents_details(said: str) -> None:
    assert _calls(said, DOC_PAGE) == [("get_document_details", {"document_id": "doc-3"})]


def test_a_summary_on_a_tasks_page_is_its_details_and_others_stay() -> None:
    assert _calls("tl;dr this", DRILL_PAGE) == [("get_task_details", {"task_id": "task-5"})]
    stages = _rules().plan("summarize the vpn project", [], DOC_PAGE)
    assert not stages or stages[0](None)[0].name != "get_document_details"
    [(tool, _)] = _calls("what needs my attention today?", DOC_PAGE)
    assert tool == "get_attention_summary"


# --- a description said as what it should say ----------------------------------------------


@pytest.mark.parametrize(
    ("said", "task", "description"),
    [
        (
            "I think the description of the login hunt task should also say to check the "
            "Citrix logs",
            "the login hunt task",
            "Check the Citrix logs",
        ),
        (
            "the description of the drill needs to mention the venue",
            "the drill",
            "the venue",  # what it mentions, never the verb (added to what it says)
        ),
        ("the description of the runbook should say: cover ransomware", "the runbook", "Cover"),
        ("maybe the description for the patch should read that all gateways", "the patch", "All"),
        (
            "the description of the netscaler review has to include the token lifetime",
            "the netscaler review",
            "the token",
        ),
    ],
)
def test_what_a_description_should_say_is_its_new_words(
    said: str, task: str, description: str
) -> None:
    found = described(said)
    assert found is not None and found.task == task
    assert found.description is not None
    assert found.description.casefold().startswith(description.casefold())


def test_only_a_bare_request_leaves_the_change_to_what_was_told() -> None:
    for said in ("Could you change it?", "can you update it", "please fix that", "edit it please"):
        assert _BARE_CHANGE.match(said), said
    for said in ("change it to high", "could you move it to friday?", "update bob on it"):
        assert not _BARE_CHANGE.match(said), said
    assert described("the description of the runbook is out of date") is None


def test_a_project_told_held_up_then_logged_is_the_projects_blocker() -> None:
    for said in (
        "phishing awareness is blocked by the allowlist not being set up, add it as a blocker",
        "the vpn gateway hardening project is held up by the change freeze, log that as a blocker",
    ):
        kept = recorded(said, NAMES)
        assert kept is not None and kept.task is None and kept.project is not None, said


def test_quoted_words_after_the_colon_leave_the_rest_to_be_spelt_out() -> None:
    said = spelt_out("new task in vpn hardening: 'Rotate VPN admin creds' high prio, asap")
    assert "'Rotate VPN admin creds' high priority" in said
    assert "'board minutes'" in spelt_out("comment on the drill: 'board minutes' proj ticket")


# --- a description added to keeps what it said ------------------------------------------------


def _added(said: str, before: str) -> list[tuple[str, dict[str, object]]]:
    from lectern.adapters.understanding.scaffold import Done

    stages = _rules().plan(said, [], SYSTEM)
    assert stages is not None
    look = stages[0](None)
    assert isinstance(look, list) and [c.name for c in look] == ["get_task_details"], look
    record = {"task": {"task_id": "t-1", "title": "Hunt for unusual VPN logins"}}
    record["task"]["description"] = before
    change = stages[1](Done(list(look), [record]))
    assert isinstance(change, list)
    return [(c.name, dict(c.arguments)) for c in change]


@pytest.mark.parametrize(
    "said",
    [
        "the description of the hunt should also say to check the Citrix logs",
        "the description of the hunt needs to also cover the Citrix logs",
        "the description for the hunt should mention the Citrix logs too",
    ],
)
def test_words_added_to_a_description_keep_what_it_said(said: str) -> None:
    calls = _added(said, "Look for T1133 activity in the VPN logs.")
    assert len(calls) == 1 and calls[0][0] == "update_task"
    text = str(calls[0][1]["description"])
    assert text.startswith("Look for T1133 activity in the VPN logs.\n\n")
    assert "Citrix logs" in text


def test_a_description_said_whole_replaces_it() -> None:
    calls = _calls("the description of the hunt should be: check the Citrix logs")
    assert calls == [
        (
            "update_task",
            {"task_id": "Hunt for unusual VPN logins", "description": "check the Citrix logs"},
        )
    ]
