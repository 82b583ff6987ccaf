"""The assistant's value objects: messages, tool calls, action previews, pending actions.

Approvals are data: a pending action is resolved by its id, never by its position in a list;
the input that runs is the input that was previewed (its SHA-256 digest over canonical JSON
is stored beside it and checked again before execution); an action runs at most once and
only before it expires. Chat replies cite book fields or passages with a snippet that must be
a literal piece of what this turn's tools returned (the rule of `domain/grounding.py`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from lectern.domain.books import JSONValue
from lectern.domain.grounding import MAX_SNIPPET_CHARS, is_valid_snippet

Role = Literal["system", "user", "assistant", "tool"]
ActionStatus = Literal[
    "pending", "approved", "executing", "rejected", "expired", "executed", "failed"
]
DECIDED: frozenset[ActionStatus] = frozenset(
    ("approved", "executing", "rejected", "expired", "executed", "failed")
)
IN_FLIGHT: frozenset[ActionStatus] = frozenset(("approved", "executing"))
"""Approved and not yet ended: a crash here leaves work for the recovery pass."""
PageType = Literal[
    "book", "list", "search", "collection", "home", "project", "task", "document", "dashboard"
]
GroundingFlag = Literal[
    "no_retrieval",
    "missing_citations",
    "invalid_citations_dropped",
    "no_evidence",
    "low_relevance_dropped",
    "step_limit",
    "pii_masked",
    "off_topic",
    "model_error",
    "unsupported_number",
]
"""What the guardrails noticed about an answer; every reply carries its flags."""

JSONObject = Mapping[str, JSONValue]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A model's request to run one tool with these arguments."""

    id: str
    name: str
    arguments: JSONObject = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Message:
    """One turn of a conversation; tool turns carry the result of one call."""

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    """An assistant turn's requests (several when the model calls tools in parallel)."""
    tool_call_id: str | None = None
    """A tool turn answers the call with this id."""
    name: str | None = None
    """A tool turn's tool name."""


@dataclass(frozen=True, slots=True)
class TokenUsage:
    """Tokens a model call used, when the provider says."""

    input_tokens: int | None = None
    output_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class AIResponse:
    """A chat model's answer to one step: text, tool calls, or both."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    model: str = ""
    usage: TokenUsage = field(default_factory=TokenUsage)
    suggestions: tuple[str, ...] = ()
    """With a clarifying question: the likeliest readings, offered as replies to pick."""
    unsure: bool = False
    """A policy's question asked because its reading is below its confidence floor: a
    caller with a model may let the model decide instead (`hybrid`)."""
    readings: tuple[str, ...] = ()
    """With an unsure question: the tools behind its likeliest readings, the only ones a
    model deciding instead may call (`hybrid`)."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool as a model sees it: name, description and a JSON schema of its input."""

    name: str
    description: str
    input_schema: JSONObject


@dataclass(frozen=True, slots=True)
class FieldDiff:
    """One field an action changes: its value before and after."""

    field: str
    old: JSONValue
    new: JSONValue


@dataclass(frozen=True, slots=True)
class ActionPreview:
    """What an action tool would do, shown to its owner before anything changes.

    `tool_input` is the resolved input (ids instead of names) that will run on approval,
    unchanged; `old_state` is what the entity looks like now, the approval checks it again.
    """

    tool_name: str
    description: str
    entity_type: str
    entity_id: str
    tool_input: JSONObject
    old_state: JSONValue
    new_state: JSONValue
    diff: tuple[FieldDiff, ...]


@dataclass(frozen=True, slots=True)
class PendingAction:
    """A previewed action waiting for (or past) its owner's decision."""

    id: str
    user: str
    conversation: str
    preview: ActionPreview
    args_digest: str
    status: ActionStatus
    created_at: datetime
    expires_at: datetime
    decided_at: datetime | None = None
    result: JSONValue = None
    review: JSONValue = None
    """An automatic review attached for the approver (a correction's check against the
    book's source records): shown beside the preview, never read as instructions."""
    lease_owner: str | None = None
    """While `executing`: the process carrying it out (host:pid:nonce)."""
    lease_until: datetime | None = None
    """While `executing`: after this moment the recovery pass may take the action over."""

    def is_expired(self, now: datetime) -> bool:
        """True when a still-pending action can no longer be approved."""
        return now >= self.expires_at


@dataclass(frozen=True, slots=True)
class PageContext:
    """The page the reader is on when they write: a book, a list, a search, ..."""

    type: PageType = "home"
    id: str | None = None
    name: str | None = None
    project_id: str | None = None
    """On a workspace page (task, document, dashboard): the project it belongs to."""


@dataclass(frozen=True, slots=True)
class ChatCitation:
    """A quoted snippet of a source this turn's tools returned (`book:<id>#field`)."""

    source: str
    snippet: str


def canonical_json(value: JSONValue) -> str:
    """The one text form of a JSON value: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def args_digest(tool_name: str, tool_input: JSONObject) -> str:
    """SHA-256 of the tool name and its input in canonical JSON."""
    payload = canonical_json({"tool": tool_name, "input": dict(tool_input)})
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def field_diff(old: JSONValue, new: JSONValue) -> tuple[FieldDiff, ...]:
    """Field-level differences between two states (objects; None stands for absent)."""
    before = old if isinstance(old, Mapping) else {}
    after = new if isinstance(new, Mapping) else {}
    names = list(dict.fromkeys([*before, *after]))
    return tuple(
        FieldDiff(name, before.get(name), after.get(name))
        for name in names
        if before.get(name) != after.get(name)
    )


def book_source(book_id: str, field_name: str) -> str:
    """The source key of a book field: `book:<id>#<field>`."""
    return f"book:{book_id}#{field_name}"


_CITATION = re.compile(
    r'"([^"\n]{1,' + str(MAX_SNIPPET_CHARS) + r'})"\s*\[((?:book|passage):[^\]\s]+)\]'
)
"""A cited quote in a reply: "literal snippet" [book:<id>#description]."""


def cite(snippet: str, source: str) -> str:
    """How a reply quotes a source, the form `parse_citations` reads back."""
    return f'"{snippet}" [{source}]'


def parse_citations(text: str) -> list[ChatCitation]:
    """Every cited quote in a reply, in order."""
    return [ChatCitation(m.group(2), m.group(1)) for m in _CITATION.finditer(text)]


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """A reply after citation validation: the text, the citations kept, how many were cut."""

    text: str
    citations: tuple[ChatCitation, ...]
    dropped: int


def validate_citations(text: str, evidence: Mapping[str, str]) -> CitationCheck:
    """Keep citations whose snippet is literal in the named source; cut the others.

    `evidence` maps source keys to the text this turn's tools returned for them. A quote
    naming a source that is not there, or not literal in it, is removed from the text.
    """
    kept: list[ChatCitation] = []
    dropped = 0

    def keep_or_cut(match: re.Match[str]) -> str:
        nonlocal dropped
        snippet, source = match.group(1), match.group(2)
        if source in evidence and is_valid_snippet(snippet, evidence[source]):
            kept.append(ChatCitation(source, snippet))
            return match.group(0)
        dropped += 1
        return ""

    cleaned = _CITATION.sub(keep_or_cut, text)
    if dropped:
        cleaned = re.sub(r"[ \t]+", " ", cleaned)
        cleaned = re.sub(r" +([.,;:])", r"\1", cleaned).strip()
    return CitationCheck(cleaned, tuple(kept), dropped)


def summarize_diff(diff: Sequence[FieldDiff]) -> str:
    """A one-line human form of a diff: `name: None -> "Autumn"; books: 0 -> 3`."""
    return "; ".join(f"{d.field}: {canonical_json(d.old)} -> {canonical_json(d.new)}" for d in diff)
