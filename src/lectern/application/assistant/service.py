"""`AssistantService`: the bounded tool-calling loop, approvals, guardrails and sessions.

One turn: the reader's text (personal data masked when configured) joins the stored history;
the model is asked for the next step at most `max_agent_steps` times; query tools run and
their results go back to the model as data; an action tool call becomes a pending action
and the turn ends with its preview. Every step is traced. The reply passes the guardrails
before it is returned or stored. An approval or rejection runs the action (or not) and
tells the model, which continues the turn.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal, cast

import structlog

from lectern.application.assistant.approvals import Approvals, Decision
from lectern.application.assistant.guardrails import (
    MODEL_FAILED_TEXT,
    STEP_LIMIT_TEXT,
    GuardedReply,
    TurnFacts,
    guard,
)
from lectern.application.assistant.ports import (
    AssistantObserver,
    ChatModel,
    PiiDetector,
    SessionStore,
    TurnListener,
)
from lectern.application.assistant.prompts import SYSTEM_PROMPT_VERSION, system_prompt
from lectern.application.assistant.registry import ToolRegistry
from lectern.application.assistant.tools import ActionTool, QueryTool, ToolContext
from lectern.application.ports import LLMTracer
from lectern.application.timing import elapsed_ms
from lectern.domain.assistant import (
    ChatCitation,
    GroundingFlag,
    Message,
    PageContext,
    PendingAction,
    ToolCall,
    canonical_json,
    summarize_diff,
)
from lectern.domain.books import JSONValue
from lectern.domain.privacy import mask, mask_data, masked_notice
from lectern.domain.tracing import LLMCallTrace
from lectern.errors import AssistantDisabledError, ChatCancelledError, LecternError

log = structlog.get_logger(__name__)

Verdict = Literal["approved", "rejected"]

MAX_MESSAGE_CHARS = 4_000
"""A chat message is cut here."""


@dataclass(frozen=True, slots=True)
class AssistantConfig:
    """The loop's knobs; bootstrap fills them from Settings."""

    enabled: bool = True
    max_agent_steps: int = 10
    temperature: float = 0.0
    max_tokens: int = 1024
    mask_pii: bool = False


@dataclass(frozen=True, slots=True)
class StepTrace:
    """One step of a turn: a model call or a tool run."""

    step: int
    kind: str
    """`model` or the tool's name."""
    arguments: JSONValue
    result_chars: int
    latency_ms: float
    outcome: str
    """ok, error, preview, or the model's stop (tool_calls / text)."""


@dataclass(frozen=True, slots=True)
class ChatReply:
    """What one turn gives the reader."""

    conversation: str
    text: str
    citations: tuple[ChatCitation, ...]
    grounding_flags: tuple[GroundingFlag, ...]
    actions: tuple[PendingAction, ...]
    """Pending actions proposed in this turn, each waiting for approval by id."""
    tool_calls: tuple[ToolCall, ...]
    steps: tuple[StepTrace, ...]
    model: str
    decision: Decision | None = None
    """For a turn that continued an approval or rejection: what it did."""
    suggestions: tuple[str, ...] = ()
    """With a clarifying question: the readings the reader may pick, as replies to send."""


@dataclass
class _Turn:
    evidence: dict[str, str] = field(default_factory=dict)
    tool_calls: list[ToolCall] = field(default_factory=list)
    retrieval_calls: int = 0
    gate_dropped: int = 0
    actions: list[PendingAction] = field(default_factory=list)
    steps: list[StepTrace] = field(default_factory=list)


class AssistantService:
    """The assistant: chat turns, the user's pending actions, and decisions on them."""

    def __init__(
        self,
        model: ChatModel,
        registry: ToolRegistry,
        approvals: Approvals | None,
        sessions: SessionStore,
        *,
        config: AssistantConfig | None = None,
        clock: Callable[[], datetime],
        new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
        tracer: LLMTracer | None = None,
        pii: PiiDetector | None = None,
        observer: AssistantObserver | None = None,
        system: Callable[[PageContext | None], str] = system_prompt,
        names: Callable[[str], str] | None = None,
        guardrail: Callable[[str, TurnFacts], GuardedReply] = guard,
        prompt_version: str = SYSTEM_PROMPT_VERSION,
        page_check: Callable[[str, PageContext], PageContext] | None = None,
    ) -> None:
        """Wire the parts (bootstrap does it).

        `system`, `guardrail` and `prompt_version` make the same loop another agent (the
        guideline agent: its own prompt and checks); `approvals` may be None for an agent
        without action tools. `page_check` vets a client's page context before the model
        sees it (the workspace's: 404 for another organization's project or task).
        """
        self.page_check = page_check
        self.model = model
        self.registry = registry
        self._approvals = approvals
        self.system = system
        self.names = names
        """The names the reader may use (`names.py`), added to the system prompt."""
        self.guardrail = guardrail
        self.prompt_version = prompt_version
        self.sessions = sessions
        self.config = config or AssistantConfig()
        self.clock = clock
        self.new_id = new_id
        self.tracer = tracer
        self.pii = pii
        self.observer = observer

    @property
    def approvals(self) -> Approvals:
        """Where proposed actions wait for their owner (LecternError for an agent without)."""
        if self._approvals is None:
            raise LecternError("this agent has no action tools, so nothing waits for approval")
        return self._approvals

    # --- chat -----------------------------------------------------------------------------

    def chat(
        self,
        user: str,
        text: str,
        *,
        conversation: str | None = None,
        page: PageContext | None = None,
        only_tools: Sequence[str] | None = None,
        history: Sequence[Message] | None = None,
        listener: TurnListener | None = None,
    ) -> ChatReply:
        """One turn of the conversation (a new one when `conversation` is None).

        `history`: earlier turns as the caller holds them (clients of stateless protocols
        send the whole conversation); when given, stored history is neither read nor
        written. `listener` hears tool calls as they happen and can stop the turn.
        """
        self._check_enabled()
        page = self._checked(user, page)
        conversation = conversation or self.new_id()
        # a pasted alert's or log's lines end where the request begins: the breaks are kept
        lines = (" ".join(line.split()) for line in text.splitlines())
        cleaned = "\n".join(line for line in lines if line)[:MAX_MESSAGE_CHARS]
        masked_kinds: tuple[str, ...] = ()
        if self.config.mask_pii and self.pii is not None:
            masked = mask(cleaned, self.pii.find(cleaned))
            cleaned, masked_kinds = masked.text, masked.kinds
        remember = history is None
        earlier = self.sessions.history(user, conversation) if history is None else list(history)
        turn_message = Message("user", cleaned)
        reply = self._run(
            user,
            conversation,
            [*earlier, turn_message],
            page,
            only_tools=only_tools,
            listener=listener,
        )
        if masked_kinds:
            reply = _with_notice(reply, masked_notice(masked_kinds))
        if remember:
            self.sessions.append(
                user, conversation, [turn_message, Message("assistant", reply.text)]
            )
        return reply

    def _run(
        self,
        user: str,
        conversation: str,
        messages: list[Message],
        page: PageContext | None,
        *,
        only_tools: Sequence[str] | None = None,
        decision: Decision | None = None,
        listener: TurnListener | None = None,
    ) -> ChatReply:
        turn = _Turn()
        specs = self.registry.specs(only_tools)
        allowed = {s.name for s in specs}
        system = self.system(page)
        if self.names is not None:
            known = self.names(user)
            system = f"{system}\n\n{known}" if known else system
        context = ToolContext(user, conversation, self.clock(), page or PageContext())
        text = STEP_LIMIT_TEXT
        suggestions: tuple[str, ...] = ()
        flags: list[GroundingFlag] = []
        run_id = uuid.uuid4().hex
        for step in range(1, self.config.max_agent_steps + 1):
            _stop_if_cancelled(listener)
            started = time.perf_counter()
            try:
                response = self.model.complete_with_tools(
                    messages,
                    specs,
                    system=system,
                    temperature=self.config.temperature,
                    max_tokens=self.config.max_tokens,
                )
            except LecternError as error:
                log.warning("assistant model failed", error=str(error), step=step)
                text = MODEL_FAILED_TEXT
                flags.append("model_error")
                break
            latency = elapsed_ms(started)
            outcome = "tool_calls" if response.tool_calls else "text"
            turn.steps.append(StepTrace(step, "model", None, len(response.text), latency, outcome))
            self._trace(
                run_id,
                "assistant.model",
                {"step": step, "messages": len(messages)},
                response.text,
                [{"name": c.name, "arguments": dict(c.arguments)} for c in response.tool_calls],
                latency,
                response.model or self.model.model_id,
                response.usage.input_tokens,
                response.usage.output_tokens,
            )
            if not response.tool_calls:
                text = response.text
                suggestions = response.suggestions
                break
            messages.append(Message("assistant", response.text, response.tool_calls))
            proposed_before = len(turn.actions)
            # Not between one step's calls: parallel previews stand or fall together.
            _stop_if_cancelled(listener)
            for call in response.tool_calls:
                if listener is not None:
                    listener.tool_call(call)
                content = self._call(call, context, turn, step, allowed, run_id)
                if listener is not None:
                    listener.tool_result(call, content, turn.steps[-1].outcome)
                messages.append(
                    Message(
                        "tool",
                        canonical_json(content),
                        tool_call_id=call.id,
                        name=call.name,
                    )
                )
            if len(turn.actions) > proposed_before:
                text = _with_previews(response.text, turn.actions)
                break
        else:
            flags.append("step_limit")
        guarded = self.guardrail(
            text,
            TurnFacts(
                turn.evidence,
                # A turn that continues a decision starts from that decision's tool result.
                len(turn.tool_calls) + (decision is not None),
                turn.retrieval_calls,
                turn.gate_dropped,
                len(turn.actions),
            ),
        )
        all_flags = tuple(dict.fromkeys([*flags, *guarded.flags]))
        if self.observer is not None:
            self.observer.chat("preview" if turn.actions else "answered")
            for flag in all_flags:
                self.observer.flag(flag)
        log.info(
            "assistant turn",
            conversation=conversation,
            steps=len(turn.steps),
            tools=[c.name for c in turn.tool_calls],
            actions=[a.id for a in turn.actions],
            flags=list(all_flags),
        )
        return ChatReply(
            conversation=conversation,
            text=guarded.text,
            citations=guarded.citations,
            grounding_flags=all_flags,
            actions=tuple(turn.actions),
            tool_calls=tuple(turn.tool_calls),
            steps=tuple(turn.steps),
            model=self.model.model_id,
            decision=decision,
            suggestions=suggestions if not turn.actions else (),
        )

    def _call(
        self,
        call: ToolCall,
        context: ToolContext,
        turn: _Turn,
        step: int,
        allowed: set[str],
        run_id: str,
    ) -> JSONValue:
        """Run one tool call; errors go back to the model as data."""
        started = time.perf_counter()
        turn.tool_calls.append(call)
        tool = self.registry.get(call.name) if call.name in allowed else None
        content: JSONValue
        outcome = "ok"
        try:
            if tool is None:
                raise LecternError(
                    f"there is no tool {call.name!r}; the tools are: {', '.join(sorted(allowed))}"
                )
            args = tool.parse(call.arguments)
            if isinstance(tool, QueryTool):
                output = tool.run(args, context)
                content = output.data
                evidence = output.evidence
                if self.config.mask_pii and self.pii is not None:
                    # Task, comment and document text reaches a hosted model masked, and
                    # citations are checked against the same masked text.
                    content = cast(JSONValue, mask_data(content, self.pii.find))
                    evidence = {k: mask(v, self.pii.find(v)).text for k, v in evidence.items()}
                turn.evidence.update(evidence)
                turn.retrieval_calls += int(output.retrieval)
                turn.gate_dropped += output.dropped
            else:
                assert isinstance(tool, ActionTool)
                preview = tool.preview(args, context)
                action = self.approvals.propose(preview, context.user, context.conversation)
                turn.actions.append(action)
                outcome = "preview"
                content = {
                    "status": "waiting_for_approval",
                    "action_id": action.id,
                    "description": preview.description,
                    "expires_at": action.expires_at.isoformat(),
                }
        except LecternError as error:
            outcome = "error"
            content = {"error": str(error)}
        latency = elapsed_ms(started)
        size = len(canonical_json(content))
        turn.steps.append(StepTrace(step, call.name, dict(call.arguments), size, latency, outcome))
        if self.observer is not None:
            self.observer.tool_call(call.name, outcome)
        self._trace(
            run_id,
            f"assistant.tool.{call.name}",
            {"arguments": canonical_json(dict(call.arguments))},
            None,
            {"outcome": outcome, "result_chars": size},
            latency,
            "tool",
            None,
            None,
        )
        return content

    # --- decisions ------------------------------------------------------------------------

    def pending(self, user: str) -> list[PendingAction]:
        """The user's actions still waiting for a decision."""
        return self.approvals.list(user, pending_only=True)

    def actions(self, user: str) -> list[PendingAction]:
        """Every action of the user, decided or not."""
        return self.approvals.list(user)

    def get_action(self, user: str, action_id: str) -> PendingAction:
        """One of the user's actions (ActionNotFoundError for anyone else's)."""
        return self.approvals.get(user, action_id)

    def approve(
        self,
        user: str,
        action_id: str,
        *,
        page: PageContext | None = None,
        listener: TurnListener | None = None,
    ) -> ChatReply:
        """Run the action, then let the model continue the conversation with its result."""
        return self.decide(user, action_id, "approved", page=page, listener=listener)

    def reject(
        self,
        user: str,
        action_id: str,
        *,
        page: PageContext | None = None,
        listener: TurnListener | None = None,
    ) -> ChatReply:
        """Do not run the action; the model is told and continues without it."""
        return self.decide(user, action_id, "rejected", page=page, listener=listener)

    def decide(
        self,
        user: str,
        action_id: str,
        verdict: Verdict,
        *,
        page: PageContext | None = None,
        listener: TurnListener | None = None,
    ) -> ChatReply:
        """Approve (run) or reject the action, then continue its conversation."""
        self._check_enabled()
        page = self._checked(user, page)
        if verdict == "approved":
            decision = self.approvals.approve(user, action_id)
        else:
            decision = self.approvals.reject(user, action_id)
        return self._continue(user, decision, verdict, page, listener)

    def _continue(
        self,
        user: str,
        decision: Decision,
        verdict: Verdict,
        page: PageContext | None,
        listener: TurnListener | None,
    ) -> ChatReply:
        action = decision.action
        call = ToolCall(action.id, action.preview.tool_name, dict(action.preview.tool_input))
        outcome: JSONValue = {
            "decision": verdict,
            "status": action.status,
            "description": action.preview.description,
            "result": decision.result,
        }
        if listener is not None:
            listener.decided(action, decision.result)
        history = self.sessions.history(user, action.conversation)
        messages = [
            *history,
            Message("assistant", "", (call,)),
            Message("tool", canonical_json(outcome), tool_call_id=call.id, name=call.name),
        ]
        reply = self._run(
            user, action.conversation, messages, page, decision=decision, listener=listener
        )
        self.sessions.append(user, action.conversation, [Message("assistant", reply.text)])
        return reply

    # --- helpers --------------------------------------------------------------------------

    def _checked(self, user: str, page: PageContext | None) -> PageContext | None:
        if page is None or self.page_check is None:
            return page
        return self.page_check(user, page)

    def _check_enabled(self) -> None:
        if not self.config.enabled:
            raise AssistantDisabledError(
                "the assistant is switched off (LECTERN_ASSISTANT_ENABLED=false)"
            )

    def _trace(
        self,
        run_id: str,
        operation: str,
        variables: dict[str, JSONValue],
        raw: str | None,
        parsed: JSONValue,
        latency: float,
        model: str,
        input_tokens: int | None,
        output_tokens: int | None,
    ) -> None:
        if self.tracer is None:
            return
        self.tracer.record(
            LLMCallTrace(
                trace_id=uuid.uuid4().hex,
                time=self.clock(),
                operation=operation,
                prompt_version=self.prompt_version,
                model=model,
                temperature=self.config.temperature,
                prompt_variables=variables,
                raw_response=raw,
                parsed_output=parsed,
                parse_error=None,
                latency_ms=latency,
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                run_id=run_id,
            )
        )


def _stop_if_cancelled(listener: TurnListener | None) -> None:
    if listener is not None and listener.cancelled():
        raise ChatCancelledError("the turn was stopped: nobody is waiting for it any more")


def _with_previews(text: str, actions: Sequence[PendingAction]) -> str:
    """The model's words, then each proposed change with its id and diff."""
    lines = [text.strip()] if text.strip() else []
    lines.append(
        "I have prepared "
        + ("this change" if len(actions) == 1 else f"these {len(actions)} changes")
        + " for your approval (nothing has changed yet):"
    )
    for number, action in enumerate(actions, start=1):
        diff = summarize_diff(action.preview.diff)
        lines.append(f"{number}. {action.preview.description} [action {action.id}] {diff}")
    return "\n".join(lines)


def _with_notice(reply: ChatReply, notice: str) -> ChatReply:
    return replace(
        reply,
        text=f"{reply.text}\n\n{notice}",
        grounding_flags=tuple(dict.fromkeys([*reply.grounding_flags, "pii_masked"])),
    )
