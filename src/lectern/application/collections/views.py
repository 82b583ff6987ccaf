"""Showing collections: their counts, a document, a passage, what a label names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lectern.application.collections.base import CollectionBase
from lectern.application.ports import CollectionSummary
from lectern.domain.aliases import aliases_in, merged
from lectern.domain.documents import (
    Document,
    DocumentPassage,
    LabelRef,
    label_span,
    parse_label,
    passage_label,
)
from lectern.domain.snippets import locate_snippet
from lectern.errors import (
    CollectionNotFoundError,
    DocumentNotFoundError,
    InvalidQueryError,
)


@dataclass(frozen=True, slots=True)
class DocumentView:
    """A document with its text and its passages' labels."""

    document: Document
    passages: tuple[tuple[DocumentPassage, str], ...]


@dataclass(frozen=True, slots=True)
class PassageView:
    """One passage with its document and label."""

    passage: DocumentPassage
    document: Document
    label: str


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a label names: a page, a section or a record, with the passages inside it."""

    label: str
    ref: LabelRef
    document: Document
    start: int
    end: int
    passages: tuple[DocumentPassage, ...]
    snippet_at: tuple[int, int] | None = None
    """Where the given snippet is, as offsets into the document's text."""

    @property
    def text(self) -> str:
        """The cited page, section or record."""
        return self.document.text[self.start : self.end]


ALIAS_DOCUMENTS = 2000
"""A collection's glossary reads at most this many documents (a records collection holds
thousands of short records that name nothing by another name)."""


class CollectionViews(CollectionBase):
    """List and show collections, documents and passages; resolve citation labels."""

    def aliases(self, name: str) -> dict[str, str]:
        """Everyday name -> the collection's own term, as its documents say (`aliases_in`).

        Read once per index generation (a change builds a new one) and kept in memory.
        """
        record = self.store.get(name)  # one row, not every collection's counts, per question
        if record is None:
            raise CollectionNotFoundError(f"no collection named {name!r}")
        key = (name, record.generation)
        cache = self._alias_cache
        if key not in cache:
            tables = []
            for offset in range(0, ALIAS_DOCUMENTS, 100):
                listed = self.store.list_documents(name, limit=100, offset=offset)
                found = self.store.documents(name, [d.id for d in listed], with_text=True)
                tables += [aliases_in(document.text) for document in found.values()]
                if len(listed) < 100:
                    break
            cache[key] = merged(tables)
        return cache[key]

    def summaries(self) -> list[CollectionSummary]:
        """Every collection with its counts."""
        return self.store.summaries()

    def show(self, name: str) -> tuple[CollectionSummary, list[Document]]:
        """A collection's counts and filters, with its first documents."""
        summary = self._summary(name)
        return summary, self.store.list_documents(name, limit=20)

    def document(self, name: str, doc_id: str) -> DocumentView:
        """A document with its text and its passages' labels."""
        if self.store.get(name) is None:
            raise CollectionNotFoundError(f"no collection named {name!r}")
        found = self.store.documents(name, [doc_id], with_text=True).get(doc_id)
        if found is None:
            raise DocumentNotFoundError(f"no document {doc_id} in collection {name!r}")
        passages = self.store.passages_of(doc_id)
        return DocumentView(found, tuple((p, passage_label(found, p)) for p in passages))

    def passage(self, name: str, passage_id: str) -> PassageView:
        """One passage with its document and label."""
        if self.store.get(name) is None:
            raise CollectionNotFoundError(f"no collection named {name!r}")
        found = self.store.passages([passage_id]).get(passage_id)
        document = (
            self.store.documents(name, [found.document_id]).get(found.document_id)
            if found is not None
            else None
        )
        if found is None or document is None:
            raise DocumentNotFoundError(f"no passage {passage_id} in collection {name!r}")
        return PassageView(found, document, passage_label(document, found))

    def resolve(
        self,
        label: str,
        snippet: str | None = None,
        *,
        readable: Callable[[str], bool] | None = None,
    ) -> Resolution:
        """The page, section or record a label names, and where a snippet is inside it.

        `readable` says which collections the caller may read (`CollectionAccess.reader`);
        documents elsewhere are not candidates. Only the operator's own tools pass None.
        """
        try:
            ref = parse_label(label)
        except ValueError as error:
            raise InvalidQueryError(str(error)) from None
        candidates = [
            d for d in self.store.cited_as(ref.key) if readable is None or readable(d.collection)
        ]
        if not candidates:
            raise DocumentNotFoundError(f"no document is cited as {ref.key!r}")
        for document in candidates:
            span = label_span(document, ref)
            if span is None:
                continue
            start, end = span
            inside = tuple(
                p for p in self.store.passages_of(document.id) if start <= p.start and p.end <= end
            )
            at = locate_snippet(document.text, snippet, start, end) if snippet else None
            return Resolution(label, ref, document, start, end, inside, at)
        where = f"page {ref.page}" if ref.page is not None else f"section #{ref.anchor}"
        raise DocumentNotFoundError(f"{ref.key} has no {where}")
