"""Where a free text the reader says (a title, a comment, a resolution, a reason) ends.

A free text is the reader's own words, but not all the words after it are: "add a task to
draft the email template, yeah, and put it on bob" has the title "draft the email template";
"resolve the vendor blocker, noting the window was granted, and subsequently assign the
patching to me" resolves with "noting the window was granted" and asks a second change. A
text ends where a new request starts: a change verb with its object after a joint ("...,
close the drill", "... and then give the hunt to bob", "... and subsequently assign ..."),
or the new task's own field said of it ("put it on bob", "it should be assigned to Bob").
Fillers ("yeah", "like", "you know" between commas) are no part of it.

A clock time ("saturday 02:00", "thu 22:00 utc") is no delimiter: its colon is written with
a look-alike (U+2236) while the message is read, so no rule takes it for the colon that
leads a text, and it is written back as a colon in what is proposed (`clock_restored`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lectern.adapters.understanding.mentions import resolve
from lectern.adapters.understanding.workspace_parts import CHANGE_VERB

RATIO = "\u2236"
"""The colon of a clock time while the message is read."""
_CLOCK = re.compile(r"(?<![\[\d:T])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?![\d:\]])")
"""A clock time ("02:00", "9:30"); never a log's "[14:02]" nor "12:00:05"."""


def clock_masked(text: str) -> str:
    """`text` with the colon of each clock time written as a look-alike that leads nothing."""
    return _CLOCK.sub(lambda m: f"{m['h']}{RATIO}{m['m']}", text)


def clock_restored(value: Any) -> Any:
    """A proposed argument with its clock times written with a colon again."""
    if isinstance(value, str):
        return value.replace(RATIO, ":")
    if isinstance(value, list):
        return [clock_restored(v) for v in value]
    if isinstance(value, dict):
        return {k: clock_restored(v) for k, v in value.items()}
    return value


_FILLER = re.compile(
    r"\s*,\s*(?:yeah|yep|yup|like|you\s+know|i\s+mean|basically|kinda|sorta|so\s+yeah|ok|okay)"
    r"\s*(?=,|\s+and\b|\s*$)",
    re.I,
)
"""A word said while thinking, between commas ("..., yeah, and put it on bob")."""


def fillers_dropped(text: str) -> str:
    """`text` without the fillers said between its commas."""
    return _FILLER.sub("", text)


_PERSON = r"(?:me|myself|him|her|them|[A-Za-z][\w.-]*(?:\s+[A-Z][\w.-]*)?)"
OWN_FIELD = re.compile(
    r"\s*[,;.]?\s*(?:and\s+)?(?:then\s+)?(?:also\s+)?(?:please\s+)?(?:"
    rf"(?:put|hand|give|assign|pass)\s+(?:it|this|that)\s+(?:over\s+)?(?:on|to)\s+(?P<a>{_PERSON})"
    r"|(?:it|this|that)\s+(?:should|must|will|can|needs\s+to|has\s+to|is\s+to)\s+be\s+"
    rf"(?:assigned|given|handed(?:\s+over)?)\s+to\s+(?P<a2>{_PERSON})"
    rf"|(?:have|let)\s+(?P<a3>{_PERSON})\s+(?:own|take|do|handle)\s+(?:it|this|that)"
    # "..., high, bob owns it", "bob will take it", "owned by bob"
    rf"|(?!(?:it|this|that|which|who|he|she|they|we|i|you)\b)(?P<a4>{_PERSON})\s+"
    r"(?:owns|will\s+own|takes|will\s+take|handles|will\s+handle|is\s+on|['’]s\s+on)\s+"
    r"(?:it|this|that)"
    rf"|owned\s+by\s+(?P<a5>{_PERSON})"
    r")\b(?=\s*(?:[,;.!]|$|\s+and\b))",
    re.I,
)
"""The new task's assignee said of "it" after its title ("put it on bob", "it should be
assigned to Bob", "have bob take it", "bob owns it", "owned by bob")."""

IT_FIELD = re.compile(
    r"\b(?:make|set|mark|have)\s+(?:it|this)\s+(?:as\s+)?(?=(?:a\s+)?(?:low|medium|high|urgent)\b|"
    r"due\b|priority\b)",
    re.I,
)
"""The verb of a field said of the new task ("..., make it high priority"): its field stays."""

_LEAD = (
    r"(?:\s*[,;.]\s*(?:and\s+)?|\s+and\s+(?=(?:then|subsequently|afterwards|after\s+that|also|"
    r"next|finally)\b))"
    r"(?:(?:then|subsequently|afterwards|after\s+that|also|next|finally)\s*,?\s+)*"
    r"(?:(?:please|pls|kindly)\s+|(?:can|could|would)\s+you\s+(?:please\s+)?)?"
)
_NEXT_REQUEST = re.compile(
    _LEAD + rf"(?={CHANGE_VERB}\s+(?:it|this|that|the|a|an|my|our|his|her|their|him|them|me|"
    r"[\"“'‘]|\w+['’]s\b|(?:on|to|for)\s+the\b))",
    re.I,
)
"""A joint and then a change verb with its object: a request of its own begins."""


def text_end(words: str) -> int:
    """Where a free text ends: the start of a new request or of a field of "it", else its end.

    Quoted words end nothing ("...'close the drill'..." is what was quoted).
    """
    masked = re.sub(
        r"[\"“‘][^\"“”‘’]*[\"”’]|(?<!\w)'[^']+'(?!\w)", lambda m: "x" * len(m[0]), words
    )
    ends = [m.start() for m in (_NEXT_REQUEST.search(masked), OWN_FIELD.search(masked)) if m]
    return min(ends) if ends else len(words)


_SHOWN_BLOCKER = re.compile(r"^\s*\d+\.\s+(?P<b>.+?)\s+(?:\([^)]*\)\s+)?\[blocker:[^\]]+\]", re.M)
_IT_RESOLVED = re.compile(
    r"^(?P<v>\W*(?:(?:so|and|then|now|just|please|pls|ok(?:ay)?)[\s,]+)*(?:resolve|close|clear|lift))\s+"
    r"(?:it|that(?:\s+one)?|this(?:\s+one)?)\b",
    re.I,
)


def shown_blocker_named(text: str, last_reply: str) -> str:
    """A resolution of "it" said after a reply that showed one blocker, with it named.

    "what's blocking us" ... "that got sorted, vendor gave us sunday. resolve it": the one
    blocker the reply listed is "it". Several shown, or none, leave the request as said.
    """
    shown = _SHOWN_BLOCKER.findall(last_reply)
    found = _IT_RESOLVED.match(text)
    if len(shown) != 1 or found is None:
        return text
    return f"{found['v']} the {shown[0]} blocker{text[found.end() :]}"


_TASK_LEAD = re.compile(
    r"^\s*(?:(?:t|task|todo|to-?do|new\s+task)\s*:\s*|(?=(?:create|add|make|open|new)\s+(?:a\s+|an\s+)?"
    r"(?:new\s+)?task\b))",
    re.I,
)
_SIGIL = re.compile(
    r"(?<!\S)(?:@(?P<who>[A-Za-z][\w.-]*)|!(?P<level>low|medium|high|urgent)|\+(?P<where>[\w-]+))"
    r"(?=[\s,.;]|$)",
    re.I,
)
"""A tracker's shorthand for a field: "@bob" the assignee, "!high" the priority, "+vpn" the
project."""


def shorthand_fields(text: str, projects: Sequence[str]) -> str:
    """A new task typed with a tracker's shorthand, its fields said in words after its title.

    "t: rotate certs on the vpn gateways @bob !high due fri +vpn": the shorthand that sets a
    field is no part of the title; a "+word" naming no stored project is left as typed. Other
    messages are left as typed.
    """
    lead = _TASK_LEAD.match(text)
    if lead is None or not _SIGIL.search(text):
        return text
    fields: list[str] = []

    def field(found: re.Match[str]) -> str:
        if found["who"]:
            fields.append(f"assign it to {found['who']}")
        elif found["level"]:
            fields.append(f"{found['level'].lower()} priority")
        else:
            project = resolve(found["where"].replace("-", " "), list(projects)).name
            if project is None:
                return found.group()
            fields.append(f"in the {project} project")
        return ""

    rest = " ".join(_SIGIL.sub(field, text[lead.end() :]).split()).strip(" ,;")
    head = "create a task: " if lead.group() else ""
    return ", ".join([f"{head}{rest}", *fields]) if fields else text
