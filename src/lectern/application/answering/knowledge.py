"""A collection seen as a knowledge base: its source index, search over it, and its texts.

The index (one `source_id: summary` line per document, and term statistics) is built at
index time (`lectern kb index`, or on first use when the collection changed) and stored;
summaries are reused by content hash, so a rebuild only summarizes what changed.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from lectern.application.answering.ports import KnowledgeIndexStore, SourceSummarizer
from lectern.application.collections import CollectionService
from lectern.application.ports import ProgressReporter
from lectern.application.ports.collections import CollectionRecord
from lectern.domain.answering import (
    KnowledgeIndex,
    KnowledgeSource,
    LoadedSource,
    SelectedSource,
    bare_numbers,
    content_terms,
    coverage,
    document_frequency,
    is_change_log,
    lead_summary,
    number_names,
    requested_subject,
    source_id_for,
    title_share,
)
from lectern.domain.documents import Document
from lectern.errors import CollectionNotFoundError, LecternError

PAGE = 500
MAX_QUERY_CHARS = 1_000


@dataclass(frozen=True, slots=True)
class SelectionConfig:
    """Floors under which a source is not relevant enough to answer from."""

    min_relevance: float
    """Cosine of the question and the source's best passage (the embedding model's)."""
    min_coverage: float
    """Without vectors: IDF-weighted share of the question's words in the best passage."""


class LeadSentenceSummarizer:
    """The offline summary: title, heading path and lead sentence."""

    name = "lead-sentence"

    def summarize(self, title: str, headings: Sequence[str], text: str) -> str:
        """One line from the source's own words."""
        return lead_summary(title, headings, text)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A source the search found, with its relevance and the passage that earned it."""

    selected: SelectedSource
    passage: str
    lexical: float | None = None
    """The best BM25 score among the source's passages (None when BM25 did not find it)."""


class KnowledgeBase:
    """One collection's index, search and texts, as the reply graph uses them."""

    def __init__(
        self,
        collections: CollectionService,
        index: KnowledgeIndex,
        config: SelectionConfig,
        *,
        pages: bool = False,
    ) -> None:
        """A knowledge base over a built index.

        `pages`: its documents are pages read whole (documentation, a synced site), not
        records through a mapping (ClapNQ's passages); the answer check reads them at its
        pages threshold.
        """
        self.collections = collections
        self.index = index
        self.config = config
        self.pages = pages
        self._by_document = {s.document_id: s for s in index.sources}
        self._by_id = {s.source_id: s for s in index.sources}
        self._change_logs: dict[str, bool] = {}

    @property
    def name(self) -> str:
        """The collection's name."""
        return self.index.collection

    def source(self, source_id: str) -> KnowledgeSource | None:
        """The source with this id, or None."""
        return self._by_id.get(source_id)

    def candidates(self, question: str, limit: int) -> tuple[list[Candidate], bool]:
        """Sources for a question in search order with their relevance; True when degraded.

        Relevance is the cosine of the question with the source's best passage, or, when the
        vector side is missing, the question's IDF-weighted coverage by that passage.
        """
        query = " ".join(question.split())[:MAX_QUERY_CHARS]
        response = self.collections.search(
            self.name, query, k=max(limit * 2, 5), per_document=3, mmr_lambda=None
        )
        terms = content_terms(query)
        subject = requested_subject(query)
        found: list[Candidate] = []
        for hit in response.results:
            source = self._by_document.get(hit.document.id)
            if source is None or self._is_change_log(source.document_id):
                continue  # a change log names tasks without saying how to do them
            best = hit.passages[0].passage.text
            if response.degraded:
                relevance = max(coverage(terms, p.passage.text, self.index) for p in hit.passages)
            else:
                cosines = [p.scores["vector"] for p in hit.passages if "vector" in p.scores]
                relevance = max(cosines) if cosines else 0.0
            if subject is not None:
                # "tell me about the horse latitudes": the page named by the subject is
                # relevant, however little a short request's vector resembles its passages.
                relevance = max(relevance, title_share(subject, source.title))
            lexical = [p.scores["lexical"] for p in hit.passages if "lexical" in p.scores]
            found.append(
                Candidate(
                    SelectedSource(source, round(relevance, 4)),
                    best,
                    max(lexical) if lexical else None,
                )
            )
        return found, response.degraded

    def _is_change_log(self, document_id: str) -> bool:
        """Whether a document is a change log (read once, then remembered)."""
        known = self._change_logs.get(document_id)
        if known is None:
            try:
                documents = self.collections.store.documents(
                    self.name, [document_id], with_text=True
                )
            except LecternError:
                return False  # unread: the load step names the failure if it is selected
            document = documents.get(document_id)
            known = document is not None and is_change_log(document.text)
            self._change_logs[document_id] = known
        return known

    def select(self, question: str, limit: int) -> tuple[SelectedSource, ...]:
        """At most `limit` sources above the relevance floor, in search order."""
        found, degraded = self.candidates(question, limit)
        floor = self.config.min_coverage if degraded else self.config.min_relevance
        chosen = tuple(c.selected for c in found if c.selected.relevance >= floor)[:limit]
        if chosen or degraded:
            return chosen
        named = self.with_number_names(question)
        if named == question:
            return chosen
        found, _ = self.candidates(named, limit)
        return tuple(c.selected for c in found if c.selected.relevance >= floor)[:limit]

    def with_number_names(self, question: str) -> str:
        """The question with the words the collection writes beside its bare numbers.

        A question that names little but numbers ("return 201 instead of 200?") is far from
        every passage's vector; the passages holding those numbers say what they are
        ("status code 201"). Only asked when nothing reached the floor.
        """
        numbers = bare_numbers(question)
        if not numbers:
            return question
        response = self.collections.search(
            self.name, " ".join(numbers), k=5, per_document=3, mmr_lambda=None
        )
        texts = [
            p.passage.text
            for hit in response.results
            for p in hit.passages
            if "lexical" in p.scores
        ]
        asked = set(content_terms(question))
        names = [n for n in number_names(numbers, texts) if n not in asked]
        return f"{question} {' '.join(names)}" if names else question

    def load(self, selected: Sequence[SelectedSource]) -> tuple[list[LoadedSource], list[str]]:
        """The texts of the selected sources, and a reason for each that could not load."""
        ids = [s.source.document_id for s in selected]
        try:
            documents = self.collections.store.documents(self.name, ids, with_text=True)
        except LecternError as error:
            return [], [f"{s.source.source_id}: {error}" for s in selected]
        loaded: list[LoadedSource] = []
        failures: list[str] = []
        for item in selected:
            document = documents.get(item.source.document_id)
            if document is None or not document.text.strip():
                failures.append(f"{item.source.source_id}: the document is gone or empty")
                continue
            loaded.append(LoadedSource(item.source, document.text, item.relevance))
        return loaded, failures


class KnowledgeBases:
    """Knowledge bases by collection name, their index rebuilt when the collection changes."""

    def __init__(
        self,
        collections: CollectionService,
        store: KnowledgeIndexStore,
        summarizer: SourceSummarizer,
        config: SelectionConfig,
    ) -> None:
        """Indexes are kept in `store`, summaries written by `summarizer`."""
        self.collections = collections
        self.store = store
        self.summarizer = summarizer
        self.config = config
        self.on_demand: SourceSummarizer = LeadSentenceSummarizer()
        self._cache: dict[str, KnowledgeBase] = {}
        self._lock = threading.Lock()

    def _record(self, name: str) -> CollectionRecord:
        record = self.collections.store.get(name)
        if record is None:
            raise CollectionNotFoundError(
                f"no collection named {name!r}: `lectern collections list` shows them"
            )
        return record

    def _generation(self, name: str) -> tuple[int, str]:
        """The collection's index generation and creation stamp (what an index is for)."""
        record = self._record(name)
        return record.generation, record.created_at.isoformat()

    def _knowledge_base(self, name: str, index: KnowledgeIndex) -> KnowledgeBase:
        pages = self._record(name).mapping_text is None
        return KnowledgeBase(self.collections, index, self.config, pages=pages)

    def get(self, name: str) -> KnowledgeBase:
        """The collection's knowledge base (its index built or refreshed when stale)."""
        generation = self._generation(name)
        with self._lock:
            cached = self._cache.get(name)
            if cached is not None and _built_for(cached.index) == generation:
                return cached
            index = self.store.load(name)
            if index is None or _built_for(index) != generation:
                # Built on demand, a model never runs: summaries it wrote before are reused,
                # the rest are lead sentences until `lectern kb index` writes them.
                index = self._build(name, generation, None, self.on_demand)
            kb = self._knowledge_base(name, index)
            self._cache[name] = kb
            return kb

    def build(self, name: str, progress: ProgressReporter | None = None) -> KnowledgeIndex:
        """Build (or refresh) and store a collection's index now."""
        generation = self._generation(name)
        with self._lock:
            index = self._build(name, generation, progress, self.summarizer)
            self._cache[name] = self._knowledge_base(name, index)
            return index

    def _documents(self, name: str) -> list[Document]:
        store = self.collections.store
        documents: list[Document] = []
        offset = 0
        while True:
            page = store.list_documents(name, limit=PAGE, offset=offset)
            if not page:
                return documents
            texts = store.documents(name, [d.id for d in page], with_text=True)
            documents.extend(texts[d.id] for d in page if d.id in texts)
            offset += len(page)

    def _build(
        self,
        name: str,
        generation: tuple[int, str],
        progress: ProgressReporter | None,
        summarizer: SourceSummarizer,
    ) -> KnowledgeIndex:
        documents = self._documents(name)
        cached = dict(self.store.summaries(name, summarizer.name))
        if summarizer is not self.summarizer:
            cached.update(self.store.summaries(name, self.summarizer.name))
        if progress is not None:
            progress.start(f"summarizing the sources of {name}", len(documents))
        sources: list[KnowledgeSource] = []
        taken: set[str] = set()
        for document in documents:
            url = document.metadata.get("url")
            source_id = source_id_for(name, document.uri, url if isinstance(url, str) else None)
            if source_id in taken:
                source_id = f"{source_id}#{document.id[:8]}"
            taken.add(source_id)
            headings = document.sections[0].path if document.sections else ()
            summary = cached.get(document.content_hash) or summarizer.summarize(
                document.title, headings, document.text
            )
            sources.append(
                KnowledgeSource(
                    source_id=source_id,
                    document_id=document.id,
                    title=document.title,
                    summary=" ".join(summary.split()),
                    content_hash=document.content_hash,
                    url=url if isinstance(url, str) and url else None,
                )
            )
            if progress is not None:
                progress.advance()
        index = KnowledgeIndex(
            collection=name,
            generation=generation[0],
            sources=tuple(sources),
            document_frequency=document_frequency(f"{d.title}\n{d.text}" for d in documents),
            summarizer=summarizer.name,
            built_for=generation[1],
        )
        self.store.save(index)
        return index


def _built_for(index: KnowledgeIndex) -> tuple[int, str]:
    return index.generation, index.built_for
