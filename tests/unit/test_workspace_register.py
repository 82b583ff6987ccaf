"""A request in a control log's register read as the imperative the rules read (dev16).

An exception or impediment is a blocker, a remediation item or control a task, remediated is
resolved; "record on <task> that <words>" is a comment. Each test holds the dev sentence
beside phrasings of our own; what asks none of these stays as typed.
"""

from __future__ import annotations

from lectern.adapters.understanding.workspace_register import registered, stored_blocker_quoted
from tests.unit.test_workspace_phrasings import NAMES

VENDOR = "Waiting for the vendor maintenance window"


def _read(text: str) -> str:
    return registered(text, NAMES)


def test_the_following_is_the_request_it_frames() -> None:
    assert (
        _read(
            "Please record the following: assign 'Hunt for unusual VPN logins' to Alice as control "
            "owner and set its priority to high."
        )
        == "assign 'Hunt for unusual VPN logins' to Alice and set its priority to high."
    )
    assert _read("kindly note as follows - close 'Write the incident runbook'") == (
        "close 'Write the incident runbook'"
    )
    assert _read("Log the following; set the drill to high") == "set the drill to high"


def test_a_role_after_the_person_is_no_part_of_the_assignment() -> None:
    for text, expected in (
        ("assign 'X' to bob as the process owner", "assign 'X' to bob"),
        ("give the hunt to alice as its control owner", "give the hunt to alice"),
        ("hand the runbook to Bob as owner please", "hand the runbook to Bob please"),
    ):
        assert _read(text) == expected, text


def test_record_on_a_task_that_words_is_a_comment_with_the_words_as_said() -> None:
    for text, expected in (
        (
            "Please record on 'Review NetScaler session tokens' that evidence of session "
            "termination was captured in ticket SEC-4411.",
            "add a comment on 'Review NetScaler session tokens': evidence of session "
            "termination was captured in ticket SEC-4411",
        ),
        (
            "Please record on this item that the control test passed with no exceptions.",
            "add a comment on this task: the control test passed with no exceptions",
        ),
        (
            "note against the control 'Patch the Check Point gateways' that the exception "
            "register was updated",
            "add a comment on 'Patch the Check Point gateways': the exception register was updated",
        ),
        (
            "reccord on the hunt that logs were sampled",
            "add a comment on the hunt: logs were sampled",
        ),
        (
            "please record the walkthrough notes on this control: owner interviewed",
            "add a comment on this task: The walkthrough notes: owner interviewed",
        ),
    ):
        assert _read(text) == expected, text


def test_record_that_an_item_is_completed_completes_it() -> None:
    for text, expected in (
        (
            "Please record that the remediation item 'Patch the Check Point gateways' has been "
            "completed and mark it closed.",
            "complete 'Patch the Check Point gateways'",
        ),
        ("record that the finding 'X' was remediated", "complete 'X'"),
        ("kindly note that the hunt is now done, and close it", "complete the hunt"),
        ("Record that this control has been successfully implemented.", "complete this task"),
        ("log that 'Y' was closed out", "complete 'Y'"),
    ):
        assert _read(text) == expected, text


def test_record_that_an_exception_is_remediated_resolves_it_with_the_why() -> None:
    for text, expected in (
        (
            "Please record that the exception 'Waiting for the vendor maintenance window' is "
            "remediated: the change board approved the window on 2 November.",
            f"resolve the blocker '{VENDOR}': the change board approved the window on 2 November",
        ),
        (
            "Please record that exception as remediated: the vendor window was granted.",
            "resolve that blocker: the vendor window was granted",
        ),
        (
            "mark the impediment on the patch task as resolved because CAB signed off",
            "resolve the blocker on the patch task: CAB signed off",
        ),
        (
            "record that the exeption 'Q' has been cleared - vendor confirmed",
            "resolve the blocker 'Q': vendor confirmed",
        ),
        (f"record that '{VENDOR}' is closed", f"resolve the blocker '{VENDOR}'"),
        (f"Record that '{VENDOR}' has been completed.", f"resolve the blocker '{VENDOR}'"),
        (
            "Please close the exception 'Q', vendor confirmed",
            "close the blocker 'Q', vendor confirmed",
        ),
    ):
        assert _read(text) == expected, text


def test_an_impediment_recorded_on_a_task_is_a_blocker_on_it() -> None:
    for text, expected in (
        (
            "Please record an impediment on 'Hunt for unusual VPN logins': the VPN log export "
            "has not been approved by the data owner.",
            "add a blocker on 'Hunt for unusual VPN logins': the VPN log export has not been "
            "approved by the data owner.",
        ),
        (
            "raise an exception against this control because the owner is on leave",
            "add a blocker against this task: the owner is on leave",
        ),
        (
            "log a new impediment for the remediation item 'Z' - no change window",
            "add a blocker for 'Z': no change window",
        ),
        (
            "Record an exception on the runbook pending legal review",
            "add a blocker on the runbook: pending legal review",
        ),
    ):
        assert _read(text) == expected, text


def test_which_actions_it_may_perform_is_what_it_can_do() -> None:
    for text in (
        "Which actions are you able to perform on the workspace on my behalf, for the purposes "
        "of the audit?",
        "What operations are you permitted to carry out on my behalf?",
        "Please state which changes you are authorised to make in the workspace.",
        "which actions can you take for me?",
        "tell me what things you are allowed to do here",
    ):
        assert _read(text) == "what can you do?", text


def test_what_asks_none_of_these_stays_as_typed() -> None:
    for text in (
        "please record that the control test passed",  # which task: left to the rules
        "Record that exception 'Q' still stands",
        "what are the open exceptions on the VPN project?",
        "which tasks can you see?",
        "note that the runbook is now in review",  # a state: `workspace_record_that`
        "assign the hunt to bob",
        "record a blocker on the hunt: no logs",  # the rules' own words
    ):
        assert _read(text) == text, text


def test_a_stored_blocker_quoted_is_found_by_its_name() -> None:
    assert stored_blocker_quoted(f"the exception '{VENDOR}' was raised", NAMES) == VENDOR
    assert stored_blocker_quoted("the exception 'Patch the Check Point gateways'", NAMES) is None
    assert stored_blocker_quoted("no quotes here", NAMES) is None


def test_an_owner_or_a_field_recorded_as_a_value_is_that_change() -> None:
    for text, expected in (
        ("Please record that the control owner for 'D' is now Bob.", "assign 'D' to Bob"),
        ("record the process owner of the hunt is alice", "assign the hunt to alice"),
        ("note that the owner of this control will be bob", "assign this task to bob"),
        (
            "Please record the due date of 'H' as 30 November.",
            "set the due date of 'H' to 30 November",
        ),
        ("log the deadline for the runbook as friday", "set the due date of the runbook to friday"),
        (
            "record the priority of the remediation item 'P' as high",
            "set the priority of 'P' to high",
        ),
    ):
        assert _read(text) == expected, text


def test_what_the_entry_is_for_and_its_evidence_are_no_part_of_the_change() -> None:
    for text, expected in (
        (
            "For audit purposes, please record that the exception on the patch is closed: CAB "
            "approval CHG-1182.",
            "resolve the blocker on the patch: CAB approval CHG-1182",
        ),
        (
            "Please record that the remediation item 'P' is complete, with evidence in CHG-2201.",
            "complete 'P'",
        ),
        (
            "for the audit file, record on 'W' that legal reviewed it",
            "add a comment on 'W': legal reviewed it",
        ),
        (
            "Please record the following impediment on 'H': the export is not approved.",
            "add a blocker on 'H': the export is not approved.",
        ),
        ("record that the finding 'F' has been remediated - see SEC-12", "complete 'F'"),
    ):
        assert _read(text) == expected, text
