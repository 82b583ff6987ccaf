"""Bodies of the guideline chat (`POST /chat`, `POST /chat/stream`, `GET /chat/profiles`).

The request and the answer follow the guideline agent specification: `message`,
`session_id`, `top_k`; `answer`, `citations`, `grounding_flags`. Lectern adds `profile`
(which guidance collection) and, in answers, the `session_id` to continue with and the
standalone question the follow-up became.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from lectern.application.assistant.guideline import GuideAnswer, GuideCitation
from lectern.domain.assistant import GroundingFlag
from lectern.domain.guidance import DEFAULT_TOP_K, MAX_TOP_K, GuideProfile
from lectern.entrypoints.http.assistant_schemas import MAX_CHAT_CHARS

SESSION_ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"


class GuideChatRequest(BaseModel):
    """One question to the guideline agent, in a new or an ongoing session."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    message: str = Field(
        min_length=1,
        max_length=MAX_CHAT_CHARS,
        validation_alias=AliasChoices("message", "question"),
        description="The question (`question` is accepted as well).",
        examples=["How long must a memorized secret chosen by the subscriber be?"],
    )
    session_id: str | None = Field(
        default=None,
        pattern=SESSION_ID,
        description="Continue this session; omitted: a new one (its id is in the answer).",
    )
    top_k: int = Field(
        default=DEFAULT_TOP_K, ge=1, le=MAX_TOP_K, description="Passages retrieved per search."
    )
    profile: str | None = Field(
        default=None,
        max_length=40,
        description="Which guidance collection answers (`GET /chat/profiles`); omitted: "
        "LECTERN_GUIDE_DEFAULT_PROFILE.",
    )


def citation_url(citation: GuideCitation, profile: str) -> str:
    """The guideline page opened at the cited page or section, the snippet highlighted."""
    query = {
        "profile": profile,
        "label": citation.source_label,
        "quote": citation.snippet,
        "cited": citation.label,
    }
    return f"/guidelines?{urlencode(query)}"


class GuideCitationOut(BaseModel):
    """A label the answer cites and the passage behind it."""

    label: str = Field(description="As written in the answer: `[NIST SP 800-63B §5.1.1.2]`.")
    source_label: str = Field(description="The collection's label: `GET /labels/resolve`.")
    collection: str
    document: str
    uri: str
    page: int | None
    section: str | None
    snippet: str = Field(description="A literal piece of the cited passage.")
    url: str = Field(description="The guideline page at the cited passage, highlighted.")

    @classmethod
    def of(cls, citation: GuideCitation, profile: str) -> GuideCitationOut:
        """Map a domain citation."""
        return cls(
            label=citation.label,
            source_label=citation.source_label,
            collection=citation.collection,
            document=citation.document,
            uri=citation.uri,
            page=citation.page,
            section=citation.section,
            snippet=citation.snippet,
            url=citation_url(citation, profile),
        )


class GuideChatResponse(BaseModel):
    """The checked answer."""

    answer: str
    citations: list[GuideCitationOut]
    grounding_flags: list[GroundingFlag]
    session_id: str
    profile: str
    standalone_query: str

    @classmethod
    def of(cls, answer: GuideAnswer) -> GuideChatResponse:
        """Map a domain answer."""
        return cls(
            answer=answer.answer,
            citations=[GuideCitationOut.of(c, answer.profile) for c in answer.citations],
            grounding_flags=list(answer.grounding_flags),
            session_id=answer.session_id,
            profile=answer.profile,
            standalone_query=answer.standalone_query,
        )


def done_event(answer: GuideAnswer) -> dict[str, Any]:
    """The stream's last event: `done`, citations and flags (and the session to continue)."""
    out = GuideChatResponse.of(answer)
    return {
        "done": True,
        "citations": [c.model_dump(mode="json") for c in out.citations],
        "grounding_flags": out.grounding_flags,
        "session_id": out.session_id,
        "profile": out.profile,
    }


class GuideProfileOut(BaseModel):
    """A guideline agent as a client sees it."""

    name: str
    collection: str
    title: str
    scope: str
    citation: str
    refusal: str
    examples: list[str]
    available: bool = Field(description="False until the profile's collection is added.")
    default: bool

    @classmethod
    def of(cls, profile: GuideProfile, *, available: bool, default: bool) -> GuideProfileOut:
        """Map a profile."""
        return cls(
            name=profile.name,
            collection=profile.collection,
            title=profile.title,
            scope=profile.scope,
            citation=profile.citation,
            refusal=profile.refusal,
            examples=list(profile.examples),
            available=available,
            default=default,
        )
