"""Pending actions, lists and ratings in SQL (SQLite and PostgreSQL): the approval rules."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa
from langchain_core.messages import AIMessage

from lectern.adapters.actions.sqlalchemy_actions import SqlAlchemyPendingActions
from lectern.adapters.catalog.library import SqlAlchemyLibrary
from lectern.adapters.catalog.sqlalchemy_catalog import SqlAlchemyBookCatalog
from lectern.adapters.llm.tool_calling import LangChainToolModel
from lectern.application.assistant.approvals import Approvals
from lectern.domain.assistant import ActionPreview, PendingAction, args_digest
from lectern.domain.library import Rating
from lectern.errors import ActionAlreadyDecidedError, ActionExpiredError
from tests.assistant_world import START, book_id, make_world
from tests.fakes import ScriptedChatModel


def _stores(url: str) -> tuple[SqlAlchemyBookCatalog, SqlAlchemyPendingActions, SqlAlchemyLibrary]:
    catalog = SqlAlchemyBookCatalog.from_url(url)  # migrates to head (0004 included)
    return catalog, SqlAlchemyPendingActions(catalog.engine), SqlAlchemyLibrary(catalog.engine)


def _action(user: str = "alice", minutes: int = 60) -> PendingAction:
    preview = ActionPreview(
        tool_name="rate_book",
        description="Rate 'Dune' 4 stars",
        entity_type="rating",
        entity_id="b1",
        tool_input={"book_id": "b1", "stars": 4, "review": None},
        old_state=None,
        new_state={"stars": 4, "review": None},
        diff=(),
    )
    return PendingAction(
        id=str(uuid.uuid4()),
        user=user,
        conversation="c1",
        preview=preview,
        args_digest=args_digest("rate_book", preview.tool_input),
        status="pending",
        created_at=START,
        expires_at=START + timedelta(minutes=minutes),
    )


def test_actions_round_trip_and_belong_to_their_user(catalog_url: str) -> None:
    catalog, actions, _ = _stores(catalog_url)
    action = _action()
    actions.add(action)
    assert actions.get("alice", action.id) == action
    assert actions.get("bob", action.id) is None
    assert actions.list("bob") == [] and actions.list("alice", status="pending") == [action]
    catalog.close()


def test_one_conditional_update_decides_and_enforces_expiry(catalog_url: str) -> None:
    catalog, actions, _ = _stores(catalog_url)
    action = _action(minutes=60)
    actions.add(action)
    late = START + timedelta(minutes=61)
    assert not actions.transition(
        "alice", action.id, from_status="pending", to_status="approved", now=late, unexpired=True
    )
    assert not actions.transition(
        "bob", action.id, from_status="pending", to_status="approved", now=START
    )
    assert actions.transition(
        "alice", action.id, from_status="pending", to_status="approved", now=START, unexpired=True
    )
    assert not actions.transition(
        "alice", action.id, from_status="pending", to_status="approved", now=START
    )
    assert actions.transition(
        "alice",
        action.id,
        from_status="approved",
        to_status="executed",
        now=START,
        result={"ok": True},
    )
    stored = actions.get("alice", action.id)
    assert stored is not None and stored.status == "executed" and stored.result == {"ok": True}
    assert stored.decided_at == START
    catalog.close()


class CountingLibrary(SqlAlchemyLibrary):
    def __init__(self, engine: sa.Engine) -> None:
        super().__init__(engine)
        self.puts = 0

    def put_rating(self, rating: Rating) -> None:
        self.puts += 1
        super().put_rating(rating)


def test_concurrent_approvals_in_threads_execute_once(catalog_url: str) -> None:
    catalog, actions, _ = _stores(catalog_url)
    library = CountingLibrary(catalog.engine)
    chat = ScriptedChatModel(
        script=[
            AIMessage(
                content="",
                tool_calls=[{"id": "c", "name": "rate_book", "args": {"book": "Dune", "stars": 4}}],
            ),
            "ok",
        ]
    )
    world = make_world(LangChainToolModel(chat, "scripted"), library=library, actions=actions)
    action = world.service.chat("alice", "rate Dune 4").actions[0]
    outcomes: list[str] = []
    start = threading.Barrier(6)

    def approve() -> None:
        start.wait()
        try:
            world.service.approvals.approve("alice", action.id)
            outcomes.append("ran")
        except ActionAlreadyDecidedError:
            outcomes.append("already")

    threads = [threading.Thread(target=approve) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["already"] * 5 + ["ran"]
    assert library.puts == 1
    assert [r.stars for r in library.ratings("alice")] == [4]
    assert actions.get("alice", action.id).status == "executed"  # type: ignore[union-attr]
    catalog.close()


def test_a_pending_action_survives_a_restart(catalog_url: str) -> None:
    catalog, actions, library = _stores(catalog_url)
    world = make_world(library=library, actions=actions)
    reply = world.service.chat("alice", "rate Dune 4 stars")
    (action,) = reply.actions
    catalog.close()

    catalog2, actions2, library2 = _stores(catalog_url)  # a new process over the same DB
    restarted = make_world(library=library2, actions=actions2)
    assert restarted.service.get_action("alice", action.id).status == "pending"
    restarted.service.approve("alice", action.id)
    assert library2.rating("alice", book_id("Dune")).stars == 4  # type: ignore[union-attr]
    catalog2.close()


def test_expired_in_the_database_cannot_run(catalog_url: str) -> None:
    catalog, actions, library = _stores(catalog_url)
    world = make_world(library=library, actions=actions)
    (action,) = world.service.chat("alice", "rate Dune 4 stars").actions
    world.clock.advance(hours=2)
    with pytest.raises(ActionExpiredError):
        world.service.approve("alice", action.id)
    assert actions.get("alice", action.id).status == "expired"  # type: ignore[union-attr]
    assert library.ratings("alice") == []
    catalog.close()


def test_library_is_per_user_and_names_are_unique(catalog_url: str) -> None:
    catalog, _, library = _stores(catalog_url)
    library.create_list("alice", "l1", "Autumn", START)
    library.add_entry("alice", "l1", "b1", "cozy", START)
    library.add_entry("bob", "l1", "b2", None, START)  # not bob's list: nothing happens
    (autumn,) = library.lists("alice")
    assert [(e.book_id, e.note) for e in autumn.entries] == [("b1", "cozy")]
    assert library.find_list("alice", " autumn ") == autumn
    assert library.get_list("bob", "l1") is None and library.lists("bob") == []
    with pytest.raises(sa.exc.IntegrityError):
        library.create_list("alice", "l2", "AUTUMN", START)
    library.create_list("bob", "l3", "Autumn", START)  # another user may use the name
    library.delete_list("bob", "l1")
    assert library.get_list("alice", "l1") is not None
    library.rename_list("alice", "l1", "Fall")
    library.remove_entry("alice", "l1", "b1")
    assert library.get_list("alice", "l1").name == "Fall"  # type: ignore[union-attr]
    assert library.get_list("alice", "l1").entries == ()  # type: ignore[union-attr]
    catalog.close()


def test_approvals_component_with_sql(catalog_url: str) -> None:
    catalog, actions, library = _stores(catalog_url)
    world = make_world(library=library, actions=actions)
    approvals: Approvals = world.service.approvals
    (action,) = world.service.chat("alice", "create a list called Summer").actions
    assert approvals.approve("alice", action.id).action.status == "executed"
    assert [r.name for r in library.lists("alice")] == ["Summer"]
    catalog.close()
