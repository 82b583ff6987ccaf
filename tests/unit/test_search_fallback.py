"""The search fallback: its triggers, the ReAct agent over fake chat models, the wiring."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import replace

import pytest
from langchain_core.messages import AIMessage, SystemMessage, ToolMessage

from lectern.adapters.llm.fallback_policy import MODEL_ID, FallbackRulePolicy, content_words
from lectern.adapters.llm.graphs.search_fallback import ReactSearchFallback
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from lectern.adapters.understanding.titles import RapidfuzzTitleMatcher
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
    plan_did_explore,
    unresolved_like,
)
from lectern.domain.search import Exclusion, SearchFilters, SearchQuery, with_exclusions
from lectern.errors import LLMError
from tests.assistant_world import BOOKS, book_id, make_catalog, make_search, make_vocabulary
from tests.fakes import FakeTitleMatcher, RecordingTracer, ScriptedChatModel

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
    assert fallback_reasons(_signals([])) == ("no_results",)
    assert fallback_reasons(_signals(["A", "B"])) == ("too_few_results",)
    assert fallback_reasons(_signals(["A", "B", "C"])) == ()  # 30% is enough
    assert fallback_reasons(_signals([], lexical=0, vector=0)) == (
        "no_results",
        "no_lexical_or_vector_hits",
    )


def test_one_author_or_an_exploratory_query_is_nothing_to_fix() -> None:
    six = ["Isaac Asimov"] * 6 + ["A", "B", "C", "D"]
    assert dominant_author(six) == "Isaac Asimov"
    assert names_author("agatha cristie murder mystery", "Agatha Christie")  # first name
    assert fallback_reasons(_signals(six)) == ()


def test_a_page_limit_no_shown_book_is_known_to_fit_fires() -> None:
    ten = [f"Author {n}" for n in range(10)]
    unknown = ResultSignals(10, tuple(ten), 50, 50, known_fits=2)
    known = ResultSignals(10, tuple(ten), 50, 50, known_fits=3)
    assert fallback_reasons(unknown) == ("unknown_fit",)
    assert fallback_reasons(known) == ()
    assert fallback_reasons(_signals(ten)) == ()  # no page limit


def test_an_unresolved_like_and_an_exploration_request_fire() -> None:
    good = _signals([f"Author {n}" for n in range(10)])
    note = "could not find 'The Nightwind Saga' in the catalog: searching for its words instead"
    assert unresolved_like([note]) == "The Nightwind Saga"
    assert unresolved_like(["'by Tolkien' used to read the title 'The Hobbit'"]) is None
    assert fallback_reasons(good, unresolved_like="The Nightwind Saga") == ("unresolved_like",)
    assert fallback_reasons(good, exploration=ExplorationRequest("X")) == ("exploration_request",)


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


def _fallback(
    agent: SearchFallbackAgent,
    tracer: RecordingTracer | None = None,
    titles: FakeTitleMatcher | None = None,
) -> FallbackSearch:
    catalog = make_catalog()
    vocabulary = make_vocabulary(catalog)
    return FallbackSearch(
        make_search(catalog),
        catalog,
        agent,
        understanding=RuleBasedUnderstanding(vocabulary),
        vocabulary=vocabulary,
        titles=titles,
        tracer=tracer,
    )


TOO_FEW = SearchQuery("cozy mystery", SearchFilters(min_year=2014), max_results=10)
"""One book fits: `too_few_results`."""


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


def test_a_one_author_list_or_an_exploratory_query_stands_untouched() -> None:
    fallback = _fallback(RefusingAgent())
    for query in (
        SearchQuery("fantasy elves middle-earth hobbit", max_results=2),
        SearchQuery("the history of middle-earth elves", max_results=3),
    ):
        response = fallback.search_with_fallback(query)
        assert response.fallback is not None and not response.fallback.triggered


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


def test_like_x_but_not_y_is_left_alone_when_the_plan_found_x_and_excluded_y() -> None:
    asked = ExplorationRequest("The Hobbit", "J.R.R. Tolkien")
    assert plan_did_explore(asked, True, ["J.R.R. Tolkien"])
    assert not plan_did_explore(asked, False, ["J.R.R. Tolkien"])  # X is no catalog book
    assert not plan_did_explore(asked, True, [])  # Y was not made a filter
    assert not plan_did_explore(ExplorationRequest("Gone Girl", "dark"), True, [])
    assert not plan_did_explore(ExplorationRequest(), True, ["anything"])  # "surprise me"


def test_a_planned_like_x_but_not_y_search_does_not_hand_over() -> None:
    fallback = _fallback(RefusingAgent())
    text = "something like The Hobbit but not by J.R.R. Tolkien"
    assert fallback.understanding is not None
    found = fallback.understanding.plan(text)
    assert found.like_book_id is not None
    # As the catalog's rules plan it (the small test vocabulary does not know the author).
    tolkien = Exclusion("author", "J.R.R. Tolkien", ("J.R.R. Tolkien",))
    plan = replace(found, exclusions=(tolkien,), filters=with_exclusions(found.filters, [tolkien]))
    response = fallback.search_with_fallback(SearchQuery(text, max_results=3), plan=plan)
    assert response.fallback is not None and not response.fallback.triggered
    assert response.results and "J.R.R. Tolkien" not in _authors(response.results)


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


def test_a_misspelt_like_is_read_as_the_closest_title_in_one_call() -> None:
    titles = FakeTitleMatcher({"The Hobit": book_id("The Hobbit")})
    fallback = _fallback(_rules_agent(), titles=titles)
    response = fallback.search_with_fallback(SearchQuery("books like The Hobit", max_results=3))
    report = response.fallback
    assert report is not None and report.reasons == ("unresolved_like",)
    assert [(c.name, c.arguments["book"]) for c in report.tool_calls] == [
        ("get_similar_books", "The Hobit")
    ]
    assert set(titles.asked) == {"The Hobit"}  # no title matched exactly: the matcher was asked
    neighbours = report.tool_calls[0].results
    assert neighbours and "The Hobbit" not in [r.book.title for r in response.results]


def test_a_like_no_title_is_close_to_says_it_is_not_in_the_catalog() -> None:
    fallback = _fallback(_rules_agent(), titles=FakeTitleMatcher())
    query = SearchQuery("books like The Cozy Bakery Mysteries of Elsewhere", max_results=3)
    response = fallback.search_with_fallback(query)
    report = response.fallback
    assert report is not None and report.reasons == ("unresolved_like",)
    calls = report.tool_calls
    # One call: no title is close, so no search can find books like it (until v3 the
    # subject plan ran two more calls and answered as if they were).
    assert [c.name for c in calls] == ["get_similar_books"] and calls[0].error is not None
    assert response.nothing_fits is not None
    assert response.nothing_fits.title == "The Cozy Bakery Mysteries of Elsewhere"
    assert "not in the catalog" in response.nothing_fits.message
    assert "nearest" in response.nothing_fits.message
    first = fallback.search.search(query)
    assert [r.book.id for r in response.results] == [r.book.id for r in first.results]


def test_an_absent_like_spelt_nearly_as_two_titles_asks_which_one() -> None:
    near = (book_id("The Cozy Bakery Murders"), book_id("The Knitting Circle Mystery"))
    titles = FakeTitleMatcher(near={"The Cozy Knitting Murders": near})
    fallback = _fallback(_rules_agent(), titles=titles)
    response = fallback.search_with_fallback(
        SearchQuery("books like The Cozy Knitting Murders", max_results=3)
    )
    assert response.nothing_fits is not None
    assert response.nothing_fits.title == "The Cozy Knitting Murders"
    assert [(r.title, r.author) for r in response.readings] == [
        ("The Cozy Bakery Murders", "Ann Baker"),
        ("The Knitting Circle Mystery", "Mary Stone"),
    ]


def test_a_misspelt_like_is_not_said_to_be_missing() -> None:
    titles = FakeTitleMatcher({"The Hobit": book_id("The Hobbit")})
    response = _fallback(_rules_agent(), titles=titles).search_with_fallback(
        SearchQuery("books like The Hobit", max_results=3)
    )
    # Neither "not in the catalog" nor "nothing mentions 'hobit'": its neighbours answer.
    assert response.nothing_fits is None
    assert [r.title for r in response.readings] == ["The Hobbit"]  # "did you mean"


def test_a_failing_agent_never_fails_the_search() -> None:
    fallback = _fallback(FailingAgent())
    query = TOO_FEW
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
    response = fallback.search_with_fallback(TOO_FEW)
    report = response.fallback
    assert report is not None
    assert len(report.tool_calls) == 3 and report.refused_calls == 1
    assert len(model.received) == 4  # three calls ran, the fourth request was stopped
    assert report.answer == ""  # stopped at the limit: the books come from the tool calls
    assert len(response.results) > 1  # the tool calls' books joined the one first result
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
    response = fallback.search_with_fallback(TOO_FEW)
    first_messages = model.received[0]
    assert isinstance(first_messages[0], SystemMessage)
    assert first_messages[0].content == SYSTEM_PROMPT
    request = str(first_messages[1].content)
    assert '"reasons": ["too_few_results"]' in request
    assert [getattr(t, "name", None) for t in model.bound_tools[0]] == [
        "search_catalog",
        "get_similar_books",
    ]
    # Gilead was neither found by the tool nor in the first results, the invented id names
    # no book: Dune is kept, then the first results fill the list.
    titles = [r.book.title for r in response.results]
    assert titles == ["Dune", "The Knitting Circle Mystery"]
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
    query = TOO_FEW
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
    response = fallback.search_with_fallback(TOO_FEW)
    report = response.fallback
    assert report is not None and report.reasons == ("too_few_results",)
    assert report.tool_calls and report.error is None
    named = [line.split()[0].removeprefix("book:") for line in report.answer.splitlines()[1:]]
    assert named and {str(b.id) for b in BOOKS} >= set(named)


# --- misspelt titles (rapidfuzz) -------------------------------------------------------------


def test_the_title_matcher_reads_a_slip_of_spelling_and_nothing_further() -> None:
    matcher = RapidfuzzTitleMatcher(make_vocabulary(make_catalog()))
    assert matcher.closest("The Hobit") == book_id("The Hobbit")
    assert matcher.closest("the silmarilion") == book_id("The Silmarillion")
    assert matcher.closest("Knitting Circle Mystry") == book_id("The Knitting Circle Mystery")
    assert matcher.closest("Murder at the Tea") == book_id("Murder at the Tea Shop")  # its start
    assert matcher.closest("Nightfall Saga") is None
    assert matcher.closest("Hobbies") is None  # under the cutoff: unknown stays unknown
    assert matcher.closest("  ") is None


def test_spelt_like_lists_near_titles_best_first_and_nothing_far() -> None:
    matcher = RapidfuzzTitleMatcher(make_vocabulary(make_catalog()))
    assert matcher.spelt_like("The Hobit", 90.0) == (book_id("The Hobbit"),)
    assert matcher.spelt_like("The Hobbits", 80.0)[0] == book_id("The Hobbit")
    assert matcher.spelt_like("Nightfall Saga", 80.0) == ()
    # 100: the same words, whole or as the title's start (a lookup, no slip allowed).
    assert matcher.spelt_like("Murder at the", 100.0) == (book_id("Murder at the Tea Shop"),)
    assert matcher.spelt_like("The Hobit", 100.0) == ()
