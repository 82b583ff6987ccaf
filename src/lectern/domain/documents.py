"""Collections: documents, their passages and citation labels.

A document's `text` is what its reader extracted (Markdown reduced to text, a PDF's pages
joined by form feeds, a record's rendered template). Every passage is a slice of it:
`text[start:end]`, so a passage can always be shown in place. Pages are the numbers a person
sees (1-based). Ids are hashes of the collection, the document's uri and, for passages, the
offsets and the words: unchanged documents keep their ids across re-ingests.

A passage citation is valid under the books' rule (`domain/grounding.is_valid_snippet`):
the snippet is a literal piece of the passage after case-folding and whitespace collapsing.
Where a snippet stands and which one a query shows: `snippets.py`; metadata filters:
`metadata_filters.py`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from lectern.domain.books import JSONValue
from lectern.domain.grounding import is_valid_snippet

DocumentKind = Literal["markdown", "text", "html", "pdf", "record"]

_COLLECTION_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
_PAGE_LABEL = re.compile(r"^(?P<key>.+?) p\.(?P<page>\d+)$")


def check_collection_name(name: str) -> str:
    """The name when it is a valid collection name; ValueError otherwise."""
    if not _COLLECTION_NAME.match(name):
        raise ValueError(
            f"invalid collection name {name!r}: use 1-63 lower-case letters, digits, '-' or '_', "
            "starting with a letter or digit"
        )
    return name


def _digest(*parts: object) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(str(part).encode("utf-8"))
        hasher.update(b"\x00")
    return hasher.hexdigest()


def document_id(collection: str, uri: str) -> str:
    """A document's id: stable for one uri in one collection, whatever its content."""
    return _digest("document", collection, uri)[:32]


def passage_id(collection: str, uri: str, start: int, end: int, text: str) -> str:
    """A passage's id: the same while its document's words at these offsets are unchanged."""
    return _digest("passage", collection, uri, start, end, text)[:32]


def content_hash(*parts: object) -> str:
    """The hash that tells whether a document changed since it was stored."""
    return _digest("content", *parts)


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and the span of text it governs (up to the next heading of its level)."""

    title: str
    level: int
    start: int
    end: int
    anchor: str | None = None
    path: tuple[str, ...] = ()
    """Titles of the enclosing headings, outermost first, ending with this one."""
    aliases: tuple[str, ...] = ()
    """Other anchors that point at this heading (`<a name>` just before it)."""


@dataclass(frozen=True, slots=True)
class Block:
    """A structural unit (a section's own text, a page's body, a record) to split by size."""

    start: int
    end: int
    page: int | None = None
    section: Section | None = None


@dataclass(frozen=True, slots=True)
class ExtractedDocument:
    """What a reader made of one file or record, before it joins a collection."""

    uri: str
    """Where it came from, relative to what was added: `tutorial/query-params.md`, a CVE id."""
    title: str
    text: str
    kind: DocumentKind
    cite_as: str
    """The label's key: `RFC 7231`, `CVE-2025-48384`, `kb:tutorial/query-params.md`."""
    blocks: tuple[Block, ...]
    pages: tuple[tuple[int, int], ...] = ()
    sections: tuple[Section, ...] = ()
    metadata: Mapping[str, JSONValue] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    """What the reader had to leave out or could not check (dropped includes, blank pages)."""
    split: bool = True
    """False: each block is one passage whatever its length (records cited whole)."""

    @property
    def content_hash(self) -> str:
        """Changes whenever anything stored about the document changes.

        The blocks' sections count: a reader that reads a page's layout better (a statement's
        columns) changes the passages' sections, so the document is stored again.
        """
        return content_hash(
            self.title,
            self.text,
            self.kind,
            self.cite_as,
            sorted(self.metadata.items()),
            self.split,
            [(b.start, b.end, b.page, b.section.path if b.section else None) for b in self.blocks],
        )


UPLOAD_SOURCE = "upload"
"""The source of documents uploaded one by one (HTTP): never a configured, official name."""


def uploaded_cite_as(collection: str, uri: str) -> str:
    """An uploaded document's label key: its collection and file name, never a derived name.

    A file name says nothing about who wrote the file, so `sp800-63b-errata.md` or
    `rfc7231.txt` uploaded by anyone must not be cited as `NIST SP 800-63B` or `RFC 7231`.
    """
    return f"{collection}:{uri}"


@dataclass(frozen=True, slots=True)
class SkippedFile:
    """A file (or record) that was not added, and why."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class Document:
    """A document of a collection."""

    id: str
    collection: str
    title: str
    uri: str
    metadata: Mapping[str, JSONValue]
    kind: DocumentKind = "text"
    cite_as: str = ""
    content_hash: str = ""
    source: str = ""
    """The folder or file it was added from (re-adding it replaces what came from there)."""
    text: str = ""
    """The extracted text; empty when loaded without it."""
    pages: tuple[tuple[int, int], ...] = ()
    sections: tuple[Section, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DocumentPassage:
    """A citable slice of a document: `document.text[start:end] == text`."""

    id: str
    document_id: str
    text: str
    page: int | None
    section: str | None
    """The heading path, outermost first, joined by " > "."""
    anchor: str | None
    start: int
    end: int


def make_passages(
    collection: str, document: ExtractedDocument, spans: Sequence[tuple[int, int, Block]]
) -> list[DocumentPassage]:
    """Passages for spans of a document's text, each tagged with its block's page and section."""
    passages = []
    seen: set[str] = set()
    for start, end, block in spans:
        text = document.text[start:end]
        if not text.strip():
            continue
        pid = passage_id(collection, document.uri, start, end, text)
        if pid in seen:
            continue
        seen.add(pid)
        section = block.section
        passages.append(
            DocumentPassage(
                id=pid,
                document_id=document_id(collection, document.uri),
                text=text,
                page=block.page,
                section=" > ".join(section.path) if section and section.path else None,
                anchor=section.anchor if section else None,
                start=start,
                end=end,
            )
        )
    return passages


# --- labels -------------------------------------------------------------------------------


def label_of(cite_as: str, page: int | None, anchor: str | None) -> str:
    """The citation label a reader can follow: `[RFC 7231 p.12]`, `[kb:a.md#id]`, `[T1136]`."""
    if page is not None:
        return f"[{cite_as} p.{page}]"
    if anchor:
        return f"[{cite_as}#{anchor}]"
    return f"[{cite_as}]"


def passage_label(document: Document, passage: DocumentPassage) -> str:
    """The label of one passage of this document."""
    return label_of(document.cite_as or document.uri, passage.page, passage.anchor)


@dataclass(frozen=True, slots=True)
class LabelRef:
    """A parsed label: the document's key and, when given, its page or section anchor."""

    key: str
    page: int | None = None
    anchor: str | None = None


def parse_label(label: str) -> LabelRef:
    """Read a label with or without its brackets; ValueError when it names nothing."""
    text = label.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1].strip()
    if not text:
        raise ValueError("an empty label names no document")
    paged = _PAGE_LABEL.match(text)
    if paged:
        page = int(paged.group("page"))
        if page < 1:
            raise ValueError(f"pages are numbered from 1, not {page}")
        return LabelRef(paged.group("key"), page=page)
    if "#" in text:
        key, _, anchor = text.rpartition("#")
        if key and anchor:
            return LabelRef(key, anchor=anchor)
    return LabelRef(text)


def label_span(document: Document, ref: LabelRef) -> tuple[int, int] | None:
    """The span of the document's text a label names (a page, a section, or all of it)."""
    if ref.page is not None:
        if not document.pages or ref.page > len(document.pages):
            return None
        return document.pages[ref.page - 1]
    if ref.anchor is not None:
        for section in document.sections:
            if ref.anchor == section.anchor or ref.anchor in section.aliases:
                return section.start, section.end
        return None
    return 0, len(document.text)


# --- snippets -----------------------------------------------------------------------------


def is_valid_passage_citation(snippet: str, passage: DocumentPassage) -> bool:
    """The books' rule, applied to a passage: a literal piece after folding."""
    return is_valid_snippet(snippet, passage.text)
