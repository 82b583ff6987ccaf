"""A statement kept "on it" as a comment: the task the statement names, the statement whole.

"the vpn login hunt turned up nothing. put that on it as a comment" proposed a comment on the
hunt reading "On it as a comment" (tried by hand, session 17): "put that on X as a comment"
and "on it" were not read as the "add that as a comment on X" they are.
"""

from __future__ import annotations

from lectern.adapters.understanding.workspace_recorded import recorded
from tests.unit.test_workspace_phrasings import NAMES, _calls


def test_put_that_on_a_task_as_a_comment_keeps_the_statement() -> None:
    kept = recorded("legal signed off section 3, put that on the runbook as a note", NAMES)
    assert kept is not None
    assert (kept.tool, kept.text) == ("add_comment", "Legal signed off section 3")


def test_on_it_is_the_task_the_statement_names() -> None:
    for text, task in (
        (
            "the vpn login hunt turned up nothing. put that on it as a comment",
            "Hunt for unusual VPN logins",
        ),
        (
            "nothing odd in the runbook draft, stick that on it as a note",
            "Write the incident runbook",
        ),
        ("the hunt found nothing, comment that on it", "Hunt for unusual VPN logins"),
    ):
        [(tool, arguments)] = _calls(text)
        assert (tool, arguments["task_id"]) == ("add_comment", task), text
        assert "as a comment" not in arguments["content"].casefold(), text
        assert "nothing" in arguments["content"].casefold(), text


def test_on_it_with_no_task_in_the_statement_is_not_kept_here() -> None:
    assert recorded("it went fine yesterday. put that on it as a comment", NAMES) is None
