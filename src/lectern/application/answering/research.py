"""The research chain: retrieve, context blocks, template, writer, checked citations.

Then recommendations and metadata (timings, counts, model, prompt version).

A writer (a model, or the extractive default) never decides what is cited: a citation is
kept only when the draft names its source and its snippet is in that source's block. A
draft that loses citations to that check is written once more with the reason as feedback
(self-reflection); the retry replaces it when every citation it makes holds, or when it
keeps more of them than the first draft. A
draft with nothing left to cite is still returned, flagged `uncited` with confidence 0; a
model that fails or answers out of format gives a flagged answer, never an error.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from lectern.application.answering.ports import ResearchObserver, ResearchWriter
from lectern.application.collections import CollectionService
from lectern.application.timing import elapsed_ms
from lectern.domain.books import JSONValue
from lectern.domain.documents import Document, parse_label
from lectern.domain.grounding import is_valid_snippet
from lectern.domain.research import (
    MAX_QUESTION_CHARS,
    TEMPLATES,
    ContextBlock,
    QueryRequest,
    QueryResponse,
    Recommendation,
    ResearchCitation,
    ResearchDraft,
    checked_citations,
    citation_feedback,
    cited_source_ids,
)
from lectern.domain.threat_filters import threat_filters, understand_threat_question
from lectern.errors import DocumentNotFoundError, InvalidQueryError

MAX_TOP_K = 50
ITEM_PASSAGES = 3
"""Passages of a requested item put in the context (its beginning)."""
NO_EVIDENCE = "No source in the collection matches the question."
MODEL_FAILED = "No answer: the model failed ({reason}). The retrieved sources are in `metadata`."


def _filter_name(expression: str) -> str:
    """The field a `--where` expression filters on (`date` of `date>=2022`)."""
    return re.split(r"[<>=]", expression, maxsplit=1)[0].strip()


def _source_types(filters: Sequence[str]) -> frozenset[str] | None:
    """The source types a `source_type=a,b` filter keeps (None: every source)."""
    for expression in filters:
        if _filter_name(expression) == "source_type" and "=" in expression:
            values = expression.split("=", 1)[1].split(",")
            return frozenset(v.strip().casefold() for v in values if v.strip())
    return None


@dataclass(frozen=True, slots=True)
class ResearchConfig:
    """How many related items to suggest."""

    similar_per_source: int = 3
    linked_per_source: int = 5
    max_recommendations: int = 12


def source_id_of(document: Document) -> str:
    """How research answers name a document: its label key (`CVE-2021-44228`, `T1003`)."""
    return document.cite_as or document.uri


class ResearchService:
    """Research answers, summaries and comparisons over any collection."""

    def __init__(
        self,
        collections: CollectionService,
        writer: ResearchWriter,
        *,
        config: ResearchConfig | None = None,
        new_id: Callable[[], str] = lambda: uuid.uuid4().hex,
        observer: ResearchObserver | None = None,
    ) -> None:
        """`writer` is the extractive default or a model."""
        self.collections = collections
        self.writer = writer
        self.config = config or ResearchConfig()
        self.new_id = new_id
        self.observer = observer

    # --- retrieval -------------------------------------------------------------------------

    def item(self, collection: str, item_id: str) -> Document:
        """A record of the collection by id or label (`CVE-2024-3400`, `[T1059.001]`)."""
        try:
            key = parse_label(item_id).key
        except ValueError as error:
            raise InvalidQueryError(str(error)) from None
        self.collections.filters(collection)  # CollectionNotFoundError for an unknown name
        for document in self.collections.store.cited_as(key):
            if document.collection == collection:
                return document
        raise DocumentNotFoundError(f"no item {key!r} in collection {collection!r}")

    def _item_blocks(self, request: QueryRequest) -> list[ContextBlock]:
        blocks = []
        for item_id in request.item_ids:
            document = self.item(request.collection, item_id)
            for passage in self.collections.store.passages_of(document.id)[:ITEM_PASSAGES]:
                blocks.append(
                    ContextBlock(
                        source_id_of(document),
                        document.title,
                        passage.text,
                        1.0,
                        document.id,
                        passage.id,
                        dict(document.metadata),
                    )
                )
        return blocks

    def filters(self, request: QueryRequest) -> tuple[tuple[str, ...], list[str]]:
        """The search's filters: the request's, its threat filters, and what the rules read.

        The rules run only when the request names no source or severity itself and the
        collection has a `source_type` filter (a threat collection); with the second list,
        the words that earned each rule filter.
        """
        try:
            explicit = threat_filters(request.source_types, request.severity)
        except ValueError as error:
            raise InvalidQueryError(str(error)) from None
        declared = {f.name for f in self.collections.filters(request.collection)}
        missing = [_filter_name(f) for f in explicit if _filter_name(f) not in declared]
        if missing:
            raise InvalidQueryError(
                f"collection {request.collection!r} has no {missing[0]} filter: add its KEV, "
                "ATT&CK and RustSec records with the shipped mappings (cisa-kev, "
                "mitre-attack, rustsec), which set source_type, severity and cvss_score"
            )
        if explicit or not request.understand or request.item_ids:
            return (*request.filters, *explicit), []
        if "source_type" not in declared:
            return tuple(request.filters), []
        understood = understand_threat_question(request.question)
        given = {_filter_name(w) for w in request.filters}
        inferred = [
            f
            for f in understood.filters()
            if _filter_name(f) not in given and _filter_name(f) in declared
        ]
        return (*request.filters, *inferred), list(understood.evidence) if inferred else []

    def retrieve(
        self, request: QueryRequest, filters: Sequence[str] | None = None
    ) -> tuple[list[ContextBlock], bool]:
        """Context blocks for the request (its items, or a search), best first; degraded?"""
        if request.item_ids:
            return self._item_blocks(request), False
        found = self.collections.search(
            request.collection,
            request.question,
            where=request.filters if filters is None else filters,
            k=request.top_k,
            per_document=2,
        )
        blocks = [
            ContextBlock(
                source_id_of(hit.document),
                hit.document.title,
                passage.passage.text,
                round(passage.score, 3),
                hit.document.id,
                passage.passage.id,
                dict(hit.document.metadata),
            )
            for hit in found.results
            for passage in hit.passages
        ]
        return blocks, found.degraded

    # --- the chain -------------------------------------------------------------------------

    def _check(self, request: QueryRequest) -> None:
        if request.template not in TEMPLATES:
            raise InvalidQueryError(
                f"unknown template {request.template!r}: use {', '.join(TEMPLATES)}"
            )
        if not request.question.strip() and not request.item_ids:
            raise InvalidQueryError("ask a question or name the items to summarize or compare")
        if len(request.question) > MAX_QUESTION_CHARS:
            raise InvalidQueryError(f"the question is longer than {MAX_QUESTION_CHARS} characters")
        if not 1 <= request.top_k <= MAX_TOP_K:
            raise InvalidQueryError(f"top_k must be between 1 and {MAX_TOP_K}, not {request.top_k}")
        if len(request.item_ids) > 10:
            raise InvalidQueryError("at most 10 items can be summarized or compared at once")

    def query(self, request: QueryRequest) -> QueryResponse:
        """The template's answer with checked citations, recommendations and timings."""
        self._check(request)
        filters, understood = self.filters(request)
        run_id = self.new_id()
        started = time.perf_counter()
        blocks, degraded = self.retrieve(request, filters)
        retrieval_ms = elapsed_ms(started)
        question = request.question.strip() or "Summarize: " + ", ".join(request.item_ids)
        start = time.perf_counter()
        draft = (
            self.writer.write(request.template, question, blocks, run_id=run_id) if blocks else None
        )
        reflection = ""
        if draft is not None:
            draft, reflection = self._reflect(request, question, blocks, draft, run_id)
        generation_ms = elapsed_ms(start)
        flags: list[str] = []
        citations: list[ResearchCitation] = []
        sections: dict[str, JSONValue] = {}
        if draft is None:
            flags += ["no_evidence", "uncited"]
            answer, dropped, confidence = NO_EVIDENCE, 0, 0.0
            topics: tuple[str, ...] = ()
        else:
            citations, dropped = checked_citations(draft, blocks)
            answer = draft.answer.strip()
            if draft.error is not None:
                flags.append("model_error")
                answer = answer or MODEL_FAILED.format(reason=draft.error[:200])
            if not draft.parsed:
                flags.append("malformed_output")
            if dropped:
                flags.append("invalid_citations_dropped")
            if reflection:
                flags.append(f"reflection_{reflection}")
            if not citations:
                flags.append("uncited")
            confidence = min(max(draft.confidence, 0.0), 1.0) if citations else 0.0
            topics = draft.related_topics
            sections = dict(draft.sections)
        cited_ids = {c.source_id for c in citations}
        cited_blocks = sum(
            1
            for b in blocks
            if any(
                c.source_id == b.source_id and is_valid_snippet(c.snippet, b.text)
                for c in citations
            )
        )
        start = time.perf_counter()
        recommendations = self.recommend(
            request.collection, blocks, cited_ids, source_types=_source_types(filters)
        )
        metadata: dict[str, JSONValue] = {
            "model": self.writer.model_id if draft is None else draft.model,
            "template": request.template,
            "prompt_version": self.writer.prompt_version(request.template),
            "collection": request.collection,
            "run_id": run_id,
            "retrieval_time_ms": retrieval_ms,
            "generation_time_ms": generation_ms,
            "recommendation_time_ms": elapsed_ms(start),
            "total_time_ms": elapsed_ms(started),
            "chunks_retrieved": len(blocks),
            "chunks_cited": cited_blocks,
            "sources_retrieved": list(dict.fromkeys(b.source_id for b in blocks)),
            "citations_dropped": dropped,
            "degraded": degraded,
            "reflection": reflection or None,
            "filters": list(filters),
            "understood": list(understood),
        }
        return QueryResponse(
            answer=answer,
            citations=tuple(citations),
            recommendations=tuple(recommendations),
            confidence=round(confidence, 3),
            related_topics=tuple(topics),
            metadata=metadata,
            sections=sections,
            flags=tuple(flags),
            cited_sources=cited_source_ids(draft, blocks) if draft is not None else (),
        )

    def _reflect(
        self,
        request: QueryRequest,
        question: str,
        blocks: Sequence[ContextBlock],
        draft: ResearchDraft,
        run_id: str,
    ) -> tuple[ResearchDraft, str]:
        """The draft, or its one retry when validation dropped citations; and how it went.

        A model that failed outright (`error`) is not retried: feedback cannot fix a timeout.
        """
        if draft.error is not None:
            return draft, ""
        kept, dropped = checked_citations(draft, blocks)
        if not dropped:
            return draft, ""
        feedback = citation_feedback(draft, blocks)
        retry = self.writer.write(
            request.template, question, blocks, run_id=run_id, feedback=feedback
        )
        kept_again, dropped_again = checked_citations(retry, blocks)
        rescued = retry.error is None and bool(kept_again) and not dropped_again
        outcome = "rescued" if rescued else "failed"
        if self.observer is not None:
            self.observer.research_reflection(outcome)
        if rescued or (retry.error is None and len(kept_again) > len(kept)):
            return retry, outcome
        return draft, outcome

    # --- recommendations -------------------------------------------------------------------

    def recommend(
        self,
        collection: str,
        blocks: Sequence[ContextBlock],
        cited: set[str],
        *,
        source_types: frozenset[str] | None = None,
    ) -> list[Recommendation]:
        """Similar records of the cited (else the top) sources, and ATT&CK's linked items.

        With `source_types`, similar records of other sources are left out (an analyst who
        asked for RustSec advisories gets RustSec advisories).
        """
        config = self.config
        shown = {b.source_id for b in blocks}
        bases: dict[str, ContextBlock] = {}
        for block in blocks:
            if (not cited or block.source_id in cited) and block.source_id not in bases:
                bases[block.source_id] = block
        out: list[Recommendation] = []
        seen: set[tuple[str, str]] = set()

        def add(item: Recommendation) -> None:
            key = (item.kind, item.item_id)
            if key not in seen and len(out) < config.max_recommendations:
                seen.add(key)
                out.append(item)

        for source_id, block in list(bases.items())[:3]:
            try:
                similar = self.collections.similar(
                    collection, block.document_id, k=config.similar_per_source + len(shown)
                )
            except (DocumentNotFoundError, InvalidQueryError):
                similar = None
            if similar is not None:
                taken = 0
                for hit in similar.results:
                    item_id = source_id_of(hit.document)
                    kind_of = hit.document.metadata.get("source_type")
                    if source_types is not None and kind_of not in source_types:
                        continue
                    if item_id in shown or taken >= config.similar_per_source:
                        continue
                    taken += 1
                    add(
                        Recommendation(
                            item_id,
                            hit.document.title,
                            "similar",
                            f"similar to {source_id}",
                            round(hit.score, 3),
                        )
                    )
            links: tuple[tuple[str, Literal["mitigation", "group"]], ...] = (
                ("mitigations", "mitigation"),
                ("groups", "group"),
            )
            for field, kind in links:
                values = block.metadata.get(field)
                if isinstance(values, list):
                    for value in values[: config.linked_per_source]:
                        if isinstance(value, str):
                            verb = "mitigates" if kind == "mitigation" else "uses"
                            add(
                                Recommendation(
                                    value,
                                    value,
                                    kind,
                                    f"{value} {verb} {source_id}",
                                )
                            )
        return out
