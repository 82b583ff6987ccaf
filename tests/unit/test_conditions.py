"""A change asked on a condition of a task's record: looked up, then proposed if it holds
(dev20, writer d; dev16).

"if bob hasn't started the phishing drill yet, give it to alice instead", "if there's still
nobody on the hunt task, put bob on it", "if the check point patch is overdue, bump it to
urgent" and "if the runbook is already done leave a thank-you comment on it, otherwise don't
touch it" were asked back as told or wondered about. The task is now looked up, and the
change proposed in the same turn only when the condition holds on the record; otherwise
nothing changes and the reply says what the record says. Each condition kind (status,
assignee, overdue, priority) is shown with phrasings of its own, and the near misses (a
polite "if you could", "if possible", "what if", a condition the record cannot tell) stay as
they were.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.llm.workspace_condition import asked_change
from lectern.adapters.understanding.condition_said import checked, conditional
from lectern.adapters.understanding.intent_examples import WORKSPACE_TOOLS
from lectern.bootstrap import bootstrap
from lectern.domain.assistant import AIResponse, Message, ToolSpec
from lectern.settings import load_settings
from tests.unit.test_workspace_phrasings import SYSTEM

TOOLS = [ToolSpec(name, "", {}) for name in WORKSPACE_TOOLS]
TODAY = date(2026, 11, 2)
DRILL = {
    "task_id": "t-drill",
    "title": "Schedule the phishing drill",
    "status": "todo",
    "priority": "medium",
    "assignee_id": "bob",
    "due_date": None,
}
HUNT = {
    **DRILL,
    "task_id": "t-hunt",
    "title": "Hunt for unusual VPN logins",
    "priority": "low",
    "assignee_id": None,
}
PATCH = {
    **DRILL,
    "task_id": "t-patch",
    "title": "Patch the Check Point gateways",
    "priority": "high",
    "due_date": "2026-10-31",
}
RUNBOOK = {
    **DRILL,
    "task_id": "t-runbook",
    "title": "Write the incident runbook",
    "status": "in_progress",
    "assignee_id": "alice",
    "due_date": "2026-11-12",
}
REVIEW = {
    **RUNBOOK,
    "title": "Review NetScaler session tokens",
    "status": "in_review",
    "due_date": None,
}


# --- the message split into its condition and its change ---------------------------------


@pytest.mark.parametrize(
    ("said", "condition", "change", "negated"),
    [
        # the dev sentences
        (
            "if bob hasn't started the phishing drill yet, give it to alice instead",
            "bob hasn't started the phishing drill yet",
            "give it to alice instead",
            False,
        ),
        (
            "if there's still nobody on the hunt task, put bob on it",
            "there's still nobody on the hunt task",
            "put bob on it",
            False,
        ),
        (
            "if the runbook is already done leave a thank-you comment on it, otherwise don't "
            "touch it",
            "the runbook is already done",
            "leave a thank-you comment on it",
            False,
        ),
        # own phrasings: either order, each word of condition, with or without a comma
        (
            "bump the patch to urgent if it's overdue",
            "it's overdue",
            "bump the patch to urgent",
            False,
        ),
        (
            "unless the runbook is done, bump it to high",
            "the runbook is done",
            "bump it to high",
            True,
        ),
        (
            "as long as the review is still in review, make it urgent",
            "the review is still in review",
            "make it urgent",
            False,
        ),
        (
            "provided the review isn't done, assign it to bob",
            "the review isn't done",
            "assign it to bob",
            False,
        ),
        (
            "assign the hunt to bob unless someone is already on it",
            "someone is already on it",
            "assign the hunt to bob",
            True,
        ),
        (
            "if the hunt is still unassigned give it to alice, if not leave it",
            "the hunt is still unassigned",
            "give it to alice",
            False,
        ),
        ("if the drill is todo then set it to high", "the drill is todo", "set it to high", False),
    ],
)
def test_the_condition_and_the_change(
    said: str, condition: str, change: str, negated: bool
) -> None:
    found = conditional(said)
    assert found is not None, said
    assert (found.condition, found.change, found.negated) == (condition, change, negated)


@pytest.mark.parametrize(
    "said",
    [
        "if you could assign the hunt to bob",  # a polite request
        "close the drill if possible",
        "give the hunt to bob if that's ok",
        "assign the hunt to bob if you can",
        "if it's not too much trouble, set the drill to high priority",
        "what if we gave the drill to alice",
        "would it be ok if I closed the check point task?",
        "sorry if this is a dumb question but what can you do",
        # a change made either way, or an else that changes: read as before
        "if the hunt is still unassigned give it to bob, and either way it's due friday",
        "if the drill is done close it, otherwise give it to alice",
    ],
)
def test_no_condition_to_look_up(said: str) -> None:
    found = conditional(said)
    assert found is None or checked(found.condition) is None, said


@pytest.mark.parametrize(
    "condition",
    ["he's free", "bob confirms", "alice is back", "the vendor calls", "it rains tomorrow"],
)
def test_a_condition_the_record_cannot_tell_is_no_check(condition: str) -> None:
    assert checked(condition) is None


# --- the condition as a test of the record -------------------------------------------------


def _holds(condition: str, record: dict[str, Any], who: str | None = None) -> bool:
    check = checked(condition)
    assert check is not None, condition
    return check.test(record, TODAY, who if who is not None else check.who)


@pytest.mark.parametrize(
    ("condition", "record", "holds"),
    [
        ("bob hasn't started the phishing drill yet", DRILL, True),
        ("bob hasn't started the runbook yet", RUNBOOK, True),  # alice's, not bob's
        ("alice has started the runbook", RUNBOOK, True),
        ("the drill is still todo", DRILL, True),
        ("it's still to do", RUNBOOK, False),
        ("the runbook is already done", RUNBOOK, False),
        ("the runbook isn't done yet", RUNBOOK, True),
        ("the review is in review", REVIEW, True),
        ("the drill is already in progress", DRILL, False),
        ("nobody has started the hunt yet", HUNT, True),
        ("the runbook is still open", RUNBOOK, True),
    ],
)
def test_a_status(condition: str, record: dict[str, Any], holds: bool) -> None:
    assert _holds(condition, record) is holds


@pytest.mark.parametrize(
    ("condition", "record", "holds"),
    [
        ("there's still nobody on the hunt task", HUNT, True),
        ("nobody's on the hunt yet", HUNT, True),
        ("the hunt is still unassigned", HUNT, True),
        ("the patch has no owner", PATCH, False),
        ("no one is assigned to the runbook", RUNBOOK, False),
        ("someone is already on it", HUNT, False),
        ("bob is still on the drill", DRILL, True),
        ("the drill is with alice", DRILL, False),
        ("it's assigned to alice", RUNBOOK, True),
    ],
)
def test_an_assignee(condition: str, record: dict[str, Any], holds: bool) -> None:
    assert _holds(condition, record) is holds


@pytest.mark.parametrize(
    ("condition", "record", "holds"),
    [
        ("the check point patch is overdue", PATCH, True),
        ("it's overdue", RUNBOOK, False),
        ("the patch task is past its due date", PATCH, True),
        ("it's late", DRILL, False),  # no due date: not late
        ("the patch isn't overdue", PATCH, False),
        ("the patch is overdue", {**PATCH, "status": "done"}, False),
    ],
)
def test_overdue(condition: str, record: dict[str, Any], holds: bool) -> None:
    assert _holds(condition, record) is holds


@pytest.mark.parametrize(
    ("condition", "record", "holds"),
    [
        ("the hunt is still low priority", HUNT, True),
        ("the patch is already urgent", PATCH, False),
        ("the drill is high priority", DRILL, False),
        ("it's medium priority", RUNBOOK, True),
        ("the hunt isn't urgent", HUNT, True),
        ("the drill's priority is medium", DRILL, True),
        # "critical" is urgent, "normal" medium, as the slots read them
        ("the patch is critical", {**PATCH, "priority": "urgent"}, True),
        ("the drill is normal priority", DRILL, True),
    ],
)
def test_a_priority(condition: str, record: dict[str, Any], holds: bool) -> None:
    assert _holds(condition, record) is holds


# --- looked up, then proposed or not ---------------------------------------------------------


def _turn(said: str, record: dict[str, Any], served: Any = None) -> tuple[list[str], AIResponse]:
    """The calls of one turn (a look-up answered with `record`) and its last response."""
    messages = [Message("user", said)]
    policy = served or RulePolicy(clock=lambda: __import__("datetime").datetime(2026, 11, 2, 9))
    made: list[str] = []
    for _ in range(3):
        reply = policy.complete_with_tools(messages, TOOLS, system=SYSTEM)
        made += [c.name for c in reply.tool_calls]
        if not reply.tool_calls or any(c.name != "get_task_details" for c in reply.tool_calls):
            return made, reply
        messages.append(Message("assistant", "", tool_calls=reply.tool_calls))
        for call in reply.tool_calls:
            result = json.dumps({"task": record})
            messages.append(Message("tool", result, tool_call_id=call.id))
    return made, reply


@pytest.mark.parametrize(
    ("said", "record", "change"),
    [
        (
            "if bob hasn't started the phishing drill yet, give it to alice instead",
            DRILL,
            "assign_task",
        ),
        ("if the drill is still todo, bump it to high", DRILL, "update_task"),
        ("give the drill to bob unless it's already in review", DRILL, "assign_task"),
        ("if the check point patch is overdue, bump it to urgent", PATCH, "update_task"),
        ("unless the patch is already urgent, make it urgent", PATCH, "update_task"),
        ("if bob is still on the drill, give it to alice", DRILL, "assign_task"),
    ],
)
def test_the_change_is_proposed_when_the_record_holds_the_condition(
    said: str, record: dict[str, Any], change: str
) -> None:
    made, reply = _turn(said, record)
    assert made == ["get_task_details", change], said
    assert reply.tool_calls[0].arguments["task_id"] == record["title"]


@pytest.mark.parametrize(
    ("said", "record"),
    [
        ("if the drill is already in progress, give it to alice", DRILL),
        ("if the drill is high priority, give it to alice", DRILL),
        ("give the drill to bob unless it's still todo", DRILL),
        ("if the runbook is overdue, set it to urgent", RUNBOOK),
        ("if the drill is with alice, bump it to high", DRILL),
    ],
)
def test_nothing_changes_when_it_does_not_hold_and_the_reply_says_why(
    said: str, record: dict[str, Any]
) -> None:
    made, reply = _turn(said, record)
    assert made == ["get_task_details"], said
    assert "haven't changed anything" in reply.text
    assert record["title"] in reply.text


def test_a_question_the_look_up_answers_goes_with_it() -> None:
    # dev16: "What is the state of this task? If it's still todo, put it in progress."
    said = "What's the status of the drill? If it's still todo, bump it to high."
    made, _ = _turn(said, DRILL)
    assert made == ["get_task_details", "update_task"]


def test_a_condition_the_record_cannot_tell_is_asked_not_made() -> None:
    for said in ("once bob confirms, close the patch", "if he's free, give him the drill"):
        made, reply = _turn(said, DRILL)
        assert made == [], said
        assert not reply.tool_calls


def test_the_change_alone_is_what_the_not_asked_rules_read() -> None:
    said = "if the check point patch is overdue, bump it to urgent"
    assert asked_change(said) == "bump it to urgent"
    assert asked_change("once bob confirms, close the patch") == (
        "once bob confirms, close the patch"
    )


# --- review: the change's own words, the comment's words, the condition kept -----------------

DONE_RUNBOOK = {**RUNBOOK, "status": "done"}
DRILL_TITLE = DRILL["title"]
RUNBOOK_TITLE = RUNBOOK["title"]


@pytest.mark.parametrize(
    ("said", "calls"),
    [
        # the reviewer's: the change names a task of its own, and "it" is that task
        (
            "if the runbook is done, give the drill to bob and make it urgent",
            [
                ("assign_task", {"task_id": DRILL_TITLE, "assignee_id": "bob"}),
                ("update_task", {"task_id": DRILL_TITLE, "priority": "urgent"}),
            ],
        ),
        (
            "if the runbook is done, move the drill to in progress and assign it to alice",
            [
                ("update_task", {"task_id": DRILL_TITLE, "status": "in_progress"}),
                ("assign_task", {"task_id": DRILL_TITLE, "assignee_id": "alice"}),
            ],
        ),
        (
            "if the runbook is done, comment on the drill that it is ready",
            [("add_comment", {"task_id": DRILL_TITLE, "content": "It is ready."})],
        ),
        # own phrasings: "it" the condition's task, the comment's own "it" kept
        (
            "if the runbook is done, comment on it that it is ready",
            [("add_comment", {"task_id": RUNBOOK_TITLE, "content": "It is ready."})],
        ),
        (
            "if the runbook is done, set that task to urgent",
            [("update_task", {"task_id": RUNBOOK_TITLE, "priority": "urgent"})],
        ),
    ],
)
def test_the_change_keeps_its_own_words(said: str, calls: list[tuple[str, dict[str, str]]]) -> None:
    made, reply = _turn(said, DONE_RUNBOOK)
    assert made[0] == "get_task_details", said
    assert [(c.name, c.arguments) for c in reply.tool_calls] == calls, said


def test_this_friday_is_no_pointer_to_the_task() -> None:
    # the reviewer's: "this" of "this friday" was read as the runbook and the date lost
    made, reply = _turn("if the runbook is done, push the due date to this friday", DONE_RUNBOOK)
    assert made == ["get_task_details"]
    assert not any("runbook" in str(c.arguments).casefold() for c in reply.tool_calls)
    assert not reply.tool_calls  # which task is asked, never a date lost


@pytest.mark.parametrize(
    "said",
    [
        # the reviewer's: the if is the comment's words, not a condition on the change
        "comment on the drill: we go ahead if the runbook is done",
        # own phrasings
        "comment on the drill that we go ahead if the runbook is done",
        "add a blocker to the drill saying we wait unless the runbook is done",
        'comment on the drill "go if the runbook is done"',
    ],
)
def test_an_if_in_a_comments_words_is_no_condition(said: str) -> None:
    assert conditional(said) is None, said
    made, reply = _turn(said, DONE_RUNBOOK)
    assert "get_task_details" not in made, said
    text = " ".join(str(c.arguments) for c in reply.tool_calls)
    assert "runbook is done" in text, said


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The rules policy as served, its understanding layer and all."""
    settings = load_settings(data_dir=tmp_path_factory.mktemp("data"), assistant_provider="rules")
    return bootstrap(settings).chat_model()


@pytest.mark.parametrize(
    "said",
    [
        # the reviewer's: a change that starts with a look-up keeps its condition: asked back
        "if the drill is still todo, push the drill back by two days",
        # own phrasings
        "if the drill is still todo, move the drill's due date out by a week",
        "push the drill back by two days if it's still todo",
    ],
)
def test_a_condition_not_looked_up_is_never_dropped(said: str, served: Any) -> None:
    # the status said in the condition ("still todo") was proposed as the change's value
    for policy in (served, None):
        made, reply = _turn(said, DRILL, policy)
        assert not reply.tool_calls, said
        assert made in ([], ["get_task_details"]), said


@pytest.mark.parametrize(
    "said",
    [
        "if the drill is overdue, bump it to urgent",
        "unless the drill is overdue, bump it to urgent",
        "bump the drill to urgent if it's past its due date",
    ],
)
def test_a_malformed_due_date_is_not_known_and_nothing_changes(said: str) -> None:
    made, reply = _turn(said, {**DRILL, "due_date": "soon"})
    assert made == ["get_task_details"], said
    assert "haven't changed anything" in reply.text
    assert "soon" in reply.text
