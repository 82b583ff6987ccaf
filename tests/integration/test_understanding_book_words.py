"""Book requests whose words decide what a near reading by meaning may not (rules + MiniLM).

Phrased fresh, none a sentence of the understanding sets: a correction needs a word saying
something is wrong, a list name ends where the request goes on, and "the list" names none.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from lectern.adapters.embeddings.onnx_minilm import OnnxMiniLMEmbedder
from lectern.adapters.llm.rule_policy import RulePolicy
from lectern.adapters.understanding.intent_examples import EXAMPLES
from lectern.adapters.understanding.intents import packaged_classifier
from lectern.adapters.understanding.layer import Understanding
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from tests.assistant_world import World, make_catalog, make_vocabulary, make_world


@pytest.fixture(scope="module")
def layer(tmp_path_factory: pytest.TempPathFactory) -> Understanding:
    cache = tmp_path_factory.mktemp("understanding")
    return Understanding(packaged_classifier(OnnxMiniLMEmbedder(threads=1), EXAMPLES, cache))


@pytest.fixture
def world(layer: Understanding, tmp_path: Path) -> World:
    del tmp_path
    catalog = make_catalog()
    return make_world(RulePolicy(RuleBasedUnderstanding(make_vocabulary(catalog)), layer))


def _names(reply: object) -> list[str]:
    return [c.name for c in reply.tool_calls]  # type: ignore[attr-defined]


def test_a_year_range_is_a_search_not_a_correction_or_a_details_question(world: World) -> None:
    reply = world.service.chat("reader", "science fiction published before 1980")
    assert _names(reply) == ["search_books"]
    assert reply.actions == ()


def test_a_list_name_ends_where_the_request_goes_on(world: World) -> None:
    reply = world.service.chat("reader", "make a list called Road Trips and keep it empty")
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("create_list", {"name": "Road Trips"})
    ]


def test_deleting_the_list_that_names_none_is_asked_back(world: World) -> None:
    now = world.clock()
    world.library.create_list("reader", str(uuid.uuid4()), "Winter", now)
    reply = world.service.chat("reader", "get rid of the list")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text


def test_it_with_no_book_in_view_is_asked_back(world: World) -> None:
    reply = world.service.chat("reader", "give it five stars")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text


def test_taking_a_book_from_a_list_never_deletes_the_list(world: World) -> None:
    now = world.clock()
    world.library.create_list("reader", str(uuid.uuid4()), "Autumn", now)
    reply = world.service.chat("reader", "remove the Dickens novel from my list")
    assert "delete_list" not in _names(reply)
    assert all(a.preview.tool_name != "delete_list" for a in reply.actions)


def test_a_book_named_by_its_author_is_asked_back(world: World) -> None:
    now = world.clock()
    world.library.create_list("reader", str(uuid.uuid4()), "Crime", now)
    reply = world.service.chat("reader", "put the Highsmith novel on my Crime list")
    assert reply.tool_calls == () and reply.actions == ()
    assert "Highsmith" in reply.text and "?" in reply.text


def test_a_list_whose_name_holds_a_book_word_is_not_a_book_search(world: World) -> None:
    now = world.clock()
    world.library.create_list("reader", str(uuid.uuid4()), "Mystery books", now)
    reply = world.service.chat("reader", "delete Mystery books")
    assert [(c.name, dict(c.arguments)) for c in reply.tool_calls] == [
        ("delete_list", {"list": "Mystery books"})
    ]


def test_titles_akin_to_a_book_are_similar_books(world: World) -> None:
    reply = world.service.chat("reader", "any titles akin to The Hobbit?")
    assert [c.name for c in reply.tool_calls][:1] == ["similar_books"]
    assert reply.tool_calls[0].arguments["book"] == "The Hobbit"


def test_a_book_not_yet_chosen_is_asked_for_not_taken_as_a_title(world: World) -> None:
    for name in ("Winter", "Attic"):
        world.library.create_list("reader", str(uuid.uuid4()), name, world.clock())
    reply = world.service.chat("reader", "move a novel from Winter to Attic")
    assert reply.tool_calls == () and reply.actions == ()
    assert "?" in reply.text
