"""The search fallback: its triggers, the ReAct agent over fake chat models, the wiring."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence

import pytest
from langchain_core.messages import AIMessage, SystemMessage, ToolMessage

from lectern.adapters.llm.fallback_policy import MODEL_ID, FallbackRulePolicy, content_words
from lectern.adapters.llm.graphs.search_fallback import ReactSearchFallback
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.application.fallback.ports import AgentRun, AgentTool, SearchFallbackAgent
from lectern.application.fallback.prompts import PROMPT_VERSION, SYSTEM_PROMPT
from lectern.application.fallback.service import FallbackSearch
from lectern.domain.fallback import (
    ExplorationRequest,
    ResultSignals,
    dominant_author,
    exploration_request,
    fallback_reasons,
    names_author,
)
from lectern.domain.search import SearchFilters, SearchQuery
from lectern.errors import LLMError
from tests.assistant_world import BOOKS, book_id, make_catalog, make_search, make_vocabulary
from tests.fakes import RecordingTracer, ScriptedChatModel

# --- triggers (domain) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "something like Dune but not science fiction",
            ExplorationRequest("Dune", "science fiction"),
        ),
        (
            "books like The Hobbit, but not by J.R.R. Tolkien",
            ExplorationRequest("The Hobbit", "J.R.R. Tolkien"),
        ),
        ("a novel similar to Gilead but less religious", ExplorationRequest("Gilead", "religious")),
        ("surprise me with something different", ExplorationRequest()),
        ("books like Dune", None),
        ("cozy mystery in a village", None),
    ],
)
def test_exploration_requests_are_read_from_the_words(
    text: str, expected: ExplorationRequest | None
) -> None:
    assert exploration_request(text) == expected


def _signals(
    authors: Sequence[str], requested: int = 10, lexical: int = 50, vector: int = 50
) -> ResultSignals:
    return ResultSignals(requested, tuple(authors), lexical, vector)


def test_each_robust_signal_fires_on_its_own_fact() -> None:
    assert fallback_reasons(_signals([]), query="q") == ("no_results",)
    assert fallback_reasons(_signals(["A", "B"]), query="q") == ("too_few_results",)
    assert fallback_reasons(_signals(["A", "B", "C"]), query="q") == ()  # 30% is enough
    assert fallback_reasons(_signals([], lexical=0, vector=0), query="q") == (
        "no_results",
        "no_lexical_or_vector_hits",
    )
    six = ["Isaac Asimov"] * 6 + ["A", "B", "C", "D"]
    assert fallback_reasons(_signals(six), query="robots") == ("one_author",)
    five = ["Isaac Asimov"] * 5 + ["A", "B", "C", "D", "E"]
    assert fallback_reasons(_signals(five), query="robots") == ()  # half is not more than half


def test_one_author_is_expected_when_the_query_names_the_author_or_a_title() -> None:
    eight = ["Agatha Christie"] * 8 + ["A", "B"]
    assert dominant_author(eight) == "Agatha Christie"
    assert names_author("agatha cristie murder mystery", "Agatha Christie")  # first name
    assert not names_author("a murder mystery", "Agatha Christie")
    assert fallback_reasons(_signals(eight), query="agatha cristie murder mystery") == ()
    assert (
        fallback_reasons(_signals(eight), query="poirot", named_authors=["Agatha Christie"]) == ()
    )
    assert fallback_reasons(_signals(eight), query="poirot", names_a_title=True) == ()
    assert fallback_reasons(_signals(eight), query="poirot") == ("one_author",)


def test_exploration_triggers_whatever_the_results() -> None:
    good = _signals([f"Author {n}" for n in range(10)])
    assert fallback_reasons(good, query="q", intent="recommendation") == ()
    assert fallback_reasons(good, query="q", intent="exploratory") == ("exploratory_intent",)
    assert fallback_reasons(good, query="q", exploration=ExplorationRequest("X")) == (
        "exploration_request",
    )


def test_content_words_drop_cue_and_filler_words() -> None:
    assert content_words("the history of the roman empire") == "roman empire"
    assert content_words("learning to cook italian food") == "cook italian food"
    assert content_words("the of") == "the of"  # nothing left: the words stay


# --- the service over the real agent and the offline policy ----------------------------------


class RefusingAgent:
    """An agent that must not be asked (no trigger fired)."""

    model_id = "refusing"

    def run(
        self, *, system: str, request: str, tools: Sequence[AgentTool], max_tool_calls: int
    ) -> AgentRun:
        del system, request, tools, max_tool_calls
        raise AssertionError("the agent ran although no signal fired")


class FailingAgent:
    """An agent whose provider is down."""

    model_id = "failing"

    def run(
        self, *, system: str, request: str, tools: Sequence[AgentTool], max_tool_calls: int
    ) -> AgentRun:
        del system, request, tools, max_tool_calls
        raise LLMError("provider down")


def _fallback(agent: SearchFallbackAgent, tracer: RecordingTracer | None = None) -> FallbackSearch:
    catalog = make_catalog()
    vocabulary = make_vocabulary(catalog)
    return FallbackSearch(
        make_search(catalog),
        catalog,
        agent,
        understanding=RuleBasedUnderstanding(vocabulary),
        vocabulary=vocabulary,
        tracer=tracer,
    )


def _rules_agent() -> ReactSearchFallback:
    return ReactSearchFallback(FallbackRulePolicy(), MODEL_ID)


def _authors(response_results: Sequence[object]) -> list[str]:
    return [r.book.authors[0] for r in response_results]  # type: ignore[attr-defined]


def test_a_search_no_signal_fires_on_is_returned_untouched() -> None:
    fallback = _fallback(RefusingAgent())
    query = SearchQuery("cozy mystery village", max_results=3)
    plain = fallback.search.search(query)
    response = fallback.search_with_fallback(query)
    assert [r.book.id for r in response.results] == [r.book.id for r in plain.results]
    assert response.fallback is not None and not response.fallback.triggered
    assert response.fallback.first_ids == tuple(str(r.book.id) for r in plain.results)
    assert "fallback_ms" not in response.timings_ms


def test_one_author_lists_get_books_by_other_authors() -> None:
    fallback = _fallback(_rules_agent())
    query = SearchQuery("fantasy elves middle-earth hobbit", max_results=2)
    first = fallback.search.search(query)
    assert _authors(first.results) == ["J.R.R. Tolkien", "J.R.R. Tolkien"]
    response = fallback.search_with_fallback(query)
    report = response.fallback
    assert report is not None and report.reasons == ("one_author",)
    assert report.model == MODEL_ID and report.error is None
    assert [c.name for c in report.tool_calls] == ["search_catalog"]
    assert report.tool_calls[0].arguments["exclude_authors"] == ["J.R.R. Tolkien"]
    assert _authors(response.results).count("J.R.R. Tolkien") == 1
    assert [r.rank for r in response.results] == [1, 2]
    assert report.latency_ms > 0 and response.timings_ms["fallback_ms"] == report.latency_ms


def test_like_x_but_not_y_asks_for_neighbours_of_x_without_y() -> None:
    fallback = _fallback(_rules_agent())
    response = fallback.search_with_fallback(
        SearchQuery("something like The Hobbit but not by J.R.R. Tolkien", max_results=3)
    )
    report = response.fallback
    assert report is not None and "exploration_request" in report.reasons
    first_call = report.tool_calls[0]
    assert first_call.name == "get_similar_books"
    assert first_call.arguments["book"] == "The Hobbit"
    assert first_call.arguments["exclude_authors"] == ["J.R.R. Tolkien"]
    assert response.results and "J.R.R. Tolkien" not in _authors(response.results)
    assert len(report.tool_calls) <= 3


def test_too_few_results_widen_the_search_and_keep_the_first_results_first() -> None:
    fallback = _fallback(_rules_agent())
    query = SearchQuery("cozy mystery", SearchFilters(min_year=2014), max_results=10)
    first = fallback.search.search(query)
    assert [r.book.title for r in first.results] == ["The Knitting Circle Mystery"]
    response = fallback.search_with_fallback(query)
    report = response.fallback
    assert report is not None and report.reasons == ("too_few_results",)
    assert report.tool_calls[0].arguments == {"query": "cozy mystery"}  # no year filter
    assert response.results[0].book.title == "The Knitting Circle Mystery"
    assert len(response.results) > 3


def test_a_failing_agent_never_fails_the_search() -> None:
    fallback = _fallback(FailingAgent())
    query = SearchQuery("fantasy elves middle-earth hobbit", max_results=2)
    response = fallback.search_with_fallback(query)
    assert response.fallback is not None and response.fallback.error == "LLMError: provider down"
    assert [r.book.id for r in response.results] == [
        r.book.id for r in fallback.search.search(query).results
    ]


# --- the ReAct agent over scripted chat models ------------------------------------------------


def _search_call(number: int, **arguments: object) -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[
            {"id": f"c{number}", "name": "search_catalog", "args": arguments, "type": "tool_call"}
        ],
    )


def test_the_agent_makes_at_most_three_tool_calls() -> None:
    model = ScriptedChatModel(
        script=[_search_call(n, query=f"mystery {n}") for n in range(6)] + ["never reached"]
    )
    tracer = RecordingTracer()
    fallback = _fallback(ReactSearchFallback(model, "scripted"), tracer)
    response = fallback.search_with_fallback(
        SearchQuery("fantasy elves middle-earth hobbit", max_results=2)
    )
    report = response.fallback
    assert report is not None
    assert len(report.tool_calls) == 3 and report.refused_calls == 1
    assert len(model.received) == 4  # three calls ran, the fourth request was stopped
    assert report.answer == ""  # stopped at the limit: the books come from the tool calls
    assert len(response.results) == 2
    assert [t.prompt_version for t in tracer.traces] == [PROMPT_VERSION] * 4
    assert all(t.operation == "search-fallback" and t.model == "scripted" for t in tracer.traces)


def test_the_agent_sees_the_prompt_and_tools_and_its_choice_is_kept_to_known_books() -> None:
    dune, gilead = book_id("Dune"), book_id("Gilead")
    invented = str(uuid.UUID(int=999))
    model = ScriptedChatModel(
        script=[
            _search_call(1, query="desert planet", limit=1),
            f"book:{invented} A book no tool returned\nbook:{dune} Dune\nbook:{gilead} Gilead",
        ]
    )
    fallback = _fallback(ReactSearchFallback(model, "scripted"))
    response = fallback.search_with_fallback(
        SearchQuery("fantasy elves middle-earth hobbit", max_results=2)
    )
    first_messages = model.received[0]
    assert isinstance(first_messages[0], SystemMessage)
    assert first_messages[0].content == SYSTEM_PROMPT
    request = str(first_messages[1].content)
    assert (
        '"reasons": ["one_author"]' in request and '"dominant_author": "J.R.R. Tolkien"' in request
    )
    assert [getattr(t, "name", None) for t in model.bound_tools[0]] == [
        "search_catalog",
        "get_similar_books",
    ]
    # Gilead was neither found by the tool nor in the first results, the invented id names
    # no book: Dune is kept, then the first results fill the list.
    titles = [r.book.title for r in response.results]
    assert titles == [
        "Dune",
        fallback.search.search(SearchQuery("fantasy elves middle-earth hobbit", max_results=2))
        .results[0]
        .book.title,
    ]
    assert isinstance(model.received[1][-1], ToolMessage)
    assert json.loads(str(model.received[1][-1].content))["books"][0]["title"] == "Dune"


def test_bad_tool_arguments_go_back_to_the_model_as_an_error() -> None:
    model = ScriptedChatModel(
        script=[
            _search_call(1, limit=500),
            AIMessage(
                content="",
                tool_calls=[
                    {
                        "id": "c2",
                        "name": "get_similar_books",
                        "args": {"book": "No Such Title Anywhere"},
                        "type": "tool_call",
                    }
                ],
            ),
            "nothing better",
        ]
    )
    fallback = _fallback(ReactSearchFallback(model, "scripted"))
    query = SearchQuery("fantasy elves middle-earth hobbit", max_results=2)
    first = fallback.search.search(query)
    response = fallback.search_with_fallback(query)
    report = response.fallback
    assert report is not None and report.error is None
    assert len(report.tool_calls) == 1 and report.tool_calls[0].error is not None
    assert "no book titled" in report.tool_calls[0].error
    assert report.refused_calls == 1  # the call with invalid arguments never ran
    schema_error = str(model.received[1][-1].content)
    assert "query" in schema_error
    assert [r.book.id for r in response.results] == [r.book.id for r in first.results]


def test_a_provider_error_becomes_llm_error() -> None:
    agent = ReactSearchFallback(ScriptedChatModel(script=[RuntimeError("503")]), "scripted")
    with pytest.raises(LLMError, match="scripted failed: RuntimeError: 503"):
        agent.run(system="s", request="r", tools=[], max_tool_calls=3)


def test_the_rule_policy_runs_without_any_key_and_answers_with_ids() -> None:
    fallback = _fallback(_rules_agent())
    response = fallback.search_with_fallback(
        SearchQuery("the history of middle-earth elves", max_results=3)
    )
    report = response.fallback
    assert report is not None and report.reasons == ("exploratory_intent",)
    assert [c.name for c in report.tool_calls] == ["search_catalog", "get_similar_books"]
    assert report.tool_calls[0].arguments["query"] == "middle-earth elves"
    named = [line.split()[0].removeprefix("book:") for line in report.answer.splitlines()[1:]]
    assert named[: len(response.results)] == [str(r.book.id) for r in response.results]
    assert {str(b.id) for b in BOOKS} >= set(named)
