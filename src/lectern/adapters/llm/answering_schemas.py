"""What a model must return in the reply graph and the research chain, as Pydantic models.

The graph's schemas are strict (a reply that does not fit ends in `should_reply=false`). The
research schemas are tolerant: numbers given as words, a list given as one string, sources
cited by bare id; and a reply that is not JSON at all becomes an uncited answer marked
`unparsed` (`from_unparsed`, which `LangChainLLM` calls when parsing fails).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from lectern.domain.books import JSONValue
from lectern.domain.research import ResearchDraft, ResearchTemplate


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore")


class GateLLM(_Strict):
    """The gate's decision."""

    decision: str = Field(max_length=40)
    reason: str = Field(default="", max_length=400)


class SelectionLLM(_Strict):
    """The sources chosen from the index."""

    source_ids: list[str] = Field(default_factory=list, max_length=20)


class KBSentenceLLM(_Strict):
    """One sentence of an answer with its source and supporting quote."""

    text: str = Field(min_length=1, max_length=2_000)
    source_id: str = Field(min_length=1, max_length=2_000)
    quote: str = Field(max_length=2_000)


class KBAnswerLLM(_Strict):
    """A cited answer, or `can_answer: false`."""

    can_answer: bool
    sentences: list[KBSentenceLLM] = Field(default_factory=list, max_length=20)


class VerificationLLM(_Strict):
    """The verifier's judgement."""

    supported: bool
    answers_question: bool
    reason: str = Field(default="", max_length=400)


class LLMTextResult(_Strict):
    """One string: the response model of `invoke_llm` callers that want plain text back."""

    text: str = Field(max_length=20_000)


class SummaryLLM(_Strict):
    """A source's one-line summary for the index."""

    summary: str = Field(min_length=1, max_length=600)


# --- research ----------------------------------------------------------------------------------

_WORDS = {"high": 0.8, "medium": 0.5, "moderate": 0.5, "low": 0.2, "none": 0.0}


def _confidence(value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        text = value.strip().casefold().rstrip("%")
        if text in _WORDS:
            return _WORDS[text]
        try:
            number = float(text)
        except ValueError:
            return 0.0
        if value.strip().endswith("%"):
            number /= 100
    else:
        return 0.0
    if number > 1.0 and number <= 100.0:
        number /= 100
    return min(max(number, 0.0), 1.0)


def _strings(value: Any) -> list[str]:
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if isinstance(item, str) and item.strip():
            out.append(item.strip())
        elif isinstance(item, dict):
            text = " ".join(str(v) for v in item.values() if isinstance(v, str | int | float))
            if text.strip():
                out.append(text.strip())
    return out


class CitedSourceLLM(BaseModel):
    """A cited source: its id and a snippet (a bare id has none, and will not validate)."""

    model_config = ConfigDict(extra="ignore")

    source_id: str = ""
    snippet: str = ""


def _cited(value: Any) -> list[CitedSourceLLM]:
    items = value if isinstance(value, list) else [] if value is None else [value]
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(CitedSourceLLM(source_id=item.strip().strip("[]")))
        elif isinstance(item, dict):
            source = item.get("source_id") or item.get("id") or item.get("source") or ""
            snippet = item.get("snippet") or item.get("quote") or item.get("text") or ""
            out.append(
                CitedSourceLLM(source_id=str(source).strip().strip("[]"), snippet=str(snippet))
            )
    return out


class _Research(BaseModel):
    model_config = ConfigDict(extra="ignore")

    cited_sources: list[CitedSourceLLM] = Field(default_factory=list)
    confidence: float = 0.0
    related_topics: list[str] = Field(default_factory=list)
    unparsed: bool = False

    @field_validator("confidence", mode="before")
    @classmethod
    def _read_confidence(cls, value: Any) -> float:
        return _confidence(value)

    @field_validator("cited_sources", mode="before")
    @classmethod
    def _read_cited(cls, value: Any) -> list[CitedSourceLLM]:
        return _cited(value)

    @field_validator("related_topics", mode="before")
    @classmethod
    def _read_topics(cls, value: Any) -> list[str]:
        return _strings(value)

    def _base(self, answer: str, sections: dict[str, JSONValue], model: str) -> ResearchDraft:
        return ResearchDraft(
            answer=answer,
            cited=tuple((c.source_id, c.snippet) for c in self.cited_sources),
            confidence=self.confidence,
            related_topics=tuple(self.related_topics[:10]),
            sections=sections,
            model=model,
            parsed=not self.unparsed,
        )


class ResearchQueryLLM(_Research):
    """A research answer."""

    answer: str = ""

    @classmethod
    def from_unparsed(cls, text: str) -> ResearchQueryLLM:
        """A reply that was not JSON: kept as an uncited answer, marked."""
        return cls(answer=text.strip(), unparsed=True)

    def to_draft(self, model: str) -> ResearchDraft:
        """The unchecked domain draft."""
        return self._base(self.answer, {}, model)


class SummarizeLLM(_Research):
    """A summary with findings, affected systems and mitigations."""

    summary: str = ""
    key_findings: list[str] = Field(default_factory=list)
    affected_systems: list[str] = Field(default_factory=list)
    mitigations: list[str] = Field(default_factory=list)

    @field_validator("key_findings", "affected_systems", "mitigations", mode="before")
    @classmethod
    def _read_lists(cls, value: Any) -> list[str]:
        return _strings(value)

    @classmethod
    def from_unparsed(cls, text: str) -> SummarizeLLM:
        """A reply that was not JSON: kept as an uncited summary, marked."""
        return cls(summary=text.strip(), unparsed=True)

    def to_draft(self, model: str) -> ResearchDraft:
        """The unchecked domain draft."""
        sections: dict[str, JSONValue] = {
            "summary": self.summary,
            "key_findings": list(self.key_findings),
            "affected_systems": list(self.affected_systems),
            "mitigations": list(self.mitigations),
        }
        return self._base(self.summary, sections, model)


class CompareLLM(_Research):
    """A comparison: patterns, differences, connections and an assessment."""

    patterns: list[str] = Field(default_factory=list)
    differences: list[str] = Field(default_factory=list)
    connections: list[str] = Field(default_factory=list)
    assessment: str = ""

    @field_validator("patterns", "differences", "connections", mode="before")
    @classmethod
    def _read_lists(cls, value: Any) -> list[str]:
        return _strings(value)

    @classmethod
    def from_unparsed(cls, text: str) -> CompareLLM:
        """A reply that was not JSON: kept as an uncited assessment, marked."""
        return cls(assessment=text.strip(), unparsed=True)

    def to_draft(self, model: str) -> ResearchDraft:
        """The unchecked domain draft."""
        sections: dict[str, JSONValue] = {
            "patterns": list(self.patterns),
            "differences": list(self.differences),
            "connections": list(self.connections),
            "assessment": self.assessment,
        }
        return self._base(self.assessment, sections, model)


RESEARCH_SCHEMAS: dict[ResearchTemplate, type[ResearchQueryLLM | SummarizeLLM | CompareLLM]] = {
    "research_query": ResearchQueryLLM,
    "summarize": SummarizeLLM,
    "compare": CompareLLM,
}
