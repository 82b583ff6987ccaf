"""The replier around the graph: metrics, one log line per request, token usage, invoke_llm,
the quiet-window batcher."""

from __future__ import annotations

import asyncio
import json

import pytest
import structlog
from langchain_core.messages import AIMessage
from pydantic import BaseModel

from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.adapters.llm.graphs.kb_reply import KnowledgeBaseReplyGraph
from lectern.adapters.llm.kb_steps import KBPrompts, LLMJsonModel, LLMReplySteps
from lectern.adapters.llm.langchain_llm import LangChainLLM
from lectern.application.answering.batcher import Batch, QuietWindowBatcher
from lectern.application.answering.knowledge import KnowledgeBases
from lectern.application.answering.rules import RuleReplySteps
from lectern.application.answering.service import KnowledgeBaseReplier
from lectern.application.answering.usage import UsageMeter
from lectern.domain.answering import Conversation, ConversationMessage, RequestContext
from lectern.errors import CollectionNotFoundError
from tests.answering_world import kb_collection, knowledge_bases
from tests.fakes import RecordingTracer, ScriptedChatModel


class CountingObserver:
    """Counts what the replier reports."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.gates: list[str] = []

    def request(self, outcome: str) -> None:
        self.requests.append(outcome)

    def gate(self, decision: str) -> None:
        self.gates.append(decision)

    def reflection(self, outcome: str) -> None:
        self.requests.append(f"reflection:{outcome}")


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBases:
    root = tmp_path_factory.mktemp("kb-replier")
    return knowledge_bases(kb_collection(root / "var", root), root / "kb-index")


def test_outcomes_gates_and_one_log_line_per_request(bases: KnowledgeBases) -> None:
    observer = CountingObserver()
    replier = KnowledgeBaseReplier(
        KnowledgeBaseReplyGraph(RuleReplySteps(600)), bases, observer=observer
    )
    context = RequestContext("kb", "ana", "#help")
    with structlog.testing.capture_logs() as logs:
        answered = replier.ask("How do I declare optional query parameters?", context)
        silent = replier.ask("thanks!", context)
    assert answered.should_reply and not silent.should_reply
    assert observer.requests == ["success", "skip"]
    assert observer.gates == ["question", "chit_chat"]
    lines = [entry for entry in logs if entry["event"] == "kb.reply"]
    assert len(lines) == 2
    first = lines[0]
    assert first["decision_path"][0] == "gate:question" and first["outcome"] == "success"
    assert first["user"] == "ana" and first["channel"] == "#help" and first["latency_ms"] > 0
    assert (first["input_tokens"], first["output_tokens"], first["llm_calls"]) == (0, 0, 0)


def test_failures_count_as_errors(bases: KnowledgeBases) -> None:
    observer = CountingObserver()
    llm = LangChainLLM(
        ScriptedChatModel(script=["no JSON here"]),
        "scripted",
        fallback=ExtractiveLLM(),
        method="prompt",
        max_retries=0,
    )
    prompts = KBPrompts.build({}, project_introduction="", max_sources=3, max_answer_chars=600)
    replier = KnowledgeBaseReplier(
        KnowledgeBaseReplyGraph(LLMReplySteps(llm, prompts)), bases, observer=observer
    )
    result = replier.ask("How do I declare optional query parameters?", RequestContext("kb"))
    assert not result.should_reply
    assert observer.requests == ["error"] and observer.gates == ["error"]


def test_token_usage_of_the_models_calls_is_added_up_per_request(bases: KnowledgeBases) -> None:
    def reply(content: dict[str, object], tokens: tuple[int, int]) -> AIMessage:
        return AIMessage(
            json.dumps(content),
            usage_metadata={
                "input_tokens": tokens[0],
                "output_tokens": tokens[1],
                "total_tokens": sum(tokens),
            },
        )

    script = [
        reply({"decision": "chit_chat", "reason": "thanks"}, (120, 9)),
        reply({"decision": "question"}, (100, 5)),
        reply({"source_ids": []}, (300, 7)),
    ]
    tracer = RecordingTracer()
    meter = UsageMeter(tracer)
    llm = LangChainLLM(
        ScriptedChatModel(script=script),
        "scripted",
        fallback=ExtractiveLLM(),
        method="prompt",
        max_retries=0,
        tracer=meter,
    )
    prompts = KBPrompts.build({}, project_introduction="", max_sources=3, max_answer_chars=600)
    replier = KnowledgeBaseReplier(
        KnowledgeBaseReplyGraph(LLMReplySteps(llm, prompts)), bases, usage=meter
    )
    first = replier.ask("thanks a lot", RequestContext("kb"))
    second = replier.ask("How do I declare optional query parameters?", RequestContext("kb"))
    assert (first.usage.input_tokens, first.usage.output_tokens, first.usage.calls) == (120, 9, 1)
    assert (second.usage.input_tokens, second.usage.output_tokens, second.usage.calls) == (
        400,
        12,
        2,
    )
    assert len(tracer.traces) == 3  # every call still reaches the trace file


def test_an_unknown_collection_is_the_callers_mistake(bases: KnowledgeBases) -> None:
    replier = KnowledgeBaseReplier(KnowledgeBaseReplyGraph(RuleReplySteps(600)), bases)
    with pytest.raises(CollectionNotFoundError):
        replier.ask("How?", RequestContext("nope"))


class Verdict(BaseModel):
    """A single-step caller's schema."""

    label: str
    score: float


def test_invoke_llm_on_the_shared_model(bases: KnowledgeBases) -> None:
    model = ScriptedChatModel(script=['```json\n{"label": "bug", "score": 0.9}\n```', "nonsense"])
    llm = LangChainLLM(model, "scripted", fallback=ExtractiveLLM(), method="prompt", max_retries=0)
    replier = KnowledgeBaseReplier(
        KnowledgeBaseReplyGraph(RuleReplySteps(600)),
        bases,
        project_introduction="Lectern answers from documents.",
        json_model=LLMJsonModel(llm),
    )
    assert replier.project_introduction == "Lectern answers from documents."
    parsed = replier.invoke_llm("Label this issue.", "it crashes </data> on start", Verdict)
    assert parsed == Verdict(label="bug", score=0.9)
    system, user = (str(m.content) for m in model.received[0])
    assert system.startswith("Label this issue.") and "JSON only" in system
    assert user.count("</data>") == 1
    assert replier.invoke_llm("Label this issue.", "again", Verdict) is None  # garbage
    offline = KnowledgeBaseReplier(KnowledgeBaseReplyGraph(RuleReplySteps(600)), bases)
    assert offline.invoke_llm("Label this issue.", "x", Verdict) is None


def test_a_conversations_last_turn_is_what_is_answered(bases: KnowledgeBases) -> None:
    replier = KnowledgeBaseReplier(KnowledgeBaseReplyGraph(RuleReplySteps(600)), bases)
    conversation = Conversation(
        (
            ConversationMessage("bob", "How do I declare optional query parameters?"),
            ConversationMessage("ana", "hi all"),
        )
    )
    assert replier.reply(conversation, RequestContext("kb")).gate == "chit_chat"


# --- the quiet-window batcher ------------------------------------------------------------------


def test_messages_close_together_become_one_turn() -> None:
    batches: list[Batch] = []

    async def handle(batch: Batch) -> None:
        batches.append(batch)

    async def scenario() -> None:
        batcher = QuietWindowBatcher(0.05, handle)
        await batcher.add("#help", ConversationMessage("ana", "hi"))
        await batcher.add("#help", ConversationMessage("bob", "hello"))
        await asyncio.sleep(0.01)
        await batcher.add("#help", ConversationMessage("ana", "how do I restart it?"))
        await batcher.add("#other", ConversationMessage("ana", "different channel"))
        assert batcher.waiting == 3
        await asyncio.sleep(0.15)
        await batcher.add("#help", ConversationMessage("ana", "later question?"))
        await asyncio.sleep(0.15)
        assert batcher.waiting == 0

    with structlog.testing.capture_logs() as logs:
        asyncio.run(scenario())
    turns = {(b.channel, b.author, b.as_message().text) for b in batches}
    assert turns == {
        ("#help", "ana", "hi\nhow do I restart it?"),
        ("#help", "bob", "hello"),
        ("#other", "ana", "different channel"),
        ("#help", "ana", "later question?"),
    }
    events = [entry["event"] for entry in logs]
    assert events.count("kb.batch.wait_scheduled") == 4
    assert events.count("kb.batch.wait_reset") == 1
    assert events.count("kb.batch.start") == 4
    assert all(entry["log_level"] == "debug" for entry in logs)


def test_flush_releases_what_is_held() -> None:
    batches: list[Batch] = []

    async def handle(batch: Batch) -> None:
        batches.append(batch)

    async def scenario() -> None:
        batcher = QuietWindowBatcher(60, handle)
        await batcher.add("#help", ConversationMessage("ana", "one"))
        await batcher.add("#help", ConversationMessage("ana", "two"))
        await batcher.flush()

    asyncio.run(scenario())
    assert [b.as_message().text for b in batches] == ["one\ntwo"]
    with pytest.raises(ValueError, match="negative"):
        QuietWindowBatcher(-1, handle)


def test_rescued_and_failed_retries_are_counted_on_the_metric(bases: KnowledgeBases) -> None:
    from prometheus_client import CollectorRegistry

    from lectern.adapters.answering_metrics import PrometheusAnsweringObserver
    from lectern.adapters.llm.graphs.kb_reply import GraphConfig

    quote = "The same way, you can declare optional query parameters, by setting their default"
    gate = json.dumps({"decision": "question", "reason": "asks"})
    select = json.dumps({"source_ids": ["kb:tutorial/query-params.md"]})
    answer = json.dumps(
        {
            "can_answer": True,
            "sentences": [
                {
                    "text": "Give it a default.",
                    "source_id": "kb:tutorial/query-params.md",
                    "quote": quote,
                }
            ],
        }
    )
    no = json.dumps({"supported": False, "answers_question": True, "reason": "vague"})
    yes = json.dumps({"supported": True, "answers_question": True, "reason": "stated"})
    registry = CollectorRegistry()
    observer = PrometheusAnsweringObserver(registry)
    prompts = KBPrompts.build({}, project_introduction="", max_sources=3, max_answer_chars=600)

    def ask(script: list[object]) -> bool:
        llm = LangChainLLM(
            ScriptedChatModel(script=script),
            "scripted",
            fallback=ExtractiveLLM(),
            method="prompt",
            max_retries=0,
        )
        graph = KnowledgeBaseReplyGraph(
            LLMReplySteps(llm, prompts), GraphConfig(enable_verification=True)
        )
        replier = KnowledgeBaseReplier(graph, bases, observer=observer)
        return replier.ask(
            "How do I declare optional query parameters?", RequestContext("kb")
        ).should_reply

    assert ask([gate, select, answer, no, answer, yes])
    assert not ask([gate, select, answer, no, answer, no])
    assert ask([gate, select, answer, yes])

    def count(outcome: str) -> float | None:
        return registry.get_sample_value(
            "lectern_ai_reflections_total", {"workflow": "kb_reply", "outcome": outcome}
        )

    assert (count("rescued"), count("failed")) == (1.0, 1.0)


def test_invoke_llm_text_returns_the_one_string(bases: KnowledgeBases) -> None:
    from lectern.adapters.llm.answering_schemas import LLMTextResult

    chat = ScriptedChatModel(script=[json.dumps({"text": "bug"}), "no JSON at all"])
    llm = LangChainLLM(chat, "scripted", fallback=ExtractiveLLM(), method="prompt", max_retries=0)
    replier = KnowledgeBaseReplier(
        KnowledgeBaseReplyGraph(RuleReplySteps(600)), bases, json_model=LLMJsonModel(llm)
    )
    assert replier.invoke_llm_text("Label this issue in one word.", "it crashes") == "bug"
    assert replier.invoke_llm_text("Label this issue in one word.", "again") is None
    assert list(LLMTextResult.model_fields) == ["text"]
    offline = KnowledgeBaseReplier(KnowledgeBaseReplyGraph(RuleReplySteps(600)), bases)
    assert offline.invoke_llm_text("Label this.", "x") is None
