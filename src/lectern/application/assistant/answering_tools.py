"""Query tools over the answering workflows, registered when their collection is configured.

`ask_knowledge_base` runs the reply graph (LECTERN_AI_KB_COLLECTION); `research`,
`search_threats`, `get_advisory` and `get_recommendations` run over the research collection
(LECTERN_AI_RESEARCH_COLLECTION). `anthropic_tool` gives any tool's definition in Anthropic's
tool schema (`name`, `description`, `input_schema`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from lectern.application.assistant.tools import (
    QueryOutput,
    QueryTool,
    ToolContext,
    ToolDeps,
    ToolInput,
)
from lectern.domain.answering import RequestContext
from lectern.domain.assistant import ToolSpec
from lectern.domain.books import JSONValue
from lectern.domain.research import ContextBlock, QueryRequest
from lectern.domain.threat_filters import threat_filters
from lectern.errors import LecternError, ToolError

THREAT_TOOLS = ("search_threats", "get_advisory", "get_recommendations")
MAX_ITEM_CHARS = 2_000


def anthropic_tool(spec: ToolSpec) -> dict[str, Any]:
    """A tool in Anthropic's tool schema."""
    return {"name": spec.name, "description": spec.description, "input_schema": spec.input_schema}


class AskInput(ToolInput):
    """Input of ask_knowledge_base."""

    question: str = Field(min_length=1, max_length=2_000, description="The user's question.")


class AskKnowledgeBase(QueryTool):
    """The knowledge-base reply graph as a tool."""

    name = "ask_knowledge_base"
    description = (
        "Answer a question from the project's knowledge base (documentation and team notes). "
        "Returns a reply whose sentences cite their sources, or should_reply=false when the "
        "knowledge base does not answer it."
    )
    Input = AskInput

    def run(self, args: AskInput, context: ToolContext) -> QueryOutput:
        """Run the graph; the reply's quotes are the evidence."""
        deps = self.deps
        if deps.kb_replier is None or not deps.kb_collection:
            raise ToolError("no knowledge base is configured")
        _require_read(deps, context, deps.kb_collection)
        request = RequestContext(deps.kb_collection, context.user, context.conversation)
        try:
            result = deps.kb_replier().ask(args.question, request)
        except LecternError as error:
            raise ToolError(f"the knowledge base is not available: {error}") from None
        evidence: dict[str, str] = {}
        for citation in result.citations:
            evidence[citation.source_id] = "\n".join(
                filter(None, [evidence.get(citation.source_id), citation.snippet])
            )
        data: dict[str, JSONValue] = {
            "should_reply": result.should_reply,
            "reply": result.reply_text,
            "citations": [{"source_id": c.source_id, "quote": c.snippet} for c in result.citations],
            "decision_path": list(result.decision_path),
        }
        return QueryOutput(data, evidence, retrieval=True)


class ThreatFilters(ToolInput):
    """The threat filters research and search_threats share."""

    source_type: list[Literal["kev", "attack", "rustsec"]] = Field(
        default_factory=list,
        max_length=3,
        description="Only these threat sources: kev, attack, rustsec.",
    )
    severity: str | None = Field(
        default=None,
        max_length=10,
        description="A CVSS band (critical, high, medium, low) or a minimum base score "
        "('9.0'); only RustSec advisories carry a score.",
    )


class ResearchInput(ThreatFilters):
    """Input of research."""

    question: str = Field(default="", max_length=1_000)
    template: Literal["research_query", "summarize", "compare"] = "research_query"
    item_ids: list[str] = Field(default_factory=list, max_length=10)
    filters: list[str] = Field(default_factory=list, max_length=10)
    top_k: int = Field(8, ge=1, le=30)


def _research(tool: QueryTool, context: ToolContext) -> tuple[Any, str]:
    deps = tool.deps
    if deps.research is None or not deps.research_collection:
        raise ToolError("no research collection is configured")
    _require_read(deps, context, deps.research_collection)
    return deps.research(), deps.research_collection


def _require_read(deps: ToolDeps, context: ToolContext, collection: str) -> None:
    """The configured collection, only when the caller may read it (as for every surface)."""
    if deps.access is not None and not deps.access.can_read(context.user, collection):
        raise ToolError(f"no collection named {collection!r}")


class Research(QueryTool):
    """The research chain as a tool."""

    name = "research"
    description = (
        "Research security advisories and techniques: a cited answer (research_query), a "
        "summary of named items (summarize) or a comparison of them (compare), with related "
        "items. Only citations whose quotes are in the sources are returned."
    )
    Input = ResearchInput

    def run(self, args: ResearchInput, context: ToolContext) -> QueryOutput:
        """Run the chain; kept citations are the evidence."""
        service, collection = _research(self, context)
        request = QueryRequest(
            args.question,
            collection,
            filters=tuple(args.filters),
            top_k=args.top_k,
            template=args.template,
            item_ids=tuple(args.item_ids),
            source_types=tuple(args.source_type),
            severity=args.severity,
        )
        try:
            response = service.query(request)
        except LecternError as error:
            raise ToolError(str(error)) from None
        data: dict[str, JSONValue] = {
            "answer": response.answer,
            "cited_sources": list(response.cited_sources),
            "citations": [
                {"source_id": c.source_id, "quote": c.snippet} for c in response.citations
            ],
            "recommendations": [
                {"item_id": r.item_id, "kind": r.kind, "reason": r.reason}
                for r in response.recommendations
            ],
            "sections": dict(response.sections),
            "flags": list(response.flags),
        }
        evidence = {c.source_id: c.snippet for c in response.citations}
        return QueryOutput(data, evidence, retrieval=True)


class SearchThreatsInput(ThreatFilters):
    """Input of search_threats."""

    query: str = Field(min_length=1, max_length=500, description="What to look for.")
    filters: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="Metadata filters: vendor=Microsoft, tactic=execution, date_added>=2024-01.",
    )
    top_k: int = Field(5, ge=1, le=20)


class SearchThreats(QueryTool):
    """Search the research collection."""

    name = "search_threats"
    description = (
        "Search known exploited vulnerabilities (CVE ids), ATT&CK techniques (T-numbers) and "
        "RustSec advisories (RUSTSEC ids, with CVSS severities). Returns matching records "
        "with a snippet each."
    )
    Input = SearchThreatsInput

    def run(self, args: SearchThreatsInput, context: ToolContext) -> QueryOutput:
        """Hybrid search in the research collection."""
        service, collection = _research(self, context)
        try:
            where = [*args.filters, *threat_filters(args.source_type, args.severity)]
        except ValueError as error:
            raise ToolError(str(error)) from None
        try:
            found = service.collections.search(
                collection, args.query, where=where, k=args.top_k, per_document=1
            )
        except LecternError as error:
            raise ToolError(str(error)) from None
        items: list[JSONValue] = []
        evidence: dict[str, str] = {}
        for hit in found.results:
            passage = hit.passages[0]
            item_id = hit.document.cite_as or hit.document.uri
            items.append(
                {
                    "id": item_id,
                    "title": hit.document.title,
                    "snippet": passage.snippet.text,
                    "relevance": round(hit.score, 3),
                }
            )
            evidence[item_id] = passage.passage.text
        return QueryOutput({"results": items}, evidence, retrieval=True)


class ItemInput(ToolInput):
    """One record by id."""

    item_id: str = Field(min_length=1, max_length=100, description="A CVE id or a T-number.")


class GetAdvisory(QueryTool):
    """One record of the research collection."""

    name = "get_advisory"
    description = "One advisory or technique by id (CVE-2021-44228, T1003.001): text and fields."
    Input = ItemInput

    def run(self, args: ItemInput, context: ToolContext) -> QueryOutput:
        """The record's text (cut at 2,000 characters) and metadata."""
        service, collection = _research(self, context)
        try:
            document = service.item(collection, args.item_id)
            text = service.collections.document(collection, document.id).document.text
        except LecternError as error:
            raise ToolError(str(error)) from None
        item_id = document.cite_as or document.uri
        data: dict[str, JSONValue] = {
            "id": item_id,
            "title": document.title,
            "text": text[:MAX_ITEM_CHARS],
            "metadata": dict(document.metadata),
        }
        return QueryOutput(data, {item_id: text[:MAX_ITEM_CHARS]}, retrieval=True)


class RecommendationsInput(ItemInput):
    """Input of get_recommendations."""


class GetRecommendations(QueryTool):
    """Items related to one record."""

    name = "get_recommendations"
    description = (
        "Items related to an advisory or technique: similar records and, for ATT&CK "
        "techniques, the mitigations and groups linked to it."
    )
    Input = RecommendationsInput

    def run(self, args: RecommendationsInput, context: ToolContext) -> QueryOutput:
        """Similar records and linked mitigations and groups."""
        service, collection = _research(self, context)
        try:
            document = service.item(collection, args.item_id)
        except LecternError as error:
            raise ToolError(str(error)) from None
        item_id = document.cite_as or document.uri
        block = ContextBlock(
            item_id, document.title, "", 1.0, document.id, "", dict(document.metadata)
        )
        related = service.recommend(collection, [block], {item_id})
        data: dict[str, JSONValue] = {
            "item": item_id,
            "related": [
                {"item_id": r.item_id, "title": r.title, "kind": r.kind, "reason": r.reason}
                for r in related
            ],
        }
        return QueryOutput(data)
