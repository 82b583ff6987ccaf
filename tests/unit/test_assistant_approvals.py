"""Approvals are data resolved by id: order, once, expiry, changes, owners, digests."""

import threading
from dataclasses import replace

import pytest
from langchain_core.messages import AIMessage

from lectern.adapters.llm.tool_calling import LangChainToolModel
from lectern.domain.assistant import PendingAction
from lectern.domain.library import Rating
from lectern.errors import (
    ActionAlreadyDecidedError,
    ActionChangedError,
    ActionConflictError,
    ActionExpiredError,
    ActionNotFoundError,
    ActionNotReadyError,
)
from tests.assistant_world import World, book_id, make_world
from tests.fakes import FakeLibrary, FakePendingActions, ScriptedChatModel


def _calls(*calls: tuple[str, dict[str, object]]) -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[
            {"id": f"call-{n}", "name": name, "args": args, "type": "tool_call"}
            for n, (name, args) in enumerate(calls)
        ],
    )


def _scripted_world(*steps: object) -> tuple[World, ScriptedChatModel]:
    chat = ScriptedChatModel(script=[*steps, "Noted."])
    return make_world(LangChainToolModel(chat, "scripted")), chat


def _two_ratings() -> tuple[World, ScriptedChatModel, list[PendingAction]]:
    world, chat = _scripted_world(
        _calls(
            ("rate_book", {"book": "Dune", "stars": 5}),
            ("rate_book", {"book": "Gilead", "stars": 2, "review": "slow"}),
        )
    )
    reply = world.service.chat("alice", "rate Dune 5 and Gilead 2")
    assert [a.preview.tool_name for a in reply.actions] == ["rate_book", "rate_book"]
    assert world.library.ratings("alice") == []  # nothing changed before approval
    return world, chat, list(reply.actions)


def test_parallel_actions_approved_in_another_order_each_run_their_own_input() -> None:
    world, _, (dune, gilead) = _two_ratings()
    world.service.approve("alice", gilead.id)
    assert {r.book_id: r.stars for r in world.library.ratings("alice")} == {book_id("Gilead"): 2}
    world.service.approve("alice", dune.id)
    assert {r.book_id: r.stars for r in world.library.ratings("alice")} == {
        book_id("Gilead"): 2,
        book_id("Dune"): 5,
    }


def test_one_approved_one_rejected_and_the_model_is_told() -> None:
    world, chat, (dune, gilead) = _two_ratings()
    world.service.approve("alice", dune.id)
    reply = world.service.reject("alice", gilead.id)
    assert reply.decision is not None and reply.decision.action.status == "rejected"
    told = chat.received[-1][-1]
    assert told.type == "tool" and '"decision":"rejected"' in str(told.content)
    assert [r.book_id for r in world.library.ratings("alice")] == [book_id("Dune")]
    assert world.service.get_action("alice", gilead.id).status == "rejected"


def test_double_approval_runs_once_and_says_already_decided() -> None:
    world, _, (dune, _) = _two_ratings()
    world.service.approve("alice", dune.id)
    with pytest.raises(ActionAlreadyDecidedError, match="already executed"):
        world.service.approve("alice", dune.id)
    with pytest.raises(ActionAlreadyDecidedError):
        world.service.reject("alice", dune.id)
    assert world.service.get_action("alice", dune.id).status == "executed"


class CountingLibrary(FakeLibrary):
    def __init__(self) -> None:
        super().__init__()
        self.puts = 0

    def put_rating(self, rating: Rating) -> None:
        self.puts += 1
        super().put_rating(rating)


def test_concurrent_approvals_execute_exactly_once() -> None:
    library = CountingLibrary()
    chat = ScriptedChatModel(script=[_calls(("rate_book", {"book": "Dune", "stars": 3})), "ok"])
    world = make_world(LangChainToolModel(chat, "scripted"), library=library)
    action = world.service.chat("alice", "rate Dune 3").actions[0]
    outcomes: list[str] = []
    start = threading.Barrier(8)

    def approve() -> None:
        start.wait()
        try:
            world.service.approvals.approve("alice", action.id)
            outcomes.append("ran")
        except ActionAlreadyDecidedError:
            outcomes.append("already")

    threads = [threading.Thread(target=approve) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["already"] * 7 + ["ran"]
    assert library.puts == 1


def test_expiry_is_enforced_at_approval() -> None:
    world, _, (dune, _) = _two_ratings()
    world.clock.advance(hours=1)
    with pytest.raises(ActionExpiredError):
        world.service.approve("alice", dune.id)
    assert world.service.get_action("alice", dune.id).status == "expired"
    assert world.library.ratings("alice") == []
    with pytest.raises(ActionAlreadyDecidedError, match="expired"):
        world.service.approve("alice", dune.id)


def test_expired_actions_show_as_expired_in_listings() -> None:
    world, _, _ = _two_ratings()
    world.clock.advance(minutes=61)
    assert world.service.pending("alice") == []
    assert {a.status for a in world.service.actions("alice")} == {"expired"}


def test_changed_since_preview_is_refused_with_a_fresh_preview() -> None:
    world, _, (dune, _) = _two_ratings()
    world.library.put_rating(Rating("alice", book_id("Dune"), 1, "meh", world.clock()))
    with pytest.raises(ActionChangedError, match="changed since the preview") as caught:
        world.service.approve("alice", dune.id)
    assert world.service.get_action("alice", dune.id).status == "failed"
    assert world.library.rating("alice", book_id("Dune")).stars == 1  # type: ignore[union-attr]
    fresh_id = caught.value.fresh_action_id
    assert fresh_id is not None
    fresh = world.service.get_action("alice", fresh_id)
    assert fresh.status == "pending"
    assert fresh.preview.old_state == {"stars": 1, "review": "meh"}
    world.service.approve("alice", fresh_id)
    assert world.library.rating("alice", book_id("Dune")).stars == 5  # type: ignore[union-attr]


def test_another_users_action_is_not_found() -> None:
    world, _, (dune, _) = _two_ratings()
    for decide in (world.service.approve, world.service.reject, world.service.get_action):
        with pytest.raises(ActionNotFoundError):
            decide("bob", dune.id)
    assert world.service.pending("bob") == []
    assert world.service.get_action("alice", dune.id).status == "pending"


def test_the_executed_input_is_the_previewed_input() -> None:
    world, _, (dune, _) = _two_ratings()
    store = world.actions
    assert isinstance(store, FakePendingActions)
    stored = store.actions[dune.id]
    tampered = replace(stored.preview, tool_input={**stored.preview.tool_input, "stars": 1})
    store.actions[dune.id] = replace(stored, preview=tampered)
    with pytest.raises(ActionConflictError, match="no longer holds the input"):
        world.service.approve("alice", dune.id)
    assert world.library.ratings("alice") == []
    assert world.service.get_action("alice", dune.id).status == "failed"


def test_adding_to_a_list_not_yet_created_waits_for_the_create() -> None:
    world = make_world()
    reply = world.service.chat(
        "alice", "find three cozy mysteries after 2000 and add them to a new list called Autumn"
    )
    create, *adds = reply.actions
    assert create.preview.tool_name == "create_list" and len(adds) == 3
    with pytest.raises(ActionNotReadyError, match=create.id):
        world.service.approve("alice", adds[1].id)
    assert world.service.get_action("alice", adds[1].id).status == "pending"
    world.service.approve("alice", create.id)
    world.service.approve("alice", adds[1].id)
    (autumn,) = world.library.lists("alice")
    assert [e.book_id for e in autumn.entries] == [adds[1].preview.tool_input["book_id"]]
