"""Any LangChain chat model behind the `LLMClient` port, failing closed.

The model's output is parsed into the task's Pydantic schema, converted to domain objects
and validated; a parse failure, an error after retries, or an explanation with no valid
citation degrades to the extractive answer. It never becomes an error response.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

import structlog
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ValidationError
from tenacity import (
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from lectern.adapters.llm.prompts import (
    ANSWER,
    EXPLAIN,
    GRADE_EXPLANATION,
    JUDGE,
    PROMPTS,
    Prompt,
)
from lectern.adapters.llm.schemas import (
    GroundedAnswerLLM,
    GroundedExplanationLLM,
    JudgmentLLM,
    RubricLLM,
)
from lectern.application.ports import LLMClient, LLMTracer
from lectern.domain.books import Book, JSONValue
from lectern.domain.evaluation import RubricJudgment
from lectern.domain.grounding import (
    Answer,
    Explanation,
    Judgment,
    validate_grounded_answer,
    validate_grounded_explanation,
)
from lectern.domain.tracing import LLMCallTrace
from lectern.errors import LLMError

log = structlog.get_logger(__name__)

StructuredMethod = Literal["tool_calling", "json_schema", "json_mode", "prompt", "grammar"]
"""How JSON is obtained: the provider's structured output (first three), the prompt alone
with our own parsing, or llama.cpp's grammar-constrained sampling from the JSON schema."""
ModelT = TypeVar("ModelT", bound=BaseModel)
SchemaT = TypeVar("SchemaT")

MAX_DESCRIPTION_CHARS = 4_000
"""Longer descriptions are cut before they reach a prompt (cost, and context limits)."""

_TRANSIENT_NAMES = frozenset(
    {
        "APITimeoutError",
        "APIConnectionError",
        "RateLimitError",
        "InternalServerError",
        "ServiceUnavailableError",
        "OverloadedError",
        "ThrottlingException",
        "ReadTimeout",
        "ConnectTimeout",
        "ConnectError",
    }
)


def is_transient(error: BaseException) -> bool:
    """Worth retrying: timeouts, lost connections, rate limits and 5xx answers."""
    if isinstance(error, TimeoutError | ConnectionError | FutureTimeout):
        return True
    if type(error).__name__ in _TRANSIENT_NAMES:
        return True
    status = getattr(error, "status_code", None)
    return isinstance(status, int) and (status == 429 or status >= 500)


_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.I)


def _json_text(content: str) -> str:
    """The JSON object in a reply that may wrap it in a code fence or a sentence."""
    text = _FENCE.sub("", content.strip())
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if start != -1 and end > start else text


def _content(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(
        part if isinstance(part, str) else str(part.get("text", ""))
        for part in content
        if isinstance(part, str | dict)
    )


class LangChainLLM:
    """A chat model (hosted or local) doing Lectern's tasks through versioned prompts."""

    def __init__(
        self,
        chat_model: BaseChatModel,
        model_id: str,
        *,
        fallback: LLMClient,
        method: StructuredMethod = "prompt",
        tracer: LLMTracer | None = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        temperature: float | None = 0.0,
        backoff: float = 0.5,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        """`fallback` (the extractive model) answers whenever this one cannot."""
        self._model = chat_model
        self.model_id = model_id
        self._fallback = fallback
        self._method = method
        self._tracer = tracer
        self._timeout = timeout
        self._max_retries = max_retries
        self._temperature = temperature
        self._backoff = backoff
        self._clock = clock
        # Calls run on this pool so that a model that ignores its own timeout cannot hang
        # the caller; the worker is abandoned, the caller falls back.
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="llm")

    # --- tasks -----------------------------------------------------------------------------

    def explain(self, query: str, book: Book, *, run_id: str | None = None) -> Explanation:
        """The model's explanation if any citation survives validation, else extractive."""
        variables = {
            "query": query,
            "title": book.field_text("title"),
            "authors": book.field_text("authors"),
            "categories": book.field_text("categories"),
            "description": (book.description or "")[:MAX_DESCRIPTION_CHARS],
            "book_id": str(book.id),  # not in the prompt: traced, to re-check citations later
        }
        parsed = self._structured(EXPLAIN, variables, GroundedExplanationLLM, run_id)
        if parsed is not None:
            draft = parsed.to_domain(book.id, query, self.model_id, self._clock())
            checked = validate_grounded_explanation(draft, book)
            if checked.grounded:
                return checked
            log.info("llm.explain.no_valid_citation", model=self.model_id, book_id=str(book.id))
        return self._fallback.explain(query, book, run_id=run_id)

    def answer(
        self, question: str, passages: Mapping[str, str], *, run_id: str | None = None
    ) -> Answer:
        """The model's answer if any citation survives validation, else extractive."""
        listing = "\n".join(f"[{pid}] {text}" for pid, text in passages.items())
        parsed = self._structured(
            ANSWER, {"question": question, "passages": listing}, GroundedAnswerLLM, run_id
        )
        if parsed is not None:
            checked = validate_grounded_answer(parsed.to_domain(question, self.model_id), passages)
            if checked.grounded:
                return checked
        return self._fallback.answer(question, passages, run_id=run_id)

    def judge(
        self, question: str, output: str, evidence: Sequence[str], *, run_id: str | None = None
    ) -> Judgment:
        """The model's grade, or the extractive word-overlap grade when it fails."""
        variables = {"question": question, "output": output, "evidence": "\n".join(evidence)}
        parsed = self._structured(JUDGE, variables, JudgmentLLM, run_id)
        if parsed is not None:
            return parsed.to_domain(self.model_id)
        return self._fallback.judge(question, output, evidence, run_id=run_id)

    def grade_explanation(
        self, query: str, output: str, evidence: Sequence[str], *, run_id: str | None = None
    ) -> RubricJudgment:
        """The model's rubric grades, or the marked heuristic grades when it fails."""
        variables = {"query": query, "output": output, "evidence": "\n".join(evidence)}
        parsed = self._structured(GRADE_EXPLANATION, variables, RubricLLM, run_id)
        if parsed is not None:
            return parsed.to_domain(self.model_id)
        return self._fallback.grade_explanation(query, output, evidence, run_id=run_id)

    def complete(
        self,
        prompt_id: str,
        variables: Mapping[str, str],
        schema: type[SchemaT],
        *,
        run_id: str | None = None,
    ) -> SchemaT:
        """A structured completion; LLMError when the model gives nothing parseable."""
        prompt = PROMPTS.get(prompt_id)
        if prompt is None:
            raise LLMError(f"no prompt {prompt_id!r}; known: {', '.join(sorted(PROMPTS))}")
        if not (isinstance(schema, type) and issubclass(schema, BaseModel)):
            raise LLMError("complete() needs a Pydantic model class as the schema")
        parsed = self._structured(prompt, variables, schema, run_id)
        if parsed is None:
            raise LLMError(f"{self.model_id} gave no valid {schema.__name__} for {prompt_id}")
        return parsed

    # --- one call --------------------------------------------------------------------------

    def _structured(
        self,
        prompt: Prompt,
        variables: Mapping[str, str],
        schema: type[ModelT],
        run_id: str | None,
    ) -> ModelT | None:
        """Parsed output, or None after a failure; every attempt's outcome is traced."""
        started = time.perf_counter()
        system, user = prompt.render(variables)
        messages: list[BaseMessage] = [SystemMessage(system), HumanMessage(user)]
        raw: str | None = None
        parsed: ModelT | None = None
        error: str | None = None
        usage: Mapping[str, Any] = {}
        try:
            message, parsed, error = self._with_retries(messages, schema)
            raw = _content(message) or _tool_arguments(message)
            usage = message.usage_metadata or {} if isinstance(message, AIMessage) else {}
        except Exception as failure:  # noqa: BLE001 - any provider failure degrades
            error = f"{type(failure).__name__}: {failure}"
            log.warning("llm.call_failed", model=self.model_id, prompt=prompt.id, error=error)
        self._trace(prompt, variables, raw, parsed, error, usage, started, run_id)
        return parsed

    def _with_retries(
        self, messages: list[BaseMessage], schema: type[ModelT]
    ) -> tuple[BaseMessage, ModelT | None, str | None]:
        retrying = Retrying(
            stop=stop_after_attempt(self._max_retries + 1),
            wait=wait_exponential(multiplier=self._backoff, max=8),
            retry=retry_if_exception(is_transient),
            reraise=True,
        )
        for attempt in retrying:
            with attempt:
                future = self._pool.submit(self._invoke, messages, schema)
                return future.result(timeout=self._timeout)
        raise AssertionError("unreachable: tenacity re-raises the last error")

    def _invoke(
        self, messages: list[BaseMessage], schema: type[ModelT]
    ) -> tuple[BaseMessage, ModelT | None, str | None]:
        if self._method in ("prompt", "grammar"):
            model: Any = self._model
            if self._method == "grammar":
                grammar = _grammar_schema(schema.model_json_schema())
                schema_format = {"type": "json_object", "schema": grammar}
                model = model.bind(response_format=schema_format)
            message = model.invoke(messages)
            try:
                return message, schema.model_validate_json(_json_text(_content(message))), None
            except ValidationError as error:
                reason = f"ValidationError: {error.error_count()} errors: {error}"
                return message, _unparsed(schema, _content(message)), reason
        method = {"tool_calling": "function_calling"}.get(self._method, self._method)
        runnable = self._model.with_structured_output(schema, method=method, include_raw=True)
        result = runnable.invoke(messages)
        if not isinstance(result, dict):
            raise LLMError(f"unexpected structured output {type(result).__name__}")
        raw_message = result.get("raw")
        if not isinstance(raw_message, BaseMessage):
            raise LLMError("structured output came without the raw message")
        parsed = result.get("parsed")
        failure = result.get("parsing_error")
        if isinstance(parsed, schema):
            return raw_message, parsed, None
        if isinstance(parsed, dict):
            try:
                return raw_message, schema.model_validate(parsed), None
            except ValidationError as error:
                failure = error
        reason = f"{type(failure).__name__}: {failure}" if failure else "no output"
        return raw_message, _unparsed(schema, _content(raw_message)), reason

    def _trace(
        self,
        prompt: Prompt,
        variables: Mapping[str, str],
        raw: str | None,
        parsed: BaseModel | None,
        error: str | None,
        usage: Mapping[str, Any],
        started: float,
        run_id: str | None,
    ) -> None:
        if self._tracer is None:
            return
        output: JSONValue = json.loads(parsed.model_dump_json()) if parsed is not None else None
        self._tracer.record(
            LLMCallTrace(
                trace_id=uuid.uuid4().hex,
                time=self._clock(),
                operation=prompt.id,
                prompt_version=prompt.version,
                model=self.model_id,
                temperature=self._temperature,
                prompt_variables=dict(variables),
                raw_response=raw,
                parsed_output=output,
                parse_error=error,
                latency_ms=round((time.perf_counter() - started) * 1000, 3),
                input_tokens=usage.get("input_tokens"),
                output_tokens=usage.get("output_tokens"),
                run_id=run_id,
            )
        )


def _unparsed(schema: type[ModelT], text: str) -> ModelT | None:
    """A schema's own reading of a reply that is not its JSON (`from_unparsed`), if it has one.

    Tolerant schemas (the research chain's) keep such a reply as an uncited answer marked
    as unparsed; the others have no hook, and the call fails as before.
    """
    hook = getattr(schema, "from_unparsed", None)
    if hook is None or not text.strip():
        return None
    rescued = hook(text)
    return rescued if isinstance(rescued, schema) else None


def _tool_arguments(message: BaseMessage) -> str:
    calls = getattr(message, "tool_calls", None) or []
    return json.dumps([c.get("args") for c in calls], ensure_ascii=False) if calls else ""


_UNROLLED = frozenset({"maxLength", "minLength", "maxItems", "minItems", "pattern"})


def _grammar_schema(node: Any) -> Any:
    """A JSON schema without the bounds llama.cpp unrolls into grammar rules.

    A 2,000-character limit becomes 2,000 nested rules, which its parser refuses; the bounds
    are still enforced when the Pydantic model validates the reply.
    """
    if isinstance(node, dict):
        return {k: _grammar_schema(v) for k, v in node.items() if k not in _UNROLLED}
    if isinstance(node, list):
        return [_grammar_schema(v) for v in node]
    return node
