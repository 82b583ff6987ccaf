"""The knowledge-base reply graph: gate -> select -> load -> generate -> verify -> should_reply.

A LangGraph `StateGraph` compiled once, without a checkpointer: state lives only inside one
`run`, so concurrent requests share the compiled graph. Every node is a small function over
the `ReplySteps` port (rules offline, a model otherwise); any exception in a node, and a run
longer than `graph_timeout_seconds`, ends in `should_reply=false`, never in an exception.

    START -> gate -(question)-> select -(sources)-> load -(texts)-> generate -(draft)->
        verify (when enabled) -> should_reply -> END
    every "no" edge (not a question, no source, nothing loaded, no answer, a failure) goes
    straight to should_reply, which also re-checks every citation before saying yes.

Self-reflection: a first draft whose quotes do not hold, or that verification rejects, goes
to `reflect`, which hands the reason to one more `generate` (then `verify` again); a second
rejection ends in should_reply=false as before. `AIResult.reflection` says how it went.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypedDict

from langgraph.graph import END, START, StateGraph

from lectern.adapters.understanding.answer_check import AnswerCheck, AnswerJudgement, Evidence
from lectern.application.answering.ports import KnowledgeBaseView, ReplySteps
from lectern.domain.answering import (
    AIResult,
    DraftAnswer,
    GateDecision,
    LoadedSource,
    ReplyCitation,
    SelectedSource,
    SourceRef,
    Verdict,
    grounding_problems,
    render_reply,
)

NODES = ("gate", "select", "load", "generate", "check", "verify", "reflect", "should_reply")
MAX_GENERATIONS = 2
"""The first draft and one retry with feedback."""


@dataclass(frozen=True, slots=True)
class GraphConfig:
    """The graph's limits and switches (from Settings)."""

    max_sources: int = 3
    max_answer_chars: int = 600
    enable_verification: bool = False
    graph_timeout_seconds: float = 120.0


@dataclass
class Journal:
    """What the nodes did so far; readable by the caller even after a timeout."""

    path: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)


class ReplyState(TypedDict, total=False):
    """What flows between the nodes."""

    turn: str
    run_id: str
    kb: KnowledgeBaseView
    journal: Journal
    gate: GateDecision
    selected: tuple[SelectedSource, ...]
    loaded: list[LoadedSource]
    draft: DraftAnswer | None
    verdict: Verdict
    error: str
    result: AIResult
    generations: int
    feedback: str
    judgement: AnswerJudgement


def _reason(error: BaseException) -> str:
    text = str(error).splitlines()[0][:200] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class KnowledgeBaseReplyGraph:
    """`ReplyGraph` as a compiled LangGraph flow over `ReplySteps`."""

    def __init__(
        self,
        steps: ReplySteps,
        config: GraphConfig | None = None,
        *,
        answer_check: AnswerCheck | None = None,
        workers: int = 8,
    ) -> None:
        """Compile once; runs share the graph and a small pool that enforces the timeout.

        With `answer_check`, a grounded draft is sent only when one of its sentences answers
        the question (the `check` node), whoever wrote it.
        """
        self.steps = steps
        self.config = config or GraphConfig()
        self.answer_check = answer_check
        self.graph = self._compile()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kb-reply")

    def _compile(self) -> Any:
        builder = StateGraph(ReplyState)
        builder.add_node("gate", self._timed("gate", self._gate))
        builder.add_node("select", self._timed("select", self._select))
        builder.add_node("load", self._timed("load", self._load))
        builder.add_node("generate", self._timed("generate", self._generate))
        builder.add_node("check", self._timed("check", self._check))
        builder.add_node("verify", self._timed("verify", self._verify))
        builder.add_node("reflect", self._timed("reflect", self._reflect))
        builder.add_node("should_reply", self._timed("should_reply", self._should_reply))
        builder.add_edge(START, "gate")
        builder.add_conditional_edges("gate", self._after_gate, ["select", "should_reply"])
        builder.add_conditional_edges("select", self._after_select, ["load", "should_reply"])
        builder.add_conditional_edges("load", self._after_load, ["generate", "should_reply"])
        builder.add_conditional_edges(
            "generate", self._after_generate, ["check", "verify", "reflect", "should_reply"]
        )
        builder.add_conditional_edges("check", self._after_check, ["verify", "should_reply"])
        builder.add_conditional_edges("verify", self._after_verify, ["reflect", "should_reply"])
        builder.add_edge("reflect", "generate")
        builder.add_edge("should_reply", END)
        return builder.compile()

    # --- running ---------------------------------------------------------------------------

    def run(self, turn: str, kb: KnowledgeBaseView, *, run_id: str) -> AIResult:
        """One turn through the graph; a failure or timeout is `should_reply=false`."""
        started = time.perf_counter()
        journal = Journal()
        state: ReplyState = {"turn": turn, "run_id": run_id, "kb": kb, "journal": journal}
        error: str
        try:
            future = self._pool.submit(self.graph.invoke, state)
            final = future.result(timeout=self.config.graph_timeout_seconds)
            result: AIResult = final["result"]
            return _with_total(result, started)
        except FutureTimeout:
            error = f"the reply took longer than {self.config.graph_timeout_seconds:g} s"
            journal.path.append("timeout")
        except Exception as failure:  # noqa: BLE001 - the caller gets a decision, not a crash
            error = f"the graph failed: {_reason(failure)}"
            journal.path.append("error")
        return _with_total(
            AIResult(
                should_reply=False,
                reply_text="",
                citations=(),
                sources=(),
                decision_path=tuple(journal.path),
                timings=dict(journal.timings),
                model=self.steps.name,
                error=error,
            ),
            started,
        )

    def _timed(self, name: str, node: Any) -> Any:
        def run_node(state: ReplyState) -> dict[str, Any]:
            started = time.perf_counter()
            journal = state["journal"]
            try:
                update: dict[str, Any] = node(state)
            except Exception as failure:  # noqa: BLE001 - a node failure is a "no"
                journal.path.append(f"{name}:error")
                update = {"error": f"{name}: {_reason(failure)}"}
            journal.timings[f"{name}_ms"] = round((time.perf_counter() - started) * 1000, 3)
            return update

        return run_node

    # --- nodes -----------------------------------------------------------------------------

    def _gate(self, state: ReplyState) -> dict[str, Any]:
        decision = self.steps.gate(state["turn"], state["kb"], run_id=state["run_id"])
        state["journal"].path.append(f"gate:{decision.decision}")
        return {"gate": decision}

    def _select(self, state: ReplyState) -> dict[str, Any]:
        question = state["gate"].question or state["turn"]
        limit = self.config.max_sources
        chosen = self.steps.select(question, state["kb"], limit, run_id=state["run_id"])[:limit]
        state["journal"].path.append(f"select:{len(chosen)}")
        return {"selected": tuple(chosen)}

    def _load(self, state: ReplyState) -> dict[str, Any]:
        loaded, failures = state["kb"].load(state["selected"])
        journal = state["journal"]
        journal.path.append(f"load:{len(loaded)}")
        journal.path.extend(f"load_failed:{reason}" for reason in failures)
        return {"loaded": loaded}

    def _generate(self, state: ReplyState) -> dict[str, Any]:
        question = state["gate"].question or state["turn"]
        feedback = state.get("feedback") or None
        draft = self.steps.generate(
            question, state["loaded"], state["kb"], run_id=state["run_id"], feedback=feedback
        )
        state["journal"].path.append(
            "generate:none" if draft is None else f"generate:{len(draft.sentences)}"
        )
        return {"draft": draft, "generations": state.get("generations", 0) + 1}

    def _check(self, state: ReplyState) -> dict[str, Any]:
        assert self.answer_check is not None  # the router sends drafts here only with a check
        draft = state.get("draft")
        assert draft is not None
        question = state["gate"].question or state["turn"]
        kb = state["kb"]
        judgement = self.answer_check.judge(
            question, draft_evidence(draft, state.get("loaded", [])), kb.index.idf, pages=kb.pages
        )
        state["journal"].path.append(
            f"check:{'answers' if judgement.answers else 'no_answer'}:{judgement.probability:.2f}"
        )
        return {"judgement": judgement}

    def _reflect(self, state: ReplyState) -> dict[str, Any]:
        verdict = state.get("verdict")
        if verdict is not None and not verdict.passed:
            reason = f"verification rejected it: {verdict.reason}"
        else:
            reason = "its quotes are not in the sources: " + "; ".join(self._problems(state))
        state["journal"].path.append("reflect")
        return {"feedback": reason[:600], "verdict": None}

    def _verify(self, state: ReplyState) -> dict[str, Any]:
        draft = state.get("draft")
        assert draft is not None  # the router sends only drafts here
        question = state["gate"].question or state["turn"]
        verdict = self.steps.verify(question, draft, state["loaded"], run_id=state["run_id"])
        state["journal"].path.append("verify:passed" if verdict.passed else "verify:failed")
        return {"verdict": verdict}

    def _should_reply(self, state: ReplyState) -> dict[str, Any]:
        journal = state["journal"]
        selected = state.get("selected", ())
        refs = tuple(
            SourceRef(s.source.source_id, s.source.title, s.relevance, s.source.url)
            for s in selected
        )
        gate = state.get("gate")
        draft = state.get("draft")
        error = state.get("error")
        verdict = state.get("verdict")
        reply, problems = False, []
        if error is None and draft is not None:
            loaded = state.get("loaded", [])
            problems = grounding_problems(draft.sentences, loaded, self.config.max_answer_chars)
            if problems:
                journal.path.append("grounding:failed")
            judgement = state.get("judgement")
            reply = (
                not problems
                and (
                    not self.config.enable_verification or (verdict is not None and verdict.passed)
                )
                and (self.answer_check is None or (judgement is not None and judgement.answers))
            )
        journal.path.append(f"should_reply:{str(reply).lower()}")
        reflection = ""
        if state.get("feedback"):
            reflection = "rescued" if reply else "failed"
        text, citations = "", tuple[ReplyCitation, ...]()
        if reply and draft is not None:
            loaded_sources = [item.source for item in state.get("loaded", [])]
            by_id = {s.source_id: s for s in loaded_sources}
            text = render_reply(draft.sentences, loaded_sources)
            seen: dict[tuple[str, str], ReplyCitation] = {}
            for sentence in draft.sentences:
                source = by_id[sentence.source_id]
                seen.setdefault(
                    (sentence.source_id, sentence.quote),
                    ReplyCitation(sentence.source_id, sentence.quote, source.title, source.url),
                )
            citations = tuple(seen.values())
        result = AIResult(
            should_reply=reply,
            reply_text=text,
            citations=citations,
            sources=refs,
            decision_path=tuple(journal.path),
            timings=dict(journal.timings),
            gate=gate.decision if gate is not None else "",
            model=self.steps.name,
            error=error or ("; ".join(problems) if problems else None),
            reflection=reflection,
        )
        return {"result": result}

    # --- edges -----------------------------------------------------------------------------

    @staticmethod
    def _after_gate(state: ReplyState) -> Literal["select", "should_reply"]:
        gate = state.get("gate")
        if "error" in state or gate is None or gate.decision != "question":
            return "should_reply"
        return "select"

    @staticmethod
    def _after_select(state: ReplyState) -> Literal["load", "should_reply"]:
        return "load" if "error" not in state and state.get("selected") else "should_reply"

    @staticmethod
    def _after_load(state: ReplyState) -> Literal["generate", "should_reply"]:
        return "generate" if "error" not in state and state.get("loaded") else "should_reply"

    def _problems(self, state: ReplyState) -> list[str]:
        draft = state.get("draft")
        if draft is None:
            return []
        loaded = state.get("loaded", [])
        return grounding_problems(draft.sentences, loaded, self.config.max_answer_chars)

    def _may_retry(self, state: ReplyState) -> bool:
        return state.get("generations", 0) < MAX_GENERATIONS

    def _after_generate(
        self, state: ReplyState
    ) -> Literal["check", "verify", "reflect", "should_reply"]:
        if "error" in state or state.get("draft") is None:
            return "should_reply"
        if self._problems(state):
            return "reflect" if self._may_retry(state) else "should_reply"
        if self.answer_check is not None:
            return "check"
        return "verify" if self.config.enable_verification else "should_reply"

    def _after_check(self, state: ReplyState) -> Literal["verify", "should_reply"]:
        judgement = state.get("judgement")
        passed = "error" not in state and judgement is not None and judgement.answers
        return "verify" if passed and self.config.enable_verification else "should_reply"

    def _after_verify(self, state: ReplyState) -> Literal["reflect", "should_reply"]:
        verdict = state.get("verdict")
        rejected = "error" not in state and verdict is not None and not verdict.passed
        return "reflect" if rejected and self._may_retry(state) else "should_reply"

    def close(self) -> None:
        """Stop the pool (runs in progress finish)."""
        self._pool.shutdown(wait=False)


def draft_evidence(draft: DraftAnswer, loaded: Sequence[LoadedSource]) -> list[Evidence]:
    """The draft's sentences as the answer check's candidates, each with its whole source."""
    by_id = {item.source.source_id: item for item in loaded}
    evidence = []
    for sentence in draft.sentences:
        item = by_id.get(sentence.source_id)
        if item is not None:
            evidence.append(Evidence(sentence.text, item.text, item.source.title, item.relevance))
    return evidence


def _with_total(result: AIResult, started: float) -> AIResult:
    total = round((time.perf_counter() - started) * 1000, 3)
    return replace(result, timings={**result.timings, "total_ms": total})
