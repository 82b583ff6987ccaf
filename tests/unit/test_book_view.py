"""One view of a book for every model-facing tool: the assistant's and the fallback's."""

from __future__ import annotations

import json
import uuid
from typing import Any

from lectern.application.assistant.tools import QueryTool, ToolContext
from lectern.application.book_view import DESCRIPTION_CHARS, book_json
from lectern.application.fallback.prompts import request_text
from lectern.application.fallback.tools import FallbackToolbox
from lectern.domain.books import Book
from lectern.domain.search import SearchFilters, SearchQuery
from tests.assistant_world import START, make_catalog, make_search, make_vocabulary, make_world


def _assistant_books(tool_name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    world = make_world()
    tool = world.registry.get(tool_name)
    assert isinstance(tool, QueryTool)
    output = tool.run(tool.parse(arguments), ToolContext("reader", "c1", START))
    assert isinstance(output.data, dict)
    return output.data


def _fallback_books(tool_name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    catalog = make_catalog()
    toolbox = FallbackToolbox(make_search(catalog), catalog, vocabulary=make_vocabulary(catalog))
    tool = next(t for t in toolbox.tools() if t.name == tool_name)
    data = tool.run(tool.input_model.model_validate(arguments))
    assert isinstance(data, dict)
    return data


def _book(data: dict[str, Any]) -> Book:
    found = make_catalog().get(uuid.UUID(data["book_id"]))
    assert found is not None
    return found


def test_the_assistant_and_the_fallback_show_a_book_the_same_way() -> None:
    assistant = _assistant_books("search_books", {"query": "desert planet", "limit": 3})
    fallback = _fallback_books("search_catalog", {"query": "desert planet", "limit": 3})
    assert assistant["books"] and fallback["books"]
    for shown in assistant["books"]:
        assert {k: v for k, v in shown.items() if k != "rank"} == book_json(_book(shown))
    for shown in fallback["books"]:
        assert shown == book_json(_book(shown))
    dune = next(b for b in fallback["books"] if b["title"] == "Dune")
    assert dune["authors"] == "Frank Herbert"  # the citable text: names joined, not a list
    assert isinstance(dune["published_year"], str)


def test_the_book_a_similar_search_starts_from_is_shown_without_its_description() -> None:
    assistant = _assistant_books("similar_books", {"book": "Dune", "limit": 2})
    fallback = _fallback_books("get_similar_books", {"book": "Dune", "limit": 2})
    assert assistant["similar_to"] == fallback["similar_to"]
    assert fallback["similar_to"] == book_json(
        _book(fallback["similar_to"]), with_description=False
    )
    assert "description" not in fallback["similar_to"]


def test_the_fallback_request_shows_its_first_results_in_the_same_view() -> None:
    first = make_search(make_catalog()).search(SearchQuery("desert planet"))
    text = request_text("desert planet", 10, SearchFilters(), ["too_few_results"], first.results)
    body = json.loads(text.split("<request>", 1)[1].rsplit("</request>", 1)[0])
    assert body["first_results"] == [
        book_json(r.book, with_description=False) for r in first.results
    ]


def test_a_long_description_is_cut_at_a_word_for_every_tool() -> None:
    long = Book(id=uuid.UUID(int=7), title="Long", description="word " * 400)
    shown = book_json(long)
    assert isinstance(shown["description"], str)
    assert len(shown["description"]) <= DESCRIPTION_CHARS
    assert shown["description"].endswith("word")
