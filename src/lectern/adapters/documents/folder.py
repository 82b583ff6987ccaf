"""Files and folders to documents: each file read by the reader its type calls for.

The type comes from the first bytes when they are unmistakable (`%PDF-`, an HTML
doctype), else from the extension; `--format` overrides both. Records files need a
mapping. Files of other types are counted per extension, not read.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from lectern.adapters.documents.html import HtmlReader
from lectern.adapters.documents.markdown import MarkdownReader
from lectern.adapters.documents.pdf import PdfReader
from lectern.adapters.documents.plaintext import PlainTextReader
from lectern.adapters.documents.record_mappings import load_mapping
from lectern.adapters.documents.records import RecordsReader
from lectern.application.ports import DocumentBatch
from lectern.domain.documents import ExtractedDocument, SkippedFile
from lectern.errors import CollectionInputError, UnreadableFileError

EXTENSIONS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
}
FORMATS = ("markdown", "text", "html", "pdf", "records")
RECORD_SUFFIXES = (".json", ".jsonl", ".ndjson", ".csv", ".gz")


def sniff(head: bytes) -> str | None:
    """The type the first bytes prove, or None."""
    start = head.lstrip()[:64].lower()
    if head.startswith(b"%PDF-"):
        return "pdf"
    if start.startswith((b"<!doctype html", b"<html")):
        return "html"
    return None


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(1024)
    except OSError:
        return b""


class FileDocumentSource:
    """Reads a file or a folder (recursively) into extracted documents."""

    def read(
        self,
        path: Path,
        collection: str,
        *,
        format: str | None = None,
        mapping: str | None = None,
        pattern: str | None = None,
    ) -> DocumentBatch:
        """The filter fields a mapping declares, and a stream of documents and skips."""
        if not path.exists():
            raise CollectionInputError(f"{path} does not exist")
        if format is not None and format not in FORMATS:
            raise CollectionInputError(
                f"unknown format {format!r}: use one of {', '.join(FORMATS)}"
            )
        if mapping is not None or format == "records":
            if mapping is None:
                raise CollectionInputError("records need a mapping: pass --mapping NAME or FILE")
            parsed, text = load_mapping(mapping)
            reader = RecordsReader(parsed)
            return DocumentBatch(reader.read(path), parsed.filter_fields(), mapping_text=text)
        return DocumentBatch(self._files(path, collection, format, pattern), ())

    def _files(
        self, path: Path, collection: str, format: str | None, pattern: str | None
    ) -> Iterator[ExtractedDocument | SkippedFile]:
        root = path if path.is_dir() else path.parent
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        include_root = root.parent if path.is_dir() else root.parent
        markdown = MarkdownReader(include_root)
        ignored: Counter[str] = Counter()
        for file in files:
            uri = file.relative_to(root).as_posix()
            if any(part.startswith(".") for part in Path(uri).parts):
                continue
            if pattern and not fnmatch.fnmatch(uri, pattern):
                continue
            kind = format or sniff(_head(file)) or EXTENSIONS.get(file.suffix.lower())
            if kind is None:
                is_sidecar = file.suffix.lower() == ".json" and any(
                    file.with_suffix(s).exists() for s in (".txt", ".pdf")
                )
                if not is_sidecar:
                    ignored[file.suffix.lower() or "(no extension)"] += 1
                continue
            try:
                if kind == "markdown":
                    yield markdown.read(file, uri, f"{collection}:{uri}")
                elif kind == "html":
                    yield HtmlReader().read(file, uri, f"{collection}:{uri}")
                elif kind == "pdf":
                    yield PdfReader().read(file, uri)
                else:
                    yield PlainTextReader().read(file, uri)
            except UnreadableFileError as error:
                yield SkippedFile(uri, str(error).removeprefix(f"{uri}: "))
        for suffix, count in sorted(ignored.items()):
            hint = " (records: pass --mapping)" if suffix in RECORD_SUFFIXES else ""
            yield SkippedFile(f"*{suffix} ({count} files)", f"not a document type{hint}")
