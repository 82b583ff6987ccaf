"""Text fields: HTML and control characters out, whitespace collapsed, one accent folding."""

from __future__ import annotations

import html
import re
import unicodedata
from html.parser import HTMLParser

_WS = re.compile(r"\s+")


def collapse_whitespace(text: str) -> str:
    """Collapse runs of whitespace (including newlines) into one space and trim."""
    return _WS.sub(" ", text).strip()


class _TextExtractor(HTMLParser):
    _BREAKING = frozenset({"p", "br", "div", "li", "ul", "ol", "h1", "h2", "h3", "tr"})
    _SKIPPED = frozenset({"script", "style"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        del attrs
        if tag in self._SKIPPED:
            self._skip_depth += 1
        elif tag in self._BREAKING:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIPPED and self._skip_depth:
            self._skip_depth -= 1
        elif tag in self._BREAKING:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip_depth:
            self.parts.append(data)


def clean_text(raw: str | None) -> str | None:
    """Strip HTML tags and entities, drop control characters, collapse whitespace."""
    if raw is None:
        return None
    text = raw
    if "<" in text and ">" in text:
        extractor = _TextExtractor()
        extractor.feed(text)
        extractor.close()
        text = "".join(extractor.parts)
    else:
        text = html.unescape(text)
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    text = collapse_whitespace(text)
    return text or None


def fold_accents(text: str) -> str:
    """Case-folded with accents removed ("Español" -> "espanol"): the one accent folding."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold(text: str) -> str:
    """Lower-case, strip accents and punctuation: the key form of a name or title."""
    return collapse_whitespace(re.sub(r"[^\w\s]|_", " ", fold_accents(text)))


def singular(word: str) -> str:
    """A folded word's key without its plural: "mysteries" and "mystery" -> "mystery".

    A key, not a word: a final 's' goes, then a final "ie" becomes "y", so "zombies" and
    "zombie" share "zomby" just as "mysteries" and "mystery" share "mystery".
    """
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("ie"):
        word = word[:-2] + "y"
    return word
