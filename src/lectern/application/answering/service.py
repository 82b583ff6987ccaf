"""The knowledge-base replier: one conversation in, one `AIResult` out, never an exception.

Unknown collections are the caller's mistake and raise `CollectionNotFoundError` before the
graph runs; everything after that (a node failing, a model timing out, a citation that does
not hold) is `should_reply=false` with the reason in `error` and `decision_path`.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

import structlog

from lectern.application.answering.knowledge import KnowledgeBases
from lectern.application.answering.ports import (
    AnsweringObserver,
    JsonModel,
    NullObserver,
    ReplyGraph,
    TurnRewriter,
)
from lectern.application.answering.usage import UsageMeter
from lectern.application.timing import elapsed_ms
from lectern.domain.answering import (
    AIResult,
    Conversation,
    ConversationMessage,
    RequestContext,
    TokenCount,
)
from lectern.errors import LecternError

log = structlog.get_logger(__name__)


def _earlier(conversation: Conversation) -> tuple[ConversationMessage, ...]:
    """The messages before the last turn (the last author's trailing messages)."""
    messages = conversation.messages
    if not messages:
        return ()
    author = messages[-1].author
    end = len(messages)
    while end > 0 and messages[end - 1].author == author:
        end -= 1
    return messages[:end]


SchemaT = TypeVar("SchemaT")


class KnowledgeBaseReplier:
    """Decides whether to answer the last turn of a conversation, and answers with citations."""

    def __init__(
        self,
        graph: ReplyGraph,
        bases: KnowledgeBases,
        *,
        project_introduction: str = "",
        json_model: JsonModel | None = None,
        usage: UsageMeter | None = None,
        observer: AnsweringObserver | None = None,
        rewriter: TurnRewriter | None = None,
        new_id: Callable[[], str] = lambda: uuid.uuid4().hex,
    ) -> None:
        """The graph is compiled once by bootstrap; `json_model` is None without a model.

        With `rewriter`, a turn after earlier messages is rewritten to stand alone first.
        """
        self.graph = graph
        self.bases = bases
        self._introduction = project_introduction
        self.json_model = json_model
        self.usage = usage
        self.observer = observer or NullObserver()
        self.rewriter = rewriter
        self.new_id = new_id

    @property
    def project_introduction(self) -> str:
        """What the project is about, as configured (the gate's notion of on-topic)."""
        return self._introduction

    def reply(self, conversation: Conversation, context: RequestContext) -> AIResult:
        """Run the graph on the conversation's last turn over the context's collection."""
        started = time.perf_counter()
        kb = self.bases.get(context.collection)
        run_id = self.new_id()
        author, turn = conversation.last_turn()
        if self.usage is not None:
            self.usage.watch(run_id)
        standalone = turn
        try:
            earlier = _earlier(conversation)
            if self.rewriter is not None and earlier:
                standalone = self.rewriter.rewrite(earlier, turn, author) or turn
            result = self.graph.run(standalone, kb, run_id=run_id)
        finally:
            tokens = self.usage.pop(run_id) if self.usage is not None else TokenCount()
        rewritten = standalone if standalone != " ".join(turn.split()) else ""
        result = replace(result, usage=tokens, standalone_query=rewritten)
        if rewritten:
            result = replace(result, decision_path=("rewrite", *result.decision_path))
        outcome = "success" if result.should_reply else "error" if result.error else "skip"
        self.observer.request(outcome)
        self.observer.gate(result.gate or "error")
        if result.reflection:
            self.observer.reflection(result.reflection)
        log.info(
            "kb.reply",
            run_id=run_id,
            collection=context.collection,
            user=context.user,
            channel=context.channel,
            outcome=outcome,
            gate=result.gate or None,
            decision_path=list(result.decision_path),
            sources=[s.source_id for s in result.sources],
            latency_ms=elapsed_ms(started),
            model=result.model,
            llm_calls=tokens.calls,
            input_tokens=tokens.input_tokens,
            output_tokens=tokens.output_tokens,
            error=result.error,
            reflection=result.reflection or None,
            standalone_query=rewritten or None,
        )
        return result

    def ask(self, question: str, context: RequestContext) -> AIResult:
        """A one-message conversation from the context's user."""
        return self.reply(Conversation((ConversationMessage(context.user, question),)), context)

    def invoke_llm(
        self, system_prompt: str, user_content: str, response_model: type[SchemaT]
    ) -> SchemaT | None:
        """One JSON-only call on the shared model; None without a model or when it fails."""
        if self.json_model is None:
            return None
        try:
            return self.json_model.invoke(system_prompt, user_content, response_model)
        except (LecternError, ValueError) as error:
            log.warning("kb.invoke_llm_failed", model=self.json_model.model_id, error=str(error))
            return None

    def invoke_llm_text(self, system_prompt: str, user_content: str) -> str | None:
        """`invoke_llm` for single-string callers (`LLMTextResult`); None offline or on failure."""
        if self.json_model is None:
            return None
        try:
            return self.json_model.invoke_text(system_prompt, user_content)
        except (LecternError, ValueError) as error:
            log.warning("kb.invoke_llm_failed", model=self.json_model.model_id, error=str(error))
            return None
