"""Uploaded documents kept on disk, one folder per collection, names and types checked.

The type is decided by the bytes, not the name: a PDF must start with `%PDF-`, HTML with
a doctype or `<html`, and anything else must be UTF-8 text (Markdown when named `.md`).
The stored name is the uploaded file's stem with the extension its bytes call for.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from lectern.adapters.documents.common import decode_text
from lectern.adapters.documents.folder import sniff
from lectern.errors import UnreadableFileError, UploadRejectedError

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,150}$")
SUFFIX = {"pdf": ".pdf", "html": ".html", "markdown": ".md", "text": ".txt"}


def checked_name(filename: str) -> str:
    """A plain file name (no folders, no `..`, no hidden files), or UploadRejectedError."""
    name = filename.strip()
    if (
        not name
        or "/" in name
        or "\\" in name
        or "\x00" in name
        or ".." in name
        or not _SAFE_NAME.match(name)
    ):
        raise UploadRejectedError(
            f"invalid file name {filename[:80]!r}: use a plain name of letters, digits, "
            "'.', '-', '_' or spaces, without folders",
            "invalid",
        )
    return name


def kind_of(name: str, data: bytes) -> str:
    """The reader the bytes call for; UploadRejectedError for anything unreadable."""
    sniffed = sniff(data[:1024])
    if sniffed is not None:
        return sniffed
    try:
        decode_text(data, name)
    except UnreadableFileError as error:
        raise UploadRejectedError(
            f"unsupported upload: {error}; send PDF, HTML, Markdown or UTF-8 text",
            "unsupported",
        ) from None
    return "markdown" if name.lower().endswith((".md", ".markdown")) else "text"


class FolderUploadInbox:
    """Keeps uploads under `<root>/<collection>/`; writes are atomic (temp file, rename)."""

    def __init__(self, root: Path) -> None:
        """Uploads live under this folder."""
        self.root = root

    def folder(self, collection: str) -> Path:
        """Where a collection's uploads are kept."""
        return self.root / collection

    def save(self, collection: str, filename: str, data: bytes) -> Path:
        """Store an upload; returns its path."""
        name = checked_name(filename)
        kind = kind_of(name, data)
        stem = name.rsplit(".", 1)[0] if "." in name else name
        target_dir = self.folder(collection)
        target_dir.mkdir(parents=True, exist_ok=True)
        target = target_dir / f"{stem}{SUFFIX[kind]}"
        if target.resolve().parent != target_dir.resolve():
            raise UploadRejectedError(f"invalid file name {filename!r}", "invalid")
        handle, temporary = tempfile.mkstemp(dir=target_dir, prefix=".upload-")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            Path(temporary).replace(target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return target

    def discard(self, path: Path) -> None:
        """Delete a stored upload (after its add failed)."""
        path.unlink(missing_ok=True)

    def stored(self) -> dict[str, list[Path]]:
        """Every file under the inbox (temporary `.upload-*` ones too), by collection."""
        if not self.root.is_dir():
            return {}
        return {
            folder.name: sorted(p for p in folder.iterdir() if p.is_file())
            for folder in sorted(self.root.iterdir())
            if folder.is_dir()
        }
