"""Who a workspace change is for, read from the message and the organization's members.

"give it to bob", "could bob pick up the hunt", "-> bob": a cue names the person. One asked
to take the task who is no member ("could dave pick up the hunt? bob's swamped") is asked
about, never swapped for another name the message gives a reason with.
"""

from __future__ import annotations

import re

from lectern.adapters.understanding.mentions import Names, resolve_person
from lectern.adapters.understanding.slots import REFUSING

_PERSON_CUE = re.compile(
    r"\b(?:to|for|give\s+(?:it\s+)?to|over\s+to)\s+(?P<p>[A-Za-z][\w.-]*(?:\s+[A-Z][\w.-]*)?)"
    r"|^(?:could|can|let|should|make|put)?\s*(?P<p2>[a-z][\w.-]*)\s+(?:pick up|take|own|do|will|"
    r"should|responsible|on)\b|\b(?:put|let|make)\s+(?P<p3>[a-z][\w.-]*)\s+(?:on|own|"
    r"responsible|take|do)\b|->\s*(?P<p4>\w+)",
    re.I,
)

_NO_NAME = re.compile(r"you|we|i|me|us|y'?all|u|it|this|that|him|her|them", re.I)
"""Words in a cue's place that name nobody new ("could you take ...", "put it on bob")."""
_ASKED_TO_TAKE = re.compile(r"\s(?:pick\s+up|take|own|do|will|should|responsible)$", re.I)
"""A cue that asks someone to take the task ("could dave pick up"), not "drill on bob"."""


_OWNERS = re.compile(r"['’]s?\b")
_LET_GO_BEFORE = re.compile(rf"\b(?:{REFUSING}|without|except)\s+(?:\w+\s+){{0,2}}$", re.I)
_LET_GO_AFTER = re.compile(
    r"^\s+(?:is|['’]s|was|has\s+been|got)?\s*(?:off|no\s+longer|not)\b|^\s+(?:any\s*more|no\s+more)\b",
    re.I,
)
"""A person the words take a task from ("doesn't need bob", "bob is off the hunt")."""
"""A possessive after a name ("bob's", "James'")."""


def person_in(text: str, names: Names, reader: str | None, *, owners: bool = True) -> str | None:
    """The member a change is for, or None when the one asked to take it is no member.

    The one a cue names ("to bob", "could bob take"), else the first member named anywhere;
    with `owners` False, not one named as whose task it is ("bob's patch": no assignee).
    """
    for found in _PERSON_CUE.finditer(text):
        mention = next((g for g in found.groups() if g), "")
        person = resolve_person(mention, names, reader)
        if person.name is not None:
            return person.name
        asked = (found.group("p2") or found.group("p3")) and _ASKED_TO_TAKE.search(found.group(0))
        if asked and not _NO_NAME.fullmatch(mention):
            # "could dave pick up the hunt? bob's swamped": the one asked to take it is no
            # member; never another name the message gives a reason with (asked instead)
            return None
    for found in re.finditer(r"[A-Za-z]+", text):
        if not owners and _OWNERS.match(text, found.end()):
            continue  # "bob's check point patch": whose task it is, not who is to take it
        if not owners and (
            _LET_GO_BEFORE.search(text[: found.start()]) or _LET_GO_AFTER.match(text[found.end() :])
        ):
            continue  # "the hunt doesn't need bob anymore", "bob is off the hunt": not to him
        person = resolve_person(found.group(0), names, None)
        if person.name is not None:
            return person.name
    return None
