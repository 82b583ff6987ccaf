"""Messages whose structure is in their lines, on both surfaces (rules + MiniLM).

The assistant service keeps line breaks. Each test holds the dev18 message beside phrasings
of our own: requests one a line (numbered or bulleted, under a heading or none, "it" meaning
what an earlier line named), an e-mail's greeting, sign-off and name (no part of the
request), and a pasted chat thread before the request ("vera's point" is what vera said).
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

DRILL = "Schedule the phishing drill"
RUNBOOK = "Write the incident runbook"
HUNT = "Hunt for unusual VPN logins"
PATCH = "Patch the Check Point gateways"
VENDOR = "Waiting for the vendor maintenance window"


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


def _lists(world: World, *names: str) -> None:
    for name in names:
        world.library.create_list("reader", str(uuid.uuid4()), name, world.clock())


def _book_calls(world: World, said: str) -> list[tuple[str, dict[str, object]]]:
    reply = world.service.chat("reader", said)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


def _calls(world: WorkspaceWorld, said: str) -> list[tuple[str, dict[str, object]]]:
    reply = world.assistant.chat("alice", said)
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]


@pytest.mark.parametrize(
    "said",
    [
        # dev18: "Spring Picks 2" had been the list's name
        "Right, a few things for the group:\n1. make a list called Deserts\n2. add Dune to it\n"
        "3. add Gilead as well",
        # ours
        "Could you do these for me\n- start a new list named Deserts\n- put Dune on it\n"
        "- Gilead too",
        "1) create a list Deserts\n2) add Dune to Deserts\n3) add Gilead to Deserts",
        "todo:\n\n* new list: Deserts\n* Dune on it please\n* and Gilead",
        "Book club admin\n• New list: Deserts (for the spring)\n• Add Dune to it\n• Add Gilead",
    ],
)
def test_a_list_made_then_filled_one_line_each(books: World, said: str) -> None:
    _lists(books, "Book Club")
    assert _book_calls(books, said) == [
        ("create_list", {"name": "Deserts"}),
        ("add_to_list", {"list": "Deserts", "book": "Dune"}),
        ("add_to_list", {"list": "Deserts", "book": "Gilead"}),
    ], said


@pytest.mark.parametrize(
    "said",
    [
        # dev18: asked back
        "After last night:\n- rate Dune 4 stars\n- take it off Book Club, we're done with it",
        # ours
        "Finished it yesterday!\n1. give Dune four stars\n2. remove it from Book Club",
        "- Dune: 4 stars\n- then off Book Club with it",
        "Following our meeting on Tuesday:\n* rate Dune 4\n* take Dune off the Book Club list",
        "ok so\n- 4 stars for Dune\n- and please drop it from Book Club",
    ],
)
def test_a_rating_then_a_removal_of_the_same_book(books: World, said: str) -> None:
    _lists(books, "Book Club")
    books.service.chat("reader", "add Dune to Book Club")
    for action in books.actions.pending("reader") if hasattr(books.actions, "pending") else ():
        del action
    calls = _book_calls(books, said)
    assert calls == [
        ("rate_book", {"book": "Dune", "stars": 4}),
        ("remove_from_list", {"list": "Book Club", "book": "Dune"}),
    ], said


@pytest.mark.parametrize(
    "said",
    [
        # dev18: only the list was made
        "Admin bits for the new term:\n• Delete Autumn 2025 (we've finished it)\n"
        "• New list: Winter 2026\n• Add Gilead to Winter 2026",
        # ours
        "Housekeeping\n1. delete Autumn 2025\n2. make a list called Winter 2026\n"
        "3. put Gilead on Winter 2026",
        "- get rid of the Autumn 2025 list (all read)\n- new list: Winter 2026\n- Gilead on it",
    ],
)
def test_a_list_deleted_another_made_and_filled(books: World, said: str) -> None:
    _lists(books, "Autumn 2025", "Book Club")
    assert _book_calls(books, said) == [
        ("delete_list", {"list": "Autumn 2025"}),
        ("create_list", {"name": "Winter 2026"}),
        ("add_to_list", {"list": "Winter 2026", "book": "Gilead"}),
    ], said


@pytest.mark.parametrize(
    "said",
    [
        # dev18: one blocker had held all three lines
        "* Check Point patch: status in progress\n* Runbook: due Nov 16\n"
        "* new blocker on the hunt: waiting for SIEM access",
        # ours
        "Standup notes:\n- set the check point patch to in progress\n- runbook due date to 16 Nov\n"
        "- add a blocker to the VPN hunt: waiting for SIEM access",
        "1. check point patching -> in progress\n2. move the runbook due date to November 16\n"
        "3. log a blocker on the hunt: SIEM access still pending",
        "Updates for today\n\n• mark the Check Point patch in progress\n"
        "• push the runbook to Nov 16\n• blocker on the VPN logins hunt: no SIEM access yet",
        "- Check Point patch is in progress now\n- Runbook: due 16 November\n"
        "- Hunt is blocked, waiting for SIEM access",
    ],
)
def test_workspace_changes_one_a_line(workspace: WorkspaceWorld, said: str) -> None:
    calls = _calls(workspace, said)
    assert [(name, args.get("task_id")) for name, args in calls] == [
        ("update_task", PATCH),
        ("update_task", RUNBOOK),
        ("create_blocker", HUNT),
    ], said
    assert calls[0][1]["status"] == "in_progress"
    assert str(calls[1][1]["due_date"]).endswith("-11-16")
    assert "SIEM" in str(calls[2][1]["description"])


@pytest.mark.parametrize(
    "said",
    [
        "- close the drill\n- assign it to bob",
        "Two things:\n1. complete the phishing drill task\n2. give it to bob",
    ],
)
def test_a_later_line_s_it_is_the_task_an_earlier_line_changed(
    workspace: WorkspaceWorld, said: str
) -> None:
    assert [(n, a.get("task_id")) for n, a in _calls(workspace, said)] == [
        ("complete_task", DRILL),
        ("assign_task", DRILL),
    ], said


@pytest.mark.parametrize(
    "said",
    [
        # dev18: the resolution had been "Alice"
        "Hi,\n\nGood news: Check Point confirmed our maintenance window (ticket 88213). Please "
        "close the blocker on the patching task.\n\nBest,\nAlice",
        # ours
        "Hello team,\nCheck Point confirmed the window, ticket 88213. Could you resolve the "
        "vendor blocker on the patch task?\nThanks,\nAlice",
        "Dear Lectern,\n\nThe maintenance window is confirmed (ticket 88213); please close the "
        "blocker on the Check Point patching.\n\nKind regards,\nAlice Analyst\nDemo Security Team",
        "Good morning,\n\nticket 88213: Check Point confirmed our window. Resolve the blocker on "
        "the patch task please.\n\nCheers,\nA.\n\n--\nAlice Analyst | on call",
        "hey,\nvendor confirmed the maintenance window (ticket 88213), so close the blocker on "
        "the patching task\nta\nAl",
    ],
)
def test_an_e_mails_sign_off_is_no_resolution(workspace: WorkspaceWorld, said: str) -> None:
    calls = _calls(workspace, said)
    assert [(n, a.get("blocker_id")) for n, a in calls] == [("resolve_blocker", VENDOR)], said
    resolution = str(calls[0][1].get("resolution", ""))
    assert "88213" in resolution, said
    assert "Alice" not in resolution and "Al" not in resolution.split(), said


@pytest.mark.parametrize(
    "said",
    [
        # dev18: asked which task
        "[14:02] vera: HR wants the drill after the 20th, not before\n[14:03] bob: noted\n\n"
        "can you put vera's point as a comment on the drill task",
        # ours
        "[09:10] bob: ok\n[09:11] vera: HR wants the drill after the 20th\n"
        "add what vera said as a comment on the phishing drill",
        "14:02 <vera> HR wants the drill after the 20th, not before\n14:05 <bob> makes sense\n"
        "comment vera's message on the drill",
        "[2026-11-02 14:02] vera: HR wants the drill after the 20th\n"
        "please note vera's point on the drill task as a comment",
        "[14:02] Vera: HR wants the drill after the 20th\n[14:03] Dana: +1\n\n"
        "Put Vera's note on the drill as a comment.",
    ],
)
def test_a_speakers_point_in_a_pasted_thread_is_commented(
    workspace: WorkspaceWorld, said: str
) -> None:
    calls = _calls(workspace, said)
    assert [(n, a.get("task_id")) for n, a in calls] == [("add_comment", DRILL)], said
    content = str(calls[0][1]["content"])
    assert "20th" in content and "bob" not in content.casefold(), said


@pytest.mark.parametrize(
    "said",
    [
        # dev18 (already right: kept so)
        "[11:40] bob: checkpoint confirmed the maint window for tonight 23:00\n"
        "[11:41] bob: so we're unblocked\n\nplease resolve that blocker with bob's note",
        # ours
        "[11:40] vera: hi\n[11:41] bob: vendor window confirmed for 23:00 tonight\n"
        "resolve the maintenance window blocker with bob's update",
        "11:41 <bob> vendor window confirmed for 23:00 tonight\n"
        "close the vendor blocker on the patch task using what bob said",
    ],
)
def test_a_speakers_note_is_a_resolution(workspace: WorkspaceWorld, said: str) -> None:
    calls = _calls(workspace, said)
    assert [(n, a.get("blocker_id")) for n, a in calls] == [("resolve_blocker", VENDOR)], said
    assert "23:00" in str(calls[0][1]["resolution"]), said
