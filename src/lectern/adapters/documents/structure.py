"""Builds a document's extracted text block by block, remembering headings as sections."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lectern.domain.books import JSONValue
from lectern.domain.documents import Block, DocumentKind, ExtractedDocument, Section

_SLUG_DROP = re.compile(r"[^\w\- ]", re.UNICODE)


def slug(title: str) -> str:
    """A GitHub-style anchor for a heading without an explicit one."""
    return _SLUG_DROP.sub("", title.strip().casefold()).replace(" ", "-") or "section"


@dataclass(frozen=True, slots=True)
class _Heading:
    level: int
    title: str
    anchor: str | None
    aliases: tuple[str, ...]
    start: int


class TextBuilder:
    """Paragraphs joined by blank lines; headings start sections."""

    def __init__(self) -> None:
        """An empty text."""
        self._parts: list[str] = []
        self._length = 0
        self._headings: list[_Heading] = []

    def _append(self, text: str) -> int:
        if self._parts:
            self._parts.append("\n\n")
            self._length += 2
        start = self._length
        self._parts.append(text)
        self._length += len(text)
        return start

    def paragraph(self, text: str) -> None:
        """Add a block of text (blank text adds nothing)."""
        if text.strip():
            self._append(text.strip("\n"))

    def heading(
        self, level: int, title: str, anchor: str | None, aliases: Sequence[str] = ()
    ) -> None:
        """Add a heading line; it opens a section that runs to the next heading of its level."""
        title = " ".join(title.split())
        if not title:
            return
        start = self._append(title)
        self._headings.append(_Heading(level, title, anchor, tuple(aliases), start))

    def document(
        self,
        *,
        uri: str,
        kind: DocumentKind,
        cite_as: str,
        fallback_title: str,
        title: str | None = None,
        metadata: Mapping[str, JSONValue] | None = None,
        notes: Sequence[str] = (),
    ) -> ExtractedDocument:
        """The extracted document: text, sections (with anchors) and one block per section."""
        text = "".join(self._parts)
        sections = self._sections(len(text))
        blocks: list[Block] = []
        first = sections[0].start if sections else len(text)
        if text[:first].strip():
            blocks.append(Block(0, first))
        for index, section in enumerate(sections):
            own_end = sections[index + 1].start if index + 1 < len(sections) else len(text)
            blocks.append(Block(section.start, own_end, section=section))
        highest = min((s.level for s in sections), default=0)
        top = next((s.title for s in sections if s.level == highest), None)
        return ExtractedDocument(
            uri=uri,
            title=title or top or fallback_title,
            text=text,
            kind=kind,
            cite_as=cite_as,
            blocks=tuple(blocks),
            sections=tuple(sections),
            metadata=dict(metadata or {}),
            notes=tuple(notes),
        )

    def _sections(self, length: int) -> list[Section]:
        used: dict[str, int] = {}
        explicit = {h.anchor for h in self._headings if h.anchor}
        sections: list[Section] = []
        stack: list[_Heading] = []
        for index, heading in enumerate(self._headings):
            end = length
            for later in self._headings[index + 1 :]:
                if later.level <= heading.level:
                    end = later.start
                    break
            while stack and stack[-1].level >= heading.level:
                stack.pop()
            stack.append(heading)
            anchor = heading.anchor
            if anchor is None:
                base = slug(heading.title)
                anchor = base
                while anchor in explicit or anchor in used:
                    used[base] = used.get(base, 0) + 1
                    anchor = f"{base}-{used[base]}"
            used.setdefault(anchor, 0)
            sections.append(
                Section(
                    title=heading.title,
                    level=heading.level,
                    start=heading.start,
                    end=end,
                    anchor=anchor,
                    path=tuple(h.title for h in stack),
                    aliases=heading.aliases,
                )
            )
        return sections
