"""The LangGraph query-understanding flow with LangChain's fake chat model."""

from __future__ import annotations

import json
import threading

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.adapters.llm.graphs.query_understanding import QueryUnderstandingGraph
from lectern.adapters.llm.langchain_llm import LangChainLLM
from lectern.adapters.understanding.rules import RuleBasedUnderstanding
from tests.unit.test_query_understanding_rules import VOCABULARY


def _graph(*replies: object) -> QueryUnderstandingGraph:
    texts = [r if isinstance(r, str) else json.dumps(r) for r in replies]
    llm = LangChainLLM(
        FakeListChatModel(responses=texts),
        "fake-chat",
        fallback=ExtractiveLLM(),
        method="prompt",
        max_retries=0,
        timeout=5,
    )
    return QueryUnderstandingGraph(llm, VOCABULARY, fallback=RuleBasedUnderstanding(VOCABULARY))


def test_every_node_contributes_its_part() -> None:
    graph = _graph(
        {"intent": "recommendation", "reason": "wants books"},
        {
            "language": "es",
            "min_year": 2011,
            "max_year": None,
            "categories": ["mystery"],
            "authors": [],
        },
        {"variations": ["misterio", "spanish crime novels"]},
        {"strategy": "balanced", "reason": "genre words"},
    )
    plan = graph.plan("Spanish mystery novels published after 2010")
    assert plan.source == "graph:fake-chat"
    assert plan.intent == "recommendation" and plan.strategy == "balanced"
    assert (plan.filters.language, plan.filters.min_year) == ("es", 2011)
    assert plan.categories == ("mystery",)
    assert plan.variations == ("misterio", "spanish crime novels")
    assert plan.notes == ()


def test_validate_repairs_what_the_model_got_wrong() -> None:
    graph = _graph(
        {"intent": "shopping"},
        {
            "language": "Klingon",
            "min_year": 2020,
            "max_year": 1990,
            "categories": ["sci-fi stuff", "mysteri"],
            "authors": ["Nobody Known"],
        },
        {"variations": ["", "a", "a", "b", "c", "d"]},
        {"strategy": "telepathic"},
    )
    plan = graph.plan("space mysteries")
    assert plan.intent == "recommendation" and plan.strategy == "balanced"
    assert plan.filters.language is None
    assert plan.filters.min_year is None and plan.filters.max_year is None
    assert plan.categories == ("mystery",)  # nearest catalog shelf; the other is dropped
    assert plan.authors == ()
    assert plan.variations == ("a", "b", "c")
    notes = " | ".join(plan.notes)
    for expected in (
        "intent 'shopping'",
        "strategy 'telepathic'",
        "dropped language 'klingon'",
        "2020 is after 1990",
        "'mysteri' read as the catalog's 'mystery'",
        "dropped category 'sci-fi stuff'",
        "'Nobody Known' is not in the catalog",
        "kept the first 3",
    ):
        assert expected in notes, (expected, notes)


def test_a_node_returning_garbage_keeps_the_rules_part() -> None:
    graph = _graph(
        {"intent": "factual"},
        "I am sorry, I cannot produce JSON today <<<>>>",
        {"variations": ["jane austen novels"]},
        {"strategy": "lexical_heavy", "reason": "an author"},
    )
    plan = graph.plan("books by Jane Austen")
    assert plan.authors == ("Jane Austen",)  # the rules' author survived the broken node
    assert any(n.startswith("filters: the model failed") for n in plan.notes)
    assert plan.intent == "factual" and plan.strategy == "lexical_heavy"


def test_the_extractive_model_cannot_plan_so_the_rules_do() -> None:
    rules = RuleBasedUnderstanding(VOCABULARY)
    graph = QueryUnderstandingGraph(ExtractiveLLM(), VOCABULARY, fallback=rules)
    plan = graph.plan("Spanish mystery novels published after 2010")
    expected = rules.plan("Spanish mystery novels published after 2010")
    assert plan.filters == expected.filters and plan.categories == expected.categories
    assert sum("the model failed" in n for n in plan.notes) == 4


def test_the_compiled_graph_is_shared_by_threads() -> None:
    replies = []
    for _ in range(8):
        replies += [
            {"intent": "recommendation"},
            {"language": None, "min_year": None, "max_year": None, "categories": [], "authors": []},
            {"variations": ["x"]},
            {"strategy": "balanced"},
        ]
    graph = _graph(*replies)
    compiled = graph.graph
    plans = []

    def run() -> None:
        plans.append(graph.plan("dragons"))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(plans) == 4 and graph.graph is compiled
    assert all(p.original_query == "dragons" for p in plans)


def test_the_graph_reads_exclusions_audience_and_length_and_keeps_the_rules_ones() -> None:
    graph = _graph(
        {"intent": "recommendation"},
        {
            "language": None,
            "categories": ["science fiction", "young adult"],
            "authors": [],
            "exclude_categories": ["Romance"],
            "exclude_authors": ["j.r.r. tolkien"],
            "exclude_titles": ["Dune"],
            "audience": "adult",
            "max_pages": 20_000,
        },
        {"variations": ["science fiction"]},
        {"strategy": "balanced"},
    )
    plan = graph.plan("science fiction for adults, not Frank Herbert, nothing by Tolkien")
    assert plan.filters.exclude_youth
    assert set(plan.filters.exclude_authors) == {"Frank Herbert", "J.R.R. Tolkien"}
    assert plan.filters.exclude_categories == ("romance",)
    assert plan.filters.exclude_titles == ("Dune",)
    assert plan.categories == ("science fiction",)  # young adult is ruled out by "for adults"
    assert plan.filters.max_pages is None
    assert any("dropped max_pages 20000" in n for n in plan.notes)
