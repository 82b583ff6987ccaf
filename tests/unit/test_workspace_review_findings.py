"""Review findings on the workspace rules (session 25): each a construct read where it stands.

A label that says no blocker holds ("blocker: none") records none; a listed task's place is
read only where the request refers to a task, never inside the words a comment says; a
refused unassignment changes nothing; "as well" inside a new description is the
description's; "should mention X" never puts the verb in the text; an apostrophe inside a
word is no quote. Phrasings are our own, none a sentence of the sets.
"""

from __future__ import annotations

from typing import Any

import pytest

from lectern.adapters.llm.workspace_followups import picked_from_listing
from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.request_parts import in_the_request
from lectern.adapters.understanding.scaffold import Done
from lectern.adapters.understanding.slots import comment_of
from lectern.adapters.understanding.workspace_blocker_label import (
    new_blocker_said,
    says_no_blocker,
)
from lectern.adapters.understanding.workspace_plan import Where, plan_workspace
from lectern.adapters.understanding.workspace_unsaid import described
from lectern.domain.assistant import AIResponse, Message
from tests.unit.test_workspace_phrasings import MONDAY, NAMES, NOWHERE, _call, _on_page, _rules

PATCH_PAGE = _on_page("task", "task-1", "Patch the Check Point gateways")
LISTING = "\n".join(
    [
        "3 tasks:",
        "1. Patch the Check Point gateways (todo, high priority, assigned to bob) [task:a]",
        "2. Review NetScaler session tokens (in review, medium priority) [task:b]",
        "3. Hunt for unusual VPN logins (todo, low priority) [task:c]",
    ]
)
SHOWN = [Message("user", "list the vpn tasks"), Message("assistant", LISTING)]
HUNT = {"task": {"task_id": "task-3", "description": "Look for logins from new countries."}}


def _staged(text: str, system: str = PATCH_PAGE) -> list[Any]:
    """Each stage's calls (as name and arguments) or reply text, a look-up given HUNT."""
    stages = _rules().plan(text, [], system)
    assert stages is not None, text
    out: list[Any] = []
    calls: list[Any] = []
    results: list[Any] = []
    for stage in stages:
        made = stage(Done(calls, results))
        if not isinstance(made, list):
            out.append(made.text if isinstance(made, AIResponse) else made)
            break
        out.append([(c.name, dict(c.arguments)) for c in made])
        calls += made
        results += [HUNT] * len(made)
    return out


# --- a label that says no blocker holds -----------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "blocker: none",
        "blocker: no",
        "blocker: nothing",
        "impediment: none at the moment",
        "blocker: nope, all good",
        "blocked: not anymore, the vendor replied",
        "blocker - nah",
        "new blocker: none right now.",
    ],
)
def test_a_label_that_says_no_blocker_holds_records_none(said: str) -> None:
    assert says_no_blocker(said)
    assert not new_blocker_said(said)
    asked = _staged(said)
    assert len(asked) == 1 and "no new blocker" in str(asked[0]), (said, asked)
    planned = plan_workspace(
        "create_blocker", said, NAMES, Where("task-1", None, None), _call, MONDAY
    )
    assert isinstance(planned, Clarification), said


@pytest.mark.parametrize(
    ("said", "description"),
    [
        ("blocker: no access to the gateway console", "No access to the gateway console"),
        ("blocker: nothing from the vendor yet", "Nothing from the vendor yet"),
        ("blocker: none of the gateways can reboot before friday", "None of the gateways can"),
        ("blocker: no reply from legal", "No reply from legal"),
    ],
)
def test_a_blocker_whose_words_begin_with_no_is_still_recorded(said: str, description: str) -> None:
    assert not says_no_blocker(said)
    made = _staged(said)[0]
    assert made[0][0] == "create_blocker" and made[0][1]["description"].startswith(description)


# --- a place read only where a task is referred to -----------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "comment on the hunt: the first item on the checklist is outdated",
        "comment on the patch: we are number 2 in the vendor queue",
        "add a blocker to the patch: waiting on the second vendor reply, we are number 3",
        "add a comment to the hunt saying the second one is a false positive",
        "set the description of the hunt to check the first item first",
        'comment on the review "the low priority one is next"',
    ],
)
def test_a_place_inside_the_words_said_is_left_as_said(said: str) -> None:
    assert picked_from_listing(said, SHOWN) == said


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("comment on the second one: vendor replied", "Review NetScaler session tokens"),
        ("mark number 2 done", "Review NetScaler session tokens"),
        ("assign the last one to bob", "Hunt for unusual VPN logins"),
        ("put a comment on the first task saying it waits", "Patch the Check Point gateways"),
        ("comment on the low priority one: started", "Hunt for unusual VPN logins"),
    ],
)
def test_a_place_where_a_task_is_referred_to_is_the_listed_task(said: str, task: str) -> None:
    assert f"the task {task}" in picked_from_listing(said, SHOWN)


def test_where_the_request_refers_and_where_the_words_are_said() -> None:
    said = "comment on the hunt: the first item is old"
    assert in_the_request(said, said.index("hunt"))
    assert not in_the_request(said, said.index("first"))
    said = "rename the second one to 'the first thing'"
    assert in_the_request(said, said.index("second"))
    assert not in_the_request(said, said.index("first"))


# --- a refused unassignment changes nothing -------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "don't unassign the drill",
        "please do not unassign the drill",
        "no need to unassign the drill",
        "do not remove the assignee from the drill",
        "dont un-assign the phishing drill",
    ],
)
def test_a_refused_unassignment_changes_nothing(said: str) -> None:
    planned = plan_workspace("assign_task", said, NAMES, NOWHERE, _call, MONDAY)
    assert isinstance(planned, Clarification), said
    assert "won't unassign" in planned.question


@pytest.mark.parametrize(
    "said",
    [
        "unassign the drill",
        "nobody owns the drill for now, unassign it",
        "remove the assignee from the drill",
        "don't worry about it, just unassign the drill",
        "leave the drill unassigned",
    ],
)
def test_an_unassignment_asked_is_made(said: str) -> None:
    planned = plan_workspace("assign_task", said, NAMES, NOWHERE, _call, MONDAY)
    assert isinstance(planned, list) and planned[0].arguments["assignee_id"] is None, said


def test_an_owner_refused_to_be_missing_is_asked_for() -> None:
    said = "don't leave the drill unassigned"
    planned = plan_workspace("assign_task", said, NAMES, NOWHERE, _call, MONDAY)
    assert isinstance(planned, Clarification) and "Who" in planned.question


# --- a description replaced or added to, by the request's own words -------------------------


@pytest.mark.parametrize(
    ("said", "words"),
    [
        (
            "change the description of the hunt to: check the VPN logs as well as the Citrix logs",
            "check the VPN logs as well as the Citrix logs",
        ),
        (
            "set the description of the hunt to check the citrix logs too",
            "check the citrix logs too",
        ),
        ("update the description of the hunt to: look at the proxy, also the DNS", None),
        ("the description of the hunt should be: check the VPN logs as well", None),
        ("change the hunt's description to: review logs in addition to alerts", None),
    ],
)
def test_as_well_inside_the_new_words_replaces_the_description(
    said: str, words: str | None
) -> None:
    staged = _staged(said)
    assert staged[0][0][0] == "update_task", (said, staged)
    if words is not None:
        assert staged[0][0][1]["description"] == words


@pytest.mark.parametrize(
    ("said", "added"),
    [
        (
            "the description of the hunt should also say to check the Citrix logs",
            "check the Citrix logs",
        ),
        ("the description of the hunt should mention the Citrix logs", "the Citrix logs"),
        ("the description of the hunt should include the proxy logs", "the proxy logs"),
        ("the description of the hunt needs to cover the DNS logs", "the DNS logs"),
        ("set the description of the hunt to check the citrix logs, too", "check the citrix logs"),
    ],
)
def test_an_addition_said_by_the_request_keeps_what_it_said(said: str, added: str) -> None:
    staged = _staged(said)
    assert staged[0] == [("get_task_details", {"task_id": "Hunt for unusual VPN logins"})]
    whole = staged[1][0][1]["description"]
    assert whole == f"Look for logins from new countries.\n\n{added}", (said, whole)


def test_should_mention_never_puts_the_verb_in_the_text() -> None:
    for verb in ("mention", "include", "cover", "note"):
        said = described(f"the description of the hunt should {verb} the Citrix logs")
        assert said is not None and said.description == "the Citrix logs" and said.added
    said = described("the description of the hunt should say check the logs")
    assert said is not None and not said.added


# --- an apostrophe inside a word is no quote ------------------------------------------------


@pytest.mark.parametrize(
    ("said", "words"),
    [
        ("the window's fine now, we don't need the vendor anymore", None),
        ("vendor's patch is out, they've confirmed it", None),
        ("comment on the drill 'venue booked'", "venue booked"),
        ("resolve it: 'window granted'", "'window granted'"),
        ('note "it works" on the hunt', "it works"),
    ],
)
def test_an_apostrophe_inside_a_word_is_no_quote(said: str, words: str | None) -> None:
    found = comment_of(said)
    if words is None:
        assert found is None or "'" not in said[: said.find(found)][-1:], found
        assert found is None or said.find(found) >= 0 and not found.startswith("s ")
    else:
        assert found is not None and words.strip("'") in found


def test_a_resolution_is_whole_words_of_the_message() -> None:
    said = "the window's fine now, we don't need the vendor anymore"
    made = plan_workspace(
        "resolve_blocker",
        said,
        NAMES,
        Where("Patch the Check Point gateways", None, None),
        _call,
        MONDAY,
    )
    assert isinstance(made, list)
    resolution = made[0].arguments["resolution"]
    assert resolution in said and not resolution.startswith("s ")
    start = said.index(resolution)
    assert start == 0 or not said[start - 1].isalnum()
