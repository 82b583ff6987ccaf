"""Messages of two or three independent requests, one at least a look-up (rules + MiniLM).

Each test holds the dev20 message beside phrasings of our own: a question followed by more
words, "also", "then", "oh and", "while you're at it", a new sentence that is itself a
request. Each part is read alone and the calls are joined in order, a later part's "it"
being the task an earlier part named. Near-misses keep today's reading: a question whose
later words only tell, and one request said twice.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.book_lookup import books_titled, names_a_title
from tests.assistant_world import World, make_catalog, make_vocabulary, make_world
from tests.workspace_world import WorkspaceWorld, conversation_worlds

RUNBOOK = "Write the incident runbook"
HUNT = "Hunt for unusual VPN logins"
DRILL = "Schedule the phishing drill"
VPN = "VPN gateway hardening"


@pytest.fixture
def books(layer: Understanding) -> World:
    catalog = make_catalog()
    vocabulary = make_vocabulary(catalog)
    policy = RulePolicy(
        RuleBasedUnderstanding(vocabulary),
        layer,
        titles=lambda title: names_a_title(title, vocabulary),
        books=lambda title: books_titled(title, vocabulary, catalog),
    )
    return make_world(policy, catalog=catalog)


@pytest.fixture
def workspace(tmp_path: Path, layer: Understanding) -> WorkspaceWorld:
    return conversation_worlds(tmp_path, RulePolicy(layer=layer))()


def _calls(world: WorkspaceWorld, said: str) -> list[tuple[str, dict[str, object]]]:
    reply = world.assistant.chat("alice", said)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def _names(world: WorkspaceWorld, said: str) -> list[str]:
    return [name for name, _ in _calls(world, said)]


@pytest.mark.parametrize(
    "said",
    [
        "any blockers on the vpn project? also remind me who's on the team",  # dev20
        "what's blocking the vpn project? oh and who's on the team?",
        "list the vpn blockers. also, who is on the team?",
        "show me the blockers in the vpn project, plus who's on the team",
        "any blockers on vpn? and then show me the team",
        "What is blocking VPN gateway hardening? Who is on the team?",
    ],
)
def test_a_look_up_then_the_team(workspace: WorkspaceWorld, said: str) -> None:
    assert _names(workspace, said) == ["get_blockers", "get_team_members"], said


@pytest.mark.parametrize(
    ("said", "task", "change"),
    [
        (  # dev20
            "what's on the runbook right now? and set it to in review while you're at it",
            RUNBOOK,
            {"status": "in_review"},
        ),
        (
            "what's going on with the hunt? and make it high priority while you're at it",
            HUNT,
            {"priority": "high"},
        ),
        ("where are we with the phishing drill? also set it to in progress", DRILL, {}),
        ("what's up with the runbook? oh and mark it in review", RUNBOOK, {}),
        ("show me the hunt task, then make it urgent", HUNT, {"priority": "urgent"}),
    ],
)
def test_a_task_looked_up_then_changed(
    workspace: WorkspaceWorld, said: str, task: str, change: dict[str, str]
) -> None:
    calls = _calls(workspace, said)
    assert [(n, a.get("task_id")) for n, a in calls] == [
        ("get_task_details", task),
        ("update_task", task),
    ], said
    assert change.items() <= calls[1][1].items(), said


@pytest.mark.parametrize(
    "said",
    [
        # dev20
        "First list the open blockers, then list the documents linked to VPN gateway hardening.",
        "first show me the open blockers, then the documents in the vpn project",
        "list the open blockers, and then list the vpn project's documents",
    ],
)
def test_first_the_blockers_then_the_documents(workspace: WorkspaceWorld, said: str) -> None:
    calls = _calls(workspace, said)
    assert [n for n, _ in calls] == ["get_blockers", "get_documents"], said
    assert calls[1][1].get("project_id") == VPN, said


@pytest.mark.parametrize(
    ("said", "names"),
    [
        # a question whose later words only tell: one request
        ("can the drill be due end of next week? HR needs more time", ["update_task"]),
        ("anything sitting on hold? projects i mean", ["get_projects"]),
        # one request said twice
        ("What's waiting on me? Anything overdue?", ["get_attention_summary"]),
    ],
)
def test_one_request_keeps_today_s_reading(
    workspace: WorkspaceWorld, said: str, names: list[str]
) -> None:
    assert _names(workspace, said) == names, said


@pytest.mark.parametrize(
    "said",
    [
        "what's on my Commute list, and while you're at it what other lists do I have",  # dev20
        "show me the Commute list, and while you're at it, what other lists do I have?",
        "what's on Commute? also which other lists do I have",
        "what's in my Commute list, then show me my lists",
        "Show me Commute. And which other lists do I have?",
    ],
)
def test_a_list_then_the_other_lists(books: World, said: str) -> None:
    for name in ("Commute", "Book Club"):
        books.library.create_list("reader", str(uuid.uuid4()), name, books.clock())
    reply = books.service.chat("reader", said)
    assert [c.name for c in reply.tool_calls] == ["get_list_details", "get_reading_lists"], said


@pytest.mark.parametrize(
    "said",
    [
        # the reviewer's: a later part that never says "it" is given no earlier task
        "what's on the runbook? also tell bob",
        "any blockers on the patch? also remind me to call bob",
        "any comments on the runbook? also make bob aware",
        # ours
        "any blockers on the runbook? also tell bob",
        "what's up with the phishing drill? also ping bob",
    ],
)
def test_a_part_without_it_takes_no_earlier_task(workspace: WorkspaceWorld, said: str) -> None:
    calls = _calls(workspace, said)
    assert not any(n == "assign_task" for n, _ in calls), (said, calls)


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("what's on the runbook? also assign it to bob", RUNBOOK),
        ("where are we with the hunt? oh and give that one to bob", HUNT),
    ],
)
def test_a_part_saying_it_takes_the_earlier_task(
    workspace: WorkspaceWorld, said: str, task: str
) -> None:
    calls = _calls(workspace, said)
    assert [(n, a.get("task_id")) for n, a in calls][-1] == ("assign_task", task), (said, calls)
