"""Workspace requests of dev16 said aloud, several in one message, or asked loosely.

Spoken fillers ("uh", "um") between the requests; a heading before them ("end of day
stuff:"); a question inside a frame ("can you say me which ..."); "add one" after a list of
blockers; "what's blocked on X"; a request cut off ("can you make it uh"); the attention
summary after an apology; a document named again after the question ("..., the CVE-x one");
a search for "it" after what was written is described; a weekday with its day's number.
"""

from __future__ import annotations

from datetime import datetime

from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.slots import due_date_of, weekday_with_its_day
from lectern.adapters.understanding.spoken import tidied
from lectern.adapters.understanding.workspace_asked_within import asked_within
from lectern.adapters.understanding.workspace_document_asked import document_asked
from lectern.adapters.understanding.workspace_heading import without_heading
from lectern.adapters.understanding.workspace_search_pointed import search_pointed
from lectern.adapters.understanding.workspace_unfinished import unfinished_change
from tests.unit.test_workspace_phrasings import SYSTEM, _calls

PATCH = "Patch the Check Point gateways"
HUNT = "Hunt for unusual VPN logins"
DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
NETSCALER = "Review NetScaler session tokens"
CITRIX = "CVE-2023-4966: Citrix NetScaler session hijacking"
REMOTE = "T1133: External Remote Services"
PUBLIC = "T1190: Exploit Public-Facing Application"
NAMES = names_from_prompt(SYSTEM)
MONDAY = datetime(2026, 11, 2, 9, 0)


def test_spoken_fillers_are_dropped_between_and_before_requests() -> None:
    assert tidied("um so bump the VPN logins hunt to urgent and uh also assign it to me") == (
        "so bump the VPN logins hunt to urgent and also assign it to me"
    )
    assert tidied("close the drill and, uhh, give the hunt to bob") == (
        "close the drill and, give the hunt to bob"
    )
    assert tidied("erm, make the runbook high") == "make the runbook high"
    assert tidied("set the patch to done uhm and comment hmm that gw3 is fine") == (
        "set the patch to done and comment that gw3 is fine"
    )
    # Portuguese or German "um" before a capitalised word is a title's, not a filler
    assert tidied("add Relato de um Náufrago") == "add Relato de um Náufrago"
    assert "um" in tidied("Manöver um Feuerland").split()
    # the joint the filler hid is read: two changes
    assert _calls(tidied("make the hunt urgent and uh also assign it to bob")) == [
        ("update_task", {"task_id": HUNT, "priority": "urgent"}),
        ("assign_task", {"task_id": HUNT, "assignee_id": "bob"}),
    ]
    assert _calls(tidied("close the drill and um give the runbook to alice")) == [
        ("complete_task", {"task_id": DRILL}),
        ("assign_task", {"task_id": RUNBOOK, "assignee_id": "alice"}),
    ]


def test_a_heading_that_names_nothing_is_no_part_of_the_requests() -> None:
    said = (
        "end of day stuff: comment on the check point patch that gw-01 and gw-02 are done, "
        "move the netscaler review back to in progress, and make a task in phishing awareness "
        'called "Book the training room"'
    )
    # the three parts are then read one by one (by meaning where no rule reads a part)
    assert without_heading(said, NAMES) == said.removeprefix("end of day stuff: ")
    for headed, request in (
        ("couple of things: close the drill and give the hunt to bob", "close the drill"),
        ("before I log off - put the runbook in review", "put the runbook in review"),
        ("todo for today: make the hunt urgent", "make the hunt urgent"),
        ("Friday wrap-up: please close the drill", "please close the drill"),
    ):
        assert without_heading(headed, NAMES).startswith(request), headed
    assert _calls(
        without_heading("couple of things: close the drill and give the hunt to bob", NAMES)
    ) == [
        ("complete_task", {"task_id": DRILL}),
        ("assign_task", {"task_id": HUNT, "assignee_id": "bob"}),
    ]
    # a heading that names a stored thing, or is a field's label, stays for its readers
    for kept in (
        "runbook: unassign.",
        "drill: close it",
        "assign: me.",
        "new task, vpn project: 'Rotate keys'. bob. high.",
        "comment: close it later",
        "vpn stuff: close the hunt",
        "checkpoint patching: start it, mark in progress",
    ):
        assert without_heading(kept, NAMES) == kept, kept


def test_a_question_inside_a_frame_is_the_question() -> None:
    assert asked_within("Can you say me which blockers are open, and then add one") == (
        "which blockers are open, and then add one"
    )
    assert asked_within("could you let me know what's overdue") == "what's overdue"
    assert asked_within("I'd like to know who is on the team") == "who is on the team"
    assert asked_within("do you know which tasks bob has?") == "which tasks bob has?"
    assert asked_within("pls tell me if the drill is done") == "if the drill is done"
    # a frame before no question word keeps it
    assert asked_within("tell me about the drill") == "tell me about the drill"
    assert _calls(asked_within("could you tell me who's on the team")) == [("get_team_members", {})]


def test_add_one_after_a_list_of_blockers_is_a_new_blocker() -> None:
    assert _calls(
        asked_within(
            "Can you say me which blockers are open, and then add one for the runbook: we "
            "have no template?"
        )
    ) == [
        ("get_blockers", {"status": "open"}),
        ("create_blocker", {"task_id": RUNBOOK, "description": "We have no template"}),
    ]
    assert _calls("show the blockers, then log another one on the drill: HR has not signed") == [
        ("get_blockers", {}),
        ("create_blocker", {"task_id": DRILL, "description": "HR has not signed"}),
    ]
    assert _calls("list the open blockers and add one on the hunt - no log access yet") == [
        ("get_blockers", {"status": "open"}),
        ("create_blocker", {"task_id": HUNT, "description": "No log access yet"}),
    ]


def test_what_is_blocked_on_a_project_asks_its_blockers() -> None:
    vpn = ("get_blockers", {"project_id": "VPN gateway hardening"})
    assert _calls(
        "what's blocked on the vpn gateway hardening project, and who's on the team?"
    ) == [
        vpn,
        ("get_team_members", {}),
    ]
    assert _calls("what's blocked on the vpn gateway hardening project") == [vpn]
    assert _calls("what is blocked in phishing awareness") == [
        ("get_blockers", {"project_id": "Phishing awareness"})
    ]
    assert _calls("whats blocked in the phishing awareness project?") == [
        ("get_blockers", {"project_id": "Phishing awareness"})
    ]
    # a task told blocked is still a blocker to record
    assert _calls("the drill is blocked on HR sign-off") == [
        ("create_blocker", {"task_id": DRILL, "description": "HR sign-off"})
    ]


def test_a_change_cut_off_before_its_value_is_asked_about() -> None:
    tasks = NAMES.of("task")
    for cut, task in (
        ("so the hunt task can you make it", HUNT),
        ("could you set the drill to", DRILL),
        ("the runbook, change it...", RUNBOOK),
        ("can you move the netscaler review to", NETSCALER),
        ("give the patch task to", PATCH),
        ("hmm the drill - mark it as", DRILL),
    ):
        asked = unfinished_change(cut, tasks)
        assert asked is not None, cut
        assert task in asked.question, cut
    assert unfinished_change("set it to", tasks) is not None
    for whole in (
        "make it urgent",
        "put bob on it",
        "move the drill to friday",
        "mark the runbook as done",
        "close it",
        "assign it to me",
        "make it so",
        "assign the incident runbook",
        # a question strands its preposition
        "who can I assign things to",
        "which project should I move the drill to?",
        # the value was told before the request
        "he says it's done, mark it",
        "phishing drill is in progress now, please update it",
        "Vera is taking over the phishing drill from Bob, please reassign it.",
    ):
        assert unfinished_change(whole, tasks) is None, whole


def test_waiting_on_me_after_an_apology_or_before_a_worry_is_the_summary() -> None:
    summary = [("get_attention_summary", {})]
    for asked in (
        "sorry, is there anything waiting on me? I don't want to miss something",
        "what's waiting on me right now",
        "excuse me, what is pending for me today? I was out last week",
        "sorry — anything sitting on me? just want to be sure",
        "hey is anything waiting for me at the moment?",
    ):
        assert _calls(asked) == summary, asked


def test_a_document_named_again_after_the_question_is_that_document() -> None:
    assert (
        document_asked("what does the citrix netscaler record say, the CVE-2023-4966 one", NAMES)
        == CITRIX
    )
    assert (
        document_asked("what does the T1133 doc say, the external remote services one", NAMES)
        == REMOTE
    )
    assert document_asked("whats in that writeup? the T1190 one", NAMES) == PUBLIC
    assert (
        document_asked("so what did the remote services advisory recommend - the T1133 one", NAMES)
        == REMOTE
    )
    assert (
        document_asked(
            "open the public facing one, I mean the exploit public facing application one", NAMES
        )
        == PUBLIC
    )
    # the words are all the document's and only some of a task's
    assert document_asked("what does the citrix netscaler record say", NAMES) == CITRIX
    assert document_asked("what does the netscaler record say", NAMES) is None
    assert document_asked("what does the netscaler task say", NAMES) is None
    assert document_asked("what does the runbook say", NAMES) is None
    assert document_asked("comment on the citrix netscaler record that it's read", NAMES) is None
    assert _calls("what does the citrix netscaler record say, the CVE-2023-4966 one") == [
        ("get_document_details", {"document_id": CITRIX})
    ]


def test_a_search_for_it_after_what_was_written_is_described_searches_the_subject() -> None:
    for said, query in (
        (
            "not sure where it was but someone wrote something about a lab gateway? could you "
            "search for it",
            "lab gateway",
        ),
        ("someone wrote something about a lab gateway, search for it", "lab gateway"),
        ("there was a note about token rotation somewhere, can you find it?", "token rotation"),
        ("I remember a comment mentioning the backup vpn. look it up please", "backup vpn"),
        ("bob posted a thing on the MFA rollout last week, could u dig it up", "MFA rollout"),
        ("i think alice left some notes regarding tor exit nodes, pls find that", "tor exit nodes"),
    ):
        assert search_pointed(said) == f"search for {query}", said
    assert _calls(
        search_pointed("someone wrote something about a lab gateway, search for it") or ""
    ) == [("search_content", {"query": "lab gateway"})]
    for not_pointed in (
        "someone asked about the drill, close it",
        "search for the drill",
        "there was a note about the drill, close it",
    ):
        assert search_pointed(not_pointed) is None, not_pointed


def test_a_weekday_with_its_days_number_is_that_day() -> None:
    said = weekday_with_its_day("the runbook should be due next friday, the 13th")
    assert said == "the runbook should be due next friday the 13th"
    assert _calls(said) == [("update_task", {"task_id": RUNBOOK, "due_date": "2026-11-13"})]
    assert due_date_of("due by next Friday the 13th", MONDAY) == "2026-11-13"
    assert due_date_of(
        weekday_with_its_day("push it to next thursday, the 12th"), MONDAY, moved=True
    ) == ("2026-11-12")
    assert due_date_of("due this thursday, the 5th", MONDAY) == "2026-11-05"
    assert due_date_of("due next Tues 10th", MONDAY) == "2026-11-10"
    assert due_date_of("by friday the 20th of november", MONDAY) == "2026-11-20"
    # without a number, "next friday" is still the coming week's
    assert due_date_of("due next friday", MONDAY) == "2026-11-06"
    assert _calls(weekday_with_its_day("make the hunt due monday, the 9th")) == [
        ("update_task", {"task_id": HUNT, "due_date": "2026-11-09"})
    ]
