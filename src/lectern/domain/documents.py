"""Collections: documents, their passages, citation labels and metadata filters.

A document's `text` is what its reader extracted (Markdown reduced to text, a PDF's pages
joined by form feeds, a record's rendered template). Every passage is a slice of it:
`text[start:end]`, so a passage can always be shown in place. Pages are the numbers a person
sees (1-based). Ids are hashes of the collection, the document's uri and, for passages, the
offsets and the words: unchanged documents keep their ids across re-ingests.

A passage citation is valid under the books' rule (`domain/grounding.is_valid_snippet`):
the snippet is a literal piece of the passage after case-folding and whitespace collapsing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from lectern.domain.books import JSONValue
from lectern.domain.grounding import is_valid_snippet
from lectern.domain.sentences import SNIPPET, sentence_breaks

DocumentKind = Literal["markdown", "text", "html", "pdf", "record"]
FilterKind = Literal["keyword", "date", "number"]

_COLLECTION_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
_PAGE_LABEL = re.compile(r"^(?P<key>.+?) p\.(?P<page>\d+)$")
_WORD = re.compile(r"\w+", re.UNICODE)
SNIPPET_CHARS = 200
"""A shown snippet is at most this long (the citation rule's own limit)."""


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


def _folded_with_positions(text: str) -> tuple[str, list[int]]:
    """`text` case-folded with whitespace runs as one space, and each character's origin."""
    chars: list[str] = []
    origin: list[int] = []
    in_space = False
    for position, char in enumerate(text):
        if char.isspace():
            if not in_space:
                chars.append(" ")
                origin.append(position)
            in_space = True
            continue
        in_space = False
        for folded in char.casefold():
            chars.append(folded)
            origin.append(position)
    return "".join(chars), origin


def locate_snippet(
    text: str, snippet: str, start: int = 0, end: int | None = None
) -> tuple[int, int] | None:
    """Where the snippet occurs in `text[start:end]` under the citation rule's folding.

    Returns offsets into `text`, or None when the snippet is not a literal piece of it.
    """
    stop = len(text) if end is None else end
    wanted = " ".join(snippet.casefold().split())
    if not wanted:
        return None
    folded, origin = _folded_with_positions(text[start:stop])
    found = folded.find(wanted)
    if found < 0:
        return None
    last = found + len(wanted) - 1
    return start + origin[found], start + origin[last] + 1


def query_terms(query: str) -> list[str]:
    """The words of a query worth highlighting (3+ letters, folded, in order, no repeats)."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(query.casefold()):
        if len(word) >= 3 and word not in _STOP:
            seen.setdefault(word, None)
    return list(seen)


def _matches(word: str, term: str) -> bool:
    """A word matches a query term when they share a stem-like head ("forecast"/"forecasting")."""
    if word == term:
        return True
    head = max(4, min(len(term), len(word)) - 3)
    return len(word) >= 4 and len(term) >= 4 and word[:head] == term[:head]


@dataclass(frozen=True, slots=True)
class Snippet:
    """A literal piece of a passage around the query's words, with where they occur."""

    start: int
    """Offset of the snippet in the passage's text."""
    end: int
    text: str
    highlights: tuple[tuple[int, int], ...]
    """Offsets, within the snippet, of words matching the query."""


def best_snippet(text: str, query: str, limit: int = SNIPPET_CHARS) -> Snippet:
    """The sentence (or window of at most `limit` characters) holding most query words."""
    terms = query_terms(query)
    bounds = [0]
    bounds.extend(end for _, end in sentence_breaks(text, SNIPPET))
    if bounds[-1] != len(text):
        bounds.append(len(text))
    best: tuple[int, int, int] | None = None
    for index in range(len(bounds) - 1):
        start = bounds[index]
        stop = min(bounds[index + 1], start + limit)
        words = {w.casefold() for w in _WORD.findall(text[start:stop])}
        score = sum(1 for t in terms if any(_matches(w, t) for w in words))
        if best is None or score > best[0]:
            best = (score, start, stop)
    _, start, stop = best or (0, 0, min(len(text), limit))
    while start < stop and text[start].isspace():
        start += 1
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    piece = text[start:stop]
    highlights = tuple(
        (m.start(), m.end())
        for m in _WORD.finditer(piece)
        if any(_matches(m.group().casefold(), t) for t in terms)
    )
    return Snippet(start, stop, piece, highlights)


_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "are",
        "but",
        "not",
        "you",
        "all",
        "any",
        "can",
        "her",
        "was",
        "one",
        "our",
        "out",
        "has",
        "have",
        "had",
        "his",
        "how",
        "its",
        "who",
        "what",
        "when",
        "where",
        "which",
        "why",
        "with",
        "this",
        "that",
        "these",
        "those",
        "from",
        "into",
        "than",
        "then",
        "them",
        "they",
        "their",
        "there",
        "does",
        "did",
        "doing",
        "been",
        "being",
        "would",
        "could",
        "should",
        "about",
        "over",
        "under",
        "also",
    ]
)


# --- metadata filters ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FilterField:
    """A metadata field a collection lets searches filter on."""

    name: str
    kind: FilterKind = "keyword"
    source: str | None = None
    """Where the value comes from in a record (a field path), for the records' mapping."""


@dataclass(frozen=True, slots=True)
class MetadataFilter:
    """One `--where`: equality or membership (`values`), or a range (`low`..`high`)."""

    name: str
    values: tuple[str, ...] = ()
    low: str | float | None = None
    high: str | float | None = None


_WHERE = re.compile(r"^\s*(?P<name>[A-Za-z_][\w.-]*)\s*(?P<op>>=|<=|=|>|<)\s*(?P<value>.*?)\s*$")


def _bound(kind: FilterKind, name: str, raw: str) -> str | float:
    if kind == "number":
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"{name} takes numbers, not {raw!r}") from None
    if kind == "date" and not re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", raw):
        raise ValueError(f"{name} takes dates as YYYY, YYYY-MM or YYYY-MM-DD, not {raw!r}")
    return raw


def parse_where(expression: str, fields: Mapping[str, FilterField]) -> MetadataFilter:
    """`vendor=Microsoft`, `cwe=CWE-79,CWE-89`, `date_added>=2024-01`, `score=7..10`."""
    match = _WHERE.match(expression)
    if not match or not match.group("value"):
        raise ValueError(
            f"cannot read the filter {expression!r}: write name=value, name=a,b, "
            "name>=low, name<=high or name=low..high"
        )
    name, op, raw = match.group("name"), match.group("op"), match.group("value")
    declared = fields.get(name)
    if declared is None:
        known = ", ".join(sorted(fields)) or "none"
        raise ValueError(f"this collection has no filter {name!r} (it has: {known})")
    kind = declared.kind
    if op == "=" and ".." in raw and kind != "keyword":
        low, _, high = raw.partition("..")
        return MetadataFilter(
            name,
            low=_bound(kind, name, low.strip()) if low.strip() else None,
            high=_bound(kind, name, high.strip()) if high.strip() else None,
        )
    if op == "=":
        values = tuple(v.strip() for v in raw.split(",") if v.strip())
        if kind != "keyword":
            return MetadataFilter(name, low=_bound(kind, name, raw), high=_bound(kind, name, raw))
        return MetadataFilter(name, values=values)
    if kind == "keyword":
        raise ValueError(f"{name} holds words: use = with one value or a comma-separated set")
    bound = _bound(kind, name, raw)
    return (
        MetadataFilter(name, low=bound) if op in (">=", ">") else MetadataFilter(name, high=bound)
    )


def _as_list(value: JSONValue) -> list[JSONValue]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def filter_matches(where: MetadataFilter, kind: FilterKind, value: JSONValue) -> bool:
    """True when a document's metadata value passes the filter (any element of a list)."""
    for item in _as_list(value):
        if item is None or isinstance(item, dict | list):
            continue
        if where.values:
            if str(item).casefold() in {v.casefold() for v in where.values}:
                return True
            continue
        if kind == "number":
            try:
                number = float(item)
            except (TypeError, ValueError):
                continue
            low = float(where.low) if where.low is not None else None
            high = float(where.high) if where.high is not None else None
            if (low is None or number >= low) and (high is None or number <= high):
                return True
            continue
        text = str(item)
        low_text = str(where.low) if where.low is not None else None
        high_text = str(where.high) if where.high is not None else None
        # ISO dates compare as text; a bound "2024" covers all of 2024 at the upper end.
        if (low_text is None or text >= low_text) and (
            high_text is None or text[: len(high_text)] <= high_text
        ):
            return True
    return False
