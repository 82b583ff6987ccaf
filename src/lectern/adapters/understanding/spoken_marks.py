"""Punctuation said aloud: a dictated request's "full stop", "comma", "question mark".

Voice typing writes the marks a speaker says as words: "remove the book from summer full
stop", "please make a list called grandchildren full stop", "is this one very long full stop
how many pages". Read as words they became a book ("full stop" removed from Summer), a list's
name ("grandchildren full stop") or the tail of a title that hid the next request. Each said
mark, in lower case after a word, is written as the mark it names; typed after a comma
("It's Conan Doyle's book, full stop.") it is emphasis and is left as it stands. No catalog title
holds these words but "period", which is a word of its own too ("the Tudor period"): it is a
mark only at the very end of a request for a change ("rate Dune five stars period").
"""

from __future__ import annotations

import re

_MARKS = {
    "full stop": ".",
    "fullstop": ".",
    "question mark": "?",
    "exclamation mark": "!",
    "exclamation point": "!",
    "comma": ",",
    "semicolon": ";",
    "new line": ".",
    "new paragraph": ".",
    "next line": ".",
}
_SAID = "|".join(re.escape(word).replace(r"\ ", r"\s+") for word in _MARKS)
_MARK_SAID = re.compile(rf"(?<=[\w'’)])(?P<comma>\s*,)?\s+(?P<mark>{_SAID})(?=$|[\s.,!?;:—–-])")
"""A mark said after a word, in lower case as dictation writes it (no flag: "Full Stop" is a
name someone typed)."""
_PERIOD_AT_END = re.compile(r"(?<=[\w'’)])\s+period\s*[.!]*\s*$")
_CHANGE = re.compile(
    r"^\s*(?:(?:please|pls|now|ok(?:ay)?|and|then|so|can\s+you|could\s+you)[\s,]+)*"
    r"(?:add|put|pop|stick|remove|take|delete|rate|give|rename|create|make|start|move|drop)\b",
    re.I,
)
"""A request for a change: "period" at its end is the speaker's full stop."""


_NAMED_AS_A_THING = re.compile(
    r"\b(?:a|an|the|one|no|this|that|each|every|any|extra|missing|serial|oxford|big|huge|"
    r"whole|entire|his|her|their|my|your|our)$",
    re.I,
)
"""Words before a mark's name that make it the thing, not the mark ("come to a full stop",
"a question mark over it", "a new line of books", "use the serial comma")."""


def _written(found: re.Match[str]) -> str:
    before = found.string[: found.start()].rstrip()
    if found["comma"] or _NAMED_AS_A_THING.search(before):
        # "..., full stop": typed for emphasis, read as it stands; "a full stop": the thing
        return found.group(0)
    return _MARKS[" ".join(found["mark"].split())]


_KEPT = re.compile(r"[:\"“”‘]|\b(?:that|saying|called|named|titled)\b", re.I)
"""Where a text the reader wants kept may start (a comment, a title, a list's name): its
words are theirs, "the trailing comma", "the grace period", "new line characters"."""
_NAMING = re.compile(r"called|named|titled", re.I)
_ENDING_MARK = re.compile(
    r"(?<=[\w'’)])\s+(?P<mark>full\s+stop|fullstop|question\s+mark|exclamation\s+(?:mark|point)|"
    r"new\s+paragraph|(?:new|next)\s+line(?=\s+(?:and\s+|then\s+)?(?:add|put|pop|stick|remove|"
    r"take|delete|rate|give|rename|create|make|move|drop)\b))(?=$|\s)"
)
"""A mark no name holds after a name ("a list called grandchildren full stop"); "new line"
only before the next request ("called gifts new line add emma to it")."""


def marks_written(text: str) -> str:
    """`text` with the punctuation said aloud written as punctuation; else `text` itself.

    Only before a kept text starts (a colon, a quote, "that", "called"); a name after
    "called" loses only a mark no name holds, said at its very end.
    """
    if not re.search(rf"\b(?:{_SAID}|period)\b", text):
        return text
    kept = _KEPT.search(text)
    head, tail = (text[: kept.start()], text[kept.start() :]) if kept else (text, "")
    if kept is not None and _NAMING.fullmatch(kept.group(0)):
        tail = _ENDING_MARK.sub(lambda found: _MARKS[" ".join(found["mark"].split())], tail)
    written = _MARK_SAID.sub(_written, head) + tail
    if _CHANGE.match(written) and not kept:
        written = _PERIOD_AT_END.sub(".", written)
    # a mark said twice or after one typed ("summer. full stop") is one mark
    written = re.sub(r"([.,!?;])(?:\s*[.,;])+(?=\s|$)", r"\1", written)
    written = re.sub(r",(?=\s*$)", "", written)
    return written.strip()
