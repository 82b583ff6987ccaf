"""A part after "and" with a verb of its own never borrows the first part's verb.

"close the drill and the hunt is next" proposed closing both tasks (a wrong action): the
gapped reading ("give X to bob and Y too") put "close" before "the hunt is next".
"""

from __future__ import annotations

from tests.unit.test_workspace_phrasings import SYSTEM, _calls, _rules


def test_a_second_part_with_its_own_verb_is_not_a_second_object() -> None:
    for text in (
        "close the drill and the hunt is next",
        "mark the runbook done and the netscaler review can wait",
        "close the drill and the hunt is still waiting on logs",
    ):
        calls = _calls(text)
        assert len(calls) == 1, (text, calls)
        assert calls[0][0] == "complete_task", (text, calls)


def test_a_second_object_without_a_verb_still_shares_the_first_verb() -> None:
    calls = _calls("give the netscaler review to bob and the runbook to bob too")
    assert [(t, a["task_id"]) for t, a in calls] == [
        ("assign_task", "Review NetScaler session tokens"),
        ("assign_task", "Write the incident runbook"),
    ]


def test_a_told_part_that_says_a_change_is_asked_not_guessed() -> None:
    stages = _rules().plan("close the drill and the hunt is done too", [], SYSTEM)
    assert stages is not None
    outcome = stages[0](None)
    # Either both closed from a reading of its own, or a question: never the drill alone.
    if isinstance(outcome, list):
        assert {a["task_id"] for _, a in [(c.name, c.arguments) for c in outcome]} == {
            "Schedule the phishing drill",
            "Hunt for unusual VPN logins",
        }
    else:
        assert outcome.text.strip().endswith("?")
