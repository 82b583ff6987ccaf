"""Small text PDFs written by hand (no PDF library needed): one Helvetica line per string.

`text_pdf([[line, ...], ...])` makes one page per list; each line is drawn at its own
height, so PDFium reads the lines back in order, one per line of text. A line given as a
tuple of cells draws each cell at its own column (a table row).
"""

from __future__ import annotations

from collections.abc import Sequence

Line = str | tuple[str, ...]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _content(lines: Sequence[Line]) -> bytes:
    parts = ["BT", "/F1 10 Tf"]
    y = 760
    for line in lines:
        cells = (line,) if isinstance(line, str) else line
        x = 50
        for number, cell in enumerate(cells):
            parts.append(f"1 0 0 1 {x} {y} Tm ({_escape(cell)}) Tj")
            x = 330 + 90 * number if number < 3 else x + 90
        y -= 14
    parts.append("ET")
    return "\n".join(parts).encode("latin-1")


def text_pdf(pages: Sequence[Sequence[Line]]) -> bytes:
    """A PDF with these pages of lines."""
    count = len(pages)
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        (
            "<< /Type /Pages /Kids ["
            + " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
            + f"] /Count {count} >>"
        ).encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for number, lines in enumerate(pages):
        stream = _content(lines)
        objects.append(
            (
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * number} 0 R >>"
            ).encode()
        )
        objects.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)
