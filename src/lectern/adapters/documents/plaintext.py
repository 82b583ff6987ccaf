"""Plain text with pages: a page per form feed, RFC sidecars, running headers left out.

RFCs as published put a form feed between pages; most pages end with a footer whose
`[Page N]` is the page's number, and the next starts with a running header. Both stay in
the document's text (a page shown in place looks as published), but passages are cut from
each page's body only. A footer that disagrees with its form-feed count is noted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from lectern.adapters.documents.common import read_text_file
from lectern.domain.books import JSONValue
from lectern.domain.documents import Block, ExtractedDocument, Section
from lectern.errors import UnreadableFileError

_FOOTER = re.compile(r"\[Page (\d+)\]\s*$")
_HEADER = re.compile(r"^(RFC|Internet-Draft|INTERNET DRAFT)\b")
_HEADING = re.compile(
    r"^(?P<number>\d+(?:\.\d+)*|Appendix [A-Z](?:\.\d+)*)\.?\s+(?P<title>\S.{0,120})$"
)
_RFC = re.compile(r"^RFC\s*0*(\d+)$", re.IGNORECASE)
SIDECAR_FIELDS = (
    "doc_id",
    "pub_status",
    "status",
    "pub_date",
    "authors",
    "keywords",
    "obsoletes",
    "obsoleted_by",
    "updates",
    "updated_by",
    "page_count",
    "doi",
)


def _line_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans = []
    position = start
    while position < end:
        stop = text.find("\n", position, end)
        stop = end if stop < 0 else stop
        spans.append((position, stop))
        position = stop + 1
    return spans


def _sidecar(path: Path) -> dict[str, JSONValue]:
    side = path.with_suffix(".json")
    if not side.is_file():
        return {}
    try:
        data = json.loads(side.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UnreadableFileError(f"{side.name}: unreadable sidecar metadata ({error})") from None
    return data if isinstance(data, dict) else {}


def cite_name(doc_id: str, fallback: str) -> str:
    """`RFC7231` -> `RFC 7231`; anything else as it is."""
    found = _RFC.match(doc_id.strip())
    return f"RFC {int(found.group(1))}" if found else (doc_id.strip() or fallback)


class PlainTextReader:
    """Text files; pages at form feeds; `NAME.json` beside `NAME.txt` gives metadata."""

    def read(self, path: Path, uri: str, cite_as: str | None = None) -> ExtractedDocument:
        """Extract one text file."""
        text = read_text_file(path, uri)
        side = _sidecar(path)
        doc_id = str(side.get("doc_id") or "")
        stem = Path(uri).stem
        if not doc_id and re.fullmatch(r"rfc\d+", stem, re.IGNORECASE):
            doc_id = stem
        name = cite_name(doc_id, cite_as or stem)
        notes: list[str] = []
        pages: list[tuple[int, int]] = []
        position = 0
        for piece in text.split("\f"):
            pages.append((position, position + len(piece)))
            position += len(piece) + 1
        while len(pages) > 1 and not text[pages[-1][0] : pages[-1][1]].strip():
            pages.pop()
        paged = len(pages) > 1
        sections = self._sections(text)
        blocks: list[Block] = []
        missing_footers = 0
        for number, (start, end) in enumerate(pages, start=1):
            body_start, body_end, footer = self._body(text, start, end, number > 1)
            if paged and footer is None:
                missing_footers += 1
            elif footer is not None and footer != number:
                notes.append(f"page {number} has the footer [Page {footer}]")
            cuts = sorted(
                {body_start, body_end}
                | {s.start for s in sections if body_start < s.start < body_end}
            )
            for left, right in zip(cuts, cuts[1:], strict=False):
                if text[left:right].strip():
                    section = next((s for s in reversed(sections) if s.start <= left), None)
                    blocks.append(
                        Block(left, right, page=number if paged else None, section=section)
                    )
        if missing_footers:
            notes.append(f"{missing_footers} of {len(pages)} pages have no [Page N] footer")
        if paged and side.get("page_count") and str(side["page_count"]) != str(len(pages)):
            notes.append(f"{len(pages)} pages, but the metadata says {side['page_count']}")
        metadata: dict[str, JSONValue] = {k: side[k] for k in SIDECAR_FIELDS if k in side}
        title = str(side.get("title") or "") or self._first_line(text) or stem
        return ExtractedDocument(
            uri=uri,
            title=title,
            text=text,
            kind="text",
            cite_as=name,
            blocks=tuple(blocks),
            pages=tuple(pages) if paged else (),
            sections=tuple(sections),
            metadata=metadata,
            notes=tuple(notes),
        )

    @staticmethod
    def _first_line(text: str) -> str:
        return next((line.strip() for line in text.splitlines() if line.strip()), "")[:200]

    @staticmethod
    def _body(text: str, start: int, end: int, has_header: bool) -> tuple[int, int, int | None]:
        """The page without its running header and footer lines, and the footer's number."""
        lines = [(a, b) for a, b in _line_spans(text, start, end) if text[a:b].strip()]
        footer = None
        body_start, body_end = start, end
        if lines:
            last_start, last_end = lines[-1]
            found = _FOOTER.search(text[last_start:last_end])
            if found:
                footer = int(found.group(1))
                body_end = last_start
                lines = lines[:-1]
        if has_header and lines and _HEADER.match(text[lines[0][0] : lines[0][1]]):
            body_start = lines[0][1]
        return body_start, max(body_start, body_end), footer

    @staticmethod
    def _sections(text: str) -> list[Section]:
        """Numbered headings at the start of a line ("4.3.1.  GET"); the contents are indented."""
        found: list[tuple[int, int, str, str]] = []
        for start, end in _line_spans(text, 0, len(text)):
            line = text[start:end]
            match = _HEADING.match(line)
            if match and "..." not in line and not _FOOTER.search(line):
                number = match.group("number")
                level = number.count(".") + 1
                found.append((start, level, number, " ".join(line.split())))
        sections: list[Section] = []
        stack: list[tuple[int, str]] = []
        for index, (start, level, number, title) in enumerate(found):
            end = len(text)
            for later in found[index + 1 :]:
                if later[1] <= level:
                    end = later[0]
                    break
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
            anchor = "section-" + number.replace("Appendix ", "appendix-").lower()
            sections.append(Section(title, level, start, end, anchor, tuple(t for _, t in stack)))
        return sections
