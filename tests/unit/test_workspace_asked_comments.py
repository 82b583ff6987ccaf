"""Whether someone wrote on a task, asked, is a look at the task, never a new comment.

"has Bob written anything on the Check Point gateways task? he mentioned a lab test" (dev18)
was asked what the comment should say: the question was read as a request to comment, and
its "?" was not the message's last character.
"""

from __future__ import annotations

import pytest

from tests.unit.test_workspace_phrasings import _planned


@pytest.mark.parametrize(
    ("said", "task"),
    [
        (
            "has Bob written anything on the Check Point gateways task? he mentioned a lab test",
            "Patch the Check Point gateways",
        ),
        ("did bob leave a note on the drill? he said he would", "Schedule the phishing drill"),
        ("have there been comments on the runbook lately", "Write the incident runbook"),
        ("does the hunt have any comments yet", "Hunt for unusual VPN logins"),
        ("any notes on the netscaler review? just checking", "Review NetScaler session tokens"),
    ],
)
def test_a_question_about_what_was_written_reads_the_task(said: str, task: str) -> None:
    assert _planned("add_comment", said) == [("get_task_details", {"task_id": task})]


def test_a_comment_asked_for_without_its_words_is_still_asked_about() -> None:
    from lectern.adapters.understanding.layer import Clarification
    from lectern.adapters.understanding.workspace_plan import plan_workspace
    from tests.unit.test_workspace_phrasings import NAMES, NOWHERE, _call

    asked = plan_workspace("add_comment", "comment on the drill", NAMES, NOWHERE, _call)
    assert isinstance(asked, Clarification)
