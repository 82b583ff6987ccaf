"""Workspace things said in everyday words (dev15): a status ("in revision"), a project's
kind ("the vpn job"), a stored task opened by its words alone ("open the VPN login hunt"),
and a new task "for that" after a sentence saying what needs doing. Each holds the dev
sentence beside phrasings of our own. The names read by meaning (MiniLM) are tested in
`tests/integration/test_workspace_everyday_names.py`.
"""

from __future__ import annotations

from lectern.adapters.understanding.request_sentence import request_after_circumstances
from lectern.adapters.understanding.workspace_need_told import need_told_as_title
from tests.unit.test_workspace_phrasings import _calls

VPN = "VPN gateway hardening"
PHISHING = "Phishing awareness"


def test_everyday_words_for_in_review_filter_the_tasks() -> None:
    for text in (
        "Which tasks are in revision in the VPN project?",  # dev15
        "which tasks are under revision in the phishing project",
        "what tasks are being reviewed in the VPN project?",
    ):
        [(tool, arguments)] = _calls(text)
        assert tool == "get_tasks" and arguments["status"] == "in_review", text


def test_a_job_or_workstream_before_a_colon_is_the_project() -> None:
    said = {
        'new task on the vpn job: "Upgrade the Citrix firmware"': (
            VPN,
            "Upgrade the Citrix firmware",
        ),
        "add a task for the phishing workstream: 'Order posters'": (PHISHING, "Order posters"),
        "new task in the vpn hardening initiative: 'Rotate the certificates'": (
            VPN,
            "Rotate the certificates",
        ),
    }
    for text, (project, title) in said.items():
        [(tool, arguments)] = _calls(text)
        assert tool == "create_task", text
        assert (arguments["project_id"], arguments["title"]) == (project, title), text


def test_a_stored_task_opened_by_its_words_alone_is_its_details() -> None:
    said = {
        "open the VPN login hunt for me?": "Hunt for unusual VPN logins",  # dev15, asked
        "pull up the check point gateway patch please": "Patch the Check Point gateways",
        "show me the incident runbook": "Write the incident runbook",
    }
    for text, task in said.items():
        assert _calls(text) == [("get_task_details", {"task_id": task})], text
    # the project's words, or tasks said as such, are no one task
    assert _calls("open the VPN project")[0][0] == "get_project_details"
    assert _calls("show me the vpn tasks")[0][0] == "get_tasks"


def _titled(text: str) -> str:
    told = request_after_circumstances(text)
    assert told is not None, text
    return need_told_as_title(told).request


def test_a_task_for_that_after_a_need_is_titled_by_the_need() -> None:
    said = {
        # dev15
        "Somebody needs to brief the execs on the phishing results. Put a task on the "
        "phishing project for that, high priority.": "Brief the execs on the phishing results",
        "Someone has to renew the Citrix licences. Can you add a task for that in the VPN "
        "project?": "Renew the Citrix licences",
        "We should rerun the phishing quiz next month. Create a task for it on the phishing "
        "project, low priority.": "Rerun the phishing quiz next month",
    }
    for text, title in said.items():
        assert f"called '{title}'" in _titled(text), text


def test_a_telling_sentence_that_states_no_need_is_no_title() -> None:
    for text in (
        "The drill went fine. Put a task on the phishing project for that.",
        "Someone needs to renew the licences. Add a task called 'Renew' for that.",
        "We should renew the licences. Add a comment on the runbook for that.",
    ):
        told = request_after_circumstances(text)
        assert told is None or need_told_as_title(told) == told, text
