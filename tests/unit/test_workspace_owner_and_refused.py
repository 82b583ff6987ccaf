"""Whose task it is is no assignment, and a priority refused is not the one asked for.

"bob's check point patch doesn't need to be high anymore — drop it to medium" (dev18) was an
assignment to bob (his name, read as the one to hand it to) and, read as a change, set the
priority to high (the first priority said, the one refused).
"""

from __future__ import annotations

import pytest

from lectern.adapters.understanding.layer import Clarification
from lectern.adapters.understanding.slots import priority_of
from lectern.adapters.understanding.workspace_plan import plan_workspace
from tests.unit.test_workspace_phrasings import NAMES, NOWHERE, _call, _planned


@pytest.mark.parametrize(
    ("said", "priority"),
    [
        ("the runbook doesn't need to be high anymore — drop it to medium", "medium"),
        ("from high to medium please", "medium"),
        ("it is not urgent, make it low", "low"),
        ("no longer urgent; make it medium", "medium"),
        ("the drill isn't low priority any more, it's high", "high"),
        ("set it to high", "high"),
        ("low... no wait, make it medium", "medium"),
        ("the runbook doesnt need to be high anymore, make it medium", "medium"),
        # a word ending in "nt" is no refusal ("hunt", "front", "urgent")
        ("bump the vpn login hunt to high, its urgent now", "high"),
        ("move the front task to low", "low"),
        ("the pentest hunt to high", "high"),
    ],
)
def test_the_priority_asked_for_is_not_the_one_refused(said: str, priority: str) -> None:
    assert priority_of(said) == priority


def test_a_priority_only_refused_is_no_priority() -> None:
    assert priority_of("the runbook isn't high priority any more") is None


@pytest.mark.parametrize(
    ("said", "task", "priority"),
    [
        ("bob's patch: drop it to medium", "Patch the Check Point gateways", "medium"),
        (
            "bob's check point patch doesn't need to be high anymore, make it low",
            "Patch the Check Point gateways",
            "low",
        ),
        ("alice's runbook should be urgent now", "Write the incident runbook", "urgent"),
        ("Bob’s token review: bump it to high", "Review NetScaler session tokens", "high"),
        ("alice's hunt task, lower it to low priority", "Hunt for unusual VPN logins", "low"),
    ],
)
def test_whose_task_it_is_with_a_new_value_changes_the_task(
    said: str, task: str, priority: str
) -> None:
    assert _planned("assign_task", said) == [
        ("update_task", {"task_id": task, "priority": priority})
    ]


def test_whose_task_it_is_does_not_stop_an_assignment_to_another() -> None:
    assert _planned("assign_task", "give bob's patch task to alice") == [
        ("assign_task", {"task_id": "Patch the Check Point gateways", "assignee_id": "alice"})
    ]


@pytest.mark.parametrize(
    "said",
    [
        "the hunt doesn't need bob anymore",
        "bob is off the hunt",
        "the runbook no longer needs alice",
        "the drill can go ahead without bob",
        "bob's off the netscaler review now",
    ],
)
def test_a_person_the_words_take_a_task_from_is_no_assignee(said: str) -> None:
    """Older than session 22: "the hunt doesn't need bob anymore" assigned the hunt to bob."""
    asked = plan_workspace("assign_task", said, NAMES, NOWHERE, _call)
    assert isinstance(asked, Clarification), (said, asked)
