"""Quoted, forwarded and pasted text beside a workspace request, and a tracker's words.

What is quoted after a forwarding header ("fwd from Bob:", "re: onboarding --", "bob
wrote:"), or followed by who said it, and an alert's or a log's lines pasted before the
request, are split from the request (`workspace_quoted.beside_the_quoted`); the request is
read alone, then with the quote only where its question names what the quote names
(`llm/quoted_first.py`). A tracker's ticket, story, card, epic and backlog are spelt out as the
workspace's tasks and projects (`workspace_agile`). Each test holds the dev16 sentence beside
phrasings of its own; the readings through MiniLM are in
`tests/integration/test_workspace_quoted_beside.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lectern.adapters.llm.quoted_first import quoted_first
from lectern.adapters.understanding.layer import name_it
from lectern.adapters.understanding.request_sentence import Request
from lectern.adapters.understanding.scaffold import Done, Step
from lectern.adapters.understanding.workspace_patterns import SEARCH
from lectern.adapters.understanding.workspace_quoted import beside_the_quoted
from lectern.adapters.understanding.workspace_shorthand import spelt_out, tracker_words_read
from lectern.domain.assistant import AIResponse, ToolCall
from tests.unit.test_workspace_phrasings import NAMES, _calls

REVIEW = "Review NetScaler session tokens"
DRILL = "Schedule the phishing drill"
VPN = "VPN gateway hardening"
PHISHING = "Phishing awareness"


def test_a_forwarded_message_is_split_from_the_request() -> None:
    for said, quote, request in (
        # dev16
        ("fwd from Bob: \"I'm out sick\" -- give it to alice then", "I'm out sick",
         "give it to alice then"),
        ('Fwd: "the NetScaler review is not urgent anymore, drop it to low" -- please change '
         "the priority", "the NetScaler review is not urgent anymore, drop it to low",
         "please change the priority"),
        ('re: onboarding -- "what is the VPN gateway hardening project actually for?" from the '
         "new hire. can you show me the project details so I can answer",
         "what is the VPN gateway hardening project actually for?",
         "can you show me the project details so I can answer"),
        # ours: other headers, curly quotes, who said it after the quote, no quotes at all
        ("FW: “can't make the drill, I'm travelling” — hand the drill to alice",
         "can't make the drill, I'm travelling", "hand the drill to alice"),
        ("bob wrote: \"I'm swamped with the audit\" -- give the patch to alice instead",
         "I'm swamped with the audit", "give the patch to alice instead"),
        ("Forwarded message from alice: \"bob should own this\"\nassign the review to me",
         "bob should own this", "assign the review to me"),
        ('"can we move the drill?" asked the CISO. push it to friday', "can we move the drill?",
         "push it to friday"),
        ("fwd from bob: I'm out sick today -- give the drill to alice", "I'm out sick today",
         "give the drill to alice"),
    ):  # fmt: skip
        assert beside_the_quoted(said) == Request(quote, request), said


def test_a_pasted_alert_or_log_line_is_split_from_the_request() -> None:
    for said, pasted, request in (
        # dev16
        ("WARN vpn-auth: 37 failed logins from 198.51.100.23 in 5m\npaste this as a comment "
         "on the unusual VPN logins hunt", "WARN vpn-auth: 37 failed logins from 198.51.100.23 "
         "in 5m", "paste this as a comment on the unusual VPN logins hunt"),
        ("CRITICAL fw-edge-02 cpu 98% sustained 15m\nmake a task in VPN gateway hardening to "
         "investigate the fw-edge-02 load, urgent", "CRITICAL fw-edge-02 cpu 98% sustained 15m",
         "make a task in VPN gateway hardening to investigate the fw-edge-02 load, urgent"),
        ("sshd[2211]: Failed password for invalid user admin\ndo we have anything about brute "
         "force?", "sshd[2211]: Failed password for invalid user admin",
         "do we have anything about brute force?"),
        # ours: a timestamp first, a bracketed state, two lines pasted
        ("2026-11-28T14:02:11Z ERROR gw-03 tunnel down\nlog it on the patch task",
         "2026-11-28T14:02:11Z ERROR gw-03 tunnel down", "log it on the patch task"),
        ("[FIRING] HighCPU fw-core-01\nopen a task for it in vpn hardening",
         "[FIRING] HighCPU fw-core-01", "open a task for it in vpn hardening"),
        ("Nov 28 14:02:11 gw01 sshd[4411]: Invalid user test\nNov 28 14:02:12 gw01 sshd[4411]: "
         "Invalid user test\ncomment both on the hunt",
         "Nov 28 14:02:11 gw01 sshd[4411]: Invalid user test Nov 28 14:02:12 gw01 "
         "sshd[4411]: Invalid user test", "comment both on the hunt"),
    ):  # fmt: skip
        assert beside_the_quoted(said) == Request(pasted, request), said


def test_a_quote_inside_a_request_or_a_persons_words_are_not_split() -> None:
    for said in (
        'comment on the drill: "HR approved" -- thanks',
        '"Rotate the keys" - add that to the vpn project',
        "add 'Check MTU' to the vpn project",
        "the error is back on the gateway\nplease reopen the patch task",
        "warning: the drill is late\nbump it to high",
        "re: the drill, can you move it to friday",
        "WARN vpn-auth: 37 failed logins",
    ):
        assert beside_the_quoted(said) is None, said


@dataclass
class _Plan:
    steps: list[Step] = field(default_factory=list)


def _planner(readings: dict[str, list[ToolCall] | AIResponse]) -> object:
    def plan(text: str) -> _Plan:
        read = readings.get(text, AIResponse("I'm not sure what you mean."))
        return _Plan([lambda _: read])

    return plan


def _first(plan: _Plan) -> object:
    return plan.steps[0](Done([], []))


def _asked(what: str, action: str) -> AIResponse:
    return name_it(what, action).response("m")


def test_a_quote_names_the_thing_only_the_requests_question_asked_for() -> None:
    told = Request("the NetScaler review is not urgent anymore, drop it to low", "please change it")
    changed = [ToolCall("1", "update_task", {"task_id": REVIEW, "priority": "low"})]
    plan = _planner(
        {
            "please change it": _asked("task", "change"),
            f"please change it: {told.circumstances}": changed,
        }
    )
    assert _first(quoted_first(told, plan, NAMES, "")) == changed  # type: ignore[arg-type]
    # the quote's own change, when the reader asked another: never made
    closed = [ToolCall("1", "complete_task", {"task_id": REVIEW})]
    plan = _planner(
        {
            "please change it": _asked("task", "change"),
            f"please change it: {told.circumstances}": closed,
        }
    )
    assert _first(quoted_first(told, plan, NAMES, "")) == _asked("task", "change")  # type: ignore[arg-type]


def test_the_quotes_people_are_not_who_the_reader_gives_a_task_to() -> None:
    told = Request("bob: can someone take the phishing drill", "please assign it")
    to_bob = [ToolCall("1", "assign_task", {"task_id": DRILL, "assignee_id": "bob"})]
    plan = _planner(
        {
            "please assign it": _asked("task", "assign"),
            f"please assign it: {told.circumstances}": to_bob,
        }
    )
    assert isinstance(_first(quoted_first(told, plan, NAMES, "")), AIResponse)  # type: ignore[arg-type]
    told = Request("can someone take the phishing drill", "please assign it to me")
    to_me = [ToolCall("1", "assign_task", {"task_id": DRILL, "assignee_id": "alice"})]
    plan = _planner(
        {
            "please assign it to me": _asked("task", "assign"),
            f"please assign it to me: {told.circumstances}": to_me,
        }
    )
    assert _first(quoted_first(told, plan, NAMES, "")) == to_me  # type: ignore[arg-type]


def test_a_trackers_words_are_the_workspaces() -> None:
    for said, spelt in (
        # dev16
        ('add a ticket to the phishing backlog: "Draft training slides", low priority',
         'add a task to the phishing project: "Draft training slides", low priority'),
        ("show me the backlog for phishing awareness", "show me the tasks for phishing awareness"),
        # ours
        ("new ticket on our vpn hardening backlog", "new task on the vpn hardening project"),
        ("pull up the phishing backlog", "pull up the tasks of the phishing project"),
        ("list the backlog of the phishing project", "list the tasks of the phishing project"),
        ("add a user story to the vpn epic", "add a task to the vpn project"),
        ("show me the user stories for phishing", "show me the tasks for phishing"),
        ("move the drill card to the done column", "move the drill task to done"),
        ("put the hunt in the in-review lane", "put the hunt in in-review"),
        ("which work items are WIP", "which tasks are in progress"),
    ):  # fmt: skip
        assert spelt_out(said) == spelt, said
        if "ticket" not in said:  # a ticket is shorthand, spelt out with the rest
            assert tracker_words_read(said) == spelt, said


def test_words_that_only_look_like_a_trackers_are_left() -> None:
    for said in (
        "what's the story with the drill",
        "put it back in the backlog",
        "note that the smart card reader is broken",
        "comment 'moved to the phishing backlog' on the drill",
    ):
        assert tracker_words_read(said) == said, said


def test_a_new_ticket_in_a_backlog_is_a_task_in_its_project() -> None:
    assert _calls(
        'add a ticket to the phishing backlog: "Draft training slides", low priority'
    ) == [
        (
            "create_task",
            {"title": "Draft training slides", "project_id": PHISHING, "priority": "low"},
        )
    ]
    assert _calls("show me the backlog for phishing awareness") == [
        ("get_tasks", {"project_id": PHISHING})
    ]
    assert _calls("list the vpn hardening backlog") == [("get_tasks", {"project_id": VPN})]


def test_whether_the_workspace_holds_anything_about_x_is_a_search() -> None:
    for said, query in (
        ("do we have anything in the workspace about brute force on the VPN?",
         "brute force on the VPN"),
        ("have we got any notes on credential stuffing against the VPN?",
         "credential stuffing against the VPN"),
        ("do we have anything written up about password spraying?", "password spraying"),
        ("did you have any comments about the okta outage in the workspace", "the okta outage"),
    ):  # fmt: skip
        found = SEARCH.match(said)
        assert found is not None and found["q"] == query, said
