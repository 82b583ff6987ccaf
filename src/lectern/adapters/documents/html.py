"""HTML to text with selectolax (Lexbor): main text, headings as sections, anchors kept."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from lectern.adapters.documents.common import read_text_file
from lectern.adapters.documents.structure import TextBuilder
from lectern.domain.documents import ExtractedDocument

DROPPED = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "nav",
        "header",
        "footer",
        "aside",
        "svg",
        "form",
        "button",
        "head",
        "iframe",
    }
)
BLOCKS = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "main",
        "table",
        "tbody",
        "thead",
        "tr",
        "ul",
        "ol",
        "li",
        "dl",
        "dt",
        "dd",
        "pre",
        "blockquote",
        "figure",
        "figcaption",
        "hr",
        "body",
        "details",
        "summary",
        "caption",
    }
)
HEADINGS = {f"h{n}": n for n in range(1, 7)}
CELLS = frozenset({"td", "th"})
_SPACES = re.compile(r"[ \t\r\n\f\v]+")


@dataclass
class _Walk:
    """Text of one block being collected, and anchors seen since the last heading."""

    lines: list[str] = field(default_factory=list)
    current: list[str] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)


def _flush(walk: _Walk) -> None:
    line = _SPACES.sub(" ", "".join(walk.current)).strip()
    if line:
        walk.lines.append(line)
    walk.current = []


def _collect(node: Any, walk: _Walk, *, pre: bool = False) -> None:
    for child in node.iter(include_text=True):
        tag = child.tag
        if tag == "-text":
            text = child.text(deep=False) or ""
            walk.current.append(text if pre else text.replace("\n", " "))
        elif tag in DROPPED or tag == "-comment":
            continue
        elif tag == "br":
            _flush(walk)
        elif tag == "img":
            alt = (child.attributes.get("alt") or "").strip()
            if alt:
                walk.current.append(f" {alt} ")
        elif tag in CELLS:
            if walk.current and "".join(walk.current).strip():
                walk.current.append(" | ")
            _collect(child, walk)
        elif tag in BLOCKS or tag in HEADINGS:
            _flush(walk)
            _collect(child, walk, pre=pre or tag == "pre")
            _flush(walk)
        else:
            name = child.attributes.get("name") if tag == "a" else None
            if name:
                walk.anchors.append(name)
            _collect(child, walk, pre=pre)


def html_text(fragment: str) -> tuple[str, list[str]]:
    """A fragment's visible text (one line per block, cells joined by " | "), and its anchors."""
    parser = LexborHTMLParser(fragment)
    walk = _Walk()
    root = parser.body or parser.root
    if root is None:
        return "", []
    _collect(root, walk)
    _flush(walk)
    return "\n".join(walk.lines), walk.anchors


def _main(parser: LexborHTMLParser) -> Any:
    for selector in ("main", "article", "[role=main]"):
        found = parser.css_first(selector)
        if found is not None:
            return found
    return parser.body


class HtmlReader:
    """A web page: its main content's text, with headings as sections."""

    def read(self, path: Path, uri: str, cite_as: str) -> ExtractedDocument:
        """Extract one HTML file."""
        return self.parse(read_text_file(path, uri), uri, cite_as, Path(uri).stem)

    def parse(self, source: str, uri: str, cite_as: str, fallback_title: str) -> ExtractedDocument:
        """Extract an HTML text (a file's or a fetched page's)."""
        parser = LexborHTMLParser(source)
        title_node = parser.css_first("title")
        page_title = title_node.text(strip=True) if title_node is not None else ""
        builder = TextBuilder()
        root = _main(parser)
        if root is not None:
            self._walk(root, builder, [])
        return builder.document(
            uri=uri, kind="html", cite_as=cite_as, fallback_title=page_title or fallback_title
        )

    def _walk(self, node: Any, builder: TextBuilder, pending: list[str]) -> None:
        """Headings become sections; every other block becomes a paragraph of text."""
        for child in node.iter(include_text=False):
            tag = child.tag
            if tag in DROPPED:
                continue
            if tag in HEADINGS:
                text = _SPACES.sub(" ", child.text(deep=True)).strip()
                anchors = [a for a in (child.attributes.get("id"),) if a]
                for inner in child.css("a[name], [id]"):
                    value = inner.attributes.get("name") or inner.attributes.get("id")
                    if value and value not in anchors:
                        anchors.append(value)
                anchor = anchors[0] if anchors else None
                builder.heading(HEADINGS[tag], text, anchor, aliases=[*anchors[1:], *pending])
                pending.clear()
                continue
            if tag == "a" and child.attributes.get("name") and not child.text(deep=True).strip():
                pending.append(str(child.attributes["name"]))
                continue
            if any(c.tag in HEADINGS for c in child.css(",".join(HEADINGS))):
                anchor = child.attributes.get("id")
                if anchor:
                    pending.append(anchor)
                self._walk(child, builder, pending)
                continue
            text, _ = html_text(child.html or "")
            if text.strip():
                builder.paragraph(text)


def html_document(source: str, uri: str, cite_as: str, *, fallback_title: str) -> ExtractedDocument:
    """A web page's main content as a document.

    The content is `main`, `article` or `[role=main]`; else the body without nav, header,
    footer, aside, forms and scripts.
    """
    return HtmlReader().parse(source, uri, cite_as, fallback_title)
