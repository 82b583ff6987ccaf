"""Request and response bodies of `/kb/reply` and `/research`, mapped explicitly."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from lectern.domain.answering import AIResult, Conversation, ConversationMessage
from lectern.domain.research import QueryRequest, QueryResponse

MAX_MESSAGES = 200
MAX_MESSAGE_CHARS = 8_000
MAX_NAME_CHARS = 200


def _at_most(limit: int, what: str) -> Callable[[str], str]:
    def check(value: str) -> str:
        if len(value) > limit:
            raise ValueError(f"{what} has {len(value):,} characters; at most {limit:,} are allowed")
        return value

    return check


class MessageIn(BaseModel):
    """One chat message (text up to 8,000 characters, author up to 200)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    # Lengths are checked in code, not declared in the schema: the body limit (413) bounds a
    # request first, and a schema maximum would invite generated bodies far above it.
    author: Annotated[str, AfterValidator(_at_most(MAX_NAME_CHARS, "an author"))] = Field(
        min_length=1
    )
    text: Annotated[str, AfterValidator(_at_most(MAX_MESSAGE_CHARS, "a message"))]
    time: datetime | None = Field(default=None, strict=False, description="ISO 8601.")


class ConversationIn(BaseModel):
    """A conversation, oldest message first; its last author's trailing messages are the turn."""

    model_config = ConfigDict(extra="forbid", strict=True)
    id: Annotated[str, AfterValidator(_at_most(MAX_NAME_CHARS, "an id"))] | None = None
    messages: list[MessageIn] = Field(min_length=1, description="At most 200 messages.")

    @field_validator("messages")
    @classmethod
    def _not_too_many(cls, value: list[MessageIn]) -> list[MessageIn]:
        if len(value) > MAX_MESSAGES:
            raise ValueError(f"at most {MAX_MESSAGES} messages are allowed")
        return value

    def to_domain(self) -> Conversation:
        """The domain conversation."""
        return Conversation(
            tuple(ConversationMessage(m.author, m.text, m.time) for m in self.messages), self.id
        )


class KBReplyIn(BaseModel):
    """A conversation (or one question) to answer from a collection."""

    model_config = ConfigDict(extra="forbid", strict=True)
    collection: str | None = Field(
        default=None, max_length=63, description="Default: LECTERN_AI_KB_COLLECTION."
    )
    conversation: ConversationIn | None = None
    question: str | None = Field(default=None, min_length=1, max_length=2_000)
    channel: str = Field(default="http", max_length=200)

    @model_validator(mode="after")
    def _one_input(self) -> KBReplyIn:
        if (self.conversation is None) == (self.question is None):
            raise ValueError("send either a conversation or a question")
        return self


class ReplyCitationOut(BaseModel):
    """A cited source and its checked quote."""

    source_id: str
    snippet: str
    title: str
    url: str | None


class SourceOut(BaseModel):
    """A selected source."""

    source_id: str
    title: str
    relevance: float
    url: str | None


class UsageOut(BaseModel):
    """Tokens spent on model calls (0 offline)."""

    input_tokens: int
    output_tokens: int
    calls: int


class AIResultOut(BaseModel):
    """Reply or stay silent, with the sources, the decision path and timings."""

    should_reply: bool
    reply_text: str
    citations: list[ReplyCitationOut]
    sources: list[SourceOut]
    decision_path: list[str]
    gate: str
    timings: dict[str, float]
    model: str
    usage: UsageOut
    error: str | None

    @classmethod
    def of(cls, result: AIResult) -> AIResultOut:
        """Map a domain result."""
        return cls(
            should_reply=result.should_reply,
            reply_text=result.reply_text,
            citations=[
                ReplyCitationOut(source_id=c.source_id, snippet=c.snippet, title=c.title, url=c.url)
                for c in result.citations
            ],
            sources=[
                SourceOut(source_id=s.source_id, title=s.title, relevance=s.relevance, url=s.url)
                for s in result.sources
            ],
            decision_path=list(result.decision_path),
            gate=result.gate,
            timings=dict(result.timings),
            model=result.model,
            usage=UsageOut(
                input_tokens=result.usage.input_tokens,
                output_tokens=result.usage.output_tokens,
                calls=result.usage.calls,
            ),
            error=result.error,
        )


class ResearchIn(BaseModel):
    """A research question, summary or comparison over one collection."""

    model_config = ConfigDict(extra="forbid", strict=True)
    question: str = Field(default="", max_length=1_000)
    collection: str | None = Field(
        default=None, max_length=63, description="Default: LECTERN_AI_RESEARCH_COLLECTION."
    )
    filters: list[str] = Field(default_factory=list, max_length=20)
    top_k: int = Field(default=8, ge=1, le=50)
    template: Literal["research_query", "summarize", "compare"] = "research_query"
    item_ids: list[str] = Field(default_factory=list, max_length=10)
    source_type: list[Literal["kev", "attack", "rustsec"]] = Field(
        default_factory=list, max_length=3, description="Only these threat sources."
    )
    severity: str | float | None = Field(
        default=None,
        description="critical, high, medium, low, none, or a minimum CVSS base score (0-10).",
    )
    understand: bool = Field(
        default=True,
        description="Read source, severity, category and year filters from the question.",
    )

    def to_domain(self, collection: str) -> QueryRequest:
        """The domain request (the severity is checked by the service)."""
        severity = self.severity
        return QueryRequest(
            self.question,
            collection,
            filters=tuple(self.filters),
            top_k=self.top_k,
            template=self.template,
            item_ids=tuple(self.item_ids),
            source_types=tuple(self.source_type),
            severity=None if severity is None else str(severity)[:20],
            understand=self.understand,
        )


class ResearchCitationOut(BaseModel):
    """A kept citation."""

    source_id: str
    snippet: str
    title: str
    relevance: float


class RecommendationOut(BaseModel):
    """A related item."""

    item_id: str
    title: str
    kind: str
    reason: str
    score: float | None


class QueryResponseOut(BaseModel):
    """A research answer with its checked citations."""

    answer: str
    cited_sources: list[str] = Field(
        description="The ids the answer cites that are in the context (the specification's "
        "list); `citations` holds their verified quotes."
    )
    citations: list[ResearchCitationOut]
    recommendations: list[RecommendationOut]
    confidence: float
    related_topics: list[str]
    sections: dict[str, Any]
    flags: list[str]
    metadata: dict[str, Any]

    @classmethod
    def of(cls, response: QueryResponse) -> QueryResponseOut:
        """Map a domain response."""
        return cls(
            answer=response.answer,
            cited_sources=list(response.cited_sources),
            citations=[
                ResearchCitationOut(
                    source_id=c.source_id, snippet=c.snippet, title=c.title, relevance=c.relevance
                )
                for c in response.citations
            ],
            recommendations=[
                RecommendationOut(
                    item_id=r.item_id, title=r.title, kind=r.kind, reason=r.reason, score=r.score
                )
                for r in response.recommendations
            ],
            confidence=response.confidence,
            related_topics=list(response.related_topics),
            sections=dict(response.sections),
            flags=list(response.flags),
            metadata=dict(response.metadata),
        )
