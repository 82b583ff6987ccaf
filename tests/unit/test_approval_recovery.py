"""A crash between approval and its end never strands an action: recovery settles it.

The crash is the state a killed process leaves: the action claimed `executing` by an owner
that is gone (its lease running out), with the tool's write done or not. Recovery settles
each from the entity's state, exactly once; approve and reject on it answer the truth.
"""

from dataclasses import replace

import pytest

from lectern.domain.assistant import PendingAction
from lectern.domain.library import Rating
from lectern.errors import ActionAlreadyDecidedError
from tests.assistant_world import World, make_world

DEAD = "gone-host:4242:deadbeef"


def _list_action(world: World, name: str = "Autumn") -> PendingAction:
    (action,) = world.service.chat("alice", f"create a list called {name}").actions
    assert action.preview.tool_name == "create_list"
    return action


def _crash_after_claim(world: World, action: PendingAction, *, ran: bool) -> None:
    """What a SIGKILL leaves: claimed by a dead process; its write done when `ran`."""
    now = world.clock()
    assert world.actions.claim(
        "alice",
        action.id,
        from_status="pending",
        owner=DEAD,
        lease_until=now + world.service.approvals.lease,
        now=now,
        unexpired=True,
    )
    if ran:
        tool = world.registry.action("create_list")
        assert tool is not None
        tool.execute(action.preview.tool_input, _context(world))


def _context(world: World) -> object:
    from lectern.application.assistant.tools import ToolContext

    return ToolContext("alice", "c", world.clock())


def _lists(world: World) -> list[str]:
    return [reading_list.name for reading_list in world.library.lists("alice")]


def test_an_action_claimed_by_a_dead_process_runs_once_when_its_lease_ends() -> None:
    world = make_world()
    action = _list_action(world)
    _crash_after_claim(world, action, ran=False)
    assert world.service.approvals.recover() == []  # the lease still holds: not yet
    world.clock.advance(seconds=61)
    (settled,) = world.service.approvals.recover()
    assert settled.status == "executed"
    assert settled.result == {
        "recovered": True,
        "result": {
            "created_list": {"list_id": action.preview.tool_input["list_id"], "name": "Autumn"}
        },
    }
    assert _lists(world) == ["Autumn"]
    assert world.service.approvals.recover() == []  # idempotent: nothing left to settle
    assert _lists(world) == ["Autumn"]


def test_an_action_that_ran_before_the_crash_is_marked_executed_without_running_again() -> None:
    world = make_world()
    action = _list_action(world)
    _crash_after_claim(world, action, ran=True)
    world.clock.advance(seconds=61)
    (settled,) = world.service.approvals.recover()
    assert settled.status == "executed"
    assert settled.result == {"recovered": True, "ran_before_interruption": True}
    assert _lists(world) == ["Autumn"]


def test_approving_a_stranded_action_settles_it_and_rejecting_says_what_it_became() -> None:
    world = make_world()
    first, second = _list_action(world, "Autumn"), _list_action(world, "Winter")
    _crash_after_claim(world, first, ran=False)
    _crash_after_claim(world, second, ran=True)
    with pytest.raises(ActionAlreadyDecidedError, match="being carried out"):
        world.service.approve("alice", first.id)  # a live lease: still running somewhere
    world.clock.advance(seconds=61)
    reply = world.service.approve("alice", first.id)
    assert reply.decision is not None and reply.decision.action.status == "executed"
    with pytest.raises(ActionAlreadyDecidedError, match="interruption and is now executed"):
        world.service.reject("alice", second.id)
    assert sorted(_lists(world)) == ["Autumn", "Winter"]


def test_a_changed_or_expired_stranded_action_fails_with_its_reason_and_writes_nothing() -> None:
    world = make_world()
    (changed,) = world.service.chat("alice", "rate Dune 4 stars").actions
    late = _list_action(world, "Winter")
    _crash_after_claim(world, changed, ran=False)
    _crash_after_claim(world, late, ran=False)
    book = str(changed.preview.tool_input["book_id"])
    world.library.put_rating(Rating("alice", book, 2, None, world.clock()))  # another writer
    world.clock.advance(days=2)  # past the lease and the actions' expiry
    settled = {a.id: a for a in world.service.approvals.recover()}
    assert settled[changed.id].status == "failed"
    assert settled[changed.id].result == {
        "error": "interrupted_and_changed",
        "current": {"stars": 2, "review": None},
    }
    assert settled[late.id].status == "failed"
    assert settled[late.id].result == {"error": "interrupted_and_expired"}
    assert _lists(world) == []
    assert [r.stars for r in world.library.ratings("alice")] == [2]


def test_an_action_an_older_version_left_approved_is_recovered_too() -> None:
    world = make_world()
    action = _list_action(world)
    stored = world.actions.get("alice", action.id)
    assert stored is not None
    world.actions.add(replace(stored, status="approved"))  # the old three-step approval
    (settled,) = world.service.approvals.recover()
    assert settled.status == "executed"
    assert _lists(world) == ["Autumn"]
