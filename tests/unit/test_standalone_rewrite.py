"""A conversation's last turn rewritten to stand alone before retrieval (rules and model)."""

from __future__ import annotations

import json

import pytest
import structlog

from lectern.adapters.llm.extractive import ExtractiveLLM
from lectern.adapters.llm.graphs.kb_reply import KnowledgeBaseReplyGraph
from lectern.adapters.llm.langchain_llm import LangChainLLM
from lectern.adapters.llm.standalone import LlmStandaloneRewriter, RuleStandaloneRewriter
from lectern.application.answering.knowledge import KnowledgeBases
from lectern.application.answering.rules import RuleReplySteps
from lectern.application.answering.service import KnowledgeBaseReplier
from lectern.domain.answering import Conversation, ConversationMessage, RequestContext
from tests.answering_world import kb_collection, knowledge_bases
from tests.fakes import ScriptedChatModel


def _thread(*turns: str) -> tuple[list[ConversationMessage], str]:
    earlier: list[ConversationMessage] = []
    for turn in turns[:-1]:
        earlier += [ConversationMessage("ana", turn), ConversationMessage("bot", "An answer.")]
    return earlier, turns[-1]


@pytest.mark.parametrize(
    ("turns", "standalone"),
    [
        (
            ("How do I use dependencies in FastAPI?", "does it work with websockets too?"),
            "does dependencies in FastAPI work with websockets too?",
        ),
        (
            ("How do I declare query parameters?", "and path parameters?"),
            "How do I declare path parameters?",
        ),
        (
            ("How do I declare query parameters?", "what about in version 2?"),
            "How do I declare query parameters in version 2?",
        ),
        (
            (
                "How do I declare query parameters?",
                "and path parameters?",
                "can they have defaults?",
            ),
            "can path parameters have defaults?",
        ),
        (
            ("tell me about chad dimera", "who has played him on days of our lives"),
            "who has played chad dimera on days of our lives",
        ),
    ],
)
def test_turns_that_lean_on_the_thread_get_its_subject(
    turns: tuple[str, ...], standalone: str
) -> None:
    earlier, turn = _thread(*turns)
    assert RuleStandaloneRewriter().rewrite(earlier, turn, "ana") == standalone


@pytest.mark.parametrize(
    "turns",
    [
        ("How do I set a cookie in the response?", "How do I serve static files like images?"),
        ("who has played chad dimera on days of our lives", "where is yemen located"),
        ("hi", "How do I enable CORS?"),
        ("How do I set a cookie in the response?", "thanks!"),
    ],
)
def test_a_topic_switch_or_a_first_question_carries_nothing(turns: tuple[str, ...]) -> None:
    earlier, turn = _thread(*turns)
    assert RuleStandaloneRewriter().rewrite(earlier, turn, "ana") == turn


def test_other_peoples_questions_are_not_the_askers_thread() -> None:
    earlier = [ConversationMessage("bob", "How do I use dependencies in FastAPI?")]
    assert RuleStandaloneRewriter().rewrite(earlier, "does it work?", "ana") == "does it work?"


def _model(answer: object) -> LangChainLLM:
    return LangChainLLM(
        ScriptedChatModel(script=[answer]),
        "scripted",
        fallback=ExtractiveLLM(),
        method="prompt",
        timeout=5.0,
        max_retries=0,
    )


def test_the_model_writes_the_standalone_question_and_the_rules_back_it() -> None:
    earlier, turn = _thread(
        "How do I use dependencies in FastAPI?", "does it work with websockets?"
    )
    written = json.dumps({"question": "Do FastAPI dependencies work with WebSockets?"})
    model = LlmStandaloneRewriter(_model(written))
    assert model.rewrite(earlier, turn, "ana") == "Do FastAPI dependencies work with WebSockets?"
    broken = LlmStandaloneRewriter(_model(ValueError("the model is down")))
    assert broken.rewrite(earlier, turn, "ana") == (
        "does dependencies in FastAPI work with websockets?"
    )


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBases:
    root = tmp_path_factory.mktemp("kb-standalone")
    return knowledge_bases(kb_collection(root / "var", root), root / "kb-index")


def test_the_replier_answers_the_standalone_question_and_keeps_it(bases: KnowledgeBases) -> None:
    replier = KnowledgeBaseReplier(
        KnowledgeBaseReplyGraph(RuleReplySteps(600)), bases, rewriter=RuleStandaloneRewriter()
    )
    conversation = Conversation(
        (
            ConversationMessage("ana", "How do I declare query parameters?"),
            ConversationMessage("bot", "Declare them as function parameters."),
            ConversationMessage("ana", "and how do I make them optional?"),
        )
    )
    with structlog.testing.capture_logs() as logs:
        result = replier.reply(conversation, RequestContext("kb", "ana", "#help"))
    assert result.standalone_query == "and how do I make query parameters optional?"
    assert result.decision_path[0] == "rewrite"
    assert result.should_reply
    assert "kb:tutorial/query-params.md" in {c.source_id for c in result.citations}
    assert logs[-1]["standalone_query"] == result.standalone_query
    alone = replier.ask("How do I declare query parameters?", RequestContext("kb"))
    assert alone.standalone_query == "" and alone.decision_path[0] == "gate:question"
