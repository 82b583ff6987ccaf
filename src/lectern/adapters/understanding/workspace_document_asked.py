"""A document asked about by words a task shares, or named again after the question.

"what does the citrix netscaler record say, the CVE-2023-4966 one", "what's in the check point
writeup? the T1190 one": a question about a thing, then an afterthought that says which one
by its id or its title's words. And "what does the citrix netscaler record say": the words
are all a stored document's, while a task holds only some of them ("Review NetScaler session
tokens" has no "citrix"), so the document is meant. Only a question that asks what a thing
says or holds; never a change ("comment on the netscaler record").
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, covered, find_in

_ASKS_WHAT_IT_SAYS = re.compile(
    r"^(?:(?:so|ok|okay|and|sorry)\W+)*(?:"
    r"what\s+(?:does|did|do)\s+(?:the\s+|our\s+|that\s+)?(?P<says>.+?)\s+(?:say|says|recommend|"
    r"tell\s+us)|"
    r"what(?:['’]?s|\s+is)\s+in\s+(?:the\s+|our\s+|that\s+)?(?P<in>.+?)|"
    r"(?:show|open|pull\s+up|bring\s+up|read)(?:\s+me)?\s+(?:the\s+|our\s+|that\s+)?(?P<open>.+?))"
    r"(?:\s*[,?.;:-]+\s*(?:i\s+mean\s+|i\s+think\s+)?(?:the|that)\s+(?P<after>[^,?.;]+?)\s+one)?"
    r"\W*$",
    re.I,
)
_KIND_WORD = re.compile(
    r"\s+(?:record|document|doc|advisory|write-?up|entry|page|report|one)s?$", re.I
)
_NOT_A_DOCUMENT = re.compile(r"\b(?:task|ticket|project|blocker|list|book)s?\b", re.I)


def _stored_id(name: str) -> str | None:
    """A document's id: what stands before the colon of its stored title ("T1133")."""
    head, colon, _ = name.partition(":")
    return head.strip() if colon and re.fullmatch(r"[\w.-]+", head.strip()) else None


def _document_by(words: str, documents: list[str]) -> str | None:
    """The one document whose id is said in `words`, or whose title holds every word."""
    said = words.casefold()
    by_id = [
        d
        for d in documents
        if (i := _stored_id(d))
        and re.search(rf"(?<![\w-]){re.escape(i.casefold())}(?![\w-])", said)
    ]
    if len(by_id) == 1:
        return by_id[0]
    if by_id:
        return None
    plain = _KIND_WORD.sub("", words.strip()).strip()
    if len(plain.split()) < 2:
        return None  # one word ("netscaler") may be a task's as much
    found = find_in(plain, documents).name
    # "public facing" is "Public-Facing": a hyphen joins words a speaker says apart
    spelt = found.replace("-", " ") if found is not None else ""
    return found if found is not None and covered(plain.replace("-", " "), spelt) == 1.0 else None


def document_asked(text: str, names: Names) -> str | None:
    """The stored document a question about what it says means, or None.

    The afterthought ("..., the CVE-2023-4966 one") decides when it names one document; else
    the words asked about, when every one of them is that document's and no task or project
    holds them all.
    """
    documents = names.of("document")
    found = _ASKS_WHAT_IT_SAYS.match(text.strip()) if documents else None
    if found is None:
        return None
    thing = found.group("says") or found.group("in") or found.group("open") or ""
    if _NOT_A_DOCUMENT.search(thing):
        return None
    after = found.group("after")
    if after is not None:
        return _document_by(after, documents)
    plain = _KIND_WORD.sub("", thing.strip()).strip()
    document = _document_by(thing, documents)
    if document is None:
        return None
    rivals = names.of("task") + names.of("project")
    if any(covered(plain, rival) == 1.0 for rival in rivals):
        return None  # "what's in the vpn gateway hardening one": a project's words too
    return document
