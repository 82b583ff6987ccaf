"""Three workspace constructs from dev19 beside phrasings of my own.

- a project named before "called" ("create a task in VPN called 'X'") was read as part of
  the project's name and asked about;
- a complaint asked as "why ...?" before the request ("why is the drill not marked
  complete?? it ran last week. mark it done") opened the task instead of closing it;
- a member named by display name ("put the Builder on the hunt") was read as a comment.
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.mentions import names_from_prompt
from lectern.adapters.understanding.request_sentence import request_after_circumstances
from lectern.adapters.understanding.workspace_members_named import members_named
from tests.unit.test_workspace_phrasings import SYSTEM, _calls

NAMES = names_from_prompt(SYSTEM + "\n- member: vera (Vera Viewer)")


@pytest.mark.parametrize(
    ("said", "project", "title"),
    [
        (
            "create a task in VPN called 'Rotate the VPN admin passwords'",
            "VPN gateway hardening",
            "Rotate the VPN admin passwords",
        ),
        (
            "add a task to phishing named Print the posters",
            "Phishing awareness",
            "Print the posters",
        ),
        (
            "new task under the VPN project titled 'Check MFA logs'",
            "VPN gateway hardening",
            "Check MFA logs",
        ),
        (
            "open a task in phishing called 'Collect feedback'",
            "Phishing awareness",
            "Collect feedback",
        ),
        (
            "make a task for the vpn project called Renew certs",
            "VPN gateway hardening",
            "Renew certs",
        ),
    ],
)
def test_the_project_named_before_called(said: str, project: str, title: str) -> None:
    assert _calls(said) == [("create_task", {"project_id": project, "title": title})]


@pytest.mark.parametrize(
    ("said", "asked"),
    [
        (
            "why is the drill not marked complete?? it ran last week. mark it done",
            "Mark it done",
        ),
        ("why is the hunt still open? close it please", "Close it please"),
        ("how come nobody owns the runbook? give it to bob", "Give it to bob"),
        ("Why is this still in review?! Move it to done.", "Move it to done."),
        ("why isn't the patch assigned yet? assign it to alice", "Assign it to alice"),
    ],
)
def test_a_complaint_before_the_request_is_its_circumstance(said: str, asked: str) -> None:
    found = request_after_circumstances(said)
    assert found is not None and found.request.rstrip(".") == asked.rstrip(".")


@pytest.mark.parametrize(
    "said",
    [
        "is the drill done? mark it done",
        "what's left on the hunt? close it",
        "why is the drill late?",
    ],
)
def test_a_question_of_its_own_is_no_circumstance(said: str) -> None:
    assert request_after_circumstances(said) is None


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("ok put the Builder on the hunt then", "ok put bob on the hunt then"),
        ("give the runbook to Alice Analyst", "give the runbook to alice"),
        ("ask Ms Analyst to take the drill", "ask alice to take the drill"),
        ("hand the drill to the Builder, due friday", "hand the drill to bob, due friday"),
        ("assign it to Vera Viewer", "assign it to vera"),
        ("can you get Mr Builder on the patch", "can you get bob on the patch"),
    ],
)
def test_a_member_asked_for_by_display_name(said: str, read: str) -> None:
    assert members_named(said, NAMES) == read


@pytest.mark.parametrize(
    "said",
    [
        "comment on the hunt: Bob Builder confirmed the logs look clean",
        "add a blocker to the drill: waiting on the Builder's sign-off",
        "new task in phishing: brief Alice Analyst on results",
        "the builder left a note on the patch",
        "give it to the builder",  # lower case: a word, not the family name
    ],
)
def test_kept_texts_and_plain_words_stay_as_said(said: str) -> None:
    assert members_named(said, NAMES) == said
