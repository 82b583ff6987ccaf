"""Query understanding as a LangGraph flow over the `LLMClient` port.

classify_intent -> extract_filters -> generate_variations -> select_strategy -> validate.
Each node asks the model with its own versioned prompt and Pydantic schema. A node whose
call fails (no parseable reply, timeout, a model that cannot do it) keeps what the offline
rules planned for that part and says so in the notes; `validate` then repairs or drops
what the catalog cannot serve (see `application.understanding.validate_plan`).

The graph is compiled once and reused: it has no checkpointer and its state lives only in
each `invoke`, so concurrent searches can share it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypedDict, cast, get_args

from langgraph.graph import END, START, StateGraph

from lectern.adapters.llm.schemas import FiltersLLM, IntentLLM, StrategyLLM, VariationsLLM
from lectern.application.ports import LLMClient, QueryUnderstanding
from lectern.application.understanding import Vocabulary, repaired_filters, validate_plan
from lectern.domain.search import Exclusion, Intent, QueryPlan, Strategy
from lectern.errors import LecternError

NODES = ("classify_intent", "extract_filters", "generate_variations", "select_strategy")
MAX_YEAR_SANE = 2100
MIN_YEAR_SANE = -3000


class PlanState(TypedDict, total=False):
    """What flows between the nodes."""

    query: str
    rules: QueryPlan
    intent: str
    intent_reason: str
    language: str | None
    min_year: int | None
    max_year: int | None
    categories: list[str]
    authors: list[str]
    exclusions: list[Exclusion]
    min_pages: int | None
    max_pages: int | None
    variations: list[str]
    strategy: str
    strategy_reason: str
    notes: list[str]
    plan: QueryPlan


def _failed(state: PlanState, node: str, error: Exception) -> list[str]:
    reason = str(error).splitlines()[0][:160] if str(error) else type(error).__name__
    return [*state.get("notes", []), f"{node}: the model failed ({reason}); used the rules"]


def _either(model: int | None, rules: int | None) -> int | None:
    return model if model is not None else rules


class QueryUnderstandingGraph:
    """`QueryUnderstanding` by a language model, node by node, with the rules as a net."""

    def __init__(
        self, llm: LLMClient, vocabulary: Vocabulary, *, fallback: QueryUnderstanding
    ) -> None:
        """`fallback` (the rules) plans first; each node may improve on its part."""
        self.llm = llm
        self.vocabulary = vocabulary
        self.fallback = fallback
        self.name = f"graph:{llm.model_id}"
        self._languages = ", ".join(sorted(vocabulary.languages))
        self.graph = self._compile()

    def _compile(self) -> Any:
        builder = StateGraph(PlanState)
        builder.add_node("classify_intent", self._classify_intent)
        builder.add_node("extract_filters", self._extract_filters)
        builder.add_node("generate_variations", self._generate_variations)
        builder.add_node("select_strategy", self._select_strategy)
        builder.add_node("validate", self._validate)
        builder.add_edge(START, "classify_intent")
        for before, after in zip(NODES, (*NODES[1:], "validate"), strict=True):
            builder.add_edge(before, after)
        builder.add_edge("validate", END)
        return builder.compile()

    def plan(self, query: str) -> QueryPlan:
        """Run the flow; any failure of the graph itself returns the rules' plan, noted."""
        rules = self.fallback.plan(query)
        try:
            result = self.graph.invoke({"query": query, "rules": rules, "notes": []})
        except Exception as error:  # noqa: BLE001 - understanding must never break search
            note = f"the LLM flow failed ({type(error).__name__}): the rules planned"
            return replace(rules, notes=(*rules.notes, note))
        return cast(QueryPlan, result["plan"])

    # --- nodes -----------------------------------------------------------------------------

    def _classify_intent(self, state: PlanState) -> dict[str, Any]:
        try:
            reply = self.llm.complete("qu_intent", {"query": state["query"]}, IntentLLM)
        except (LecternError, ValueError) as error:
            return {"intent": state["rules"].intent, "notes": _failed(state, "intent", error)}
        return {"intent": reply.intent.strip().casefold(), "intent_reason": reply.reason}

    def _extract_filters(self, state: PlanState) -> dict[str, Any]:
        rules = state["rules"]
        try:
            reply = self.llm.complete(
                "qu_filters", {"query": state["query"], "languages": self._languages}, FiltersLLM
            )
        except (LecternError, ValueError) as error:
            return {
                "language": rules.filters.language,
                "min_year": rules.filters.min_year,
                "max_year": rules.filters.max_year,
                "categories": list(rules.categories),
                "authors": list(rules.authors),
                "exclusions": list(rules.exclusions),
                "min_pages": rules.filters.min_pages,
                "max_pages": rules.filters.max_pages,
                "notes": _failed(state, "filters", error),
            }
        notes = list(state.get("notes", []))
        years = []
        for name, value in (("min_year", reply.min_year), ("max_year", reply.max_year)):
            if value is not None and not MIN_YEAR_SANE <= value <= MAX_YEAR_SANE:
                notes.append(f"dropped {name} {value}: not a publication year")
                value = None
            years.append(value)
        return {
            "language": reply.language,
            "min_year": years[0],
            "max_year": years[1],
            "categories": [c for c in reply.categories if isinstance(c, str)],
            "authors": [a for a in reply.authors if isinstance(a, str)],
            # What the rules ruled out stays ruled out: a model may add to it, not drop it.
            "exclusions": [*rules.exclusions, *reply.exclusions()],
            "min_pages": _either(reply.min_pages, rules.filters.min_pages),
            "max_pages": _either(reply.max_pages, rules.filters.max_pages),
            "notes": notes,
        }

    def _generate_variations(self, state: PlanState) -> dict[str, Any]:
        try:
            reply = self.llm.complete("qu_variations", {"query": state["query"]}, VariationsLLM)
        except (LecternError, ValueError) as error:
            return {
                "variations": list(state["rules"].variations),
                "notes": _failed(state, "variations", error),
            }
        return {"variations": [v for v in reply.variations if isinstance(v, str)]}

    def _select_strategy(self, state: PlanState) -> dict[str, Any]:
        rules = state["rules"]
        try:
            reply = self.llm.complete("qu_strategy", {"query": state["query"]}, StrategyLLM)
        except (LecternError, ValueError) as error:
            return {
                "strategy": rules.strategy,
                "strategy_reason": rules.strategy_reason,
                "notes": _failed(state, "strategy", error),
            }
        return {"strategy": reply.strategy.strip().casefold(), "strategy_reason": reply.reason}

    def _validate(self, state: PlanState) -> dict[str, Any]:
        rules = state["rules"]
        notes = list(state.get("notes", []))
        intent = state.get("intent", rules.intent)
        if intent not in get_args(Intent):
            notes.append(
                f"intent {intent!r} is not one of {', '.join(get_args(Intent))}: "
                f"used the rules' {rules.intent}"
            )
            intent = rules.intent
        strategy = state.get("strategy", rules.strategy)
        reason = state.get("strategy_reason", "")
        if strategy not in get_args(Strategy):
            notes.append(f"strategy {strategy!r} is unknown: used the rules' {rules.strategy}")
            strategy, reason = rules.strategy, rules.strategy_reason
        language = state.get("language")
        if language is not None:
            language = language.strip().casefold() or None
        filters = repaired_filters(
            language,
            None,
            state.get("min_year"),
            state.get("max_year"),
            notes,
            min_pages=state.get("min_pages"),
            max_pages=state.get("max_pages"),
        )
        plan = QueryPlan(
            original_query=state["query"],
            intent=cast(Intent, intent),
            filters=filters,
            variations=tuple(state.get("variations", [])),
            strategy=cast(Strategy, strategy),
            strategy_reason=reason[:200],
            categories=tuple(state.get("categories", [])),
            authors=tuple(state.get("authors", [])),
            like_book_id=rules.like_book_id,
            like_title=rules.like_title,
            recognised=rules.recognised,
            notes=tuple(notes),
            source=self.name,
            exclusions=tuple(state.get("exclusions", rules.exclusions)),
        )
        return {"plan": validate_plan(plan, self.vocabulary)}
