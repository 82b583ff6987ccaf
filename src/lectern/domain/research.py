"""The research chain's requests and answers, its context blocks and its citation rule.

A research answer cites sources by id (`[CVE-2021-44228]`, `[T1003.001]`). A citation is kept
only when the answer's text names its source AND its snippet is a literal piece of a passage
of that source that was in the context (the rule of `domain/grounding.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from lectern.domain.books import JSONValue
from lectern.domain.grounding import is_valid_snippet

ResearchTemplate = Literal["research_query", "summarize", "compare"]
TEMPLATES: tuple[ResearchTemplate, ...] = ("research_query", "summarize", "compare")
BLOCK_SEPARATOR = "\n---\n"
MAX_QUESTION_CHARS = 1_000


@dataclass(frozen=True, slots=True)
class QueryRequest:
    """A research question over one collection, answered with one template."""

    question: str
    collection: str
    filters: tuple[str, ...] = ()
    """Metadata filters as `--where` expressions (`vendor=Microsoft`, `tactic=execution`)."""
    top_k: int = 8
    template: ResearchTemplate = "research_query"
    item_ids: tuple[str, ...] = ()
    """Records to summarize or compare by id (`CVE-2024-3400`, `T1059.001`) instead of a search."""
    source_types: tuple[str, ...] = ()
    """Threat sources to search: kev, attack, rustsec (the `source_type` filter)."""
    severity: str | None = None
    """A CVSS band (critical, high, medium, low, none) or a minimum base score ("9.0")."""
    understand: bool = True
    """Read source, severity, category and year filters from the question's words (rules)."""


@dataclass(frozen=True, slots=True)
class ContextBlock:
    """One retrieved passage as the model sees it: `[SOURCE_ID] (relevance: 0.XXX)` + text."""

    source_id: str
    title: str
    text: str
    relevance: float
    document_id: str
    passage_id: str
    metadata: Mapping[str, JSONValue] = field(default_factory=dict)

    def render(self) -> str:
        """The block's header line and its passage."""
        return f"[{self.source_id}] (relevance: {self.relevance:.3f})\n{self.text}"


def render_context(blocks: Sequence[ContextBlock]) -> str:
    """Every block, separated by `---` lines."""
    return BLOCK_SEPARATOR.join(block.render() for block in blocks)


@dataclass(frozen=True, slots=True)
class ResearchDraft:
    """What a writer (a model or the extractive default) returned, before any check."""

    answer: str
    cited: tuple[tuple[str, str], ...]
    """(source id, snippet) pairs the writer says support the answer."""
    confidence: float
    related_topics: tuple[str, ...] = ()
    sections: Mapping[str, JSONValue] = field(default_factory=dict)
    """The template's own fields: summary, key_findings, ... or patterns, differences, ..."""
    model: str = "extractive"
    parsed: bool = True
    """False when the model's reply was not the JSON the template asks for."""
    error: str | None = None
    """Why the model gave no answer at all (timeout, provider error)."""


@dataclass(frozen=True, slots=True)
class ResearchCitation:
    """A kept citation: the source, a verified snippet of it, its title and relevance."""

    source_id: str
    snippet: str
    title: str
    relevance: float


@dataclass(frozen=True, slots=True)
class Recommendation:
    """A related item: a similar record, or (ATT&CK) a linked mitigation or group."""

    item_id: str
    title: str
    kind: Literal["similar", "mitigation", "group"]
    reason: str
    score: float | None = None


@dataclass(frozen=True, slots=True)
class QueryResponse:
    """A research answer with only the citations that hold, related items and timings."""

    answer: str
    citations: tuple[ResearchCitation, ...]
    recommendations: tuple[Recommendation, ...]
    confidence: float
    related_topics: tuple[str, ...]
    metadata: Mapping[str, JSONValue]
    sections: Mapping[str, JSONValue] = field(default_factory=dict)
    flags: tuple[str, ...] = ()
    """`uncited`, `malformed_output`, `model_error`, `invalid_citations_dropped`, `no_evidence`."""
    cited_sources: tuple[str, ...] = ()
    """The ids the writer cited that are in the context (the specification's list of ids);
    `citations` beside it holds the quotes that were verified."""


def _texts(value: JSONValue) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)


def draft_text(draft: ResearchDraft) -> str:
    """All the prose of a draft: its answer and every text in its template's sections."""
    return "\n".join([draft.answer, *_texts(dict(draft.sections))])


def names_source(text: str, source_id: str) -> bool:
    """True when the text names the source id (with or without brackets, any case)."""
    pattern = r"(?<![\w.-])" + re.escape(source_id) + r"(?![\w-]|\.\d)"
    return re.search(pattern, text, re.IGNORECASE) is not None


def checked_citations(
    draft: ResearchDraft, blocks: Sequence[ContextBlock]
) -> tuple[list[ResearchCitation], int]:
    """Citations named in the draft's text whose snippet is in a block of that source.

    Returns the kept citations (one per source and snippet) and how many were dropped.
    """
    text = draft_text(draft)
    by_source: dict[str, list[ContextBlock]] = {}
    for block in blocks:
        by_source.setdefault(block.source_id.casefold(), []).append(block)
    kept: list[ResearchCitation] = []
    seen: set[tuple[str, str]] = set()
    dropped = 0
    for source_id, snippet in draft.cited:
        candidates = by_source.get(source_id.strip().strip("[]").casefold(), [])
        found = next((b for b in candidates if is_valid_snippet(snippet, b.text)), None)
        key = (source_id.casefold(), " ".join(snippet.split()).casefold())
        if found is None or not names_source(text, found.source_id):
            dropped += 1
            continue
        if key in seen:
            continue
        seen.add(key)
        kept.append(
            ResearchCitation(found.source_id, snippet.strip(), found.title, found.relevance)
        )
    return kept, dropped


def cited_source_ids(draft: ResearchDraft, blocks: Sequence[ContextBlock]) -> tuple[str, ...]:
    """The draft's cited ids that name a source in the context, in order, once each."""
    known = {b.source_id.casefold(): b.source_id for b in blocks}
    ids: dict[str, None] = {}
    for source_id, _ in draft.cited:
        found = known.get(source_id.strip().strip("[]").casefold())
        if found is not None:
            ids[found] = None
    return tuple(ids)


def citation_feedback(draft: ResearchDraft, blocks: Sequence[ContextBlock], limit: int = 5) -> str:
    """Why the draft's citations were dropped, one reason each (the retry's feedback)."""
    text = draft_text(draft)
    by_source: dict[str, list[ContextBlock]] = {}
    for block in blocks:
        by_source.setdefault(block.source_id.casefold(), []).append(block)
    reasons: list[str] = []
    for source_id, snippet in draft.cited:
        name = source_id.strip().strip("[]")
        candidates = by_source.get(name.casefold(), [])
        if not candidates:
            reasons.append(f"{name} is not a source in the context")
        elif not any(is_valid_snippet(snippet, b.text) for b in candidates):
            reasons.append(f"the snippet cited for {name} is not copied from its block")
        elif not names_source(text, name):
            reasons.append(f"{name} is listed in cited_sources but never cited as [{name}]")
    shown = "; ".join(reasons[:limit])
    more = len(reasons) - limit
    return f"Citations dropped: {shown}" + (f" (and {more} more)" if more > 0 else "") + "."


def query_response_json(response: QueryResponse) -> dict[str, JSONValue]:
    """A `QueryResponse` as JSON (the CLI's `--json`)."""
    return {
        "answer": response.answer,
        "cited_sources": list(response.cited_sources),
        "citations": [
            {
                "source_id": c.source_id,
                "snippet": c.snippet,
                "title": c.title,
                "relevance": c.relevance,
            }
            for c in response.citations
        ],
        "recommendations": [
            {
                "item_id": r.item_id,
                "title": r.title,
                "kind": r.kind,
                "reason": r.reason,
                "score": r.score,
            }
            for r in response.recommendations
        ],
        "confidence": response.confidence,
        "related_topics": list(response.related_topics),
        "sections": dict(response.sections),
        "flags": list(response.flags),
        "metadata": dict(response.metadata),
    }
