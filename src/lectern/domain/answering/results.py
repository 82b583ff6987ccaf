"""What a reply run returns (`AIResult`), its JSON form and why it stayed silent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from lectern.domain.books import JSONValue

Outcome = Literal["success", "skip", "error"]


@dataclass(frozen=True, slots=True)
class ReplyCitation:
    """A source a reply cites, and the quote that the code checked in its text."""

    source_id: str
    snippet: str
    title: str = ""
    url: str | None = None


@dataclass(frozen=True, slots=True)
class SourceRef:
    """A source the graph selected, with its relevance."""

    source_id: str
    title: str
    relevance: float
    url: str | None = None


@dataclass(frozen=True, slots=True)
class TokenCount:
    """Tokens a request spent on model calls (0 offline)."""

    input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0


@dataclass(frozen=True, slots=True)
class AIResult:
    """What the reply graph decided: reply or stay silent, and everything behind it."""

    should_reply: bool
    reply_text: str
    citations: tuple[ReplyCitation, ...]
    sources: tuple[SourceRef, ...]
    decision_path: tuple[str, ...]
    timings: Mapping[str, float]
    gate: str = ""
    """The gate's decision (`question`, `chit_chat`, ...), or "" when it never ran."""
    model: str = "rules"
    usage: TokenCount = field(default_factory=TokenCount)
    error: str | None = None
    reflection: str = ""
    """"" when the first draft stood; `rescued` or `failed` after the retry with feedback."""
    standalone_query: str = ""
    """The last turn rewritten to stand alone (what the graph answered); "" when unchanged."""


def ai_result_json(result: AIResult) -> dict[str, JSONValue]:
    """An `AIResult` as JSON (the CLI's `--json`, traces, evaluation records)."""
    return {
        "should_reply": result.should_reply,
        "reply_text": result.reply_text,
        "citations": [
            {"source_id": c.source_id, "snippet": c.snippet, "title": c.title, "url": c.url}
            for c in result.citations
        ],
        "sources": [
            {"source_id": s.source_id, "title": s.title, "relevance": s.relevance, "url": s.url}
            for s in result.sources
        ],
        "decision_path": list(result.decision_path),
        "gate": result.gate,
        "standalone_query": result.standalone_query or None,
        "timings": dict(result.timings),
        "model": result.model,
        "usage": {
            "input_tokens": result.usage.input_tokens,
            "output_tokens": result.usage.output_tokens,
            "calls": result.usage.calls,
        },
        "error": result.error,
    }


_SILENCE = (
    ("timeout", "the reply took too long"),
    ("grounding:failed", "a citation did not hold"),
    ("verify:failed", "verification refused the draft"),
    ("check:no_answer", "no retrieved sentence answers the question"),
    ("generate:none", "the sources do not answer it"),
    ("load:0", "the sources could not be loaded"),
    ("select:0", "no source is relevant enough"),
)


def silence_reason(result: AIResult) -> str:
    """Why a result stays silent, in words (empty when it replies)."""
    if result.should_reply:
        return ""
    if result.gate and result.gate != "question":
        return f"not a question for the knowledge base ({result.gate.replace('_', ' ')})"
    failed = [s for s in result.decision_path if s.endswith(":error") or s == "error"]
    if failed:
        return f"a step failed: {result.error or failed[0]}"
    for step, reason in _SILENCE:
        if any(s == step or s.startswith(f"{step}:") for s in result.decision_path):
            return reason
    return result.error or "no reply"
