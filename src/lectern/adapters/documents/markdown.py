"""Markdown with markdown-it-py: sections from the heading tree, anchors, includes resolved.

- Anchors: `# Title { #id }` heading attributes, and HTML `<a name="id">` inside a heading
  or on its own just before it (kept as aliases of that heading).
- Embedded HTML is reduced to its text (tables: one row a line, cells joined by " | ").
- Include lines `{* ../../docs_src/x.py ln[1:11] hl[7] *}` are replaced by the referenced
  lines when the file is inside the allowed root, else dropped with a note naming them.
- YAML front matter is read for a title and left out of the text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from markdown_it import MarkdownIt

from lectern.adapters.documents.common import read_text_file
from lectern.adapters.documents.html import html_text
from lectern.adapters.documents.structure import TextBuilder
from lectern.domain.documents import ExtractedDocument

_ATTRIBUTE = re.compile(r"\s*\{\s*#([^\s}]+)[^}]*\}\s*$")
_NAME = re.compile(r"""<a\s[^>]*?(?:name|id)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
_INCLUDE = re.compile(r"^\{\*\s*(?P<path>\S+)(?P<options>.*?)\*\}$", re.DOTALL)
_LINES = re.compile(r"ln\[(?P<ranges>[^\]]*)\]")
_FRONT_MATTER = re.compile(r"\A---\n(?P<body>.*?)\n---\n", re.DOTALL)
_ADMONITION = re.compile(r"^///.*$", re.MULTILINE)
MAX_INCLUDE_BYTES = 200_000


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": True}).enable("table")


def _inline_text(token: Any) -> tuple[str, list[str]]:
    """Plain text of an inline token, and the `<a name>` anchors inside it."""
    parts: list[str] = []
    anchors: list[str] = []
    for child in token.children or []:
        kind = child.type
        if kind in ("text", "code_inline"):
            parts.append(child.content)
        elif kind in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif kind == "image":
            parts.append(child.content)
        elif kind == "html_inline":
            found = _NAME.search(child.content)
            if found:
                anchors.append(found.group(1))
            elif child.content.lower().startswith("<br"):
                parts.append("\n")
    return "".join(parts), anchors


def _line_ranges(options: str) -> list[tuple[int, int]]:
    found = _LINES.search(options)
    if not found:
        return []
    ranges = []
    for part in found.group("ranges").split(","):
        first, _, last = part.partition(":")
        if first.strip().isdigit():
            start = int(first)
            end = int(last) if last.strip().isdigit() else start
            ranges.append((start, end))
    return ranges


class MarkdownReader:
    """Markdown files: text, heading sections and anchors; includes within `include_root`."""

    def __init__(self, include_root: Path | None = None) -> None:
        """Includes may read files under `include_root` only (none when it is None)."""
        self.include_root = include_root.resolve() if include_root else None

    def read(self, path: Path, uri: str, cite_as: str) -> ExtractedDocument:
        """Extract one Markdown file."""
        source = read_text_file(path, uri)
        title = None
        front = _FRONT_MATTER.match(source)
        if front:
            try:
                meta = yaml.safe_load(front.group("body"))
            except yaml.YAMLError:
                meta = None
            if isinstance(meta, dict) and isinstance(meta.get("title"), str):
                title = meta["title"].strip()
            source = source[front.end() :]
        builder = TextBuilder()
        notes: list[str] = []
        pending_anchors: list[str] = []
        tokens = _parser().parse(source)
        index = 0
        prefix = ""
        table_row: list[str] = []
        table_rows: list[str] = []
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            if kind == "heading_open":
                inline = tokens[index + 1]
                text, anchors = _inline_text(inline)
                explicit = _ATTRIBUTE.search(text)
                if explicit:
                    anchors.insert(0, explicit.group(1))
                    text = text[: explicit.start()]
                anchor = anchors[0] if anchors else None
                aliases = [*anchors[1:], *pending_anchors]
                if anchor is None and pending_anchors:
                    anchor, aliases = pending_anchors[-1], pending_anchors[:-1]
                builder.heading(int(token.tag[1]), text, anchor, aliases)
                pending_anchors = []
                index += 3
                continue
            if kind == "list_item_open":
                prefix = "- " if token.markup in "-*+" else f"{token.info or '1'}. "
            elif kind == "inline" and tokens[index - 1].type == "paragraph_open":
                raw = token.content.strip()
                include = _INCLUDE.match(raw)
                if include:
                    builder.paragraph(self._include(path, uri, include, notes))
                else:
                    text, anchors = _inline_text(token)
                    text = _ADMONITION.sub("", text).strip()
                    if not text and anchors:
                        pending_anchors.extend(anchors)
                    elif text:
                        builder.paragraph(prefix + text)
                        prefix = ""
            elif kind in ("fence", "code_block"):
                builder.paragraph(token.content.rstrip("\n"))
            elif kind == "html_block":
                text, anchors = html_text(token.content)
                if text.strip():
                    builder.paragraph(text)
                else:
                    pending_anchors.extend(anchors)
            elif kind == "tr_open":
                table_row = []
            elif kind == "inline" and tokens[index - 1].type in ("th_open", "td_open"):
                table_row.append(_inline_text(token)[0].strip())
            elif kind == "tr_close":
                table_rows.append(" | ".join(table_row))
            elif kind == "table_close":
                builder.paragraph("\n".join(table_rows))
                table_rows = []
            index += 1
        return builder.document(
            uri=uri,
            kind="markdown",
            cite_as=cite_as,
            fallback_title=Path(uri).stem,
            title=title,
            notes=notes,
        )

    def _include(self, path: Path, uri: str, found: re.Match[str], notes: list[str]) -> str:
        """The referenced file's lines, or "" with a note saying why it was dropped."""
        reference = found.group("path")
        target = (path.parent / reference).resolve()
        if self.include_root is None or not target.is_relative_to(self.include_root):
            notes.append(f"include {reference} dropped: outside the folder includes may read")
            return ""
        if not target.is_file():
            notes.append(f"include {reference} dropped: no such file")
            return ""
        try:
            if target.stat().st_size > MAX_INCLUDE_BYTES:
                notes.append(f"include {reference} dropped: larger than {MAX_INCLUDE_BYTES} bytes")
                return ""
            lines = read_text_file(target, reference).splitlines()
        except Exception as error:  # noqa: BLE001 - an unreadable include is a note, not a failure
            notes.append(f"include {reference} dropped: {error}")
            return ""
        ranges = _line_ranges(found.group("options"))
        if ranges:
            lines = [line for start, end in ranges for line in lines[start - 1 : end]]
        del uri
        return "\n".join(lines)
