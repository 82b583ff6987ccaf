"""A task mention whose own words name something no stored task is about is asked, not matched.

WRatio scores a mention by its best part: "the firewall review" reached 85 against "Review
NetScaler session tokens" on "review" alone, and "move the firewall review to done" proposed
closing the NetScaler review (dev20's one wrong action of that kind). A mention's words that fit
no word of the title now weigh against it (`mentions.names_other`); other forms of a title's
words ("writing" for "Write", "patching" for "Patch") and misspellings still fit.
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.mentions import names_other
from lectern.domain.assistant import AIResponse
from tests.unit.test_workspace_phrasings import SYSTEM, _rules


def _reply(text: str) -> str | list[tuple[str, dict[str, object]]]:
    stages = _rules().plan(text, [], SYSTEM)
    assert stages, text
    outcome = stages[0](None)
    if isinstance(outcome, AIResponse):
        return outcome.text
    return [(c.name, dict(c.arguments)) for c in outcome]


@pytest.mark.parametrize(
    "text",
    [
        "move the firewall review to done",
        "close the firewall review",
        "give the firewall audit to bob",
        "set the router patch to high",
        "the printer review is finished",
        "assign the mailserver hunt to bob",
    ],
)
def test_a_mention_naming_something_else_is_asked(text: str) -> None:
    reply = _reply(text)
    assert isinstance(reply, str) and "Which task" in reply, reply


@pytest.mark.parametrize(
    ("text", "task"),
    [
        ("the runbook writing is done", "Write the incident runbook"),
        ("assign the phishing scheduling to bob", "Schedule the phishing drill"),
        ("finish the check point patching", "Patch the Check Point gateways"),
        ("close the vpn logins hunt", "Hunt for unusual VPN logins"),
        ("close the hunt ticket", "Hunt for unusual VPN logins"),
        ("mark the netscaler token review done", "Review NetScaler session tokens"),
        ("set the check pint patch to high", "Patch the Check Point gateways"),
        # review: a word of another kind beside one of the title's own is still the title
        ("mark the runbook draft done", "Write the incident runbook"),
        ("close the phishing exercise", "Schedule the phishing drill"),
        ("the drill thingy is done", "Schedule the phishing drill"),
        ("close the hunt today", "Hunt for unusual VPN logins"),
    ],
)
def test_a_mention_whose_words_fit_the_title_still_names_it(text: str, task: str) -> None:
    reply = _reply(text)
    assert isinstance(reply, list) and reply[0][1]["task_id"] == task, reply


def test_the_weighing_counts_the_words_that_fit_against_those_that_do_not() -> None:
    title = "Review NetScaler session tokens"
    assert names_other("firewall review", title)
    assert not names_other("netscaler review", title)
    assert not names_other("session token review for netscaler", title)
    assert not names_other("the review ticket", title)  # a kind of work names nothing
    assert not names_other("reveiw", title)  # a slip of the fingers fits
    # only the title's leading verb fits: what is done, not which task
    assert names_other("router patch", "Patch the Check Point gateways")
    assert not names_other("gateway patch", "Patch the Check Point gateways")
    assert not names_other("runbook draft", "Write the incident runbook")
    # dev20: "close both the hunt and the netscaler review" had closed the review alone
    assert not names_other("both the hunt", "Hunt for unusual VPN logins")
    # dev19: "... close it, and put me on the hunt next" had lost the assignment
    assert not names_other("the hunt next", "Hunt for unusual VPN logins")
    assert not names_other("the drill first", "Schedule the phishing drill")
