"""A message of two or three independent requests, cut where one request ends (dev20).

The dev20 messages beside phrasings of our own: a question followed by more words, "also",
"and also", "then", "plus", "oh and", "while you're at it", a new sentence that is itself a
request. Near-misses stay whole: a question whose later words only tell, a bare "and"
(titles and list names hold one), quoted words and a comment's words. Also the two
look-ups a part needed: a task asked after as "what's on the runbook?" and "what other
lists do I have".
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.book_patterns import LISTS
from lectern.adapters.understanding.compound import clauses
from lectern.adapters.understanding.request_parts import points_back, request_parts
from tests.unit.test_workspace_phrasings import _calls

RUNBOOK = "Write the incident runbook"
HUNT = "Hunt for unusual VPN logins"
DRILL = "Schedule the phishing drill"
PATCH = "Patch the Check Point gateways"


@pytest.mark.parametrize(
    ("said", "parts"),
    [
        # dev20
        (
            "what's on the runbook right now? and set it to in review while you're at it",
            ["what's on the runbook right now?", "set it to in review"],
        ),
        (
            "any blockers on the vpn project? also remind me who's on the team",
            ["any blockers on the vpn project?", "remind me who's on the team"],
        ),
        (
            "First list the open blockers, then list the documents linked to VPN gateway "
            "hardening.",
            ["list the open blockers", "list the documents linked to VPN gateway hardening."],
        ),
        (
            "what's on my Commute list, and while you're at it what other lists do I have",
            ["what's on my Commute list", "what other lists do I have"],
        ),
        # ours
        (
            "what's blocking the vpn project? oh and who's on the team?",
            ["what's blocking the vpn project?", "who's on the team?"],
        ),
        (
            "list the vpn blockers. also, who is on the team?",
            ["list the vpn blockers", "who is on the team?"],
        ),
        (
            "what's going on with the hunt? and make it high priority while you're at it",
            ["what's going on with the hunt?", "make it high priority"],
        ),
        (
            "show me the open blockers, plus who's on the team",
            ["show me the open blockers", "who's on the team"],
        ),
        (
            "any blockers? and then, show me the team",
            ["any blockers?", "show me the team"],
        ),
        (
            "Show me the vpn tasks. Who is on the team? Then list the documents.",
            ["Show me the vpn tasks.", "Who is on the team?", "list the documents."],
        ),
    ],
)
def test_a_message_is_cut_where_a_request_ends(said: str, parts: list[str]) -> None:
    assert request_parts(said) == parts


@pytest.mark.parametrize(
    "said",
    [
        # a question whose later words only tell, or ask the same thing again
        "can the drill be due end of next week? HR needs more time",
        "anything sitting on hold? projects i mean",
        "who's touched this so far? comments, assignee, all of it",
        "would it be alright if I closed the check point task? all four gateways are patched",
        "any good pizza places near the office? asking for the whole team lol",
        "Could you delete my Summer list? I never use it.",
        "The drill went fine. Close it.",
        "Good morning! Could you remind me which documents are attached to the VPN project?",
        # a bare "and": titles and list names hold one
        "add Pride and Prejudice to Sci-Fi and Fantasy",
        "what's on my Sci-Fi and Fantasy list",
        # quoted words, and a comment's words once begun
        "comment 'vendor called? then close it' on the patch",
        "comment that the vendor called, then close it",
        "add a note: checked the logs. also the firewall",
        # one request only
        "show me the open blockers",
        # a yes/no question after a question asks the first again (dev18)
        "which projects can I even see in here? is it just the vpn one",
        "who's on the team? is bob still on it?",
    ],
)
def test_one_request_stays_whole(said: str) -> None:
    assert request_parts(said) == []


def test_the_book_surface_takes_while_you_re_at_it_as_a_joint() -> None:
    # dev20: "while you're at it" joins the second look-up
    assert clauses(
        "what's on my Commute list, and while you're at it what other lists do I have"
    ) == ["what's on my Commute list", "what other lists do I have"]
    assert clauses("what's on my TBR, and while you're at it, show me my lists") == [
        "what's on my TBR",
        "show me my lists",
    ]
    assert clauses("what's The Bluest Eye about? and put it on Book Club while you're at it") == [
        "what's The Bluest Eye about?",
        "put it on Book Club",
    ]
    # one request alone is no compound
    assert clauses("what's on my Commute list") == []


@pytest.mark.parametrize(
    "said",
    [
        "what other lists do I have",  # dev20
        "which other lists do I have?",
        "what other reading lists do we have",
        "show me what remaining lists I have",
        "tell me which other reading lists we have",
    ],
)
def test_the_other_lists_are_the_reader_s_lists(said: str) -> None:
    assert LISTS.search(said), said


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("what's on the runbook right now?", RUNBOOK),  # dev20
        ("what's going on with the hunt?", HUNT),
        ("what's up with the phishing drill", DRILL),
        ("what is the state of the check point patch?", PATCH),
        ("where are we with the runbook?", RUNBOOK),
        ("what's on the phishing drill at the moment", DRILL),
    ],
)
def test_a_task_asked_after_is_its_details(said: str, task: str) -> None:
    assert _calls(said) == [("get_task_details", {"task_id": task})]


@pytest.mark.parametrize(
    "said",
    ["what's on the vpn project?", "what's going on with the team?", "what's on the agenda?"],
)
def test_what_is_on_something_else_is_no_task(said: str) -> None:
    from tests.unit.test_workspace_phrasings import SYSTEM, _rules

    stages = _rules().plan(said, [], SYSTEM)
    calls = stages[0](None) if stages else None
    assert not (isinstance(calls, list) and calls and calls[0].name == "get_task_details")


@pytest.mark.parametrize(
    "said",
    [
        # the reviewer's: the later part never says which task, so the earlier one is not it
        "what's on the runbook? also tell bob",
        "any blockers on the patch? also remind me to call bob",
        "any comments on the runbook? also make bob aware",
        # ours
        "what's up with the phishing drill? also tell alice",
        "where are we with the hunt? oh and remind me who's on the team",
    ],
)
def test_a_later_part_without_it_points_back_at_no_task(said: str) -> None:
    parts = request_parts(said)
    assert len(parts) == 2, said
    assert not points_back(parts[1]), parts


@pytest.mark.parametrize(
    "said",
    [
        "what's on the runbook right now? and set it to in review while you're at it",  # dev20
        "what's going on with the hunt? and make it high priority while you're at it",
        "what's on the runbook? also assign it to bob",
        "where are we with the hunt? oh and give that one to bob",
        "show me the hunt task, then mark the task done",
    ],
)
def test_a_later_part_saying_it_points_back(said: str) -> None:
    parts = request_parts(said)
    assert len(parts) == 2, said
    assert points_back(parts[1]), parts
