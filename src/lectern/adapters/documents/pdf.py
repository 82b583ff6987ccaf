"""PDF text per page with pypdfium2 (PDFium; Apache-2.0/BSD).

Measured on the five FinanceBench filings (153 pages): pypdfium2 233 pages/s, pypdf 15
pages/s; the share of evidence sentences found literally on their page was the same (0.67
vs 0.69), as was the share of evidence words (0.997 vs 0.999). Pages with no text layer
(scans) are reported in the document's notes; a PDF with no text at all is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

from lectern.domain.books import JSONValue
from lectern.domain.documents import Block, ExtractedDocument, Section
from lectern.domain.filings import cover_facts
from lectern.domain.statement_tables import TableLayout, table_layout
from lectern.errors import UnreadableFileError

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
MAX_PAGES = 5_000


def _page_text(document: object, index: int) -> str:
    page = document[index]  # type: ignore[index]
    textpage = page.get_textpage()
    try:
        raw = str(textpage.get_text_bounded())
    finally:
        textpage.close()
        page.close()
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text)


def _title(given: str, stem: str) -> str:
    """The PDF's own title when it reads like one (filings often carry an accession number)."""
    given = " ".join(given.split())
    return given if " " in given and re.search(r"[A-Za-z]{3}", given) else stem


class PdfReader:
    """Text pages joined by form feeds; pages are 1-based as a reader sees them."""

    def read(self, path: Path, uri: str, cite_as: str | None = None) -> ExtractedDocument:
        """Extract one PDF; encrypted, truncated or image-only files raise UnreadableFileError."""
        import pypdfium2

        try:
            document = pypdfium2.PdfDocument(str(path))
        except pypdfium2.PdfiumError as error:
            message = str(error)
            if "password" in message.lower():
                raise UnreadableFileError(f"{uri}: encrypted PDF (needs a password)") from None
            raise UnreadableFileError(f"{uri}: unreadable PDF ({message})") from None
        try:
            count = len(document)
            if count > MAX_PAGES:
                raise UnreadableFileError(f"{uri}: {count} pages, more than {MAX_PAGES}")
            texts = [_page_text(document, i) for i in range(count)]
            info = document.get_metadata_dict(skip_empty=True)
        except pypdfium2.PdfiumError as error:
            raise UnreadableFileError(f"{uri}: unreadable PDF ({error})") from None
        finally:
            document.close()
        blank = [n for n, t in enumerate(texts, start=1) if not t.strip()]
        if not texts or len(blank) == len(texts):
            raise UnreadableFileError(
                f"{uri}: no text layer on any of its {count} pages (a scan? it needs OCR first)"
            )
        notes = []
        if blank:
            shown = ", ".join(str(n) for n in blank[:20]) + (" ..." if len(blank) > 20 else "")
            notes.append(f"{len(blank)} pages have no text layer (scanned?): {shown}")
        pages: list[tuple[int, int]] = []
        position = 0
        for text in texts:
            pages.append((position, position + len(text)))
            position += len(text) + 1
        full = "\f".join(texts)
        blocks: list[Block] = []
        layout: TableLayout | None = None
        for number, (start, end) in enumerate(pages, start=1):
            text = full[start:end]
            layout = table_layout(text, layout)
            if not text.strip():
                continue
            section = None
            if layout is not None:
                heads = layout.section()
                section = Section(heads[-1], len(heads), start, end, None, heads)
            blocks.append(Block(start, end, page=number, section=section))
        stem = Path(uri).stem
        metadata: dict[str, JSONValue] = {"page_count": count}
        for key in ("Author", "Subject", "CreationDate"):
            if info.get(key):
                metadata[key.lower()] = str(info[key])
        first = next((t for t in texts if t.strip()), "")
        metadata.update(cover_facts(stem, first))
        return ExtractedDocument(
            uri=uri,
            title=_title(str(info.get("Title") or ""), stem),
            text=full,
            kind="pdf",
            cite_as=cite_as or stem,
            blocks=tuple(blocks),
            pages=tuple(pages),
            metadata=metadata,
            notes=tuple(notes),
        )
