"""What one LLM call did: enough to replay it, price it and see why it failed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from lectern.domain.books import JSONValue


@dataclass(frozen=True, slots=True)
class LLMCallTrace:
    """One call to a language model (or to the extractive stand-in), as recorded."""

    trace_id: str
    time: datetime
    operation: str
    """explain, judge, answer, or the prompt id of a structured completion."""
    prompt_version: str
    model: str
    temperature: float | None
    prompt_variables: Mapping[str, JSONValue]
    raw_response: str | None
    parsed_output: JSONValue
    parse_error: str | None
    latency_ms: float
    input_tokens: int | None
    output_tokens: int | None
    run_id: str | None
    """Groups the calls of one search or one workflow run."""
