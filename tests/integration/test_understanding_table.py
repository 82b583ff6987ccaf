"""Issue 26's table: each request does what its words ask (rule policy + the layer + MiniLM).

The guideline chat rows of the table belong to the question analysis (another branch).
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.ports import StoredEntry
from lectern.domain.books import CatalogEntry, FieldProvenance
from tests.assistant_world import _book, make_catalog, make_vocabulary, make_world
from tests.workspace_world import Clock, WorkspaceWorld, conversation_worlds


@pytest.fixture
def workspace(tmp_path: Path, layer: Understanding) -> WorkspaceWorld:
    return conversation_worlds(tmp_path, RulePolicy(layer=layer))()


def _calls(reply: object) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, dict(c.arguments)) for c in reply.tool_calls]  # type: ignore[attr-defined]


def test_everything_assigned_to_me_is_the_attention_summary(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "show me everything assigned to me")
    assert [name for name, _ in _calls(reply)] == ["get_attention_summary"]
    assert "Year of Secret Assignments" not in reply.text


def test_which_tasks_are_overdue_lists_only_the_overdue_one(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat("alice", "Which tasks are overdue?")
    assert [name for name, _ in _calls(reply)] == ["get_attention_summary"]
    assert "Patch the Check Point gateways" in reply.text
    assert "Schedule the phishing drill" not in reply.text


def test_a_new_task_in_a_named_project_assigned_to_bob(workspace: WorkspaceWorld) -> None:
    reply = workspace.assistant.chat(
        "alice", "set up a new task in the VPN project: rotate certificates, assign it to bob"
    )
    [(name, arguments)] = _calls(reply)
    assert name == "create_task"
    assert arguments["title"] == "Rotate certificates"
    assert arguments["assignee_id"] == "bob"
    assert "vpn" in str(arguments["project_id"]).casefold()
    [action] = reply.actions
    workspace.assistant.approve("alice", action.id)
    tasks = workspace.workspace.store.tasks([workspace.demo.vpn.id])
    created = [t for t in tasks if t.title == "Rotate certificates"]
    assert created and created[0].assignee == "bob"


def _book_world(layer: Understanding):  # type: ignore[no-untyped-def]
    catalog = make_catalog()
    extra = [
        _book(101, "Dracula", ("Bram Stoker",), 1897, ("horror", "classics"), "A vampire."),
        _book(102, "The Drowned Ward", ("Ann Vale",), 2011, ("dystopia",), "A dystopian novel."),
        _book(103, "Grey City", ("Tom Reyes",), 2015, ("dystopia",), "A dystopian novel of ash."),
        _book(
            104,
            "Teen Rebels",
            ("Kim Ash",),
            2016,
            ("dystopia", "young adult"),
            "A dystopian novel.",
        ),
    ]
    for book in extra:
        provenance = (FieldProvenance("title", "goodbooks", str(book.id.int)),)
        catalog.entries[book.id] = StoredEntry(CatalogEntry(book, (), provenance, ()), "h")
    understanding = RuleBasedUnderstanding(make_vocabulary(catalog))
    return make_world(RulePolicy(understanding, layer), catalog=catalog)


def test_stick_dracula_on_my_halloween_list(layer: Understanding) -> None:
    world = _book_world(layer)
    now = world.clock()
    list_id = str(uuid.uuid4())
    world.library.create_list("reader", list_id, "Halloween", now)
    world.library.create_list("reader", str(uuid.uuid4()), "Summer", now)
    reply = world.service.chat("reader", "stick Dracula on my Halloween list")
    [(name, arguments)] = _calls(reply)
    assert name == "add_to_list"
    assert arguments["list"] == "Halloween"
    assert arguments["book"] == "Dracula"
    world.service.approve("reader", reply.actions[0].id)
    [halloween] = [r for r in world.library.lists("reader") if r.name == "Halloween"]
    assert [e.book_id for e in halloween.entries] == [str(uuid.UUID(int=101))]


def test_the_writer_of_dracula_is_a_details_question(layer: Understanding) -> None:
    world = _book_world(layer)
    reply = world.service.chat("reader", "who's the writer of Dracula")
    assert _calls(reply) == [("get_book_details", {"book": "Dracula"})]
    assert "Bram Stoker" in reply.text


def test_a_list_made_and_filled_with_two_adult_dystopian_novels(layer: Understanding) -> None:
    world = _book_world(layer)
    reply = world.service.chat(
        "reader",
        "Make a reading list called Dystopia for adults with two dystopian novels that are "
        "not young adult",
    )
    calls = _calls(reply)
    assert [name for name, _ in calls] == [
        "search_books",
        "create_list",
        "add_to_list",
        "add_to_list",
    ]
    assert calls[0][1]["exclude_youth"] is True
    assert calls[0][1]["limit"] == 2
    assert calls[1][1]["name"] == "Dystopia for adults"
    for action in reply.actions:
        world.service.approve("reader", action.id)
    [made] = world.library.lists("reader")
    assert made.name == "Dystopia for adults"
    assert len(made.entries) == 2
    assert str(uuid.UUID(int=104)) not in {e.book_id for e in made.entries}


def test_a_request_with_no_referent_gets_a_question_not_an_action(
    workspace: WorkspaceWorld,
) -> None:
    reply = workspace.assistant.chat("alice", "mark it done")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text
    assert reply.suggestions


# Found by trying the assistant in our own words (session 9), one mechanism each.


def test_a_second_question_joined_by_and_is_asked_of_the_same_book(layer: Understanding) -> None:
    """ "who wrote dracula and when" asks two things of *Dracula*, not of a book titled
    "dracula and when"."""
    world = _book_world(layer)
    reply = world.service.chat("reader", "who wrote dracula and when")
    assert _calls(reply) == [("get_book_details", {"book": "dracula"})]
    assert "Bram Stoker" in reply.text and "1897" in reply.text


def test_a_count_to_put_on_a_new_list_is_a_search_not_a_title(layer: Understanding) -> None:
    world = _book_world(layer)
    reply = world.service.chat(
        "reader", "start a list called Grim Futures and put two dystopian novels on it"
    )
    calls = _calls(reply)
    assert [name for name, _ in calls] == [
        "search_books",
        "create_list",
        "add_to_list",
        "add_to_list",
    ]
    assert calls[0][1]["limit"] == 2 and calls[1][1]["name"] == "Grim Futures"


def test_like_a_book_but_for_adults_leaves_young_readers_books_out(layer: Understanding) -> None:
    world = _book_world(layer)
    reply = world.service.chat("reader", "anything like Grey City but for grown-ups?")
    [(name, arguments)] = _calls(reply)
    assert name == "similar_books"
    assert arguments["book"] == "Grey City" and arguments["exclude_youth"] is True
    assert "Teen Rebels" not in reply.text


def test_a_but_no_tool_can_hold_is_said_not_dropped(layer: Understanding) -> None:
    world = _book_world(layer)
    reply = world.service.chat("reader", "books like Grey City but funnier")
    assert _calls(reply)[0][1]["book"] == "Grey City"
    assert 'could not narrow them by "funnier"' in reply.text


def test_a_page_limit_after_but_narrows_the_similar_books(layer: Understanding) -> None:
    world = _book_world(layer)
    reply = world.service.chat("reader", "anything like Grey City but under 300 pages?")
    [(name, arguments)] = _calls(reply)
    assert name == "similar_books" and arguments["max_pages"] == 300
    assert "could not narrow" not in reply.text


def test_a_limit_beside_a_wish_no_tool_holds_narrows_and_says_the_rest(
    layer: Understanding,
) -> None:
    world = _book_world(layer)
    reply = world.service.chat("reader", "books like Grey City but funnier and after 2012")
    [(name, arguments)] = _calls(reply)
    assert name == "similar_books" and arguments["min_year"] == 2013
    assert 'could not narrow them by "funnier"' in reply.text


def test_a_count_put_onto_a_new_list_in_one_breath_is_searched_and_added(
    layer: Understanding,
) -> None:
    """ "throw two dystopian novels onto a new list named Grim" made the list and dropped the
    books: a count put on a list is a search for that many, then the list and the adds."""
    world = _book_world(layer)
    reply = world.service.chat("reader", "throw two dystopian novels onto a new list named Grim")
    calls = _calls(reply)
    assert [name for name, _ in calls] == [
        "search_books",
        "create_list",
        "add_to_list",
        "add_to_list",
    ]
    assert calls[0][1]["limit"] == 2 and calls[1][1]["name"] == "Grim"


def test_relative_due_dates_are_read_against_the_clock(
    tmp_path: Path, layer: Understanding
) -> None:
    """ "due next week" on a new task and "push X to next friday" on an old one are dates
    (read with dateparser against the policy's clock), not words of a title or a question
    back; a task's "to" is its purpose, not a date, and "a task to the X project" is where."""
    world = conversation_worlds(tmp_path, RulePolicy(layer=layer, clock=Clock()))()
    reply = world.assistant.chat(
        "alice", "add a task to the phishing project: book the training room, due next week"
    )
    [(name, arguments)] = _calls(reply)
    assert name == "create_task"
    assert arguments["title"] == "Book the training room"
    assert arguments["due_date"] == "2026-11-09"  # START is Monday 2026-11-02
    assert "phishing" in str(arguments["project_id"]).casefold()
    reply = world.assistant.chat("alice", "push the check point patch to next friday")
    [(name, arguments)] = _calls(reply)
    assert name == "update_task" and arguments["due_date"] == "2026-11-06"
