"""A heading before a message's requests that names nothing stored: no part of them.

"end of day stuff: comment on the patch ..., move the netscaler review back ...", "couple of
things: close the drill and give the hunt to bob", "before I log off - put the runbook in
review": a few words and a colon (or a dash) that say when or why, then the requests, each
led by its verb. The heading had been read with the first request ("end of day stuff:
comment on ..." was no comment the rules knew) and the message fell to one reading. It is
dropped only when it names no stored task, project, document or member and is no field's
label ("assign: me.", "runbook: unassign.", "comment: ..." stay for the clipped readers), and
what follows starts with a request's verb.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, find_in
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB

_HEADED = re.compile(
    r"^(?P<heading>[^:\n\"“'‘?!.]{2,40}?)\s*(?::|\s[-–—]+)\s+"
    r"(?P<rest>(?:(?:can|could|would)\s+you\s+|please\s+|pls\s+)?"
    rf"(?:{CHANGE_VERB}|show|list|find|search|tell|get|give)\b.+)$",
    re.I | re.S,
)
_FIELD_OR_VERB = re.compile(
    rf"^\s*{CHANGE_VERB}\b|\b(?:task|project|blocker|comment|note|title|due|priority|status|"
    r"assignee|owner|doc|document|new|re|fwd?|subject)\b",
    re.I,
)
_WORD = re.compile(r"[a-z0-9][a-z0-9'’-]{2,}", re.I)
_PLAIN = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "this",
        "that",
        "stuff",
        "things",
        "thing",
        "couple",
        "few",
        "some",
        "today",
        "day",
        "end",
        "before",
        "after",
        "quick",
        "ones",
        "items",
        "list",
    ]
)


def _names_stored(heading: str, names: Names) -> bool:
    """Whether a word of the heading (other than everyday ones) is in a stored name."""
    stored = {
        word.casefold()
        for kind in ("task", "project", "document", "member", "blocker")
        for name in names.of(kind)
        for word in _WORD.findall(name)
    }
    said = {w.casefold() for w in _WORD.findall(heading)} - _PLAIN
    if said & stored:
        return True
    # "checkpoint patching": a name's words spelt loosely ("Check Point", "Patch")
    things = [n for kind in ("task", "project", "document") for n in names.of(kind)]
    return find_in(heading, things).name is not None


def without_heading(text: str, names: Names) -> str:
    """`text` without a heading that names nothing before requests led by their verbs."""
    found = _HEADED.match(text.strip())
    if found is None:
        return text
    heading = found.group("heading")
    if _FIELD_OR_VERB.search(heading) or _names_stored(heading, names):
        return text
    return found.group("rest")
