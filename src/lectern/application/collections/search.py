"""Searching a collection with the books' engine: filters, filing scopes, similar documents."""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from lectern.application.collections.base import CollectionBase, LoadedCollection
from lectern.application.hybrid_retrieval import HybridRetriever
from lectern.application.rerank import rerank_head
from lectern.application.timing import elapsed_ms
from lectern.domain.documents import Document, DocumentPassage, passage_label
from lectern.domain.filings import is_filing, scope_for
from lectern.domain.financial_measures import expansion, statement_kind, statements_asked
from lectern.domain.metadata_filters import FilterField, MetadataFilter, filter_matches, parse_where
from lectern.domain.retrieval import FusedHit, Strategy
from lectern.domain.snippets import Snippet, best_snippet
from lectern.domain.statement_tables import columns_of
from lectern.errors import (
    CollectionNotFoundError,
    DocumentNotFoundError,
    InvalidQueryError,
)

MAX_RESULTS = 100
SIMILAR_QUERY_WORDS = 80
NAMED_STATEMENT_BONUS = 0.5
"""Added to the fused score of a statement's table passages when the question names it."""
IMPLIED_STATEMENT_BONUS = 0.25
"""Added when a measure the question asks for is computed from that statement."""


@dataclass(frozen=True, slots=True)
class PassageHit:
    """One retrieved passage with its label and a highlighted snippet."""

    passage: DocumentPassage
    label: str
    score: float
    snippet: Snippet
    scores: Mapping[str, float] = field(default_factory=dict)
    """Each method's own score before fusion (`lexical`: BM25, `vector`: cosine)."""
    similarity: float | None = None
    """The cosine of the query's and the passage's vectors, when the vector side ranked it."""


@dataclass(frozen=True, slots=True)
class DocumentHit:
    """A document and its retrieved passages, best first."""

    document: Document
    rank: int
    score: float
    passages: tuple[PassageHit, ...]


@dataclass(frozen=True, slots=True)
class CollectionSearchResponse:
    """Documents ranked for a query, each with its best passages."""

    collection: str
    query: str
    results: tuple[DocumentHit, ...]
    filters: tuple[MetadataFilter, ...]
    degraded: bool
    degraded_reason: str | None
    timings_ms: Mapping[str, float]
    scope: str | None = None
    """Why the search kept to some documents (the question named them), or why it did not."""
    expansion: str | None = None
    """Statement lines added to the query for the measures it names (filings only)."""


@dataclass(frozen=True, slots=True)
class _FilingPlan:
    allowed: frozenset[str] | None
    reason: str | None
    expansion: str | None
    statements: Mapping[str, float] = field(default_factory=dict)
    """Statement kind -> the score added to its table passages' fused score."""


def statement_first(
    hits: Sequence[FusedHit], statements: Mapping[str, str], bonus: Mapping[str, float]
) -> list[FusedHit]:
    """The hits re-ordered with `bonus[kind]` added to the passages of that statement's table.

    A question that names the statement ("... shown in the cash flow statement") or asks
    for a measure computed from it (capex, quick ratio) wants that table; its passages are
    often outranked by notes and discussion that share more of the question's words.
    """
    scored = [
        replace(h, score=h.score + bonus.get(statements.get(h.id, ""), 0.0))
        if h.id in statements
        else h
        for h in hits
    ]
    return sorted(scored, key=lambda h: -h.score)


class CollectionSearch(CollectionBase):
    """Search collections, find similar documents, list a collection's filters."""

    def _load(self, name: str) -> LoadedCollection:
        record = self.store.get(name)
        if record is None:
            raise CollectionNotFoundError(
                f"no collection named {name!r}: `lectern collections list` shows them"
            )
        with self._lock:
            loaded = self._loaded.get(name)
            if loaded is not None and loaded.record.generation == record.generation:
                return loaded
        indexes = self.indexes.load(name, record.generation)
        retriever = HybridRetriever(
            indexes.lexical,
            indexes.vector,
            indexes.embedder,
            self.config,
            unavailable_reason=indexes.unavailable_reason,
        )
        passages_of: dict[str, list[str]] = {}
        statements: dict[str, str] = {}
        for item in self.store.indexed_passages(name):
            passages_of.setdefault(item.passage.document_id, []).append(item.passage.id)
            section = item.passage.section
            if section and columns_of(section) is not None:
                kind = statement_kind(section.split(" > ", 1)[0])
                if kind is not None:
                    statements[item.passage.id] = kind
        metadata = dict(self.store.filter_values(name))
        loaded = LoadedCollection(
            record=record,
            retriever=retriever,
            kinds={f.name: f for f in record.filters},
            metadata=metadata,
            passages_of=passages_of,
            filings=bool(metadata)
            and 2 * sum(is_filing(m) for m in metadata.values()) >= len(metadata),
            statements=statements,
        )
        with self._lock:
            self._loaded[name] = loaded
        return loaded

    def filters(self, name: str) -> tuple[FilterField, ...]:
        """The filters a collection declares."""
        record = self.store.get(name)
        if record is None:
            raise CollectionNotFoundError(f"no collection named {name!r}")
        return record.filters

    def _allowed(
        self, loaded: LoadedCollection, wheres: tuple[MetadataFilter, ...]
    ) -> frozenset[str] | None:
        if not wheres:
            return None
        cached = loaded.filter_cache.get(wheres)
        if cached is not None:
            return cached
        allowed: set[str] = set()
        for doc_id, metadata in loaded.metadata.items():
            if all(
                filter_matches(w, loaded.kinds[w.name].kind, metadata.get(w.name))  # type: ignore[arg-type]
                for w in wheres
            ):
                allowed.update(loaded.passages_of.get(doc_id, ()))
        result = frozenset(allowed)
        if len(loaded.filter_cache) > 128:
            loaded.filter_cache.clear()
        loaded.filter_cache[wheres] = result
        return result

    def search(
        self,
        name: str,
        text: str,
        *,
        where: Sequence[str] = (),
        k: int = 10,
        per_document: int = 3,
        strategy: Strategy = "balanced",
        mmr_lambda: float | None | str = "default",
        documents: Collection[str] | None = None,
    ) -> CollectionSearchResponse:
        """Documents for a query, each with its best passages (best first), filtered.

        `documents` keeps the search inside these document ids (a project's documents).
        """
        started = time.perf_counter()
        query = " ".join(text.split())
        if not query:
            raise InvalidQueryError("the query is empty")
        if len(query) > 1000:
            raise InvalidQueryError("the query is longer than 1000 characters")
        if not 1 <= k <= MAX_RESULTS:
            raise InvalidQueryError(f"k must be between 1 and {MAX_RESULTS}, not {k}")
        if not 1 <= per_document <= 20:
            raise InvalidQueryError(f"passages per document must be 1-20, not {per_document}")
        lam = self.mmr_lambda if mmr_lambda == "default" else mmr_lambda
        if lam is not None and not (isinstance(lam, float | int) and 0.0 <= lam <= 1.0):
            raise InvalidQueryError(f"MMR lambda must be between 0 and 1, not {lam}")
        loaded = self._load(name)
        try:
            wheres = tuple(parse_where(w, loaded.kinds) for w in where)
        except ValueError as error:
            raise InvalidQueryError(str(error)) from None
        start = time.perf_counter()
        allowed = self._allowed(loaded, wheres)
        if documents is not None:
            inside = frozenset(p for d in documents for p in loaded.passages_of.get(d, ()))
            allowed = inside if allowed is None else allowed & inside
        filter_ms = elapsed_ms(start)
        retriever = loaded.retriever
        plan = self._filing_plan(loaded, query, allowed)
        variations = [query] if plan.expansion is None else [query, plan.expansion]
        retrieval = retriever.retrieve(variations, strategy, plan.allowed)
        scope = plan.reason
        if plan.allowed is not allowed and not retrieval.hits:
            retrieval = retriever.retrieve(variations, strategy, allowed)
            scope = f"{plan.reason}, which returned nothing: searched the whole collection"
        if plan.statements:
            retrieval = replace(
                retrieval, hits=statement_first(retrieval.hits, loaded.statements, plan.statements)
            )
        reranked = rerank_head(
            self.reranker, query, retrieval.hits, self._rerank_texts, self.rerank_depth
        )
        start = time.perf_counter()
        by_document: dict[str, list[FusedHit]] = {}
        for hit in reranked.hits:
            group = retriever.lexical.group_of(hit.id)
            bucket = by_document.setdefault(group, [])
            if len(bucket) < per_document:
                bucket.append(hit)
        heads = [hits[0] for hits in by_document.values()]
        chosen = retriever.diversify(heads, k, float(lam) if lam is not None else None)
        rerank_ms = elapsed_ms(start)
        start = time.perf_counter()
        doc_ids = [retriever.lexical.group_of(h.id) for h in chosen]
        documents = self.store.documents(name, doc_ids)
        wanted = [h.id for d in doc_ids for h in by_document[d]]
        stored = self.store.passages(wanted)
        results: list[DocumentHit] = []
        for head, doc_id in zip(chosen, doc_ids, strict=True):
            document = documents.get(doc_id)
            if document is None:
                continue
            hits = tuple(
                PassageHit(
                    passage=stored[h.id],
                    label=passage_label(document, stored[h.id]),
                    score=h.score,
                    snippet=best_snippet(stored[h.id].text, query),
                    scores=dict(h.scores),
                    similarity=h.scores.get("vector"),
                )
                for h in by_document[doc_id]
                if h.id in stored
            )
            if hits:
                results.append(DocumentHit(document, len(results) + 1, head.score, hits))
        timings = {
            "filter_ms": filter_ms,
            **retrieval.timings_ms,
            **({"rerank_ms": reranked.elapsed_ms} if self.reranker is not None else {}),
            "group_ms": rerank_ms,
            "load_ms": elapsed_ms(start),
            "total_ms": elapsed_ms(started),
        }
        return CollectionSearchResponse(
            name,
            query,
            tuple(results),
            wheres,
            retrieval.degraded,
            retrieval.degraded_reason,
            timings,
            scope,
            plan.expansion,
        )

    def _filing_plan(
        self, loaded: LoadedCollection, query: str, allowed: frozenset[str] | None
    ) -> _FilingPlan:
        """For filings: the documents the question names and the measures' statement lines."""
        if not loaded.filings:
            return _FilingPlan(allowed, None, None)
        words = expansion(query)
        plan_expansion = f"{query} {words}" if words else None
        named, implied = statements_asked(query)
        bonus = dict.fromkeys(implied, IMPLIED_STATEMENT_BONUS)
        bonus.update(dict.fromkeys(named, NAMED_STATEMENT_BONUS))
        candidates = {
            doc_id: metadata
            for doc_id, metadata in loaded.metadata.items()
            if allowed is None or any(p in allowed for p in loaded.passages_of.get(doc_id, ()))
        }
        scope = scope_for(query, candidates)
        if scope is None:
            return _FilingPlan(allowed, None, plan_expansion, bonus)
        inside = frozenset(p for d in scope.documents for p in loaded.passages_of.get(d, ()))
        scoped = inside if allowed is None else allowed & inside
        reason = f"{scope.reason}: searched {len(scope.documents)} of {len(candidates)} documents"
        return _FilingPlan(scoped, reason, plan_expansion, bonus)

    def _rerank_texts(self, ids: Sequence[str]) -> dict[str, str]:
        """What a reranker reads of each passage: its section path, then its words."""
        stored = self.store.passages(list(ids))
        return {pid: f"{p.section}. {p.text}" if p.section else p.text for pid, p in stored.items()}

    def similar(self, name: str, doc_id: str, k: int = 10) -> CollectionSearchResponse:
        """Documents nearest to this one: the mean of its passage vectors, or BM25 on its words."""
        started = time.perf_counter()
        if not 1 <= k <= MAX_RESULTS:
            raise InvalidQueryError(f"k must be between 1 and {MAX_RESULTS}, not {k}")
        loaded = self._load(name)
        own = loaded.passages_of.get(doc_id)
        if not own:
            raise DocumentNotFoundError(f"no document {doc_id} in collection {name!r}")
        retriever = loaded.retriever
        vector_index = retriever.vector
        degraded_reason = None
        found = []
        if vector_index is not None:
            rows = [v for v in (vector_index.vector_of(p) for p in own) if v is not None]
            if rows:
                mean = [sum(column) / len(rows) for column in zip(*rows, strict=True)]
                norm = math.sqrt(sum(x * x for x in mean)) or 1.0
                found = vector_index.search(tuple(x / norm for x in mean), k * 5 + 20)
        if not found:
            degraded_reason = retriever.unavailable_reason or "the document has no stored vectors"
            first = self.store.passages(own[:1]).get(own[0])
            words = (first.text if first else "").split()[:SIMILAR_QUERY_WORDS]
            found = retriever.lexical.search(" ".join(words), k * 5 + 20)
        best: dict[str, tuple[str, float]] = {}
        for hit in found:
            group = retriever.lexical.group_of(hit.id)
            if group != doc_id and group not in best:
                best[group] = (hit.id, hit.score)
        top = list(best.items())[:k]
        documents = self.store.documents(name, [d for d, _ in top])
        stored = self.store.passages([p for _, (p, _) in top])
        results: list[DocumentHit] = []
        for doc, (pid, score) in top:
            if doc in documents and pid in stored:
                passage = stored[pid]
                shown = PassageHit(
                    passage,
                    passage_label(documents[doc], passage),
                    score,
                    best_snippet(passage.text, ""),
                )
                results.append(DocumentHit(documents[doc], len(results) + 1, score, (shown,)))
        return CollectionSearchResponse(
            name,
            f"similar:{doc_id}",
            tuple(results),
            (),
            degraded_reason is not None,
            degraded_reason,
            {"total_ms": elapsed_ms(started)},
        )
