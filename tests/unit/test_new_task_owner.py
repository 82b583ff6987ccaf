"""A new task's owner said after its title ("..., high, bob owns it") is its assignee.

dev18's 'new task on vpn hardening: "Rotate the VPN gateway certificates", high, bob owns it'
made the task without bob: only "put it on X" and "have X take it" were read as its owner.
And todo.txt's "x" leading a line marks the task done ("x hunt vpn logins", dev18).
"""

from __future__ import annotations

import pytest

from tests.unit.test_workspace_phrasings import _calls


@pytest.mark.parametrize(
    ("said", "title", "owner"),
    [
        (
            'new task on vpn gateway hardening: "Rotate the certificates", high, bob owns it',
            "Rotate the certificates",
            "bob",
        ),
        (
            "new task in phishing awareness: print the posters, owned by bob",
            "Print the posters",
            "bob",
        ),
        (
            "add a task to the vpn project to audit the firewall, alice will take it",
            "Audit the firewall",
            "alice",
        ),
        ("new task in phishing awareness: book the room, bob is on it", "Book the room", "bob"),
        (
            "create a task in the vpn project to renew the cert, bob handles it",
            "Renew the cert",
            "bob",
        ),
    ],
)
def test_the_owner_said_after_the_title_is_the_assignee(said: str, title: str, owner: str) -> None:
    [(name, arguments)] = _calls(said)
    assert name == "create_task"
    assert (arguments["title"], arguments.get("assignee_id")) == (title, owner)


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("x hunt vpn logins", "Hunt for unusual VPN logins"),
        ("x the drill", "Schedule the phishing drill"),
        ("x runbook", "Write the incident runbook"),
        ("x netscaler review", "Review NetScaler session tokens"),
        ("x check point patching", "Patch the Check Point gateways"),
    ],
)
def test_a_todo_txt_x_before_a_task_completes_it(said: str, task: str) -> None:
    assert _calls(said) == [("complete_task", {"task_id": task})]


def test_a_capital_x_leading_a_sentence_is_no_mark() -> None:
    from lectern.adapters.understanding.workspace_shorthand import spelt_out

    assert spelt_out("X marks the spot") == "X marks the spot"
