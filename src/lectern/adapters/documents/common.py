"""What every reader shares: reading bytes as text, and the error that skips a file."""

from __future__ import annotations

from pathlib import Path

from lectern.errors import UnreadableFileError

MAX_CONTROL_SHARE = 0.01
"""More control characters than this share (NUL, escape, ...) means a binary file."""


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 text with every line end made a newline; binary or other encodings refused.

    Form feeds and tabs are kept: pages and layout depend on them.
    """
    if b"\x00" in data[:65_536]:
        raise UnreadableFileError(f"{name}: binary content (NUL bytes), not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UnreadableFileError(
            f"{name}: not UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start}); "
            "convert it to UTF-8 first"
        ) from None
    sample = text[:65_536]
    controls = sum(1 for c in sample if ord(c) < 32 and c not in "\n\r\t\f")
    if sample and controls / len(sample) > MAX_CONTROL_SHARE:
        raise UnreadableFileError(f"{name}: binary content ({controls} control characters)")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text_file(path: Path, name: str) -> str:
    """A file's text, or UnreadableFileError saying why not."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UnreadableFileError(f"{name}: cannot read ({error.strerror or error})") from None
    return decode_text(data, name)
