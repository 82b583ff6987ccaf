"""The offline fallback policy on `unknown_fit` and `unresolved_like`, step by step.

The policy is a chat model: these tests hand it the request and tool results as messages
and read the tool calls and the answer it writes, with no agent or search around it.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from lectern.adapters.llm.fallback_policy import FallbackRulePolicy


def _request(**fields: Any) -> HumanMessage:
    data = {"query": "romance novels under 200 pages", "limit": 10, "filters": {}, **fields}
    return HumanMessage(
        content=f"Improve this book search.\n<request>\n{json.dumps(data)}\n</request>"
    )


def _book(n: int, shelves: str, pages: int | None = None, authors: str = "") -> dict[str, Any]:
    book: dict[str, Any] = {"book_id": f"00000000-0000-0000-0000-{n:012d}", "title": f"Book {n}"}
    if authors:
        book["authors"] = authors
    if pages is not None:
        book["pages"] = str(pages)
    book["categories"] = shelves
    return book


def _step(messages: list[BaseMessage]) -> AIMessage:
    reply = FallbackRulePolicy().invoke(messages)
    assert isinstance(reply, AIMessage)
    return reply


def _answered(reply: AIMessage) -> list[int]:
    assert not reply.tool_calls
    lines = str(reply.content).splitlines()[1:]
    return [int(line.split()[0].rsplit("-", 1)[1]) for line in lines]


def _after(messages: list[BaseMessage], call: AIMessage, books: Any) -> list[BaseMessage]:
    tool_call = call.tool_calls[0]
    result = ToolMessage(content=json.dumps(books), tool_call_id=str(tool_call["id"]))
    return [*messages, call, result]


def test_unknown_fit_searches_the_first_shelves_within_the_limit_and_puts_known_fits_first() -> (
    None
):
    first = [
        _book(1, "romance, fiction"),
        _book(2, "romance, historical", pages=180),
        _book(3, "romance, fiction"),
        _book(4, "fiction, romance", pages=420),  # known, and too long
    ]
    messages: list[BaseMessage] = [
        _request(reasons=["unknown_fit"], page_limit=[None, 200], first_results=first)
    ]
    call = _step(messages)
    assert [c["name"] for c in call.tool_calls] == ["search_catalog"]
    assert call.tool_calls[0]["args"] == {"query": "romance fiction", "limit": 20, "max_pages": 200}
    found = {
        "books": [
            _book(10, "cookbooks", pages=90),  # fits, on no shelf that was searched
            _book(11, "romance, paranormal", pages=150),
            _book(12, "romance"),
        ]
    }
    answer = _step(_after(messages, call, found))
    # Known fits first (the first search's, then the new one on a searched shelf), then the
    # first results of unknown length; the off-shelf fit and the too-long book stay out.
    assert _answered(answer) == [2, 11, 1, 3]


def test_unknown_fit_with_no_new_fit_keeps_the_first_results() -> None:
    first = [_book(1, "manga"), _book(2, "manga, comics")]
    messages: list[BaseMessage] = [
        _request(reasons=["unknown_fit"], page_limit=[None, 100], first_results=first)
    ]
    call = _step(messages)
    answer = _step(_after(messages, call, {"books": [_book(5, "manga")]}))
    assert _answered(answer) == [1, 2]


def test_unresolved_like_asks_for_the_neighbours_of_the_misspelt_title_once() -> None:
    first = [_book(1, "classics"), _book(2, "classics")]
    messages: list[BaseMessage] = [
        _request(
            query="books like The Great Gatsbi",
            reasons=["unresolved_like"],
            unresolved_like="The Great Gatsbi",
            first_results=first,
        )
    ]
    call = _step(messages)
    assert call.tool_calls[0]["name"] == "get_similar_books"
    assert call.tool_calls[0]["args"] == {"book": "The Great Gatsbi", "limit": 10}
    neighbours = {
        "books": [_book(7, "classics"), _book(8, "fiction")],
        "similar_to": {"book_id": "g", "title": "The Great Gatsby", "categories": "classics"},
    }
    answer = _step(_after(messages, call, neighbours))
    assert _answered(answer) == [7, 8, 1, 2]  # one call: the neighbours, then the first


def test_unresolved_like_that_names_no_close_title_answers_the_first_results() -> None:
    # X is not in the catalog: searching X's words again and answering the neighbours of
    # the best hit would present strangers as books like X (v2 did; the search marks the
    # first results as the nearest it has).
    first = [_book(1, "fantasy", authors="A. Writer"), _book(2, "fantasy")]
    messages: list[BaseMessage] = [
        _request(
            query="books like the Nowhere Chronicles",
            reasons=["unresolved_like"],
            unresolved_like="the Nowhere Chronicles",
            first_results=first,
        )
    ]
    call = _step(messages)
    error = {"error": "no book titled 'the Nowhere Chronicles' in the catalog"}
    answer = _step(_after(messages, call, error))
    assert not answer.tool_calls
    assert _answered(answer) == [1, 2]


def test_like_x_but_not_y_keeps_the_first_results_y_does_not_name() -> None:
    first = [
        _book(1, "thriller, mystery", authors="Gillian Flynn"),
        _book(2, "dark fantasy"),
        _book(3, "thriller"),
    ]
    messages: list[BaseMessage] = [
        _request(
            query="something like Gone Girl but not by Gillian Flynn",
            reasons=["exploration_request"],
            exploration={"like": "Gone Girl", "unlike": "Gillian Flynn"},
            first_results=first,
        )
    ]
    call = _step(messages)
    assert call.tool_calls[0]["args"]["exclude_authors"] == ["Gillian Flynn"]
    ten = {"books": [_book(20 + n, "thriller") for n in range(10)]}
    answer = _answered(_step(_after(messages, call, ten)))
    assert 1 not in answer  # by Y
    assert 3 in answer and answer.index(20) < answer.index(3)  # fused: X's neighbours lead
