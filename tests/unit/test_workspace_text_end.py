"""Where a free text ends (dev18): a title, a comment, a resolution stops at the next request.

Each test holds the dev18 sentence beside phrasings of our own: a clock time is no colon
that leads a text; a text ends where a change verb with its object starts after a joint
("..., and subsequently assign ...") or where the new task's own field is said of "it" ("put
it on bob", "it should be assigned to Bob"); fillers between commas are no part of it; a
tracker's shorthand that sets a field ("@bob !high +vpn") is no part of the title; a
closing bracket of a title is the title's; a comment's words after "saying" hold commas.
"""

from __future__ import annotations

from typing import Any

from lectern.adapters.understanding.spoken import tidied
from lectern.adapters.understanding.workspace_text_end import (
    clock_masked,
    clock_restored,
    fillers_dropped,
    shorthand_fields,
    shown_blocker_named,
    text_end,
)
from tests.unit.test_workspace_phrasings import NAMES, _calls

PATCH = "Patch the Check Point gateways"
HUNT = "Hunt for unusual VPN logins"
DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
VPN = "VPN gateway hardening"
PHISHING = "Phishing awareness"
WINDOW = "Waiting for the vendor maintenance window"


def _read(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The rules' calls for a message read as the policy reads it: times masked, then back."""
    said = shorthand_fields(fillers_dropped(clock_masked(tidied(text))), NAMES.of("project"))
    return [(tool, clock_restored(arguments)) for tool, arguments in _calls(said)]


def test_a_clock_time_is_no_colon_that_leads_a_text() -> None:
    assert clock_masked("saturday 02:00. clear it") != "saturday 02:00. clear it"
    assert clock_restored(clock_masked("thu 22:00 utc, 9:30 and 23:59")) == (
        "thu 22:00 utc, 9:30 and 23:59"
    )
    # a log line's stamp and a time with seconds are left as typed
    assert clock_masked("[14:02] vera: noted") == "[14:02] vera: noted"
    assert clock_masked("at 12:00:05 it failed") == "at 12:00:05 it failed"
    said = {
        "resolve the vendor maintenance window blocker: window granted for saturday 02:00": (
            "resolve_blocker",
            "resolution",
            "saturday 02:00",
        ),
        "add a comment on the check point task: gateways reboot at 22:00 utc": (
            "add_comment",
            "content",
            "22:00 utc",
        ),
        "comment on the drill that HR confirmed 9:30 on monday": (
            "add_comment",
            "content",
            "9:30 on monday",
        ),
        "new task in phishing awareness: call HR at 10:15 about the drill": (
            "create_task",
            "title",
            "10:15 about the drill",
        ),
        "log a blocker on the hunt: SIEM access only from 14:00": (
            "create_blocker",
            "description",
            "from 14:00",
        ),
        "rename the drill task to Drill at 09:00": ("update_task", "title", "Drill at 09:00"),
    }
    for text, (tool, field, words) in said.items():
        [(made, arguments)] = _read(text)
        assert made == tool, text
        assert words in arguments[field], (text, arguments)


def test_a_text_ends_where_the_next_request_starts() -> None:
    # dev18: the resolution had swallowed the assignment
    assert _read(
        "Please resolve the vendor maintenance window blocker, noting that the window was "
        "granted for 7 November, and subsequently assign the Check Point patching task to me."
    ) == [
        (
            "resolve_blocker",
            {
                "blocker_id": WINDOW,
                "resolution": "Noting that the window was granted for 7 November",
            },
        ),
        ("assign_task", {"task_id": PATCH, "assignee_id": "alice"}),
    ]
    assert _read(
        "close the vendor blocker: the window was approved, and then give the hunt to bob"
    ) == [
        ("resolve_blocker", {"blocker_id": WINDOW, "resolution": "The window was approved"}),
        ("assign_task", {"task_id": HUNT, "assignee_id": "bob"}),
    ]
    assert _read(
        "add a comment on the runbook that the draft is up, and afterwards assign the hunt to bob"
    ) == [
        ("add_comment", {"task_id": RUNBOOK, "content": "The draft is up."}),
        ("assign_task", {"task_id": HUNT, "assignee_id": "bob"}),
    ]
    # dev18: the title had run on into the assignment and the comment
    assert _read(
        "add a task to the phishing project to, uh, send the reminder email, put it on "
        "bob, and then also, um, comment on the drill that the reminder is coming"
    ) == [
        (
            "create_task",
            {"project_id": PHISHING, "title": "Send the reminder email", "assignee_id": "bob"},
        ),
        ("add_comment", {"task_id": DRILL, "content": "The reminder is coming."}),
    ]
    assert _read(
        "add a task to the vpn project to order spare gateways, give it to alice, and then "
        "also comment on the check point task that spares are ordered"
    ) == [
        (
            "create_task",
            {"project_id": VPN, "title": "Order spare gateways", "assignee_id": "alice"},
        ),
        ("add_comment", {"task_id": PATCH, "content": "Spares are ordered."}),
    ]

    # the words of a text and what follows, read alone (fillers dropped, as the rules read it)
    def text_and_rest(words: str) -> tuple[str, str]:
        words = fillers_dropped(words)
        return words[: text_end(words)].rstrip(" ,;"), words[text_end(words) :]

    assert text_and_rest("the window was granted, and subsequently assign the patch to me") == (
        "the window was granted",
        ", and subsequently assign the patch to me",
    )
    assert text_and_rest("draft the email template, yeah, and put it on bob") == (
        "draft the email template",
        ", and put it on bob",
    )
    # a joint inside a title, or a report after a comma, ends nothing
    assert text_and_rest("review and sign off the runbook")[1] == ""
    assert text_and_rest("three gateways are patched, the other two go tonight")[1] == ""
    assert text_and_rest("rotate keys and update the docs")[1] == ""


def test_a_new_tasks_title_ends_where_its_assignee_is_said_of_it() -> None:
    said = {
        # dev18
        "I need a new task in the phishing awareness project, um, to draft the email "
        "template for the drill, yeah, and put it on bob": (
            PHISHING,
            "Draft the email template for the drill",
            "bob",
        ),
        'Please make a new task in Phishing awareness with the name "Prepare the training '
        'slides", it should be assigned to Bob.': (PHISHING, "Prepare the training slides", "bob"),
        # our own
        "new task in the vpn project to rotate the keys, put it on alice": (
            VPN,
            "Rotate the keys",
            "alice",
        ),
        "add a task to phishing awareness called 'Print posters', it should be given to bob": (
            PHISHING,
            "Print posters",
            "bob",
        ),
        "create a task in vpn gateway hardening to audit the firewall rules, like, and hand it "
        "to bob": (VPN, "Audit the firewall rules", "bob"),
        "I need a task in the phishing project to book the room, have bob take it": (
            PHISHING,
            "Book the room",
            "bob",
        ),
        "add a task in phishing awareness under the title 'Order the posters', it must be "
        "assigned to alice": (PHISHING, "Order the posters", "alice"),
    }
    for text, (project, title, person) in said.items():
        assert _read(text) == [
            ("create_task", {"project_id": project, "title": title, "assignee_id": person})
        ], text
    # the new task's own fields said after its assignee stay its fields
    assert _read(
        "pls make a task in vpn gateway hardening called Disable legacy ciphers, assign me"
    ) == [
        (
            "create_task",
            {"project_id": VPN, "title": "Disable legacy ciphers", "assignee_id": "alice"},
        )
    ]
    assert _read(
        "create a task in the vpn project to rotate keys, give it to bob, make it high priority"
    ) == [
        (
            "create_task",
            {"project_id": VPN, "title": "Rotate keys", "assignee_id": "bob", "priority": "high"},
        )
    ]
    assert _read("new task in the vpn project: audit the rules, make it urgent") == [
        ("create_task", {"project_id": VPN, "title": "Audit the rules", "priority": "urgent"})
    ]


def test_a_trackers_shorthand_sets_fields_and_is_no_part_of_the_title() -> None:
    said = {
        # dev18
        "t: rotate certs on the vpn gateways @bob !high +vpn": (
            VPN,
            "Rotate certs on the vpn gateways",
            {"assignee_id": "bob", "priority": "high"},
        ),
        "task: print posters +phishing @alice": (
            PHISHING,
            "Print posters",
            {"assignee_id": "alice"},
        ),
        "todo: audit firewall rules !urgent +vpn": (
            VPN,
            "Audit firewall rules",
            {"priority": "urgent"},
        ),
        "new task: book the room @bob +phishing-awareness !low": (
            PHISHING,
            "Book the room",
            {"assignee_id": "bob", "priority": "low"},
        ),
        "t: call HR about the drill +phishing !medium @alice": (
            PHISHING,
            "Call HR about the drill",
            {"assignee_id": "alice", "priority": "medium"},
        ),
    }
    for text, (project, title, fields) in said.items():
        [(tool, arguments)] = _read(text)
        assert tool == "create_task", text
        assert arguments == {"project_id": project, "title": title, **fields}, text
    # no lead of a new task, or a "+word" no project is: as typed
    assert shorthand_fields("close the hunt @bob", NAMES.of("project")) == "close the hunt @bob"
    assert "+zzz" in shorthand_fields("t: x @bob +zzz", NAMES.of("project"))


def test_a_titles_closing_bracket_is_the_titles() -> None:
    said = {
        # dev18
        "rename the hunting task to 'Hunt for unusual VPN logins (Oct-Nov)'": (
            HUNT,
            "Hunt for unusual VPN logins (Oct-Nov)",
        ),
        "rename the runbook task to Write the runbook (v2).": (RUNBOOK, "Write the runbook (v2)"),
        'rename the drill task to "Phishing drill (Q4)"': (DRILL, "Phishing drill (Q4)"),
        "change the title of the drill to 'Drill (HR approved)'": (DRILL, "Drill (HR approved)"),
        "rename the check point task to Patch gateways (all five)!": (
            PATCH,
            "Patch gateways (all five)",
        ),
    }
    for text, (task, title) in said.items():
        assert _read(text) == [("update_task", {"task_id": task, "title": title})], text


def test_a_comments_words_after_saying_hold_their_commas() -> None:
    said = {
        # dev18
        "add a comment on the check point task saying, um, three of the five gateways are "
        "patched, the other two go tonight": (
            PATCH,
            "Three of the five gateways are patched, the other two go tonight.",
        ),
        "comment on the runbook that the draft is done, the review is next": (
            RUNBOOK,
            "The draft is done, the review is next.",
        ),
        "leave a note on the hunt that the logs are in, the rest come monday": (
            HUNT,
            "The logs are in, the rest come monday.",
        ),
        "add a note on the drill saying HR agreed, the date is fixed": (
            DRILL,
            "HR agreed, the date is fixed.",
        ),
        "post a comment to the check point task saying, gateway 3 is done, gateway 4 is next": (
            PATCH,
            "Gateway 3 is done, gateway 4 is next.",
        ),
    }
    for text, (task, content) in said.items():
        assert _read(text) == [("add_comment", {"task_id": task, "content": content})], text


def test_it_after_one_blocker_shown_is_that_blocker() -> None:
    shown = f"What is blocking your projects:\n1. {WINDOW} (blocks the task '{PATCH}') [blocker:1]"
    assert shown_blocker_named("Resolve it: vendor gave us sunday", shown) == (
        f"Resolve the {WINDOW} blocker: vendor gave us sunday"
    )
    assert shown_blocker_named("so close that one", shown) == f"so close the {WINDOW} blocker"
    two = f"{shown}\n2. Waiting for legal (blocks the task '{RUNBOOK}') [blocker:2]"
    assert shown_blocker_named("Resolve it", two) == "Resolve it"
    assert shown_blocker_named("Resolve it", "Done.") == "Resolve it"
