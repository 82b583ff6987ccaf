"""A linked document named by some of its title's words, as the object of a look-up.

"pull up exploit public facing application", "details on external remote services doc",
"show me the linked document about the citrix netscaler buffer overflow": the look-up verb,
then words that are all a stored document's (its id or title, spelt loosely), with what
only says "a document" ("the linked doc about", "that one") around them. Every word said
must be the document's, so "details on the vpn project" stays a project's details.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, covered, resolve

_LOOKUP = re.compile(
    r"^(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?"
    r"(?:(?:show|give|get|bring|pull)(?:\s+me)?(?:\s+up)?|open(?:\s+up)?|read|fetch|"
    r"(?:the\s+)?details?|info(?:rmation)?)\s+"
    r"(?:(?:the\s+)?(?:details?|info(?:rmation)?|summary)\s+(?:of|on|for|about)\s+|"
    r"(?:of|on|for|about)\s+)?(?P<said>.+?)\W*$",
    re.I,
)
_DOCUMENT_WORDS = re.compile(
    r"^(?:the|a|an|that|this|our)\s+|"
    r"^(?:linked\s+|attached\s+)?(?:document|doc|advisory|write-?up|record|page)\s+(?:about|on|for|"
    r"called|named|titled)\s+(?:the\s+)?|"
    r"\s+(?:one|document|doc|advisory|write-?up|page)$|\s+please$",
    re.I,
)


def document_named(text: str, names: Names) -> str | None:
    """The stored document a look-up names by its title's words, or None."""
    documents = names.of("document")
    found = _LOOKUP.match(text) if documents else None
    if found is None:
        return None
    said = found.group("said")
    for _ in range(4):  # "the linked document about the X one": each filler in turn
        said = _DOCUMENT_WORDS.sub("", said).strip()
    said = said.replace("-", " ")
    if len(said.split()) < 2:
        return None  # one word ("it", "vpn") names no document on its own
    document = resolve(said, documents).name
    if document is None or covered(said, document.replace("-", " ")) < 1.0:
        return None
    others = names.of("task") + names.of("project")
    rival = resolve(said, others).name if others else None
    if rival is not None and covered(said, rival) == 1.0:
        return None  # the words are a task's or a project's as much: not this reader's
    return document


_CALLED_A_DOCUMENT = re.compile(
    r"\b(?:the|a|that|this|our)\s+(?P<d>(?:(?!\b(?:the|of|on|in|about)\b)[\w.:&'’-]+\s+)"
    r"{0,9}?[\w.:&-]+)\s+(?:advisory\s+)?(?:document|doc|advisory|write-?up|record)s?\b",
    re.I,
)


def said_document(text: str) -> str | None:
    """The words a message calls a document by ("the External Remote Services doc"), or None.

    For a reader whose documents are not listed by name: the tools match a document's title
    by its words, so the words before "document" (never the word itself) are the reference.
    """
    found = _CALLED_A_DOCUMENT.search(text)
    if found is None:
        return None
    said = found.group("d").strip()
    if said.casefold() in ("this", "that", "the", "it", "a", "linked", "attached"):
        return None
    return said
